import Dispatch
import FoundationEssentials
import Glibc
import MapData
import MapRender
import Support
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

    /// Follows `path`: reads what is there, then what is appended; starts again from the top after a
    /// truncation (the file shrank) or a rotation (the name is another file now). Never ends.
    static func follow(path: String, inbox: EventInbox) {
        DispatchQueue(label: "termmap.follow").async {
            var reader = LineReader(name: path, inbox: inbox)
            var fd: Int32 = -1
            var inode: ino_t = 0
            var offset: off_t = 0
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                var st = stat()
                if stat(path, &st) == 0, fd < 0 || st.st_ino != inode || st.st_size < offset {
                    // New, rotated or truncated: read it from the start.
                    if fd >= 0 { close(fd) }
                    fd = open(path, O_RDONLY | O_CLOEXEC)
                    inode = st.st_ino
                    offset = 0
                    reader.restartLine()
                }
                var progressed = false
                if fd >= 0 {
                    while true {
                        let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, offset) }
                        guard n > 0 else { break }
                        offset += off_t(n)
                        reader.feed(buffer[0..<n])
                        progressed = true
                    }
                }
                reader.post(ended: false, force: !progressed)
                usleep(useconds_t(postEvery * 1_000_000))
            }
        }
    }

    /// Lines into live features, posted as they change.
    struct LineReader {
        let name: String
        let inbox: EventInbox
        var live = LiveFeatures()
        var line: [UInt8] = []
        var tooLong = false
        var changed = false
        var lastPost = 0.0
        /// A document over many lines, kept until the input ends.
        var whole: [UInt8]?
        var wholeError: String?

        init(name: String, inbox: EventInbox) {
            self.name = name
            self.inbox = inbox
        }

        mutating func feed(_ bytes: ArraySlice<UInt8>) {
            var start = bytes.startIndex
            while let nl = bytes[start...].firstIndex(of: 0x0A) {
                append(bytes[start..<nl])
                take()
                start = nl + 1
            }
            append(bytes[start...])
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
            if whole != nil {
                whole? += line + [0x0A]
            } else if tooLong {
                live.take([0xFF])  // not JSON: counted as a bad line
            } else if !live.take(line), live.lines == 1, line.contains(UInt8(ascii: "{")) {
                // A first line that is no whole object: a document over many lines (a pretty-printed
                // FeatureCollection), read whole when the input ends.
                whole = line + [0x0A]
                live = LiveFeatures()
            }
            line.removeAll(keepingCapacity: true)
            tooLong = false
            changed = true
        }

        /// A line cut short by a truncation is dropped.
        mutating func restartLine() {
            line.removeAll()
            tooLong = false
        }

        /// The last line, when the input ends without a line break.
        mutating func finish() {
            if !line.isEmpty { take() }
            if let whole {
                do {
                    let data = try UserDataReader.read(whole, format: .geojson, file: name == "-" ? "<stdin>" : name)
                    wholeData = data
                } catch {
                    wholeError = error.description
                }
                changed = true
            }
        }
        var wholeData: UserLayerData?

        /// Posts the features when they changed and a frame's time has passed (or `force`).
        mutating func post(ended: Bool, force: Bool) {
            let t = monotonicSeconds()
            guard changed || ended, force || t - lastPost >= StreamInput.postEvery else { return }
            if whole != nil && !ended { return }
            let file = UserFile(file: name, format: .stream, data: wholeData ?? live.features, error: wholeError)
            inbox.post(.userFile(UserFileUpdate(file: file, ended: ended, badLines: live.badLines)))
            lastPost = t
            changed = false
        }
    }
}
