/// The one gate between text that came from outside (files, tiles, servers, OpenStreetMap tags, bookmark
/// names, configuration values, file names) and a terminal: nothing in it may move the cursor, recolour,
/// set the clipboard or the window title, reorder what follows or hide itself. Control characters (C0,
/// DEL, C1: an ESC or a C1 CSI starts a sequence), line and paragraph separators, bidirectional
/// controls (U+061C, U+200E–U+200F, U+202A–U+202E, U+2066–U+2069: the "Trojan Source" reorderings,
/// CVE-2021-42574) and zero-width or other invisible format characters become visible: `�` on the
/// screen, `\u{…}` in a command's output. A joiner inside a character (Persian's ZWNJ, the ZWJ of an
/// emoji sequence, an emoji flag's tags) is text and stays; standing alone it is made visible too.
public enum SafeText {
    /// What a cell shows in place of a character that must not reach the terminal, or whose width
    /// terminals disagree on.
    public static let placeholder: Unicode.Scalar = "\u{FFFD}"
    /// What a combining mark with nothing to combine with stands on (as the Unicode charts show one).
    public static let markBase: Unicode.Scalar = "\u{25CC}"

    /// True for a scalar that must never reach a terminal as it is; `leading`: it begins a character
    /// (a format character joining two others is text, alone it is invisible).
    @inlinable
    public static func isUnsafe(_ s: Unicode.Scalar, leading: Bool) -> Bool {
        let v = s.value
        if v >= 0x20 && v < 0x7F { return false }
        switch v {
        case 0..<0x20, 0x7F...0x9F: return true  // C0, DEL, C1
        case 0x2028, 0x2029: return true  // line and paragraph separators
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true  // bidirectional controls
        case 0x200B, 0x2060...0x2064, 0xFEFF, 0x180E: return true  // zero-width spaces and invisible operators
        case 0xA0..<0x300: return v == 0xAD  // Latin: only the soft hyphen is invisible
        default: return leading && s.properties.generalCategory == .format
        }
    }

    /// What one cell (or two) shows of `character`: its first scalar and its columns, a placeholder for
    /// a character that is unsafe or of unknown width, a combining mark alone on a dotted circle.
    @inlinable
    public static func shown(_ character: Character) -> (scalar: Unicode.Scalar, columns: Int) {
        guard let first = character.unicodeScalars.first, !isUnsafe(first, leading: true) else {
            return (placeholder, 1)
        }
        switch CharacterWidth.of(first) {
        case 1?: return (first, 1)
        case 2?: return (first, 2)
        case 0?: return (markBase, 1)
        default: return (placeholder, 1)
        }
    }

    /// The columns `character` takes once shown.
    @inlinable
    public static func shownColumns(_ character: Character) -> Int { shown(character).columns }

    /// The columns of `scalar` when it is plain: a character of its own wherever it stands (nothing
    /// before it joins it, it joins nothing after it), safe, and one or two columns wide. Printable
    /// ASCII, Latin to U+02FF, Greek and Cyrillic letters, general punctuation, arrows, box drawing and
    /// shapes, kana and CJK ideographs, Hangul syllables (none of them a mark, a joiner or a control: a
    /// test checks every scalar against `isUnsafe` and `CharacterWidth`). Nil for any other. Most names
    /// are all plain, and are shown as they are without breaking them into characters (a grapheme break
    /// costs a table lookup a scalar, at every label of every frame).
    @inlinable
    public static func plainWidth(_ scalar: Unicode.Scalar) -> Int? {
        let v = scalar.value
        switch v {
        case 0x20..<0x7F: return 1
        case 0xA0..<0x300: return v == 0xAD ? nil : 1  // the soft hyphen is invisible
        case 0x370..<0x483, 0x48A..<0x530, 0x2010..<0x2028, 0x2030..<0x205F, 0x2190..<0x2200, 0x2500..<0x2600,
            0x3040..<0x3099, 0x309B..<0xA000, 0xAC00..<0xD7A4:
            guard let w = CharacterWidth.of(scalar), w > 0 else { return nil }
            return w
        default: return nil
        }
    }

    /// The columns `text` takes when every scalar of it is plain (`plainWidth`): then it is shown as it
    /// is, a scalar a character. Nil when some scalar is not (the text is shown character by character).
    @inlinable
    public static func plainColumns(_ text: some StringProtocol) -> Int? {
        var n = 0
        for s in text.unicodeScalars {
            guard let w = plainWidth(s) else { return nil }
            n += w
        }
        return n
    }

    /// `text` as the screen may show it: each character safe and of a known width (`shown`), the
    /// joiners and marks inside a character kept.
    @inlinable
    public static func forScreen(_ text: some StringProtocol) -> String {
        guard plainColumns(text) == nil else { return String(text) }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for ch in text {
            let (scalar, _) = shown(ch)
            guard scalar == ch.unicodeScalars.first else {
                out.unicodeScalars.append(scalar)
                continue
            }
            var first = true
            for s in ch.unicodeScalars where first || !isUnsafe(s, leading: false) {
                out.unicodeScalars.append(s)
                first = false
            }
        }
        return out
    }

    /// `text` as a command's output or an error line may print it: every unsafe scalar written as
    /// `\u{1b}` (Swift's notation), the rest as it is. A line break in the text is one too: a line
    /// stays one line.
    public static func forLine(_ text: some StringProtocol) -> String {
        guard text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value >= 0x7F }) else { return String(text) }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for ch in text {
            var leading = true
            for s in ch.unicodeScalars {
                if isUnsafe(s, leading: leading) {
                    out += "\\u{" + String(s.value, radix: 16) + "}"
                } else {
                    out.unicodeScalars.append(s)
                }
                leading = false
            }
        }
        return out
    }

    /// `text` printed line by line as `forLine` prints a line: the line breaks termmap wrote between
    /// its own lines stay, anything else is made visible.
    public static func forLines(_ text: some StringProtocol) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { forLine($0) }.joined(separator: "\n")
    }
}
