import CSQLite
import FoundationEssentials
import GeoCore
import Glibc
import MapFormats
import Support
import SystemSupport

/// An MBTiles 1.3 file (github.com/mapbox/mbtiles-spec): a SQLite database with a `metadata` table of
/// name/value rows and a `tiles` table of zoom_level, tile_column, tile_row (TMS: counted from the
/// south, so row = 2^z − 1 − y) and tile_data (MVT, usually gzip-compressed).
public final class MBTilesArchive: TileArchive, @unchecked Sendable {
    // @unchecked: the connection and statement are used only under `lock` (SQLite's own serialization
    // is not assumed).
    public let info: TilesetInfo
    /// The `metadata` table.
    public let metadata: [String: String]
    private let db: OpaquePointer
    private let tileQuery: OpaquePointer
    private let lock = Lock()
    private let path: String

    /// Opens `path` read-only and reads its metadata; throws when it is not an MBTiles file.
    public init(path: String) throws(MapDataError) {
        self.path = path
        func fail(_ kind: MapDataError.Kind) -> MapDataError { MapDataError(file: path, kind) }
        // SQLite opens any file and fails at the first query: look at the magic first for a clear message.
        guard let magic = readFileHead(path, count: 16) else { throw fail(.unreadable("no such file")) }
        guard magic == Array("SQLite format 3\0".utf8) else {
            throw fail(.badInput("not an MBTiles file (not a SQLite database)"))
        }
        var opened: OpaquePointer?
        guard sqlite3_open_v2(path, &opened, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK,
            let opened
        else {
            let why = opened.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close(opened)
            throw fail(.unreadable(why))
        }
        db = opened
        var meta: [String: String] = [:]
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, "SELECT name, value FROM metadata", -1, &statement, nil) == SQLITE_OK,
            let statement
        else {
            let why = String(cString: sqlite3_errmsg(db))
            sqlite3_close(db)
            throw fail(.badInput("not an MBTiles file (\(why))"))
        }
        while sqlite3_step(statement) == SQLITE_ROW {
            if let k = sqlite3_column_text(statement, 0), let v = sqlite3_column_text(statement, 1) {
                meta[String(cString: k)] = String(cString: v)
            }
        }
        sqlite3_finalize(statement)
        var query: OpaquePointer?
        let sql = "SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?"
        guard sqlite3_prepare_v2(db, sql, -1, &query, nil) == SQLITE_OK, let query else {
            let why = String(cString: sqlite3_errmsg(db))
            sqlite3_close(db)
            throw fail(.badInput("not an MBTiles file (\(why))"))
        }
        tileQuery = query
        metadata = meta
        // Raster tilesets say so in `format`; older ones (node-mbtiles' `plain_1`) have no such row, and
        // their first tile's magic tells.
        let format = meta["format"] ?? Self.firstTile(db).flatMap(Self.rasterKind)
        let image = format.flatMap(TilesetInfo.imageFormat(named:))
        if let format, format != "pbf", image == nil {
            sqlite3_finalize(query)
            sqlite3_close(db)
            throw fail(.badInput(Self.unsupported(format)))
        }
        var minZoom = meta["minzoom"].flatMap { Int($0) }
        var maxZoom = meta["maxzoom"].flatMap { Int($0) }
        if minZoom == nil || maxZoom == nil {
            let range = Self.zoomRange(db)
            minZoom = minZoom ?? range.min
            maxZoom = maxZoom ?? range.max
        } else if let said = maxZoom, let deepest = Self.deepestZoom(db, from: said, downTo: minZoom ?? 0) {
            // Metadata may promise a zoom the tiles never reach (planetiler's test tilesets say 14 and
            // stop at 13): views deeper than the last zoom that exists scale its tiles.
            maxZoom = deepest
        }
        var layers: [String] = []
        if let json = meta["json"].flatMap({ JSONValue.parse(Array($0.utf8)) })?.object {
            layers = TilesetInfo.layerNames(json)
        }
        let file = path.split(separator: "/").last.map(String.init) ?? path
        var described = TilesetInfo(
            format: "MBTiles", name: meta["name"] ?? file, minZoom: max(0, min(minZoom ?? 0, TileID.maxZoom)),
            maxZoom: max(0, min(maxZoom ?? 14, TileID.maxZoom)),
            bounds: TilesetInfo.parseBounds(meta["bounds"])
                ?? CoordinateBounds(north: 90, south: -90, west: -180, east: 180),
            tileCount: nil, attribution: TilesetInfo.plainAttribution(meta["attribution"]), layers: layers,
            compression: image == nil ? "gzip or none (told by each tile)" : "none", imageFormat: image)
        described.encoding = meta["encoding"].flatMap(TerrainEncoding.init(named:))
        info = described
    }

    deinit {
        sqlite3_finalize(tileQuery)
        sqlite3_close(db)
    }

