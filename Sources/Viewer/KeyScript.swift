/// `--keys` scripts: literal characters plus `<Enter>`, `<Esc>`, `<BS>`, `<Left>`, `<Right>`, `<Up>`,
/// `<Down>`, `<C-l>`, `<C-c>`, and `<lt>` for a literal `<`.
public enum KeyScript {
    static let names: [String: Key] = [
        "enter": .enter, "cr": .enter, "esc": .escape, "escape": .escape, "bs": .backspace, "backspace": .backspace,
        "left": .left, "right": .right, "up": .up, "down": .down, "lt": .char("<"), "space": .char(" "),
        "c-l": .ctrlL, "c-c": .ctrlC,
    ]

    /// The keys of a script, or the one-line reason it is malformed.
    public static func parse(_ script: String) -> Result<[Key], InputError> {
        var keys: [Key] = []
        var i = script.startIndex
        while i < script.endIndex {
            let ch = script[i]
            if ch == "<" {
                guard let close = script[i...].firstIndex(of: ">") else {
                    return .failure(InputError("--keys: unclosed '<' (write <lt> for a literal <)"))
                }
                let name = script[script.index(after: i)..<close].lowercased()
                guard let key = names[name] else {
                    return .failure(InputError("--keys: unknown key name <\(InputParsing.excerpt(name))>"))
                }
                keys.append(key)
                i = script.index(after: close)
            } else {
                keys.append(.char(ch))
                i = script.index(after: i)
            }
        }
        return .success(keys)
    }
}
