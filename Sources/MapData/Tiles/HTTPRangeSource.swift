import CCurl
import FoundationEssentials
import Glibc
import GeoCore
import Support

/// One HTTP GET through libcurl (loaded on first use), with the errors a user can act on.
final class HTTPClient: @unchecked Sendable {
    // @unchecked: the curl handle and the ETag are used only under `lock`.
    private let handle: UnsafeMutableRawPointer
    private let lock = Lock()
    let url: String
    /// Seconds before a request gives up.
    static let timeoutMilliseconds = 10_000

    init(url: String) throws(MapDataError) {
        self.url = url
        var why = [CChar](repeating: 0, count: 256)
        guard termmap_http_load(&why, why.count) == 0, let h = termmap_http_new() else {
            throw MapDataError(file: url, .unreadable(String(decoding: why.prefix { $0 != 0 }.map(UInt8.init), as: UTF8.self)))
        }
        handle = h
    }

    deinit { termmap_http_delete(handle) }

    struct Response {
        var status: Int
        var body: [UInt8]
        var etag: String
        var tooBig: Bool
        /// The file's size from `Content-Range`, when the server said.
        var totalSize: UInt64?
    }

    /// GETs `url` (range and If-Match optional); a failure to get any answer is one line.
    func get(_ url: String, range: String?, ifMatch: String?, maxBytes: Int) throws(MapDataError) -> Response {
        lock.lock()
        defer { lock.unlock() }
        var r = termmap_http_response()
        let ok = termmap_http_get(handle, url, range, ifMatch, maxBytes, Self.timeoutMilliseconds, &r)
        defer { termmap_http_free(&r) }
        guard ok == 0 else {
            let error = withUnsafeBytes(of: r.error) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if r.timed_out != 0 {
                throw MapDataError(file: url, .unreadable("no answer within \(Self.timeoutMilliseconds / 1000) s"))
            }
            throw MapDataError(file: url, .unreadable(error))
        }
        let body = r.body.map { [UInt8](UnsafeBufferPointer(start: $0, count: r.length)) } ?? []
        let etag = withUnsafeBytes(of: r.etag) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return Response(
            status: r.status, body: body, etag: etag, tooBig: r.too_big != 0,
            totalSize: r.total_size >= 0 ? UInt64(r.total_size) : nil)
    }
}

/// A remote file read by HTTP range requests (a `.pmtiles` on any static server, object store or
/// CDN). Neighbouring ranges asked for together go in one request; every request after the first
/// sends `If-Match` with the file's ETag, so that a file replaced on the server answers 412 and the
/// reader starts again instead of mixing two files.
public final class HTTPRangeSource: ByteRangeSource, @unchecked Sendable {
    // @unchecked: `etag` and `changed` are used only under `lock`.
    public let name: String
    private let client: HTTPClient
    private let lock = Lock()
    private var etag: String?
    private var changed = false
    private var size: UInt64?
    /// Ranges closer than this are fetched as one (a request costs more than a few KB over the wire).
    static let coalesceGap: UInt64 = 32 * 1024
    /// The largest coalesced request.
    static let maxRequest = 8 << 20

    /// A source for `url`; loads libcurl (no request yet).
    public init(url: String) throws(MapDataError) {
        name = url
        client = try HTTPClient(url: url)
    }

    public var knownSize: UInt64? {
        lock.lock()
        defer { lock.unlock() }
        return size
    }

