import Dispatch
import FoundationEssentials
import Glibc
import MapFormats
import Support
import Synchronization
import SystemSupport
import Viewer

/// Where `--gps` reads positions from (issue 49): gpsd over TCP, or NMEA 0183 from a file or a device.
enum GPSSource: Equatable, Sendable {
    case gpsd(host: String, port: Int)
    case nmea(path: String)

    /// gpsd's port (IANA's, gpsd.gitlab.io).
    static let gpsdPort = 2947

    /// `HOST:PORT`, `HOST`, `[::1]:2947`; a path (with a `/`, or a file that exists) is NMEA.
    init(_ text: String) throws(UsageError) {
        if text.contains("/") || access(text, F_OK) == 0 {
            self = .nmea(path: text)
            return
        }
        var host = text
        var port = Self.gpsdPort
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            if rest.hasPrefix(":") {
                guard let p = Int(rest.dropFirst()), (1...65535).contains(p) else {
                    throw UsageError("--gps \(text): the port is a number from 1 to 65535")
                }
                port = p
            }
        } else if let colon = text.lastIndex(of: ":"), text.firstIndex(of: ":") == colon {
            host = String(text[..<colon])
            guard let p = Int(text[text.index(after: colon)...]), (1...65535).contains(p) else {
                throw UsageError("--gps \(text): the port is a number from 1 to 65535 (or give a file: ./\(text))")
            }
            port = p
        }
        guard !host.isEmpty else { throw UsageError("--gps \(text): no host (localhost:2947, or a file)") }
        self = .gpsd(host: host, port: port)
    }

    var isNMEA: Bool {
        if case .nmea = self { return true }
        return false
    }

    /// As the status line and messages say it.
    var label: String {
        switch self {
        case .gpsd(let host, let port): "gpsd \(host.contains(":") ? "[\(host)]" : host):\(port)"
        case .nmea(let path): path
        }
    }
}

/// Reads positions in the background and posts them to the viewer (at most once a frame, and at once
/// when the state changes), recording each fix to a GPX track while asked. gpsd that is not there or
/// goes away, a device that cannot be opened: said once, tried again every 5 s, the map goes on.
final class GPSInput: Sendable {
    let source: GPSSource
    private let inbox: EventInbox?
    private let state: Mutex<State>

    /// Seconds between two tries to reach a source that is not there.
    static let retrySeconds = 5.0
    /// Seconds between two posts of a busy source (a frame at 30 a second).
    static let postEvery = 0.033

    struct State {
        var fix: GPSFix?
        var status: String? = "waiting for a position"
        var satellites: (used: Int, seen: Int)?
        var badLines = 0
        var recorder: GPXRecorder?
        var recordPath: String?
        var recordingProblem: String?
        var changed = true
        var lastPost = 0.0
        var saidStatus: String?
    }

    /// An input from `source`, posting to `inbox`, recording to `recordPath` once asked (`--gps-record`
    /// asks at once).
    init(source: GPSSource, inbox: EventInbox?, recordPath: String?) {
        self.source = source
        self.inbox = inbox
        state = Mutex(State(recordPath: recordPath))
    }

    /// Starts reading in the background; never ends.
    func start() {
        DispatchQueue(label: "termmap.gps").async { [self] in readForever() }
    }

    /// The reading loop: a source that ends or is not there is tried again every `retrySeconds`.
    // Not optimised: the optimiser's loop-invariant code motion (Swift 6.3) spent minutes on this
    // endless loop with `post` inlined; the loop waits on I/O, optimising it buys nothing.
    @_optimize(none)
    func readForever() {
        while true {
            switch source {
            case .gpsd(let host, let port): readGPSD(host: host, port: port)
            case .nmea(let path): readNMEA(path)
            }
            post(force: true)
            usleep(useconds_t(Self.retrySeconds * 1_000_000))
        }
    }

    /// Starts or stops recording (`R`, `--gps-record`); the file or the problem comes in the next post.
    func setRecording(_ on: Bool) {
        state.withLock { s in
            s.changed = true
            guard on else {
                s.recorder?.close()
                s.recorder = nil
                return
            }
            guard s.recorder == nil else { return }
            let path = s.recordPath ?? Self.defaultTrackName()
            do throws(RecordingError) {
                s.recorder = try GPXRecorder(path: path)
                s.recordPath = path
                s.recordingProblem = nil
            } catch {
                s.recordingProblem = error.description
            }
        }
        post(force: true)
    }

    /// Closes the track (its closing tags are written already; this syncs it): at the program's end.
    func finish() {
        state.withLock { s in
            s.recorder?.close()
            s.recorder = nil
        }
    }

    /// `track-20261206-0110.gpx` in the current folder, from the clock (UTC).
    static func defaultTrackName() -> String {
        var t = time(nil)
        var parts = tm()
        gmtime_r(&t, &parts)
        func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "track-\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))-"
            + "\(two(parts.tm_hour))\(two(parts.tm_min)).gpx"
    }

