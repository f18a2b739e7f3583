import GeoCore
import MapFormats
import Support
import Synchronization
import SystemSupport

/// A vector tileset as a feature source: the tiles of a view at the zoom nearest its detail, decoded
/// into the classes of the style table, kept in a cache bounded in bytes. A view never loads a tile:
/// it is drawn from the tiles at hand and says which it lacks, and the program loads them (`load`), in
/// the background for the viewer, at once for `render`. Drawing reads no archive and no clock and
/// changes no tile's standing: a tile's bytes stay with its decoded form (what `i` asks of a feature is
/// read from them), and failures whose wait is over are let go by the program (`expireFailures`). One
/// ledger holds the tiles: decoded (with their bytes), kept raw (remote), failed.
public final class TileSource: ChunkSource, TileLoadable {
    public let archive: any TileArchive
    public let label: String
    public var kind: SourceKind { .tiles }
    public var coverage: CoordinateBounds { described.withLock { $0.coverage } }
    public var minZoom: Double { described.withLock { $0.minZoom } }
    public let classes: Set<FeatureClass>
    public var attribution: String? { described.withLock { $0.attribution } }
    public var credits: [Credit] { described.withLock { $0.credits } }
    /// The schema its layers follow.
    public var schema: TileSchema { described.withLock { $0.schema } }
    private let state: Mutex<State>
    /// What the archive says of itself, read again when it changes (a remote tileset that answers at
    /// last, `ReconnectingArchive`).
    private let described: Mutex<Description>
    /// The zoom it is drawn from at the least (the caller's).
    private let drawFrom: Double

    /// The tileset's description as the source uses it.
    struct Description {
        var coverage: CoordinateBounds
        var minZoom: Double
        var attribution: String?
        var credits: [Credit]
        var schema: TileSchema

        init(_ info: TilesetInfo, drawFrom: Double) {
            coverage = info.bounds
            minZoom = max(drawFrom, Double(info.minZoom))
            attribution = info.attribution
            // A tileset that says nothing is taken for OpenStreetMap data (both schemas are made from it).
            credits = [info.attribution.map(Credit.init(attribution:)) ?? .openStreetMap]
            schema = TileSchema.detect(layers: info.layers)
        }
    }

    /// The default bound of decoded tiles kept, in bytes (`--tile-cache`).
    public static let defaultCacheBytes = 64 << 20

    private struct State {
        var cache: LRUCache<TileID, DecodedTile>
        /// For a remote archive, tiles' bytes as fetched: a tile whose decoded form was evicted is decoded
        /// again without a request (a quarter of the budget; local files are mapped, nothing to keep).
        var raw: LRUCache<TileID, [UInt8]>
        /// Tiles that could not be had, and when to ask again. A view counts them as failed until
        /// `expireFailures` lets them go.
        var failed = FailedTiles()
        var names: [String] = []
        var nameIndex: [String: Int32] = [:]
        /// True once a tile had sea (OpenMapTiles `water` class `ocean`, Protomaps kind `ocean`).
        var sawOcean = false
        /// The tiles what-is-here last asked of (a few: a cell can meet four), and every feature's id
        /// and properties in each, read from its bytes once: the panel asks of the same cell frame after frame.
        var identities: [TileID: [UInt64: FeatureIdentity]] = [:]
    }

    /// A tile's features, grouped into one chunk per class (and names-only lines apart).
    struct DecodedTile {
        var chunks: [(chunk: DecodedChunk, namesOnly: Bool)]
        /// What it costs in the cache: its chunks and its bytes.
        var bytes: Int
        /// The tile as read (MVT): its features' ids and properties, for what-is-here.
        var source: [UInt8] = []
        /// Its features skipped for a malformed geometry.
        var skipped = 0
    }