    public func takeChanged() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        let c = changed
        changed = false
        return c
    }

    public func read(offset: UInt64, length: Int) throws(MapDataError) -> [UInt8] {
        guard length > 0 else { return [] }
        // Offsets from a forged header cannot be asked for (nor overflow the range below).
        guard offset < 1 << 62 else { throw MapDataError(file: name, .badOffset("range at \(offset)")) }
        lock.lock()
        // A weak ETag cannot be matched by If-Match (RFC 9110 §13.1.1): without a strong one, no check.
        let match = etag.flatMap { $0.hasPrefix("W/") || $0.isEmpty ? nil : $0 }
        lock.unlock()
        let r = try client.get(
            name, range: "\(offset)-\(offset + UInt64(length) - 1)", ifMatch: match, maxBytes: length)
        func fail(_ why: String) -> MapDataError { MapDataError(file: name, .unreadable(why)) }
        switch r.status {
        case 206:
            lock.lock()
            if etag == nil { etag = r.etag }
            if let total = r.totalSize { size = total }
            lock.unlock()
            return r.body
        case 200:
            // The server sent the whole file: usable only when it is small enough to have fitted.
            guard !r.tooBig else { throw fail("the server does not answer range requests") }
            lock.lock()
            if etag == nil { etag = r.etag }
            size = UInt64(r.body.count)
            lock.unlock()
            guard offset < UInt64(r.body.count) else { return [] }
            return Array(r.body[Int(offset)..<min(r.body.count, Int(offset) + length)])
        case 412:
            lock.lock()
            changed = true
            etag = nil
            lock.unlock()
            throw fail("the file changed on the server (HTTP 412)")
        case 416:
            return []
        default:
            throw fail("HTTP \(r.status)")
        }
    }

    public func read(ranges: [(offset: UInt64, length: Int)]) throws(MapDataError) -> [[UInt8]] {
        // Sort, join neighbours, fetch each group once, hand each range its slice.
        if let bad = ranges.first(where: { $0.offset >= 1 << 62 || $0.length < 0 }) {
            throw MapDataError(file: name, .badOffset("range at \(bad.offset)"))
        }
        let order = ranges.indices.sorted { ranges[$0].offset < ranges[$1].offset }
        var out = [[UInt8]](repeating: [], count: ranges.count)
        var i = 0
        while i < order.count {
            let start = ranges[order[i]].offset
            var end = start + UInt64(ranges[order[i]].length)
            var j = i + 1
            while j < order.count {
                let r = ranges[order[j]]
                let newEnd = max(end, r.offset + UInt64(r.length))
                guard r.offset <= end + Self.coalesceGap, newEnd - start <= UInt64(Self.maxRequest) else { break }
                end = newEnd
                j += 1
            }
            let bytes = try read(offset: start, length: Int(end - start))
            for k in i..<j {
                let r = ranges[order[k]]
                let from = Int(r.offset - start)
                out[order[k]] = from < bytes.count ? Array(bytes[from..<min(bytes.count, from + r.length)]) : []
            }
            i = j
        }
        return out
    }
}

/// A tile server: `https://host/{z}/{x}/{y}.pbf`, one request a tile (MVT, gzip or not). It has no
/// metadata: zooms 0–14 (the usual range of such servers), the whole world.
public final class TileServerArchive: TileArchive {
    public let info: TilesetInfo
    private let template: String
    private let client: HTTPClient

    /// A server's template; asks for tile 0/0/0 once, so that an unreachable server is an error at start.
    public init(template: String) throws(MapDataError) {
        self.template = template
        client = try HTTPClient(url: template)
        let host = URL(string: template.replacing("{", with: "").replacing("}", with: ""))?
            .host ?? template
        info = TilesetInfo(
            format: "tile server", name: host, minZoom: 0, maxZoom: 14,
            bounds: CoordinateBounds(north: 90, south: -90, west: -180, east: 180), tileCount: nil, attribution: nil,
            layers: [], compression: "gzip or none (told by each tile)")
        let first = url(TileID(z: 0, x: 0, y: 0))
        let r = try client.get(first, range: nil, ifMatch: nil, maxBytes: TileLimits.compressedBytes)
        guard [200, 204, 404].contains(r.status) else {
            throw MapDataError(file: first, .unreadable("HTTP \(r.status)"))
        }
    }

    public var isRemote: Bool { true }

    func url(_ tile: TileID) -> String {
        template.replacing("{z}", with: String(tile.z)).replacing("{x}", with: String(tile.x))
            .replacing("{y}", with: String(tile.y))
    }

    public func tiles(_ ids: [TileID]) -> [TileID: Result<[UInt8]?, TileFailure>] {
        var out: [TileID: Result<[UInt8]?, TileFailure>] = [:]
        for tile in ids {
            do {
                let r = try client.get(url(tile), range: nil, ifMatch: nil, maxBytes: TileLimits.compressedBytes)
                switch r.status {
                case 200 where r.tooBig: out[tile] = .failure(TileFailure("tile \(tile) is more than 4 MB"))
                case 200: out[tile] = TileLimits.inflate(r.body)
                case 204, 404: out[tile] = .success(nil)
                default: out[tile] = .failure(TileFailure("tile \(tile): HTTP \(r.status)"))
                }
            } catch {
                out[tile] = .failure(TileFailure(error.description))
            }
        }
        return out
    }
}
