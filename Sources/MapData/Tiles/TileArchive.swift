import FoundationEssentials
import GeoCore
import Glibc
import MapFormats
import Support

/// What a tileset says about itself (PMTiles header and metadata, MBTiles `metadata` table).
public struct TilesetInfo: Sendable {
    /// `PMTiles v3`, `MBTiles`, `tile server`.
    public var format: String
    /// The tileset's name, else the file's.
    public var name: String
    /// Zooms the tiles exist at.
    public var minZoom: Int
    public var maxZoom: Int
    /// The area the tiles cover (the whole world when the tileset does not say).
    public var bounds: CoordinateBounds
    /// Tiles addressed, when the format says.
    public var tileCount: Int?
    /// The credit its data asks for (`attribution`), HTML tags removed.
    public var attribution: String?
    /// Its layer names (`vector_layers`), when the metadata lists them.
    public var layers: [String]
    /// Tile compression (`gzip`, `none`).
    public var compression: String
    /// For raster tiles, their image format (`png`, `jpg`, `webp`); nil for vector tiles.
    public var imageFormat: String?
    /// For elevation tiles, how their colours give heights (the metadata's `encoding`; issue 48).
    public var encoding: TerrainEncoding?

    /// A tileset's description.
    public init(
        format: String, name: String, minZoom: Int, maxZoom: Int, bounds: CoordinateBounds, tileCount: Int?,
        attribution: String?, layers: [String], compression: String, imageFormat: String? = nil
    ) {
        self.imageFormat = imageFormat
        (self.format, self.name, self.minZoom, self.maxZoom, self.bounds) = (format, name, minZoom, maxZoom, bounds)
        (self.tileCount, self.attribution, self.layers, self.compression) = (
            tileCount, attribution, layers, compression
        )
    }
}

/// Why one tile could not be had; the rest of the map is drawn without it.
public struct TileFailure: Error, Equatable, Sendable, CustomStringConvertible {
    public var reason: String
    /// When to ask again.
    public var retry: Retry
    /// Never again this session (a damaged tile), after some seconds (a server error, a host that
    /// asked to wait), or when the network is back (no answer at all).
    public enum Retry: Equatable, Sendable {
        case never
        case after(Double)
        case offline
    }
    public init(_ reason: String, retry: Retry = .never) {
        self.reason = reason
        self.retry = retry
    }
    public var description: String { reason }
}

/// A tileset read tile by tile: PMTiles, MBTiles or a tile server.
public protocol TileArchive: AnyObject, Sendable {
    /// Its header and metadata.
    var info: TilesetInfo { get }
    /// The bytes of each tile asked for as the tileset stores them, gzip or not (nil: the tileset has no
    /// such tile). Several tiles at once, so that a remote archive can coalesce their requests or have
    /// several in flight; `wanted` is asked before a request is sent (a tile the view has left is
    /// dropped and has no result).
    func storedTiles(_ ids: [TileID], wanted: @escaping @Sendable (TileID) -> Bool) -> [TileID: Result<
        [UInt8]?, TileFailure
    >]
    /// True (once) when the archive found its file changed and read its header anew: tiles read
    /// before are of the old file.
    func refreshIfChanged() -> Bool
    /// True when tiles come over the network (their bytes are worth keeping).
    var isRemote: Bool { get }
    /// Lines to say once (a damaged cache file set aside), taken.
    func takeNotices() -> [String]
    /// Waits for work left in the background (cache writes, revalidations): at the end of a run.
    func finish()
}

extension TileArchive {
    public func refreshIfChanged() -> Bool { false }
    public var isRemote: Bool { false }
    public func takeNotices() -> [String] { [] }
    public func finish() {}

    /// The inflated bytes of each tile asked for (nil: the tileset has no such tile).
    public func tiles(_ ids: [TileID], wanted: @escaping @Sendable (TileID) -> Bool = { _ in true })
        -> [TileID: Result<[UInt8]?, TileFailure>]
    {
        storedTiles(ids, wanted: wanted).mapValues { r in r.flatMap { $0.map(TileLimits.inflate) ?? .success(nil) } }
    }
}