    /// A source over `archive`, drawn from view zoom `drawFrom` on (by default where imported streets
    /// start; or the tileset's own lowest zoom when higher), keeping up to `cacheBytes` of decoded tiles.
    public init(
        archive: any TileArchive, label: String, drawFrom: Double = MapAssetFormat.osmZoomLevels[0],
        cacheBytes: Int = TileSource.defaultCacheBytes
    ) {
        self.archive = archive
        self.label = label
        self.drawFrom = drawFrom
        described = Mutex(Description(archive.info, drawFrom: drawFrom))
        classes = TileSchema.classes
        let rawShare = archive.isRemote ? cacheBytes / 4 : 0
        state = Mutex(
            State(cache: LRUCache(limit: cacheBytes - rawShare), raw: LRUCache(limit: rawShare)))
    }

    /// The tile zoom drawn at a view zoom: the zoom at which a tile is drawn nearest its design size of
    /// 256 dots (round, as Leaflet's GridLayer picks raster tiles), within the tileset's zooms: deeper
    /// views scale its deepest tiles (overzoom), shallower ones use its shallowest.
    public func tileZoom(_ zoom: Double) -> Int {
        min(archive.info.maxZoom, max(archive.info.minZoom, Int(zoom.rounded())))
    }

    public func detail(atZoom zoom: Double) -> SourceDetail { .tileZoom(tileZoom(zoom)) }

    /// A tileset draws the shore itself only when it has the sea: tilemaker's OpenMapTiles output
    /// without its ocean shapefile has none, and the world's coastline must then stay.
    public var claimsShorelines: Bool { state.withLock { $0.sawOcean } }

    /// Bytes and tiles the cache holds now (decoded and, for a remote archive, raw).
    var cacheUse: (bytes: Int, count: Int) {
        state.withLock { ($0.cache.cost + $0.raw.cost, $0.cache.count) }
    }

    public func places() throws(MapDataError) -> [City] { [] }

    public func namedFeatures() throws(MapDataError) -> [NamedPlace] { [] }

    public func featureName(_ index: Int32) -> String? {
        state.withLock { s in s.names.indices.contains(Int(index)) ? s.names[Int(index)] : nil }
    }

    /// The tiles at hand of the view, and those it lacks, nearest the view's centre first (they are
    /// loaded first).
    public func chunks(in bounds: CoordinateBounds, zoom: Double, classes wanted: Set<FeatureClass>)
        throws(MapDataError) -> SourceView
    {
        let z = tileZoom(zoom)
        let center = WebMercator.project(
            Coordinate(latitude: (bounds.north + bounds.south) / 2, longitude: (bounds.west + bounds.east) / 2))
        // Tiles of the view that meet the tileset's bounds, nearest the center first.
        let inView = TileID.covering(bounds, zoom: z).filter { Self.meets($0.tile, coverage) }.sorted {
            Self.distance($0.tile, center) < Self.distance($1.tile, center)
        }
        return state.withLock { s in
            var view = SourceView(hits: [])
            var delivering: [TileID] = []
            for (tile, shift) in inView {
                if let offline = s.failed.failedOffline(tile) {
                    if offline { view.offline += 1 } else { view.failed += 1 }
                    continue
                }
                delivering.append(tile)
                guard let decoded = s.cache.get(tile) else {
                    if !view.missing.contains(tile) { view.missing.append(tile) }
                    continue
                }
                view.cached += 1
                view.skipped += decoded.skipped
                let square = tile.unitSquare
                for c in decoded.chunks where wanted.contains(c.chunk.info.featureClass) {
                    if c.chunk.info.featureClass == .land && !s.sawOcean { continue }
                    view.hits.append(ChunkHit(chunk: c.chunk, shift: shift, tile: square, namesOnly: c.namesOnly))
                }
            }
            // A tile that failed leaves its square to coarser sources (the bundled city, the world).
            if view.failed + view.offline > 0 {
                view.claims = delivering.compactMap { Self.overlap(Self.bounds($0), coverage) }
            }
            return view
        }
    }

    /// True when `tile` is loaded (or could not be, and is not to be asked for again yet).
    public func hasTried(_ tile: TileID) -> Bool {
        let now = monotonicSeconds()
        return state.withLock { s in s.cache.contains(tile) || s.failed.isWaiting(tile, now: now) }
    }

