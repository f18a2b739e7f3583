import FoundationEssentials
import Glibc
import Support

/// Opens a tileset named on the command line or found in a data folder.
public enum TileArchives {
    /// The file names a data folder's tilesets end with.
    public static let fileExtensions = [".pmtiles", ".mbtiles"]

    /// True for `http://` and `https://` locations.
    public static func isURL(_ location: String) -> Bool {
        let l = location.lowercased()
        return l.hasPrefix("http://") || l.hasPrefix("https://")
    }

    /// A short name for the status line: the file's name without its extension (`helsinki-omt`), or a
    /// tile server's host.
    public static func label(_ location: String) -> String {
        var name = location
        if isURL(location) {
            if location.contains("{z}") { return URL(string: location.replacing("{", with: "").replacing("}", with: ""))?.host ?? location }
            name = String(location.split(separator: "?").first ?? "")
        }
        let file = name.split(separator: "/").last.map(String.init) ?? name
        for ext in fileExtensions where file.hasSuffix(ext) { return String(file.dropLast(ext.count)) }
        return file
    }

    /// The archive at a path or URL: a local `.pmtiles` or `.mbtiles` file (told by its first bytes), a
    /// `.pmtiles` URL (HTTP range requests), or a `{z}/{x}/{y}` tile server template. Throws one clear
    /// line when it cannot be opened at all.
    public static func open(_ location: String) throws(MapDataError) -> any TileArchive {
        if isURL(location) {
            if location.contains("{z}") {
                return try TileServerArchive(template: location)
            }
            if location.lowercased().split(separator: "?").first?.hasSuffix(".mbtiles") == true {
                throw MapDataError(
                    file: location, .badInput("MBTiles cannot be read over HTTP (a SQLite file): download it, or use .pmtiles"))
            }
            return try PMTilesArchive(source: HTTPRangeSource(url: location))
        }
        // A folder opens with fopen on Linux and reads as empty: say what it is.
        guard !isDirectory(location) else { throw MapDataError(file: location, .badInput("is a directory")) }
        guard let head = readFileHead(location, count: 16) else {
            let exists = FileManager.default.fileExists(atPath: location)
            throw MapDataError(file: location, .unreadable(exists ? "permission denied" : "no such file"))
        }
        if head.starts(with: Array("SQLite format 3".utf8)) { return try MBTilesArchive(path: location) }
        if head.starts(with: Array("PMTiles".utf8)) || location.hasSuffix(".pmtiles") {
            return try PMTilesArchive(source: LocalFileSource(path: location))
        }
        throw MapDataError(file: location, .badInput("not a PMTiles or MBTiles file"))
    }
}
