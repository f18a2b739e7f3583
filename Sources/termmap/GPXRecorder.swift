import Glibc
import MapFormats
import Support
import SystemSupport

/// Why a track cannot be recorded: one line naming the file.
struct RecordingError: Error, CustomStringConvertible {
    var description: String
}

/// Records fixes as a GPX 1.1 track (www.topografix.com/GPX/1/1) so that the file is valid whenever it
/// is read, a crash or `kill -9` included: each point is written over the closing tags, followed by
/// them again (`</trkseg></trk></gpx>`), in one write; the file is synced every `syncEvery` seconds and
/// at the end. A file recorded before goes on in a new segment; a file that is not such a track is
/// left alone.
final class GPXRecorder {
    let path: String
    private var fd: Int32
    /// Where the closing tags start: the next point goes there.
    private var end: off_t
    private var lastSync: Double

    /// Seconds between two syncs to the disk.
    static let syncEvery = 10.0

    static let closing = "    </trkseg>\n  </trk>\n</gpx>\n"
    static let header = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="termmap" xmlns="http://www.topografix.com/GPX/1/1">
          <trk>
            <name>termmap track</name>
            <trkseg>

        """

    /// Opens `path`: a new file gets the header; a track recorded before gets a new segment.
    init(path: String) throws(RecordingError) {
        self.path = path
        let shown = SafeText.forLine(path)
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw RecordingError(description: "cannot record to \(shown): \(systemErrorReason())") }
        lastSync = monotonicSeconds()
        var st = stat()
        _ = fstat(fd, &st)
        guard st.st_mode & S_IFMT == S_IFREG else {
            Glibc.close(fd)
            throw RecordingError(description: "cannot record to \(shown): not a file")
        }
        if st.st_size == 0 {
            end = off_t(Self.header.utf8.count)
            try write(Self.header + Self.closing, at: 0)
            return
        }
        // The closing tags at the file's end (and only white space after them): a new segment goes there.
        let tail = min(st.st_size, 4096)
        var bytes = [UInt8](repeating: 0, count: Int(tail))
        let opened = fd
        let got = bytes.withUnsafeMutableBytes { pread(opened, $0.baseAddress, $0.count, st.st_size - tail) }
        let text = got == Int(tail) ? String(decoding: bytes, as: UTF8.self) : ""
        guard let at = Self.closingTagsStart(text) else {
            Glibc.close(fd)
            throw RecordingError(
                description:
                    "\(shown) is not a track termmap can go on with (it does not end in </trkseg></trk></gpx>); "
                    + "give another file")
        }
        let start = st.st_size - tail + off_t(text.utf8.distance(from: text.utf8.startIndex, to: at))
        let segment = "    </trkseg>\n    <trkseg>\n"
        end = start + off_t(segment.utf8.count)
        try write(segment + Self.closing, at: start)
        _ = ftruncate(fd, end + off_t(Self.closing.utf8.count))
    }

    /// Where `</trkseg>` (then `</trk>` and `</gpx>`, white space between and after) starts in `text`.
    static func closingTagsStart(_ text: String) -> String.Index? {
        guard let r = text.ranges(of: "</trkseg>").last else { return nil }
        let rest = text[r.upperBound...].filter { !$0.isWhitespace }
        guard rest == "</trk></gpx>" else { return nil }
        // Back to the line's start, so that indentation is not doubled.
        var start = r.lowerBound
        while start > text.startIndex, text[text.index(before: start)] == " " { start = text.index(before: start) }
        return start
    }

    /// Appends `fix` as a point, the closing tags after it.
    func append(_ fix: GPSFix) throws(RecordingError) {
        var point =
            "      <trkpt lat=\"\(fixedDecimals(fix.latitude, 9))\" lon=\"\(fixedDecimals(fix.longitude, 9))\">"
        if let alt = fix.altitude, alt.isFinite { point += "<ele>\(fixedDecimals(alt, 3))</ele>" }
        if let time = GPSDReports.isoTime(fix.time) { point += "<time>\(time)</time>" }
        point += "</trkpt>\n"
        try write(point + Self.closing, at: end)
        end += off_t(point.utf8.count)
        let now = monotonicSeconds()
        if now - lastSync >= Self.syncEvery {
            _ = fsync(fd)
            lastSync = now
        }
    }

    private func write(_ text: String, at offset: off_t) throws(RecordingError) {
        let bytes = Array(text.utf8)
        let n = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, offset) }
        guard n == bytes.count else {
            throw RecordingError(description: "cannot record to \(SafeText.forLine(path)): \(systemErrorReason())")
        }
    }

    /// Syncs and closes the file.
    func close() {
        guard fd >= 0 else { return }
        _ = fsync(fd)
        Glibc.close(fd)
        fd = -1
    }

    deinit { close() }
}
