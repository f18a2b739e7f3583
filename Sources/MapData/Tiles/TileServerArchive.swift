import Dispatch
import FoundationEssentials
import GeoCore
import Glibc
import MapFormats
import Support
import Synchronization

/// Tiles from URL templates, one request a tile (MVT, gzip or not): a `{z}/{x}/{y}` server given as a
/// template (no metadata: zooms 0–14, the whole world), or the `tiles` of a TileJSON document. At most
/// `HTTPPool.parallel` requests in flight; a tile the view has left is not asked for; a 404 is
/// remembered for the session; with a disk cache, a fresh tile is drawn without a request, a stale
/// one at once and revalidated in the background (`If-None-Match`, `If-Modified-Since`).
public final class TileServerArchive: TileArchive {
    public let info: TilesetInfo
    /// The disk cache, when kept.
    public let cache: TileDiskCache?
    private let templates: [String]
    private let tms: Bool
    private let pool: HTTPPool
    private let notFound = Mutex<Set<TileID>>([])
    private let revalidating = Mutex<Set<TileID>>([])
    private let revalidations = DispatchGroup()
    private let background = DispatchQueue(label: "termmap.revalidate")

    /// A tile server's template; asks for tile 0/0/0 once (unless tiles of it are cached), so that a
    /// refusing server is an error at start (and one that gives no answer is offline: `unreachable`).
    public convenience init(
        template: String, cache: TileDiskCache? = nil, maxZoom: Int? = nil, credit: String? = nil
    ) throws(MapDataError) {
        let host = URL(string: template.replacing("{", with: "").replacing("}", with: ""))?.host ?? template
        // Raster tile servers (`….png`) go to zoom 19 as a rule; vector ones to 14.
        let image = TilesetInfo.imageFormat(ofTemplate: template)
        let info = TilesetInfo(
            format: "tile server", name: host, minZoom: 0, maxZoom: maxZoom ?? (image == nil ? 14 : 19),
            bounds: CoordinateBounds(north: 90, south: -90, west: -180, east: 180), tileCount: nil, attribution: credit,
            layers: [], compression: "gzip or none (told by each tile)", imageFormat: image)
        try self.init(templates: [template], tms: false, info: info, cache: cache)
        if cache?.resource("probe") != nil { return }
        let first = url(TileID(z: 0, x: 0, y: 0))
        let r = pool.get(HTTPPool.Request(url: first, maxBytes: TileLimits.compressedBytes))
        if r.status == 0 {
            // No answer at all: offline, not an error (the map opens without it and asks again).
            throw MapDataError(file: first, .unreachable(r.timedOut ? "no answer within 10 s" : r.error))
        }
        // A server that asks to wait (429, 503) is there: the pool waits as it asks.
        guard [200, 204, 404, 429, 503].contains(r.status) else {
            throw MapDataError(file: first, .unreadable("HTTP \(r.status)"))
        }
        cache?.put(resource: "probe", TileDiskCache.Entry(body: [], expires: .max))
    }

    /// The tiles of a TileJSON document.
    public convenience init(tileJSON: TileJSON, url: String, cache: TileDiskCache? = nil) throws(MapDataError) {
        let file = url.split(separator: "?").first.flatMap { $0.split(separator: "/").last }.map(String.init) ?? url
        var info = TilesetInfo(
            format: "TileJSON", name: tileJSON.name ?? file, minZoom: tileJSON.minZoom, maxZoom: tileJSON.maxZoom,
            bounds: tileJSON.bounds, tileCount: nil, attribution: tileJSON.attribution, layers: tileJSON.layers,
            compression: "gzip or none (told by each tile)", imageFormat: tileJSON.imageFormat)
        info.encoding = tileJSON.encoding
        try self.init(templates: tileJSON.templates, tms: tileJSON.tms, info: info, cache: cache)
    }

    private init(templates: [String], tms: Bool, info: TilesetInfo, cache: TileDiskCache?) throws(MapDataError) {
        self.templates = templates
        self.tms = tms
        self.info = info
        self.cache = cache
        pool = try HTTPPool.shared(for: templates[0])
    }

    public var isRemote: Bool { true }

    /// A tile's URL (the first template: one host, so that its limit holds).
    func url(_ tile: TileID) -> String {
        let y = tms ? (1 << tile.z) - 1 - tile.y : tile.y
        return templates[0].replacing("{z}", with: String(tile.z)).replacing("{x}", with: String(tile.x))
            .replacing("{y}", with: String(y))
    }