    /// The update as it stands.
    var update: PositionUpdate {
        state.withLock { s in
            PositionUpdate(
                fix: s.fix, status: s.status, badLines: s.badLines, recording: s.recorder?.path,
                recordingProblem: s.recordingProblem)
        }
    }

    /// Takes one report: the fix (recorded), no fix, the satellites.
    func take(_ report: GPSReport) {
        state.withLock { s in
            switch report {
            case .fix(let fix):
                if fix != s.fix {
                    do throws(RecordingError) {
                        try s.recorder?.append(fix)
                    } catch {
                        s.recordingProblem = error.description
                        s.recorder = nil
                    }
                }
                s.fix = fix
                s.status = nil
            case .noFix:
                s.fix = nil
                s.status = "no fix" + (s.satellites.map { " (\($0.seen) satellites)" } ?? "")
            case .satellites(let used, let seen):
                s.satellites = (used, seen)
                if s.fix == nil { s.status = "no fix (\(seen) satellites)" }
            }
            s.changed = true
        }
    }

    /// The source is gone (or not there): its last fix stays, said as such.
    func lost(_ why: String) {
        state.withLock { s in
            s.status = why
            s.changed = true
        }
    }

    func countBad() {
        state.withLock { s in
            s.badLines += 1
            s.changed = true
        }
    }

    /// Posts the update when it changed and a frame's time has passed, or at once when its status changed
    /// (or `force`).
    func post(force: Bool = false) {
        guard let inbox else { return }
        let now = monotonicSeconds()
        let update: PositionUpdate? = state.withLock { s in
            guard s.changed, force || now - s.lastPost >= Self.postEvery || s.status != s.saidStatus else { return nil }
            s.changed = false
            s.lastPost = now
            s.saidStatus = s.status
            let u = PositionUpdate(
                fix: s.fix, status: s.status, badLines: s.badLines, recording: s.recorder?.path,
                recordingProblem: s.recordingProblem)
            s.recordingProblem = nil
            return u
        }
        if let update { inbox.post(.position(update)) }
    }

    // MARK: gpsd

    /// One connection to gpsd: asks for its JSON reports and reads them until it goes away.
    @_optimize(none)  // a loop that waits on I/O (see `readForever`)
    func readGPSD(host: String, port: Int) {
        let label = source.label
        let fd: Int32
        switch Self.connect(host: host, port: port) {
        case .success(let opened): fd = opened
        case .failure(let why):
            lost("no \(label) (\(why)); trying again every \(Int(Self.retrySeconds)) s")
            return
        }
        defer { close(fd) }
        let watch = Array(GPSDReports.watch.utf8)
        guard watch.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == watch.count else {
            lost("\(label) refused the watch (\(systemErrorReason())); trying again every \(Int(Self.retrySeconds)) s")
            return
        }
        var lines = LineSplitter(limit: GPSDReports.maxLineBytes)
        let ended = readLines(fd, &lines) { line in
            do {
                if let report = try GPSDReports.report(line) { take(report) }
            } catch {
                countBad()
            }
        }
        lost("\(label) \(ended); trying again every \(Int(Self.retrySeconds)) s")
    }

