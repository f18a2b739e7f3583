import Support

/// How the help is laid out on a map of `mapRows` rows and `cols` columns: its lines wrapped at word
/// boundaries to the box (a key's description goes on under its own column), lines a page, and pages.
/// When it does not fit at once, each page ends in a line saying that more follows, and a key's wrapped
/// description is never cut by a page's end. The state knows it (Space turns a page only when there is
/// one), and the renderer draws by it.
public struct HelpLayout: Equatable, Sendable {
    /// The help's lines as the box shows them.
    public let lines: [String]
    /// Lines a page at most.
    public let perPage: Int
    /// Where each page starts in `lines`.
    public let pageStarts: [Int]
    /// Pages.
    public var pages: Int { pageStarts.count }

    /// The layout of `keymap`'s help on a map of `mapRows` rows and `cols` columns.
    public init(_ keymap: Keymap, mapRows: Int, cols: Int) {
        // The box leaves a column either side of it and takes four for its borders and padding.
        lines = keymap.helpLines(width: max(20, cols - Self.margin))
        let count = lines.count
        // Two border rows (the title is written into the top one).
        let room = max(1, mapRows - 2)
        if count <= room {
            (perPage, pageStarts) = (count, [0])
        } else {
            perPage = max(1, room - 1)
            // A page ends before a whole key's lines: a line that goes on a description (it starts blank,
            // under the description's column) stays with the line above it, unless that would leave a
            // page with nothing else.
            var starts = [0]
            var next = perPage
            while next < count {
                var end = next
                while end > starts[starts.count - 1] + 1, lines[end].first == " " { end -= 1 }
                starts.append(end)
                next = end + perPage
            }
            pageStarts = starts
        }
    }

    /// The lines of page `page` (0-based, clamped to the pages there are).
    public func page(_ page: Int) -> ArraySlice<String> {
        let p = min(max(0, page), pages - 1)
        return lines[pageStarts[p]..<(p + 1 < pages ? pageStarts[p + 1] : lines.count)]
    }

    /// The columns a panel's text has fewer than the screen: a blank column either side of the box, its
    /// borders and their padding.
    public static let margin = 6
}

extension ViewerState {
    /// The help's layout on this state's screen.
    public var helpLayout: HelpLayout {
        HelpLayout(keymap, mapRows: max(1, terminalRows - Self.statusRows), cols: terminalCols)
    }
}

extension Keymap {
    /// The help's lines wrapped to `width` columns: a description too long for its line goes on in the
    /// lines below, under its own column (a row whose keys take most of the width wraps whole).
    public func helpLines(width: Int) -> [String] {
        helpLines.flatMap { line -> [String] in
            guard line.columns > width else { return [line] }
            // The description starts after the keys' column: past the first run of two spaces or more.
            let chars = Array(line)
            guard let gap = (1..<chars.count).first(where: { chars[$0] == " " && chars[$0 - 1] == " " }),
                let start = chars[gap...].firstIndex(where: { $0 != " " }),
                case let column = String(chars[..<start]).columns, width - column >= 20
            else { return TextWrap.lines(line, width: width) }
            let pad = String(repeating: " ", count: column)
            let wrapped = TextWrap.lines(String(chars[start...]), width: width - column)
            return wrapped.enumerated().map { i, text in (i == 0 ? String(chars[..<start]) : pad) + text }
        }
    }
}
