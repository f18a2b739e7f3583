import FoundationEssentials
import Viewer

/// Where the bookmarks are kept: `$XDG_DATA_HOME/termmap/bookmarks.tsv` (default
/// `~/.local/share/termmap/bookmarks.tsv`), read at start and replaced whole on each change.
enum BookmarkFile {
    static func path(_ environment: [String: String]) -> String? {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/termmap/bookmarks.tsv" }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.local/share/termmap/bookmarks.tsv"
    }

    /// Puts the bookmarks into `state` (off in kiosk mode, which writes nothing of its own), and says
    /// on the message line which lines of the file were not bookmarks (they are kept as they are).
    static func load(into state: inout ViewerState, environment: [String: String], kiosk: Bool) {
        guard !kiosk else {
            state.bookmarksOff = "bookmarks are off in kiosk mode"
            return
        }
        guard let path = path(environment) else {
            state.bookmarksOff = "bookmarks are off (no HOME to keep them in)"
            return
        }
        let text = (try? Data(contentsOf: URL(fileURLWithPath: path))).map { String(decoding: $0, as: UTF8.self) } ?? ""
        let list = BookmarkList(text: text)
        state.bookmarks = list
        if let first = list.damagedLines.first, state.message.isEmpty {
            let n = list.damagedLines.count
            state.message = "\(path):\(first): not a bookmark (name, lat, lon, zoom, tab-separated)"
                + (n > 1 ? "; \(n - 1) more such line\(n == 2 ? "" : "s")" : "") + "; kept as is"
            state.messageIsError = true
        }
    }

    /// Writes the bookmarks file's new text (a temporary file renamed over it).
    static func save(_ text: String, environment: [String: String]) -> Bool {
        guard let path = path(environment) else { return false }
        return AtomicFile.replace(path, with: Array(text.utf8))
    }
}
