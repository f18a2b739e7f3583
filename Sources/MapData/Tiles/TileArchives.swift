import FoundationEssentials
import Glibc
import MapFormats
import Support
import SystemSupport

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
            if location.contains("{z}") {
                return URL(string: location.replacing("{", with: "").replacing("}", with: ""))?.host ?? location
            }
            name = String(location.split(separator: "?").first ?? "")
        }
        let file = name.split(separator: "/").last.map(String.init) ?? name
        for ext in fileExtensions where file.hasSuffix(ext) { return String(file.dropLast(ext.count)) }
        return file
    }

    /// The archive at a path or URL: a local `.pmtiles` or `.mbtiles` file (told by its first bytes), a
    /// URL answering a `.pmtiles` (HTTP range requests) or a TileJSON document (told by its first
    /// bytes), a `{z}/{x}/{y}` tile server template, or a named public source. Throws one clear line
    /// when it cannot be opened at all.
    public static func open(_ location: String) throws(MapDataError) -> any TileArchive {
        var notices: [String] = []
        return try open(location, cache: .none, notices: &notices)
    }

    /// `open`, keeping what a remote source sends in the disk cache of `cache`; lines to say once (a
    /// cache that cannot be kept) are added to `notices`. A remote source with something cached opens
    /// without a network.
    public static func open(_ location: String, cache policy: TileCachePolicy, notices: inout [String])
        throws(MapDataError) -> any TileArchive
    {
        if let named = NamedTileSource.named(location) {
            var cache: TileDiskCache?
            if let folder = policy.folder {
                let (c, why) = TileDiskCache.open(source: named.url, folder: folder, limitBytes: policy.limitBytes)
                cache = c
                if let why { notices.append(why) }
            }
            do {
                return try openRemote(named.url, cache: cache, credit: named.credit, maxZoom: named.maxZoom)
            } catch {
                cache?.discardIfEmpty()
                throw error
            }
        }
        if isURL(location) {
            var cache: TileDiskCache?
            if let folder = policy.folder,
                location.lowercased().split(separator: "?").first?.hasSuffix(".mbtiles") != true
            {
                let (c, why) = TileDiskCache.open(source: location, folder: folder, limitBytes: policy.limitBytes)
                cache = c
                if let why { notices.append(why) }
            }
            do {
                return try openRemote(location, cache: cache, credit: nil)
            } catch {
                cache?.discardIfEmpty()
                throw error
            }
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

    /// A URL's archive: a template, or told by the first 16 KiB (what a PMTiles reader asks for first,
    /// so that a `.pmtiles` costs no extra request).
    static func openRemote(_ location: String, cache: TileDiskCache?, credit: String?, maxZoom: Int? = nil)
        throws(MapDataError) -> any TileArchive
    {
        func fail(_ why: String) -> MapDataError { MapDataError(file: location, .unreadable(why)) }
        if location.contains("{z}") {
            return try TileServerArchive(template: location, cache: cache, maxZoom: maxZoom, credit: credit)
        }
        if location.lowercased().split(separator: "?").first?.hasSuffix(".mbtiles") == true {
            throw MapDataError(
                file: location,
                .badInput("MBTiles cannot be read over HTTP (a SQLite file): download it, or use .pmtiles"))
        }
        let pool = try HTTPPool.shared(for: location)
        if let kept = cache?.resource("tilejson") {
            return try tileJSONArchive(location, kept: kept, pool: pool, cache: cache, credit: credit)
        }
        if cache?.resource(HTTPRangeSource.headerKey) != nil {
            return try PMTilesArchive(source: HTTPRangeSource(url: location, cache: cache))
        }
        let head = pool.get(HTTPPool.Request(url: location, range: "0-16383", maxBytes: 16_384))
        if head.status == 0 {
            throw MapDataError(
                file: location,
                .unreachable(head.timedOut ? "no answer within \(HTTPPool.timeoutMilliseconds / 1000) s" : head.error))
        }
        guard head.status == 200 || head.status == 206 else { throw fail("HTTP \(head.status)") }
        if let broke = head.brokeOff { throw fail(broke) }
        if head.body.starts(with: Array("PMTiles".utf8)) {
            // A whole file sent for a range (and larger than the range): tiles could never be read.
            if head.status == 200, head.tooBig {
                throw fail("the server does not answer range requests (it sent the whole file)")
            }
            let source = try HTTPRangeSource(url: location, cache: cache)
            source.adopt(head: head)
            let archive = try PMTilesArchive(source: source)
            source.keep(head: head)
            return archive
        }
        if TileJSON.looksLikeJSON(head.body) {
            let complete =
                !head.tooBig && (head.status == 200 || head.totalSize.map { $0 <= UInt64(head.body.count) } == true)
            return try tileJSONArchive(
                location, kept: nil, pool: pool, cache: cache, credit: credit, fetched: complete ? head : nil)
        }
        if head.tooBig { throw fail("the server does not answer range requests") }
        throw MapDataError(file: location, .badInput("neither a PMTiles file nor a TileJSON document"))
    }

    /// A TileJSON source: the document from the cache while fresh (or when the server cannot be
    /// reached), else from the server (a 304 renews the cached one).
    static func tileJSONArchive(
        _ location: String, kept: TileDiskCache.Entry?, pool: HTTPPool, cache: TileDiskCache?, credit: String?,
        fetched: HTTPPool.Response? = nil
    ) throws(MapDataError) -> any TileArchive {
        let now = Int64(time(nil))
        var document = kept?.body
        if kept.map({ !$0.isFresh(now: now) }) ?? true {
            var r = fetched
            if r == nil {
                var request = HTTPPool.Request(url: location, maxBytes: TileJSON.maxBytes)
                request.ifNoneMatch = kept.flatMap { $0.etag.isEmpty ? nil : $0.etag }
                request.ifModifiedSince = kept.flatMap { $0.lastModified.isEmpty ? nil : $0.lastModified }
                r = pool.get(request)
            }
            if let r {
                let entry = { (body: [UInt8]?) in
                    TileDiskCache.Entry(
                        body: body, etag: r.etag, lastModified: r.lastModified, expires: now + r.freshSeconds(now: now))
                }
                switch r.status {
                case 0 where document != nil: break  // offline: the cached document
                case 0:
                    throw MapDataError(file: location, .unreachable(r.timedOut ? "no answer within 10 s" : r.error))
                case 304 where document != nil: cache?.put(resource: "tilejson", entry(document))
                case 200, 206:
                    if r.tooBig { throw MapDataError(file: location, .badInput("TileJSON document of more than 1 MB")) }
                    if let broke = r.brokeOff { throw MapDataError(file: location, .unreadable(broke)) }
                    document = r.body
                    cache?.put(resource: "tilejson", entry(r.body))
                default:
                    if document == nil { throw MapDataError(file: location, .unreadable("HTTP \(r.status)")) }
                }
            }
        }
        var tileJSON = try TileJSON.parse(document ?? [], url: location)
        if let credit { tileJSON.attribution = credit }
        return try TileServerArchive(tileJSON: tileJSON, url: location, cache: cache)
    }
}

/// Where remote tiles are kept on disk: a folder (nil: not kept) and the bound of all its files.
public struct TileCachePolicy: Sendable {
    public var folder: String?
    public var limitBytes: Int
    public init(folder: String?, limitBytes: Int = TileDiskCache.defaultLimitBytes) {
        self.folder = limitBytes > 0 ? folder : nil
        self.limitBytes = limitBytes
    }
    /// Nothing kept.
    public static let none = TileCachePolicy(folder: nil)
}