    /// The lowest and highest zoom of the tiles table (its primary index answers both at once).
    private static func zoomRange(_ db: OpaquePointer) -> (min: Int?, max: Int?) {
        var s: OpaquePointer?
        guard sqlite3_prepare_v2(db, "SELECT MIN(zoom_level), MAX(zoom_level) FROM tiles", -1, &s, nil) == SQLITE_OK,
            let s
        else { return (nil, nil) }
        defer { sqlite3_finalize(s) }
        guard sqlite3_step(s) == SQLITE_ROW, sqlite3_column_type(s, 0) != SQLITE_NULL else { return (nil, nil) }
        return (Int(sqlite3_column_int(s, 0)), Int(sqlite3_column_int(s, 1)))
    }

    /// The deepest zoom from `said` down to `lowest` that has a tile: one indexed `EXISTS` a zoom, no scan.
    private static func deepestZoom(_ db: OpaquePointer, from said: Int, downTo lowest: Int) -> Int? {
        var s: OpaquePointer?
        let sql = "SELECT EXISTS (SELECT 1 FROM tiles WHERE zoom_level = ? LIMIT 1)"
        guard sqlite3_prepare_v2(db, sql, -1, &s, nil) == SQLITE_OK, let s else { return nil }
        defer { sqlite3_finalize(s) }
        for z in stride(from: min(said, TileID.maxZoom), through: max(0, lowest), by: -1) {
            sqlite3_reset(s)
            sqlite3_bind_int(s, 1, Int32(z))
            guard sqlite3_step(s) == SQLITE_ROW else { return nil }
            if sqlite3_column_int(s, 0) == 1 { return z }
        }
        return nil
    }

    /// Why tiles of `format` (MBTiles 1.3's `format`) are not drawn: AVIF has no decoder here, `json`
    /// (UTFGrid) and `mlt` (MapLibre Tiles) are other things again, each named as what it is.
    static func unsupported(_ format: String) -> String {
        switch format.lowercased() {
        case "avif": return "AVIF raster tiles are not supported (PNG, JPEG or WebP)"
        case "json": return "JSON tiles (UTFGrid) are not supported (vector tiles only)"
        case "mlt": return "MapLibre Tiles (MLT) are not supported yet (Mapbox Vector Tiles only)"
        default: return "tiles of format '\(format)' are not supported (pbf, png, jpg or webp)"
        }
    }

    /// The first bytes of one tile (any), to tell what kind of tiles the file holds.
    private static func firstTile(_ db: OpaquePointer) -> [UInt8]? {
        var s: OpaquePointer?
        guard sqlite3_prepare_v2(db, "SELECT substr(tile_data, 1, 16) FROM tiles LIMIT 1", -1, &s, nil) == SQLITE_OK,
            let s
        else { return nil }
        defer { sqlite3_finalize(s) }
        guard sqlite3_step(s) == SQLITE_ROW, let blob = sqlite3_column_blob(s, 0) else { return nil }
        return [UInt8](UnsafeRawBufferPointer(start: blob, count: Int(sqlite3_column_bytes(s, 0))))
    }

    /// `png`, `jpg` or `webp` for an image's magic (PNG spec §5.2; JPEG's SOI marker; RIFF…WEBP), else nil.
    static func rasterKind(_ head: [UInt8]) -> String? {
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "png" }
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return "jpg" }
        if head.count >= 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) {
            return "webp"
        }
        return nil
    }

    /// How many tiles the file holds (a scan of the index: for `termmap data info`, not at start).
    public func countTiles() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        var s: OpaquePointer?
        guard sqlite3_prepare_v2(db, "SELECT COUNT(*) FROM tiles", -1, &s, nil) == SQLITE_OK, let s else { return nil }
        defer { sqlite3_finalize(s) }
        return sqlite3_step(s) == SQLITE_ROW ? Int(sqlite3_column_int64(s, 0)) : nil
    }

    public func storedTiles(_ ids: [TileID], wanted: @escaping @Sendable (TileID) -> Bool) -> [TileID: Result<
        [UInt8]?, TileFailure
    >] {
        lock.lock()
        defer { lock.unlock() }
        var out: [TileID: Result<[UInt8]?, TileFailure>] = [:]
        for tile in ids {
            guard tile.isValid else {
                out[tile] = .success(nil)
                continue
            }
            sqlite3_reset(tileQuery)
            sqlite3_bind_int(tileQuery, 1, Int32(tile.z))
            sqlite3_bind_int(tileQuery, 2, Int32(tile.x))
            sqlite3_bind_int(tileQuery, 3, Int32((1 << tile.z) - 1 - tile.y))
            switch sqlite3_step(tileQuery) {
            case SQLITE_ROW:
                let count = Int(sqlite3_column_bytes(tileQuery, 0))
                guard count <= TileLimits.compressedBytes else {
                    out[tile] = .failure(TileFailure("tile \(tile) of \(count) bytes (more than 4 MB)"))
                    continue
                }
                guard count > 0, let blob = sqlite3_column_blob(tileQuery, 0) else {
                    out[tile] = .success([])
                    continue
                }
                out[tile] = .success([UInt8](UnsafeRawBufferPointer(start: blob, count: count)))
            case SQLITE_DONE:
                out[tile] = .success(nil)
            default:
                out[tile] = .failure(TileFailure("\(path): \(String(cString: sqlite3_errmsg(db)))"))
            }
        }
        sqlite3_reset(tileQuery)
        return out
    }
}
