/// Text an attacker puts in a name, a property, a tag or a file name to act on the terminal of whoever
/// looks at it: escape sequences termmap never writes itself (OSC 52 sets the clipboard, OSC 0 the
/// title, OSC 8 makes a link, DSR asks the terminal to type, DCS and APC), C1 controls (U+009B is a CSI
/// in one character), bidirectional overrides and isolates, zero-width characters, lone combining
/// marks, and wide characters that would shift a row. For the tests of `SafeText` and the fuzzer.
public enum HostileText {
    /// The corpus.
    public static let corpus: [String] = [
        "\u{1B}]52;c;SEFDS0VE\u{07}Main Street",
        "\u{1B}]52;c;SEFDS0VE\u{1B}\\Side Street",
        "\u{1B}]0;pwned title\u{07}Title Road",
        "\u{1B}]8;;https://evil.example/\u{1B}\\link\u{1B}]8;;\u{1B}\\",
        "\u{1B}[2J\u{1B}[1337;1337HCleared",
        "ask\u{1B}[6n\u{1B}[c",
        "bell\u{07}\u{07}\u{07}",
        "\u{1B}P1$tq\u{1B}\\dcs",
        "\u{1B}_apc\u{1B}\\",
        "\u{9B}31337m c1 csi",
        "\u{9D}0;c1 title\u{9C}",
        "\u{90}qdcs\u{9C}",
        "file\u{202E}txt.exe",
        "\u{2066}isolated\u{2069}\u{2067}rtl\u{2069}",
        "\u{200E}lrm\u{200F}rlm\u{061C}alm",
        "zero\u{200B}width\u{FEFF}bom\u{2060}joiner",
        "\u{0301}\u{0301}lone marks",
        "\u{200D}\u{200C}lone joiners",
        "tab\there\nnewline\rreturn",
        "del\u{7F}\u{85}nel",
        "line\u{2028}separator\u{2029}",
        "wide ⌚⭐ 東京 서울 🗺",
        "東京都千代田区丸の内一丁目",
        "emoji 👩‍👩‍👧 🇫🇮 ❤️",
        "سلام\u{200C}دنیا",
    ]

    /// The corpus as XML text can carry it (XML 1.0 has no C0 controls but tab, line feed and carriage
    /// return, not even as references): a C0 control becomes its C1 twin's neighbour, U+009B for ESC.
    public static let xmlCorpus: [String] = corpus.map { text in
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { s in
                    s.value == 0x1B ? "\u{9B}" : (s.value < 0x20 && s != "\t" && s != "\n" && s != "\r") ? "\u{9C}" : s
                }))
    }

    /// True for a scalar a terminal must never be sent as text by termmap: C0 (but line feed and
    /// carriage return, which the painter sends itself), DEL, C1, and the invisible and reordering
    /// characters `SafeText` stops.
    public static func actsOnTerminal(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        return v < 0x20 && v != 0x0A && v != 0x0D && v != 0x1B || (0x7F...0x9F).contains(v) || v == 0x2028
            || v == 0x2029
            || [0x061C, 0x200B, 0x200E, 0x200F, 0xFEFF, 0x2060].contains(v) || (0x202A...0x202E).contains(v)
            || (0x2066...0x2069).contains(v)
    }

    /// What is wrong with bytes a screen was sent, or nil: any escape sequence other than those
    /// `TerminalPainter` writes (CSI with the finals H C m J K X P @ r and plain numbers, IND, RI), any
    /// BEL or other control but CR and LF, any C1 control or character `actsOnTerminal` names, invalid UTF-8.
    public static func foreignSequence(in bytes: [UInt8]) -> String? {
        guard let text = String(validating: bytes, as: UTF8.self) else { return "invalid UTF-8" }
        let scalars = Array(text.unicodeScalars)
        var i = 0
        while i < scalars.count {
            let s = scalars[i]
            if s.value == 0x1B {
                guard i + 1 < scalars.count else { return "a lone ESC at the end" }
                let next = scalars[i + 1]
                if next == "D" || next == "M" {
                    i += 2
                    continue
                }
                guard next == "[" else { return "ESC \(next) (not a sequence termmap writes)" }
                var j = i + 2
                while j < scalars.count, ("0"..."9").contains(scalars[j]) || scalars[j] == ";" { j += 1 }
                guard j < scalars.count else { return "a CSI cut short" }
                guard "HCmJKXP@r".unicodeScalars.contains(scalars[j]) else {
                    return "CSI \(String(String.UnicodeScalarView(scalars[(i + 2)...j])))"
                }
                i = j + 1
                continue
            }
            if actsOnTerminal(s) { return "U+\(String(s.value, radix: 16, uppercase: true)) sent raw" }
            i += 1
        }
        return nil
    }
}
