/// How the help is laid out on a map of `mapRows` rows: key lines a page, and pages. When it does not
/// fit at once, each page ends in a line saying that more follows. The state knows it (Space turns a
/// page only when there is one), and the renderer draws by it.
public struct HelpLayout: Equatable, Sendable {
    /// Key lines a page.
    public let perPage: Int
    /// Pages.
    public let pages: Int

    /// The layout of `keymap`'s help on `mapRows` rows.
    public init(_ keymap: Keymap, mapRows: Int) {
        let count = keymap.helpLines.count
        // Two border rows (the title is written into the top one).
        let room = max(1, mapRows - 2)
        if count <= room {
            (perPage, pages) = (count, 1)
        } else {
            perPage = max(1, room - 1)
            pages = (count + perPage - 1) / perPage
        }
    }
}

extension ViewerState {
    /// The help's layout on this state's screen.
    public var helpLayout: HelpLayout {
        HelpLayout(keymap, mapRows: max(1, terminalRows - Self.statusRows))
    }
}