    /// Reads `fd` until it ends, each line to `each` (a line over the limit is counted as bad), posting
    /// as it goes; what ended it.
    @_optimize(none)  // a loop that waits on I/O (see `readForever`)
    func readLines(_ fd: Int32, _ lines: inout LineSplitter, tail: Bool = false, _ each: ([UInt8]) -> Void)
        -> String
    {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&p, 1, Int32(Self.postEvery * 1000))
            if ready == 0 {
                post()
                continue
            }
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            if n == 0 && tail {
                // A file read to its end: what is appended comes later.
                post()
                usleep(200_000)
                continue
            }
            guard n > 0 else { return n == 0 ? "closed the connection" : "failed (\(systemErrorReason()))" }
            for line in lines.feed(buffer[0..<n]) {
                if let line { each(line) } else { countBad() }
            }
            post()
        }
    }

    /// A TCP connection to `host`:`port` (IPv4 or IPv6, as getaddrinfo gives), within 3 s.
    static func connect(host: String, port: Int) -> Result<Int32, SocketError> {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var found: UnsafeMutablePointer<addrinfo>?
        let looked = getaddrinfo(host, String(port), &hints, &found)
        guard looked == 0, let first = found else {
            return .failure(SocketError(reason: "cannot find \(host): \(String(cString: gai_strerror(looked)))"))
        }
        defer { freeaddrinfo(first) }
        var reason = "connection refused"
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let a = next {
            next = a.pointee.ai_next
            let fd = socket(a.pointee.ai_family, a.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { continue }
            if Glibc.connect(fd, a.pointee.ai_addr, a.pointee.ai_addrlen) == 0 { return .success(fd) }
            reason = systemErrorReason()
            close(fd)
        }
        return .failure(SocketError(reason: reason))
    }

    struct SocketError: Error, CustomStringConvertible {
        var reason: String
        var description: String { reason }
    }

    // MARK: NMEA

    /// NMEA sentences from a file (read to its end, then what is appended) or a device (a serial port,
    /// set raw: no echo, no line editing).
    @_optimize(none)  // a loop that waits on I/O (see `readForever`)
    func readNMEA(_ path: String) {
        let fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            lost("cannot read \(path) (\(systemErrorReason())); trying again every \(Int(Self.retrySeconds)) s")
            return
        }
        defer { close(fd) }
        var st = stat()
        let isFile = fstat(fd, &st) == 0 && st.st_mode & S_IFMT == S_IFREG
        Self.makeRaw(fd)
        var reader = NMEAReader()
        var lines = LineSplitter(limit: NMEAReader.maxLineBytes)
        let ended = readLines(fd, &lines, tail: isFile) { line in
            let before = reader.badSentences
            if let report = reader.take(line) { take(report) }
            if reader.badSentences > before { countBad() }
        }
        lost(
            "\(path) \(ended == "closed the connection" ? "ended" : ended); trying again every \(Int(Self.retrySeconds)) s"
        )
    }

    /// The position a source gives now, for `render`: an NMEA file read to its end (its last fix), or the
    /// first fix a device or gpsd gives within `seconds`.
    @_optimize(none)  // a loop that waits on I/O (see `readForever`)
    static func once(_ source: GPSSource, seconds: Double = 3) -> PositionUpdate {
        let input = GPSInput(source: source, inbox: nil, recordPath: nil)
        var nmea = NMEAReader()
        var lines = LineSplitter(limit: source.isNMEA ? NMEAReader.maxLineBytes : GPSDReports.maxLineBytes)
        func take(_ line: [UInt8]?) {
            guard let line else { return input.countBad() }
            switch source {
            case .nmea:
                let before = nmea.badSentences
                if let report = nmea.take(line) { input.take(report) }
                if nmea.badSentences > before { input.countBad() }
            case .gpsd:
                do {
                    if let report = try GPSDReports.report(line) { input.take(report) }
                } catch {
                    input.countBad()
                }
            }
        }
        let fd: Int32
        switch source {
        case .nmea(let path):
            fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else {
                return PositionUpdate(fix: nil, status: "cannot read \(path) (\(systemErrorReason()))")
            }
            var st = stat()
            if fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG {
                // A file: read whole, its last fix is the position.
                defer { close(fd) }
                var buffer = [UInt8](repeating: 0, count: 1 << 16)
                while case let n = buffer.withUnsafeMutableBytes({ read(fd, $0.baseAddress, $0.count) }), n > 0 {
                    lines.feed(buffer[0..<n]).forEach(take)
                }
                lines.finish().forEach(take)
                return input.finalUpdate(of: source)
            }
            Self.makeRaw(fd)
        case .gpsd(let host, let port):
            switch connect(host: host, port: port) {
            case .success(let opened): fd = opened
            case .failure(let why): return PositionUpdate(fix: nil, status: "no \(source.label) (\(why))")
            }
            let watch = Array(GPSDReports.watch.utf8)
            _ = watch.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let end = monotonicSeconds() + seconds
        while monotonicSeconds() < end, input.update.fix == nil {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 100) > 0 else { continue }
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard n > 0 else { break }
            lines.feed(buffer[0..<n]).forEach(take)
        }
        return input.finalUpdate(of: source)
    }

    /// The update at the end of a `render`'s read: a source that gave no position says so.
    func finalUpdate(of source: GPSSource) -> PositionUpdate {
        var u = update
        if u.fix == nil, u.status == "waiting for a position" {
            u.status = "no position from \(source.label)" + (u.badLines > 0 ? " (\(u.badLines) lines not read)" : "")
        }
        return u
    }

    /// A terminal device (a serial port, a pty) set raw: bytes as they come, no echo, no line editing.
    static func makeRaw(_ fd: Int32) {
        guard isatty(fd) != 0 else { return }
        var modes = termios()
        guard tcgetattr(fd, &modes) == 0 else { return }
        cfmakeraw(&modes)
        _ = tcsetattr(fd, TCSANOW, &modes)
    }
}

/// Bytes into lines, each at most `limit` bytes: a longer one is given as nil (once) and dropped.
struct LineSplitter {
    let limit: Int
    private var line: [UInt8] = []
    private var tooLong = false

    init(limit: Int) { self.limit = limit }

    mutating func feed(_ bytes: ArraySlice<UInt8>) -> [[UInt8]?] {
        var out: [[UInt8]?] = []
        var start = bytes.startIndex
        while let nl = bytes[start...].firstIndex(of: 0x0A) {
            append(bytes[start..<nl])
            out.append(tooLong ? nil : line)
            line.removeAll(keepingCapacity: true)
            tooLong = false
            start = nl + 1
        }
        append(bytes[start...])
        return out
    }

    /// The last line, when the input ends without a line break.
    mutating func finish() -> [[UInt8]?] {
        defer { line = [] }
        return line.isEmpty && !tooLong ? [] : [tooLong ? nil : line]
    }

    private mutating func append(_ part: ArraySlice<UInt8>) {
        guard !tooLong else { return }
        if line.count + part.count > limit {
            tooLong = true
            line = []
        } else {
            line += part
        }
    }
}
