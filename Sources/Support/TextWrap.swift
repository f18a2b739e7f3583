/// Text broken into lines at word boundaries, for panels and the command line's help.
public enum TextWrap {
    /// `text` in lines of at most `width` columns (as shown: wide characters count two), broken at
    /// spaces (runs of spaces become one). A word wider than a line has a line of its own (a link is
    /// not cut; a panel shortens it).
    public static func lines(_ text: String, width: Int) -> [String] {
        guard text.columns > width else { return [text] }
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.columns + 1 + word.columns > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        return lines + [line]
    }
}
