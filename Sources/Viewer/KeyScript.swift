/// `--keys` scripts and tours' keys: literal characters, key names between `<` and `>` (`<Enter>`,
/// `<Esc>`, `<BS>`, `<Left>`, `<Right>`, `<Up>`, `<Down>`, `<C-l>`, `<C-c>`, `<Space>`, `<lt>` for a
/// literal `<`), and commands by their names (`<zoom-in>`, `<pan-left>`: `termmap help keys` lists them).
public enum KeyScript {
    /// The keystrokes of a script, or the one-line reason it is malformed; a name between `<` and `>`
    /// is a key's or one of `commands` (the built-in ones unless the session added more).
    public static func parse(
        _ script: String, commands: [Command] = Command.allCases
    ) -> Result<[Keystroke], InputError> {
        var keys: [Keystroke] = []
        var i = script.startIndex
        while i < script.endIndex {
            let ch = script[i]
            if ch == "<" {
                guard let close = script[i...].firstIndex(of: ">") else {
                    return .failure(InputError("--keys: unclosed '<' (write <lt> for a literal <)"))
                }
                let name = String(script[script.index(after: i)..<close])
                if let key = Key.named(name) {
                    keys.append(.key(key))
                } else if let command = Command.named(name, among: commands) {
                    keys.append(.command(command))
                } else {
                    return .failure(InputError("--keys: unknown key or command name <\(InputParsing.excerpt(name))>"))
                }
                i = script.index(after: close)
            } else {
                keys.append(.key(.char(ch)))
                i = script.index(after: i)
            }
        }
        return .success(keys)
    }
}
