import MapData
import MapFormats
import Support

/// Transliteration of text into what cells can show: each character safe and of a known width
/// (`SafeText`, `CharacterWidth`: a two-column one keeps its two columns), and ASCII stand-ins (accents
/// dropped, `→` written `->`, `°` written `d` before minutes and dropped before a hemisphere:
/// `24d56'10"E`, `60.1699N`) for terminals without UTF-8, where anything unsafe or without a stand-in
/// is `?`.
public enum Transliteration {
    static let asciiReplacements: [Character: String] = [
        "′": "'", "″": "\"", "×": "x", "→": "->", "–": "-", "—": "-", "│": "|", "├": "|",
        "┤": "|", "─": "-", "·": ".", "░": ":", "≈": "~", "↑": "^", "↓": "v", "←": "<", "↔": "<->",
        "┌": "+", "┐": "+", "└": "+", "┘": "+", "©": "(c)",
    ]

    /// `text` as the glyph mode can show it; in ASCII mode accents are dropped and others become `?`.
    public static func screenText(_ text: String, ascii: Bool) -> String {
        guard ascii else { return SafeText.forScreen(text) }
        var out = ""
        // A degree sign is written once the next character says which form reads.
        var degree = false
        for ch in text {
            if degree {
                degree = false
                if ch.isASCII && ch.isNumber { out += "d" }
            }
            if ch == "°" {
                degree = true
            } else if let first = ch.unicodeScalars.first, SafeText.isUnsafe(first, leading: true) {
                out += "?"
            } else if ch.isASCII {
                out.append(ch)
            } else if let r = asciiReplacements[ch] {
                out += r
            } else {
                // Accents dropped; what folding leaves must be printable ASCII too.
                let folded = NameFolding.fold(String(ch))
                let printable = folded.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F }
                out += printable && !folded.isEmpty ? folded : "?"
            }
        }
        return out
    }
}
