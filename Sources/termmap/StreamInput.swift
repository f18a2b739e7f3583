import Dispatch
import FoundationEssentials
import Glibc
import MapData
import MapFormats
import MapRender
import Support
import SystemSupport
import Viewer

/// Live points read in the background: lines from a descriptor (`producer | termmap -`) or appended to
/// a file (`--follow FILE`), each batch posted to the viewer at most once a frame (33 ms) as the
/// layer's new state.
enum StreamInput {
    /// Milliseconds between two posts of a busy stream (a frame at 30 per second).
    static let postEvery = 0.033

    /// Reads lines from `fd` until it ends, posting the live features as `name`'s layer.
    static func start(fd: Int32, name: String, inbox: EventInbox) {
        DispatchQueue(label: "termmap.stream").async {
            var reader = LineReader(name: name, inbox: inbox)
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = poll(&p, 1, Int32(postEvery * 1000))
                if ready == 0 {
                    reader.post(ended: false, force: true)
                    continue
                }
                let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { break }
                reader.feed(buffer[0..<n])
                reader.post(ended: false, force: false)
            }
            reader.finish()
            reader.post(ended: true, force: true)
        }
    }

    /// Standard input read to its end in this thread (`render -`), as the viewer reads it: lines of live
    /// points, or a document (GeoJSON over many lines, GPX, KML, CSV) read whole, at most
    /// `ReadLimits.wholeInputBytes`; a line at most `ReadLimits.lineBytes`. Memory holds the live
    /// features and one line, not the input.
    static func readToEnd(fd: Int32, name: String) -> UserFile {
        var reader = LineReader(name: name, inbox: nil)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while reader.wants {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && (errno == EINTR || errno == EAGAIN) {
                if errno == EAGAIN {
                    var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    _ = poll(&p, 1, 1000)
                }
                continue
            }
            guard n > 0 else { break }
            reader.feed(buffer[0..<n])
        }
        reader.finish()
        return reader.file(ended: true)
    }

    /// Follows `path`: reads what is there, then what is appended; starts again from the top after a
    /// truncation (the file shrank) or a rotation (the name is another file now); a named pipe is read
    /// as it comes. Never ends. At most `followBytes` are read a turn (then the features are posted), so
    /// that a file growing without end is shown as it grows; a device or a socket is refused once (it
    /// may never end: `/dev/zero`), and followed when the name is a file again.
    static func follow(path: String, inbox: EventInbox) {
        DispatchQueue(label: "termmap.follow").async {
            var reader = LineReader(name: path, inbox: inbox)
            var fd: Int32 = -1
            var inode: ino_t = 0
            var device: dev_t = 0
            var offset: off_t = 0
            var isPipe = false
            var refused: String?
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                var st = stat()
                if stat(path, &st) == 0,
                    fd < 0 || st.st_ino != inode || st.st_dev != device || (!isPipe && st.st_size < offset)
                {
                    // New, rotated or truncated: read it from the start.
                    if fd >= 0 { close(fd) }
                    fd = -1
                    let kind = st.st_mode & S_IFMT
                    inode = st.st_ino
                    device = st.st_dev
                    if kind == S_IFREG || kind == S_IFIFO {
                        fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
                        isPipe = kind == S_IFIFO
                        refused = nil
                    } else if let what = UserFiles.notAFile(st.st_mode), refused != what {
                        refused = what
                        reader.refuse("\(path): \(what), not a file to follow")
                    }
                    offset = 0
                    reader.restartLine()
                }
                var progressed = false
                if fd >= 0 {
                    var taken = 0
                    while taken < followBytes {
                        let n = buffer.withUnsafeMutableBytes {
                            isPipe
                                ? Glibc.read(fd, $0.baseAddress, $0.count) : pread(fd, $0.baseAddress, $0.count, offset)
                        }
                        guard n > 0 else { break }
                        offset += off_t(n)
                        taken += n
                        reader.feed(buffer[0..<n])
                        progressed = true
                    }
                }
                reader.post(ended: false, force: !progressed)
                usleep(useconds_t(postEvery * 1_000_000))
            }
        }
    }

    /// The most `--follow` reads before the features are posted (a turn of 33 ms).
    static let followBytes = 8 << 20

    /// Lines into live features, posted as they change; or, when the input is a document over many
    /// lines (a pretty-printed FeatureCollection, GPX, KML, CSV), the document, read whole when it ends.
    struct LineReader {
        let name: String
        let inbox: EventInbox?
        var live = LiveFeatures()
        var line: [UInt8] = []
        var tooLong = false
        var changed = false
        var lastPost = 0.0
        /// A document read whole, kept until the input ends, and its format.
        var whole: [UInt8]?
        var wholeFormat = UserDataFormat.geojson
        /// Why the input is no longer read (a ceiling), or was refused.
        var stopped: String?
        var wholeData: UserLayerData?
        /// Bytes seen so far (the first ones decide what the input is).
        var seen = 0

        init(name: String, inbox: EventInbox?) {
            self.name = name
            self.inbox = inbox
        }

        /// True while more input is wanted (not past a ceiling).
        var wants: Bool { stopped == nil }

        var displayName: String { name == "-" ? "<stdin>" : name }

        mutating func feed(_ bytes: ArraySlice<UInt8>) {
            guard stopped == nil else { return }
            if seen == 0 {
                // XML or a table: a document, read whole (GeoJSON decides by its first line).
                if let format = UserDataReader.format(of: Array(bytes.prefix(4096)), file: "-"), format != .geojson {
                    whole = []
                    wholeFormat = format
                }
            }
            seen += bytes.count
            if whole != nil, line.isEmpty, live.lines == 0 || wholeFormat != .geojson {
                appendWhole(bytes)
                return
            }
            var start = bytes.startIndex
            while let nl = bytes[start...].firstIndex(of: 0x0A) {
                append(bytes[start..<nl])
                take()
                start = nl + 1
                if whole != nil {
                    appendWhole(bytes[start...])
                    return
                }
            }
            append(bytes[start...])
        }

        mutating func appendWhole(_ bytes: ArraySlice<UInt8>) {
            guard (whole?.count ?? 0) + bytes.count <= ReadLimits.wholeInputBytes else {
                stop(
                    "\(displayName): more than \(ReadLimits.wholeInputBytes >> 30) GB to read whole; the rest is not read"
                )
                return
            }
            whole? += bytes
        }

        mutating func append(_ part: ArraySlice<UInt8>) {
            guard !tooLong else { return }
            if line.count + part.count > LiveFeatures.maxLineBytes {
                tooLong = true
                line = []
            } else {
                line += part
            }
        }

        mutating func take() {
            if tooLong {
                live.takeTooLong()
            } else if !live.take(line), live.lines == 1, line.contains(UInt8(ascii: "{")) {
                // A first line that is no whole object: a document over many lines (a pretty-printed
                // FeatureCollection), read whole when the input ends.
                whole = line + [0x0A]
                wholeFormat = .geojson
                live = LiveFeatures()
            }
            line.removeAll(keepingCapacity: true)
            tooLong = false
            changed = true
            if live.count > ReadLimits.features {
                stop("\(displayName): more than \(ReadLimits.features) features; the rest is not read")
            }
        }

        mutating func stop(_ why: String) {
            stopped = why
            whole = nil
            changed = true
        }

        /// The input cannot be read (a device followed): said once, on the message line.
        mutating func refuse(_ why: String) {
            stopped = nil
            wholeData = nil
            inbox?.post(
                .userFile(
                    UserFileUpdate(
                        file: UserFile(file: name, format: .stream, data: live.features, error: why), ended: false)))
        }

        /// A line cut short by a truncation is dropped.
        mutating func restartLine() {
            line.removeAll()
            tooLong = false
        }

        /// The last line, when the input ends without a line break; a document read whole.
        mutating func finish() {
            if !line.isEmpty { take() }
            if let whole {
                do {
                    wholeData = try UserDataReader.read(whole, format: wholeFormat, file: displayName)
                } catch {
                    stopped = error.description
                }
                self.whole = nil
                changed = true
            }
        }

        /// The layer as it stands; at the end of an input of no feature, why its first bad line is bad.
        func file(ended: Bool) -> UserFile {
            var data = wholeData ?? live.features
            var error = wholeData == nil ? stopped : nil
            // An input none of whose lines was a feature is said as the GeoJSON reader says its first.
            if ended, error == nil, wholeData == nil, live.badLines > 0, live.badLines == live.lines {
                error = live.firstBadLineReason
            } else if ended, wholeData == nil, live.badLines > 0 {
                // The bad lines of an input that ended are counted as what it left out (`render -`).
                data.noteLeftOut(live.badLines, reason: live.firstBadLineReason)
            }
            return UserFile(file: name, format: .stream, data: data, error: error)
        }

        /// Posts the features when they changed and a frame's time has passed (or `force`).
        mutating func post(ended: Bool, force: Bool) {
            let t = monotonicSeconds()
            guard let inbox, changed || ended, force || t - lastPost >= StreamInput.postEvery else { return }
            if whole != nil && !ended { return }
            inbox.post(.userFile(UserFileUpdate(file: file(ended: ended), ended: ended, badLines: live.badLines)))
            lastPost = t
            changed = false
        }
    }
}