    public func storedTiles(_ ids: [TileID], wanted: @escaping @Sendable (TileID) -> Bool) -> [TileID: Result<
        [UInt8]?, TileFailure
    >] {
        var out: [TileID: Result<[UInt8]?, TileFailure>] = [:]
        var fetch: [TileID] = []
        var stale: [(TileID, TileDiskCache.Entry)] = []
        let now = Int64(time(nil))
        let missing = notFound.withLock { $0 }
        for tile in ids {
            if !tile.isValid || missing.contains(tile) {
                out[tile] = .success(nil)
            } else if let kept = cache?.tile(tile) {
                out[tile] = .success(kept.body)
                if !kept.isFresh(now: now) { stale.append((tile, kept)) }
            } else {
                fetch.append(tile)
            }
        }
        let responses = pool.run(fetch.map { HTTPPool.Request(url: url($0), maxBytes: TileLimits.compressedBytes) }) {
            i in
            wanted(fetch[i])
        }
        for (tile, r) in zip(fetch, responses) {
            if let result = take(r, tile: tile, now: now) { out[tile] = result }
        }
        if !stale.isEmpty { revalidate(stale) }
        return out
    }

    /// What a response means for a tile (nil: dropped, no result), kept on disk when it is an answer.
    private func take(_ r: HTTPPool.Response, tile: TileID, now: Int64) -> Result<[UInt8]?, TileFailure>? {
        func keep(_ body: [UInt8]?) {
            cache?.put(
                tile,
                TileDiskCache.Entry(
                    body: body, etag: r.etag, lastModified: r.lastModified, expires: now + r.freshSeconds(now: now)))
        }
        if let broke = r.brokeOff { return .failure(TileFailure("tile \(tile): \(broke)", retry: .after(30))) }
        switch r.status {
        case -1: return nil
        case 200 where r.tooBig: return .failure(TileFailure("tile \(tile) is more than 4 MB"))
        case 200:
            keep(r.body)
            return .success(r.body)
        case 204, 404:
            notFound.withLock { _ = $0.insert(tile) }
            keep(nil)
            return .success(nil)
        case 0 where r.deferred:
            return .failure(TileFailure("tile \(tile): the server asked to wait", retry: .after(1)))
        case 0 where r.timedOut: return .failure(TileFailure("tile \(tile): no answer within 10 s", retry: .after(30)))
        case 0: return .failure(TileFailure("tile \(tile): \(r.error)", retry: .offline))
        case 429, 503:
            return .failure(TileFailure("tile \(tile): HTTP \(r.status)", retry: .after(Double(r.retryAfter ?? 1))))
        case 500...: return .failure(TileFailure("tile \(tile): HTTP \(r.status)", retry: .after(30)))
        default: return .failure(TileFailure("tile \(tile): HTTP \(r.status)"))
        }
    }

    /// Asks the server whether stale tiles still hold (304 keeps the body with a new expiry), in the
    /// background: they are drawn meanwhile.
    private func revalidate(_ stale: [(TileID, TileDiskCache.Entry)]) {
        let todo = revalidating.withLock { busy in
            stale.filter { busy.insert($0.0).inserted }
        }
        guard !todo.isEmpty else { return }
        background.async(group: revalidations) { [self] in
            let requests = todo.map { tile, kept in
                var r = HTTPPool.Request(url: url(tile), maxBytes: TileLimits.compressedBytes)
                r.ifNoneMatch = kept.etag.isEmpty ? nil : kept.etag
                r.ifModifiedSince = kept.lastModified.isEmpty ? nil : kept.lastModified
                return r
            }
            let now = Int64(time(nil))
            for ((tile, kept), r) in zip(todo, pool.run(requests)) {
                if r.status == 304 {
                    var renewed = kept
                    renewed.expires = now + r.freshSeconds(now: now)
                    if !r.etag.isEmpty { renewed.etag = r.etag }
                    cache?.put(tile, renewed)
                } else {
                    _ = take(r, tile: tile, now: now)
                }
            }
            revalidating.withLock { busy in for (tile, _) in todo { busy.remove(tile) } }
        }
    }

    public func takeNotices() -> [String] { cache?.takeNotices() ?? [] }

    public func finish() {
        _ = revalidations.wait(timeout: .now() + .seconds(15))
        cache?.close()
    }
}