    /// Lets go of the failures whose wait is over (a server that asked to wait, a network that may be
    /// back): the next view lacks those tiles and asks for them. The program calls it, with its clock,
    /// before it draws; a view never does.
    public func expireFailures(now: Double = monotonicSeconds()) {
        state.withLock { _ = $0.failed.expire(now: now) }
    }

    /// Lines to say once (a damaged cache file set aside), taken.
    public func takeNotices() -> [String] { archive.takeNotices() }

    /// Reads and decodes tiles into the cache; failures are remembered and counted by later views, and
    /// asked for again only when their retry time has come (a damaged tile never). A tile `wanted` no
    /// longer says false for is not asked for (the view has left it). Safe to call from any thread.
    public func load(_ tiles: [TileID], wanted: @escaping @Sendable (TileID) -> Bool = { _ in true }) {
        expireFailures()
        var results: [TileID: Result<[UInt8]?, TileFailure>] = [:]
        state.withLock { s in
            for tile in tiles { if let bytes = s.raw.get(tile) { results[tile] = .success(bytes) } }
        }
        let fetch = tiles.filter { results[$0] == nil }
        if !fetch.isEmpty { results.merge(archive.tiles(fetch, wanted: wanted)) { $1 } }
        if archive.refreshIfChanged() {
            // The file changed under us (or a remote tileset answered at last): what was cached is of
            // the old file; read these tiles anew, as the archive now describes itself.
            described.withLock { $0 = Description(archive.info, drawFrom: drawFrom) }
            state.withLock { s in
                s.cache.removeAll()
                s.raw.removeAll()
                s.failed.removeAll()
                s.identities = [:]
            }
            results = archive.tiles(tiles)
        }
        var decoded: [(TileID, DecodedTile?, TileFailure.Retry)] = []
        for tile in tiles {
            switch results[tile] {
            case .success(let bytes?):
                decoded.append((tile, decode(bytes, tile: tile).map { d in keeping(bytes, in: d) }, .never))
            case .success(nil):
                decoded.append((tile, DecodedTile(chunks: [], bytes: 64), .never))
            case .failure(let failure):
                decoded.append((tile, nil, failure.retry))
            case nil:
                continue  // not asked for: the view left it
            }
        }
        let now = monotonicSeconds()
        state.withLock { s in
            for (tile, d, retry) in decoded {
                if let d {
                    s.cache.put(tile, d, cost: d.bytes)
                } else {
                    s.failed.record(tile, retry, now: now)
                }
                if s.raw.limit > 0, d != nil, case .success(let bytes?)? = results[tile] {
                    s.raw.put(tile, bytes, cost: bytes.count + 64)
                }
            }
        }
    }

    /// A decoded tile with its bytes kept (and counted).
    private func keeping(_ bytes: [UInt8], in tile: DecodedTile) -> DecodedTile {
        var d = tile
        d.source = bytes
        d.bytes += bytes.count
        return d
    }

