import CCurl
import FoundationEssentials
import Glibc
import MapFormats
import Support
import SystemSupport

/// The HTTP requests of one host: at most `parallel` in flight (over connections libcurl keeps alive,
/// or streams of one HTTP/2 connection), a `User-Agent` naming termmap, and the host's wishes
/// honoured: after a 429 or 503 nothing is sent until its `Retry-After` has passed (a doubling backoff
/// without one). One pool a host for the whole process, so that every source on a host shares its
/// limit.
public final class HTTPPool: @unchecked Sendable {
    // @unchecked: the multi handle is used only under `running`, the backoff only under `lock`.
    private let handle: UnsafeMutableRawPointer
    private let running = Lock()
    private let lock = Lock()
    /// `scheme://host:port`.
    public let host: String
    /// Requests in flight at most (MapSCII and browsers: a handful a host).
    public static let parallel = 4
    /// Seconds before a request gives up.
    public static let timeoutMilliseconds = 10_000
    /// Sent with every request.
    public static let userAgent = "termmap/\(HTTPPool.version)"
    /// The program's version (for the User-Agent).
    public static let version = "0.1.0"
    private var blockedUntil = 0.0
    private var backoff = 1.0

    private static let poolsLock = Lock()
    nonisolated(unsafe) private static var pools: [String: HTTPPool] = [:]

    /// The pool for `url`'s host, loading libcurl on first use.
    public static func shared(for url: String) throws(MapDataError) -> HTTPPool {
        let key = hostKey(url)
        poolsLock.lock()
        defer { poolsLock.unlock() }
        if let p = pools[key] { return p }
        var why = [CChar](repeating: 0, count: 256)
        guard termmap_http_load(&why, why.count) == 0, let h = termmap_http_pool_new() else {
            throw MapDataError(
                file: url, .unreadable(String(decoding: why.prefix { $0 != 0 }.map(UInt8.init), as: UTF8.self)))
        }
        let p = HTTPPool(handle: h, host: key)
        pools[key] = p
        return p
    }

    private init(handle: UnsafeMutableRawPointer, host: String) {
        self.handle = handle
        self.host = host
    }

    deinit { termmap_http_pool_delete(handle) }

    /// `scheme://host:port` of a URL (lowercased), the URL itself when it has none.
    static func hostKey(_ url: String) -> String {
        let parts = url.split(separator: "://", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return url }
        let authority = parts[1].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return (parts[0] + "://" + authority).lowercased()
    }

    /// One GET.
    public struct Request: Sendable {
        public var url: String
        public var range: String? = nil
        public var ifMatch: String? = nil
        public var ifNoneMatch: String? = nil
        public var ifModifiedSince: String? = nil
        public var maxBytes: Int
        public init(url: String, range: String? = nil, maxBytes: Int) {
            self.url = url
            self.range = range
            self.maxBytes = maxBytes
        }
    }

    /// How a GET went.
    public struct Response: Sendable {
        /// The HTTP status; 0 when no answer came (see `error`), -1 when dropped before it was sent.
        public var status: Int
        public var body: [UInt8]
        public var etag: String
        public var lastModified: String
        public var cacheControl: String
        /// `Expires` and `Date` as Unix seconds.
        public var expires: Int64?
        public var date: Int64?
        /// Seconds the server asked to wait (429, 503).
        public var retryAfter: Int64?
        /// Why no answer came.
        public var error: String
        public var timedOut: Bool
        /// The body passed `maxBytes` (the transfer was stopped).
        public var tooBig: Bool
        /// The file's size from `Content-Range`.
        public var totalSize: UInt64?
        /// True when the pool held the request back (the host asked to wait): nothing was sent.
        public var deferred = false

        /// No answer at all: the network or the server is down (not an HTTP error, not a wait).
        public var unreachable: Bool { status == 0 && !deferred }

        /// Why an answer that began did not end, nil when it ended (or was stopped at `maxBytes`): the
        /// server stalled (timed out) or the connection broke after some of the body. Such a body is
        /// never taken for the whole (it was read as a file cut short: "truncated").
        public var brokeOff: String? {
            guard status > 0, !tooBig, !error.isEmpty else { return nil }
            let got = body.count == 1 ? "1 byte" : "\(body.count) bytes"
            if timedOut {
                return "timed out: the server sent \(got) and then nothing for \(HTTPPool.timeoutMilliseconds / 1000) s"
            }
            return "the answer broke off after \(got) (\(error))"
        }

