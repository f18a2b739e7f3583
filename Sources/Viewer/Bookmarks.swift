import GeoCore
import Support

/// One change to the bookmarks, as the file is asked to make it: it is made to the file as it is when
/// written (read again under a lock), so that two viewers open at once keep each other's bookmarks.
public enum BookmarkChange: Equatable, Sendable {
    /// Keep this bookmark (replacing one of its name).
    case save(Bookmark)
    /// Delete the bookmark of this name.
    case delete(name: String)
}

/// A view kept under a name (`b`), to come back to (`'`).
public struct Bookmark: Equatable, Sendable {
    public var name: String
    public var coordinate: Coordinate
    public var zoom: Double

    public init(name: String, coordinate: Coordinate, zoom: Double) {
        self.name = name
        self.coordinate = coordinate
        self.zoom = zoom
    }
}

/// The bookmarks file, a file a person can edit: one bookmark a line, `name<TAB>lat<TAB>lon<TAB>zoom`;
/// `#` comments and blank lines as they are. A line that is not a bookmark is skipped and reported,
/// and kept where it is: writing the file back never loses it.
public struct BookmarkList: Equatable, Sendable {
    /// A line of the file: a bookmark, or text kept as it was (and whether it was a damaged line).
    enum Line: Equatable, Sendable {
        case bookmark(Bookmark)
        case kept(String, damaged: Bool)
    }

    private(set) var lines: [Line] = []

    /// No bookmarks.
    public init() {}

    /// The bookmarks of a file's text.
    public init(text: String) {
        // (A CRLF is one Character in Swift: both ends of line split.)
        var all = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map(
            String.init)
        if all.last == "" { all.removeLast() }
        for raw in all {
            let line = raw
            if line.trimmedOfWhitespace.isEmpty || line.hasPrefix("#") {
                lines.append(.kept(raw, damaged: false))
                continue
            }
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            if f.count == 4, !f[0].trimmedOfWhitespace.isEmpty, let lat = InputParsing.number(f[1]),
                let lon = InputParsing.number(f[2]),
                let zoom = InputParsing.number(f[3]), abs(lat) <= 90, abs(lon) <= 180, zoom >= 0, zoom <= 28
            {
                lines.append(
                    .bookmark(Bookmark(name: f[0], coordinate: Coordinate(latitude: lat, longitude: lon), zoom: zoom)))
            } else {
                lines.append(.kept(raw, damaged: true))
            }
        }
    }

    /// The bookmarks, in the file's order.
    public var bookmarks: [Bookmark] {
        lines.compactMap { if case .bookmark(let b) = $0 { return b } else { return nil } }
    }

    /// The lines that were not bookmarks (1-based line numbers), kept as they are.
    public var damagedLines: [Int] {
        lines.indices.compactMap { if case .kept(_, true) = lines[$0] { return $0 + 1 } else { return nil } }
    }

    /// The file's text: every line as read, bookmarks as saved.
    public var text: String {
        lines.map { line in
            switch line {
            case .kept(let text, _): return text
            case .bookmark(let b):
                return "\(b.name)\t\(CoordinateFormat.fixed(b.coordinate.latitude, 7))\t"
                    + "\(CoordinateFormat.fixed(WebMercator.wrapLongitude(b.coordinate.longitude), 7))\t\(CoordinateFormat.fixed(b.zoom, 4))"
            }
        }.map { $0 + "\n" }.joined()
    }

    /// Saves `b` (a bookmark of that name is replaced where it is; tabs and line breaks in the name
    /// become spaces).
    @discardableResult
    public mutating func save(_ b: Bookmark) -> Bookmark {
        var b = b
        b.name = String(b.name.map { $0 == "\t" || $0.isNewline ? " " : $0 }).trimmedOfWhitespace
        b.coordinate.longitude = WebMercator.wrapLongitude(b.coordinate.longitude)
        if let i = lines.firstIndex(where: {
            if case .bookmark(let o) = $0 { return o.name == b.name } else { return false }
        }) {
            lines[i] = .bookmark(b)
        } else {
            lines.append(.bookmark(b))
        }
        return b
    }

    /// Makes `change` (what another viewer's file may hold is kept: only this one bookmark changes).
    public mutating func apply(_ change: BookmarkChange) {
        switch change {
        case .save(let b): save(b)
        case .delete(let name):
            if let i = bookmarks.firstIndex(where: { $0.name == name }) { delete(i) }
        }
    }

    /// Deletes bookmark `n` (0-based, of `bookmarks`).
    public mutating func delete(_ n: Int) {
        var seen = -1
        for i in lines.indices {
            if case .bookmark = lines[i] { seen += 1 }
            if seen == n, case .bookmark = lines[i] {
                lines.remove(at: i)
                return
            }
        }
    }
}