    /// An MVT tile → one chunk per class, in the unit square; nil when the tile is not a valid vector
    /// tile. Features with a malformed geometry are skipped and counted.
    func decode(_ bytes: [UInt8], tile: TileID) -> DecodedTile? {
        var builders: [Int: ChunkBuilder] = [:]
        let square = tile.unitSquare
        var points = 0
        var skipped = 0
        var ocean = false
        // Each feature's layer (its place among the visited ones) and place in it: what-is-here answers
        // read its id and properties from the tile again (`identity`), nothing is kept for them here.
        var layerOrdinal = -1
        var featureOrdinal = -1
        let valid = bytes.withUnsafeBytes { raw in
            MVTDecoder.visit(
                raw, wanted: TileSchema.drawnLayers.contains,
                layer: { _ in
                    layerOrdinal += 1
                    featureOrdinal = -1
                }
            ) { layer, feature in
                featureOrdinal += 1
                let property = { (key: String) in feature.value(key, in: layer) }
                if !ocean, layer.name == "water",
                    property("class")?.text == "ocean" || property("kind")?.text == "ocean"
                {
                    ocean = true
                }
                guard let m = TileSchema.map(layer: layer.name, type: feature.type, property) else { return }
                var name: Int32 = -1
                if m.featureClass.isRoad || m.featureClass == .path || m.featureClass.isPoint,
                    let n = TileSchema.name(property)
                {
                    name = intern(n)
                }
                // OpenMapTiles' name lines without a name give nothing.
                if m.namesOnly && name < 0 { return }
                // A malformed geometry loses its feature, not the tile.
                guard let parts = feature.parts(points: &points) else {
                    skipped += 1
                    return
                }
                let key = Int(m.featureClass.rawValue) * 2 + (m.namesOnly ? 1 : 0)
                builders[key, default: ChunkBuilder(featureClass: m.featureClass, level: tile.z)].add(
                    parts, name: name, detail: m.detail, origin: UInt64(layerOrdinal) << 32 | UInt64(featureOrdinal),
                    originX: square.minX, originY: square.minY, scale: square.size / Double(layer.extent))
            }
        }
        guard valid else { return nil }
        if ocean { state.withLock { $0.sawOcean = true } }
        // The tile's square as land, below its water (drawn once the tileset has shown sea).
        let extent = Int64(4096)
        var land = ChunkBuilder(featureClass: .land, level: tile.z)
        land.add(
            [[(0, 0), (extent, 0), (extent, extent), (0, extent), (0, 0)]], name: -1, origin: Self.noOrigin,
            originX: square.minX,
            originY: square.minY, scale: square.size / Double(extent))
        builders[Int(FeatureClass.land.rawValue) * 2] = land
        var chunks: [(DecodedChunk, Bool)] = []
        var bytesUsed = 256
        for key in builders.keys.sorted() {
            guard let chunk = builders[key]?.chunk() else { continue }
            chunks.append((chunk, key % 2 == 1))
            bytesUsed += 16 * chunk.pointCount + 8 * chunk.polylineCount + 48 * chunk.featureCount + 256
        }
        return DecodedTile(chunks: chunks, bytes: bytesUsed, skipped: skipped)
    }

    /// What stands for "no feature of the tile" in a chunk's `tileFeatures` (the tile's land square).
    static let noOrigin = UInt64.max

    /// A tile feature's id and properties, read from the tile's bytes kept with its decoded form (no
    /// archive is read: a tile drawn is a tile held). Every feature of the tile is read the first time
    /// one of it is asked for, and kept until another tile is asked of.
    public func identity(of hit: ChunkHit, feature f: Int) -> FeatureIdentity? {
        guard let square = hit.tile, let tile = TileID(unitSquare: square), hit.chunk.tileFeatures.indices.contains(f)
        else { return nil }
        let origin = hit.chunk.tileFeatures[f]
        guard origin != Self.noOrigin else { return nil }
        return state.withLock { s in
            if let answers = s.identities[tile] { return answers[origin] }
            guard let bytes = s.cache.peek(tile)?.source else { return nil }
            if s.identities.count >= Self.identityTiles { s.identities = [:] }
            let answers = Self.readIdentities(bytes)
            s.identities[tile] = answers
            return answers[origin]
        }
    }

    /// Tiles whose features' identities are kept at once.
    static let identityTiles = 4

    /// Every drawn feature of a tile's bytes by its origin (`tileFeatures`' layer and place): its id and
    /// properties.
    static func readIdentities(_ bytes: [UInt8]) -> [UInt64: FeatureIdentity] {
        var layerOrdinal = -1
        var featureOrdinal = -1
        var found: [UInt64: FeatureIdentity] = [:]
        _ = bytes.withUnsafeBytes { raw in
            MVTDecoder.visit(
                raw, wanted: TileSchema.drawnLayers.contains,
                layer: { _ in
                    layerOrdinal += 1
                    featureOrdinal = -1
                }
            ) { layer, feature in
                featureOrdinal += 1
                found[UInt64(layerOrdinal) << 32 | UInt64(featureOrdinal)] = FeatureIdentity(
                    id: feature.id.map { String($0) }, layer: layer.name,
                    properties: feature.orderedProperties(in: layer).map { FeatureProperty($0.key, $0.value.text) })
            }
        }
        return found
    }