        /// Seconds from now the answer may be used without asking again (RFC 9111 §4.2.1: `no-store`
        /// and `no-cache` none, else `max-age`, else `Expires` − `Date`, else a tenth of the time since
        /// `Last-Modified` up to a day (§4.2.2's heuristic), else none).
        public func freshSeconds(now: Int64) -> Int64 {
            let directives = cacheControl.lowercased().split(separator: ",").map { $0.trimmedOfWhitespace }
            if directives.contains(where: { $0 == "no-store" || $0 == "no-cache" }) { return 0 }
            for d in directives where d.hasPrefix("max-age=") {
                if let v = Int64(d.dropFirst(8).filter { $0 != "\"" }) { return max(0, v) }
            }
            if let expires { return max(0, expires - (date ?? now)) }
            if !lastModified.isEmpty {
                let modified = termmap_http_date(lastModified)
                if modified >= 0 { return min(86_400, max(0, ((date ?? now) - Int64(modified)) / 10)) }
            }
            return 0
        }
    }

    /// Runs `requests`, at most `parallel` at a time; `wanted(i)` is asked before request `i` is sent
    /// (false drops it: the view moved on). While the host has asked to wait, nothing is sent and
    /// every response is `deferred`.
    public func run(_ requests: [Request], wanted: ((Int) -> Bool)? = nil) -> [Response] {
        guard !requests.isEmpty else { return [] }
        let now = monotonicSeconds()
        lock.lock()
        let waiting = blockedUntil > now
        lock.unlock()
        if waiting {
            return requests.map { _ in
                Response(
                    status: 0, body: [], etag: "", lastModified: "", cacheControl: "",
                    error: "the server asked to wait",
                    timedOut: false, tooBig: false, deferred: true)
            }
        }
        running.lock()
        defer { running.unlock() }
        var cRequests = [termmap_http_request](repeating: termmap_http_request(), count: requests.count)
        var responses = [termmap_http_response](repeating: termmap_http_response(), count: requests.count)
        // The C strings live as long as the arrays below.
        var strings: [UnsafeMutablePointer<CChar>] = []
        func c(_ s: String?) -> UnsafePointer<CChar>? {
            guard let s, let p = strdup(s) else { return nil }
            strings.append(p)
            return UnsafePointer(p)
        }
        defer { for p in strings { free(p) } }
        for (i, r) in requests.enumerated() {
            cRequests[i] = termmap_http_request(
                url: c(r.url), range: c(r.range), if_match: c(r.ifMatch), if_none_match: c(r.ifNoneMatch),
                if_modified_since: c(r.ifModifiedSince), max_bytes: max(0, r.maxBytes))
        }
        final class Context {
            let wanted: ((Int) -> Bool)?
            init(_ wanted: ((Int) -> Bool)?) { self.wanted = wanted }
        }
        let context = Context(wanted)
        let ask: @convention(c) (UnsafeMutableRawPointer?, Int32) -> Int32 = { raw, index in
            guard let raw else { return 1 }
            let ctx = Unmanaged<Context>.fromOpaque(raw).takeUnretainedValue()
            return ctx.wanted?(Int(index)) == false ? 0 : 1
        }
        withExtendedLifetime(context) {
            termmap_http_run(
                handle, cRequests, &responses, Int32(requests.count), Int32(Self.parallel),
                Self.timeoutMilliseconds, Self.userAgent, wanted == nil ? nil : ask,
                Unmanaged.passUnretained(context).toOpaque())
        }
        var out: [Response] = []
        out.reserveCapacity(responses.count)
        var wait: Int64?
        for var r in responses {
            func text<T>(_ field: T) -> String {
                withUnsafeBytes(of: field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            }
            let body = r.body.map { [UInt8](UnsafeBufferPointer(start: $0, count: r.length)) } ?? []
            let response = Response(
                status: r.status, body: body, etag: text(r.etag), lastModified: text(r.last_modified),
                cacheControl: text(r.cache_control), expires: r.expires >= 0 ? r.expires : nil,
                date: r.date >= 0 ? r.date : nil, retryAfter: r.retry_after >= 0 ? r.retry_after : nil,
                error: text(r.error), timedOut: r.timed_out != 0, tooBig: r.too_big != 0,
                totalSize: r.total_size >= 0 ? UInt64(r.total_size) : nil)
            termmap_http_free(&r)
            if response.status == 429 || response.status == 503 {
                wait = max(wait ?? 0, response.retryAfter ?? -1)
            }
            out.append(response)
        }
        lock.lock()
        if let wait {
            // Retry-After when given, else a backoff doubling from 1 s to a minute.
            let seconds = wait >= 0 ? Double(wait) : backoff
            if wait < 0 { backoff = min(60, backoff * 2) }
            blockedUntil = monotonicSeconds() + seconds
        } else if out.contains(where: { $0.status >= 200 && $0.status < 400 }) {
            backoff = 1
        }
        lock.unlock()
        return out
    }

    /// One request (see `run`).
    public func get(_ request: Request) -> Response { run([request])[0] }
}