/// Limits that keep a hostile tile from costing more than a tile should.
public enum TileLimits {
    /// Most bytes of a tile as stored.
    public static let compressedBytes = 4 << 20
    /// Most bytes of a tile inflated.
    public static let inflatedBytes = 32 << 20

    /// A tile's bytes as stored → inflated (gzip or zlib by their magic, else as they are), within limits.
    static func inflate(_ raw: [UInt8]) -> Result<[UInt8]?, TileFailure> {
        guard raw.count <= compressedBytes else {
            return .failure(TileFailure("tile of \(raw.count) bytes (more than \(compressedBytes >> 20) MB)"))
        }
        // gzip (1f 8b) or zlib (78 xx with a valid check) streams; MVT itself starts with field 3 (0x1a).
        let gzip = raw.count >= 2 && raw[0] == 0x1f && raw[1] == 0x8b
        let zlib = raw.count >= 2 && raw[0] & 0x0f == 8 && (UInt16(raw[0]) << 8 | UInt16(raw[1])) % 31 == 0
        guard gzip || zlib else { return .success(raw) }
        guard let out = raw.withUnsafeBytes({ Zlib.inflate(gzipOrZlib: $0, limit: inflatedBytes) }) else {
            return .failure(TileFailure("tile does not inflate (damaged, or more than \(inflatedBytes >> 20) MB)"))
        }
        return .success(out)
    }
}

extension TilesetInfo {
    /// Text of an `attribution` value without its HTML (`<a href=…>© OpenMapTiles</a>` → `© OpenMapTiles`).
    static func plainAttribution(_ html: String?) -> String? {
        guard let html else { return nil }
        var out = ""
        var inTag = false
        for ch in html {
            if ch == "<" { inTag = true } else if ch == ">" { inTag = false } else if !inTag { out.append(ch) }
        }
        let text = out.replacing("&copy;", with: "©").replacing("&amp;", with: "&")
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return text.isEmpty ? nil : text
    }

    /// `vector_layers` ids of a TileJSON-style metadata object; tilemaker's PMTiles keep them inside a
    /// nested `json` string, as an MBTiles `metadata` row would (mapbox/mbtiles-spec 1.3).
    static func layerNames(_ json: [String: JSONValue]) -> [String] {
        if json["vector_layers"] == nil, case .string(let nested)? = json["json"],
            let inner = JSONValue.parse(Array(nested.utf8))?.object, inner["json"] == nil
        {
            return layerNames(inner)
        }
        guard case .array(let layers)? = json["vector_layers"] else { return [] }
        return layers.compactMap { layer in
            if case .string(let id)? = layer.object?["id"] { id } else { nil }
        }
    }

    /// The image format that MBTiles' `format` (or a URL's extension, or PMTiles' tile type) names:
    /// `png`, `jpg` or `webp`, the three a decoder is loaded for; nil for anything else.
    public static func imageFormat(named said: String) -> String? {
        switch said.lowercased() {
        case "png": "png"
        case "jpg", "jpeg": "jpg"
        case "webp": "webp"
        default: nil
        }
    }

    /// The image format a tile URL template names by its extension (`…/{z}/{x}/{y}.png?key=…`).
    public static func imageFormat(ofTemplate template: String) -> String? {
        let path = template.split(separator: "?").first.map(String.init) ?? template
        guard let last = path.split(separator: "/").last, let dot = last.lastIndex(of: ".") else { return nil }
        return imageFormat(named: String(last[last.index(after: dot)...]))
    }

    /// A `west,south,east,north` bounds value.
    static func parseBounds(_ text: String?) -> CoordinateBounds? {
        guard let parts = text?.split(separator: ",").compactMap({ Double($0.trimmedOfWhitespace) }),
            parts.count == 4, parts[0] < parts[2], parts[1] < parts[3]
        else { return nil }
        return CoordinateBounds(north: parts[3], south: parts[1], west: parts[0], east: parts[2])
    }
}