    /// The index of a name in this source's name table (added when new).
    private func intern(_ name: String) -> Int32 {
        state.withLock { s in
            if let i = s.nameIndex[name] { return i }
            let i = Int32(s.names.count)
            s.names.append(name)
            s.nameIndex[name] = i
            return i
        }
    }

    /// True when a tile meets a box of degrees.
    static func meets(_ tile: TileID, _ box: CoordinateBounds) -> Bool { FeatureSources.meets(bounds(tile), box) }

    /// The part of a tile's box inside the tileset's (both within ±180°), nil when none.
    static func overlap(_ tile: CoordinateBounds, _ coverage: CoordinateBounds) -> CoordinateBounds? {
        guard coverage.east - coverage.west < 360 else { return tile }
        let b = CoordinateBounds(
            north: min(tile.north, coverage.north), south: max(tile.south, coverage.south),
            west: max(tile.west, coverage.west), east: min(tile.east, coverage.east))
        return b.north > b.south && b.east > b.west ? b : nil
    }

    /// A tile's box in degrees.
    static func bounds(_ tile: TileID) -> CoordinateBounds {
        let s = tile.unitSquare
        let nw = WebMercator.unproject(MercatorPoint(x: s.minX, y: s.minY))
        let se = WebMercator.unproject(MercatorPoint(x: s.minX + s.size, y: s.minY + s.size))
        return CoordinateBounds(north: nw.latitude, south: se.latitude, west: nw.longitude, east: se.longitude)
    }

    /// Squared distance from a tile's center to a unit-square point.
    static func distance(_ tile: TileID, _ p: MercatorPoint) -> Double {
        let s = tile.unitSquare
        let dx = s.minX + s.size / 2 - p.x
        let dy = s.minY + s.size / 2 - p.y
        return dx * dx + dy * dy
    }
}

/// Collects one class's features of a tile into a `DecodedChunk` (points in the unit square).
struct ChunkBuilder {
    let featureClass: FeatureClass
    let level: Int
    var x: [Double] = []
    var y: [Double] = []
    var starts: [Int] = [0]
    var featureStarts: [Int] = [0]
    var names: [Int32] = []
    var details: [UInt32] = []
    var boxes: [Double] = []
    var origins: [UInt64] = []

    init(featureClass: FeatureClass, level: Int) {
        self.featureClass = featureClass
        self.level = level
    }

    /// Adds a feature's parts (tile units) at `origin + unit · scale`; parts too short to draw are dropped.
    mutating func add(
        _ parts: [[(x: Int64, y: Int64)]], name: Int32, detail: UInt32 = 0, origin: UInt64, originX: Double,
        originY: Double,
        scale: Double
    ) {
        let minPoints = featureClass.isArea ? 4 : featureClass.isPoint ? 1 : 2
        var box = (Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)
        let partsBefore = starts.count
        for part in parts where part.count >= minPoints {
            for p in part {
                let px = originX + Double(p.x) * scale
                let py = originY + Double(p.y) * scale
                x.append(px)
                y.append(py)
                box = (min(box.0, px), min(box.1, py), max(box.2, px), max(box.3, py))
            }
            starts.append(x.count)
        }
        guard starts.count > partsBefore else { return }
        featureStarts.append(starts.count - 1)
        names.append(name)
        details.append(detail)
        origins.append(origin)
        boxes += [box.0, box.1, box.2, box.3]
    }

    /// The chunk, nil when no feature was added.
    func chunk() -> DecodedChunk? {
        guard !names.isEmpty else { return nil }
        // A tile's chunk has no stored units: its box and lon/lat stay empty, its points are Mercator.
        let info = ChunkInfo(
            featureClass: featureClass, kind: featureClass.geometry, level: level, minX: 0, minY: 0,
            maxX: 0, maxY: 0, offset: 0, length: 0, featureCount: names.count, checksum: 0)
        return DecodedChunk(
            info: info, unitsPerDegree: 1, lon: [], lat: [], x: x, y: y, starts: starts, featureStarts: featureStarts,
            nameIndex: names, featureBoxes: boxes, details: details, tileFeatures: origins)
    }
}
