import FoundationEssentials
import GeoCore
import Glibc
import MapFormats
import Support
import SystemSupport

/// A remote file read by HTTP range requests (a `.pmtiles` on any static server, object store or
/// CDN). Neighbouring ranges asked for together go in one request; every request after the first
/// sends `If-Match` with the file's ETag, so that a file replaced on the server answers 412 and the
/// reader starts again instead of mixing two files. With a disk cache, the header and directories
/// read before come from it (the header while the server's expiry holds; then it is read again, and a
/// new ETag empties the cache), and a file with nothing reachable is read from what is cached.
public final class HTTPRangeSource: ByteRangeSource, @unchecked Sendable {
    // @unchecked: `etag`, `changed`, `size`, `head` and `unreachable` are used only under `lock`.
    public let name: String
    /// Where its header, directories and tiles are kept.
    public let cache: TileDiskCache?
    private let pool: HTTPPool
    private let lock = Lock()
    private var etag: String?
    private var changed = false
    private var size: UInt64?
    private var unreachable = false
    private var waitSeconds: Double?
    /// The answer of the first read, made to tell the file's kind, kept for the reader's first read.
    private var head: (offset: UInt64, bytes: [UInt8])?
    /// Ranges closer than this are fetched as one (a request costs more than a few KB over the wire).
    static let coalesceGap: UInt64 = 32 * 1024
    /// The largest coalesced request.
    static let maxRequest = 8 << 20

    /// A source for `url`; loads libcurl (no request yet).
    public init(url: String, cache: TileDiskCache? = nil) throws(MapDataError) {
        name = url
        self.cache = cache
        pool = try HTTPPool.shared(for: url)
    }

    public var knownSize: UInt64? {
        lock.lock()
        defer { lock.unlock() }
        return size
    }

    /// True when the last request got no answer at all (the network or the server is down).
    public var isUnreachable: Bool {
        lock.lock()
        defer { lock.unlock() }
        return unreachable
    }

    public func takeChanged() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        let c = changed
        changed = false
        return c
    }

    /// When a read that threw may be tried again.
    func retry(after error: MapDataError) -> TileFailure.Retry {
        lock.lock()
        defer { lock.unlock() }
        if unreachable { return .offline }
        return .after(waitSeconds ?? 30)
    }

    /// The cache key of the first 16 KiB (header and root directory).
    public static let headerKey = "bytes=0-16383"

    /// Takes the answer to a first request for the file's first 16 KiB (made to tell its kind) as the
    /// answer to the reader's first read: one request tells the kind and opens the file.
    func adopt(head response: HTTPPool.Response) {
        lock.lock()
        head = (0, response.body)
        etag = response.etag
        size = response.status == 200 ? UInt64(response.body.count) : response.totalSize
        lock.unlock()
    }

    /// Keeps the first 16 KiB in the cache, once the archive has found them sound.
    func keep(head response: HTTPPool.Response) {
        let now = Int64(time(nil))
        cache?.put(
            resource: Self.headerKey,
            TileDiskCache.Entry(
                body: response.body, etag: response.etag, lastModified: response.lastModified,
                expires: now + response.freshSeconds(now: now)))
    }

    public func read(offset: UInt64, length: Int) throws(MapDataError) -> [UInt8] {
        guard length > 0 else { return [] }
        // Offsets from a forged header cannot be asked for (nor overflow the range below).
        guard offset < 1 << 62 else { throw MapDataError(file: name, .badOffset("range at \(offset)")) }
        lock.lock()
        if let h = head, h.offset == offset, h.bytes.count == length || length >= h.bytes.count {
            head = nil
            lock.unlock()
            return h.bytes
        }
        lock.unlock()
        let key = "bytes=\(offset)-\(offset + UInt64(length) - 1)"
        if let kept = cache?.resource(key), let body = kept.body {
            lock.lock()
            if etag == nil { etag = kept.etag }
            lock.unlock()
            // Directories and metadata hold while the file's ETag does; the header says when to look again.
            if offset != 0 || kept.isFresh(now: Int64(time(nil))) { return body }
            do {
                let (bytes, fresh) = try fetch(offset: offset, length: length, keepETag: false)
                if fresh.etag != kept.etag {
                    cache?.removeAll()
                    lock.lock()
                    etag = fresh.etag
                    lock.unlock()
                }
                cache?.put(resource: key, fresh)
                return bytes
            } catch {
                if isUnreachable { return body }
                throw error
            }
        }
        let (bytes, entry) = try fetch(offset: offset, length: length, keepETag: true)
        cache?.put(resource: key, entry)
        return bytes
    }

    /// One range from the server, and how to keep it (the header with the server's expiry, the rest
    /// for as long as the file's ETag holds).
    private func fetch(offset: UInt64, length: Int, keepETag: Bool) throws(MapDataError) -> (
        [UInt8], TileDiskCache.Entry
    ) {
        lock.lock()
        // A weak ETag cannot be matched by If-Match (RFC 9110 §13.1.1): without a strong one, no check.
        let match = keepETag ? etag.flatMap { $0.hasPrefix("W/") || $0.isEmpty ? nil : $0 } : nil
        lock.unlock()
        var request = HTTPPool.Request(url: name, range: "\(offset)-\(offset + UInt64(length) - 1)", maxBytes: length)
        request.ifMatch = match
        let r = pool.get(request)
        func fail(_ why: String) -> MapDataError { MapDataError(file: name, .unreadable(why)) }
        lock.lock()
        unreachable = r.unreachable
        waitSeconds = r.deferred || r.status == 429 || r.status == 503 ? Double(r.retryAfter ?? 1) : nil
        lock.unlock()
        if r.status == 0 {
            if r.timedOut { throw fail("no answer within \(HTTPPool.timeoutMilliseconds / 1000) s") }
            throw fail(r.error)
        }
        if let broke = r.brokeOff { throw fail(broke) }
        let now = Int64(time(nil))
        let expires = offset == 0 ? now + r.freshSeconds(now: now) : .max
        func kept(_ bytes: [UInt8]) -> TileDiskCache.Entry {
            TileDiskCache.Entry(body: bytes, etag: r.etag, lastModified: r.lastModified, expires: expires)
        }
        switch r.status {
        case 206:
            lock.lock()
            if etag == nil || !keepETag { etag = r.etag }
            if let total = r.totalSize { size = total }
            lock.unlock()
            return (r.body, kept(r.body))
        case 200:
            // The server sent the whole file: usable only when it is small enough to have fitted.
            guard !r.tooBig else { throw fail("the server does not answer range requests (it sent the whole file)") }
            lock.lock()
            if etag == nil || !keepETag { etag = r.etag }
            size = UInt64(r.body.count)
            lock.unlock()
            guard offset < UInt64(r.body.count) else { return ([], kept([])) }
            let part = Array(r.body[Int(offset)..<min(r.body.count, Int(offset) + length)])
            return (part, kept(part))
        case 412:
            lock.lock()
            changed = true
            etag = nil
            lock.unlock()
            cache?.removeAll()
            throw fail("the file changed on the server (HTTP 412)")
        case 416:
            return ([], kept([]))
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
            let bytes = try fetch(offset: start, length: Int(end - start), keepETag: true).0
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
