import FoundationEssentials
import GeoCore
import Glibc
import Support
import Viewer

/// The view the viewer last ended on, kept in `$XDG_STATE_HOME/termmap/last-view` (default
/// `~/.local/state/termmap/last-view`, as the XDG Base Directory spec has it) for `--resume`: one line
/// of latitude, longitude and zoom, separated by tabs, replaced whole (a temporary file renamed over
/// it), so that a crash leaves the old view or the new one.
enum LastView {
    /// Where the last view is kept, nil without a home.
    static func path(_ environment: [String: String]) -> String? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/termmap/last-view" }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.local/state/termmap/last-view"
    }

    /// The kept view, or why there is none to resume (one line).
    static func read(_ environment: [String: String]) -> Result<(Coordinate, Double), InputError> {
        guard let path = path(environment) else { return .failure(InputError("no last view to resume (no HOME)")) }
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)) else {
            return .failure(InputError("no last view to resume yet (\(path))"))
        }
        let fields =
            String(decoding: data.prefix(200), as: UTF8.self).split(separator: "\n").first?.split(separator: "\t") ?? []
        guard fields.count == 3, let lat = InputParsing.number(String(fields[0])),
            let lon = InputParsing.number(String(fields[1])),
            let zoom = InputParsing.number(String(fields[2])), abs(lat) <= 90, abs(lon) <= 180, zoom >= 0, zoom <= 28
        else {
            return .failure(
                InputError("\(path):1: not a view (latitude, longitude and zoom, tab-separated); not resumed"))
        }
        return .success((Coordinate(latitude: lat, longitude: lon), zoom))
    }

    /// Keeps `view` as the last one; false (quietly: the map was shown) when it cannot be written.
    @discardableResult
    static func write(_ view: MapView, _ environment: [String: String]) -> Bool {
        guard let path = path(environment) else { return false }
        let c = view.center
        let line =
            "\(CoordinateFormat.fixed(c.latitude, 7))\t\(CoordinateFormat.fixed(WebMercator.wrapLongitude(c.longitude), 7))\t\(CoordinateFormat.fixed(view.zoom, 4))\n"
        return AtomicFile.replace(path, with: Array(line.utf8))
    }
}

/// Files replaced whole: written to a temporary file beside them, flushed, then renamed over them.
enum AtomicFile {
    /// Replaces the file at `path` (its folders made as needed) with `bytes`; false when it cannot.
    static func replace(_ path: String, with bytes: [UInt8]) -> Bool {
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        if !folder.isEmpty { makeFolders(folder) }
        let temporary = path + ".tmp.\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return false }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { b -> Int in
                guard let base = b.baseAddress else { return 0 }
                return Glibc.write(fd, base + written, b.count - written)
            }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            written += n
        }
        let ok = written == bytes.count && fsync(fd) == 0
        close(fd)
        guard ok, rename(temporary, path) == 0 else {
            unlink(temporary)
            return false
        }
        return true
    }

    /// Removes what a replacement of `path` left behind when its process died between writing and
    /// renaming (`bookmarks.tsv.tmp.<pid>`, `last-view.tmp.<pid>`): a temporary file of a process that is
    /// no more. One of a process that runs is left (it may be writing it now).
    static func removeStaleTemporaries(of path: String) {
        guard let slash = path.lastIndex(of: "/") else { return }
        let folder = String(path[..<slash])
        let prefix = String(path[path.index(after: slash)...]) + ".tmp."
        guard let dir = opendir(folder) else { return }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name.hasPrefix(prefix), let pid = Int32(name.dropFirst(prefix.count)), pid > 0 else { continue }
            // No such process: the writer is gone.
            if kill(pid, 0) != 0 && errno == ESRCH { unlink(folder + "/" + name) }
        }
    }

    /// Makes `folder` and those above it that are missing (mode 700, as the XDG spec asks of its
    /// folders); folders that are there are not touched.
    static func makeFolders(_ folder: String) {
        var at = ""
        for part in folder.split(separator: "/") {
            at += "/" + part
            var info = stat()
            if stat(at, &info) != 0 { _ = mkdir(at, 0o700) }
        }
    }
}
