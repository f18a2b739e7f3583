import MapData

/// Transliteration of text into what a cell can show: one column per character, and ASCII stand-ins
/// (accents dropped, `→` written `->`, `°` written `d` before minutes and dropped before a
/// hemisphere: `24d56'10"E`, `60.1699N`) for terminals without UTF-8. The width table is written
/// here rather than asked of glibc's `wcwidth`, which depends on the locale: `render` must print the
/// same screen whatever `LANG` is.
public enum Transliteration {
    static let asciiReplacements: [Character: String] = [
        "′": "'", "″": "\"", "×": "x", "→": "->", "–": "-", "—": "-", "│": "|", "├": "|",
        "┤": "|", "─": "-", "·": ".", "░": ":", "≈": "~", "↑": "^", "↓": "v", "←": "<", "↔": "<->",
        "┌": "+", "┐": "+", "└": "+", "┘": "+", "©": "(c)",
    ]

    /// `text` as the glyph mode can show it; in ASCII mode accents are dropped and others become `?`.
    public static func screenText(_ text: String, ascii: Bool) -> String {
        var out = ""
        // A degree sign is written once the next character says which form reads.
        var degree = false
        for ch in text {
            if ascii {
                if degree {
                    degree = false
                    if ch.isASCII && ch.isNumber { out += "d" }
                }
                if ch == "°" {
                    degree = true
                } else if ch.isASCII {
                    out.append(ch)
                } else if let r = asciiReplacements[ch] {
                    out += r
                } else {
                    let folded = NameFolding.fold(String(ch))
                    out += folded.allSatisfy(\.isASCII) && !folded.isEmpty ? folded : "?"
                }
            } else {
                out.append(isNarrow(ch) ? ch : "?")
            }
        }
        return out
    }

    /// True for characters a terminal shows one column wide (Latin, Greek, Cyrillic, box drawing…).
    static func isNarrow(_ ch: Character) -> Bool {
        guard let first = ch.unicodeScalars.first else { return false }
        let v = first.value
        return v >= 0x20 && (v < 0x1100 || (0x1E00...0x1FFF).contains(v) || (0x2000...0x2BFF).contains(v))
    }
}
