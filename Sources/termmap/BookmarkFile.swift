import FoundationEssentials
import Glibc
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
            state.message =
                "\(path):\(first): not a bookmark (name, lat, lon, zoom, tab-separated)"
                + (n > 1 ? "; \(n - 1) more such line\(n == 2 ? "" : "s")" : "") + "; kept as is"
            state.messageIsError = true
        }
    }

    /// Makes `change` to the file as it is now: under an advisory lock (`flock` on `bookmarks.tsv.lock`,
    /// which renaming the file over does not replace), the file is read again, changed and replaced
    /// whole (a temporary file renamed over it). Two viewers open at once keep each other's bookmarks.
    /// The list as written, nil when it cannot be.
    static func apply(_ change: BookmarkChange, environment: [String: String]) -> BookmarkList? {
        guard let path = path(environment) else { return nil }
        AtomicFile.makeFolders(String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]))
        let lock = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lock >= 0 else { return nil }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 {
            guard errno == EINTR else { return nil }
        }
        defer { flock(lock, LOCK_UN) }
        let text = (try? Data(contentsOf: URL(fileURLWithPath: path))).map { String(decoding: $0, as: UTF8.self) } ?? ""
        var list = BookmarkList(text: text)
        list.apply(change)
        return AtomicFile.replace(path, with: Array(list.text.utf8)) ? list : nil
    }
}
