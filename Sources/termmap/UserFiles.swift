import FoundationEssentials
import GeoCore
import Glibc
import MapData
import MapRender
import Dispatch
import Support
import Synchronization
import Viewer

/// The user's own files, read (standard input for `-`) and put on the map: one layer each, the view
/// fitted to them unless --center or --zoom decides it.
enum UserFiles {
    /// `render`'s files, with a progress bar on stderr (a terminal) for a file that takes over half a
    /// second.
    static func readForRender(_ files: [String]) -> [UserFile] {
        let showsBar = isatty(STDERR_FILENO) == 1
        return files.map { file in
            let started = monotonicSeconds()
            let drew = Mutex(false)
            let name = file == "-" ? "standard input" : file
            let read = readOne(file) { share in
                guard showsBar, monotonicSeconds() - started > 0.5 else { return }
                drew.withLock { $0 = true }
                let width = 30
                let done = Int((share * Double(width)).rounded())
                writeStderr("\r" + name.withVisibleControls + " [" + String(repeating: "#", count: done) + String(repeating: " ", count: width - done) + "] \(Int(share * 100)) %")
            }
            // The bar is cleared, so that the next line starts clean.
            if drew.withLock({ $0 }) { writeStderr("\r\u{1B}[K") }
            return read
        }
    }

    static func writeStderr(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    /// The files being read in the background for the viewer: each posts its progress (at most every
    /// 100 ms) and then the file read.
    static func readInBackground(_ files: [String], inbox: EventInbox) {
        for file in files {
            DispatchQueue(label: "termmap.read").async {
                let told = Mutex(0.0)
                let read = readOne(file) { share in
                    let now = monotonicSeconds()
                    guard told.withLock({ last in
                        guard now - last >= 0.1 else { return false }
                        last = now
                        return true
                    }) else { return }
                    let loading = UserFile(file: file, format: .geojson, data: UserLayerData(), progress: share)
                    inbox.post(.userFile(UserFileUpdate(file: loading)))
                }
                inbox.post(.userFile(UserFileUpdate(file: read)))
            }
        }
    }

    static func readOne(_ file: String, progress: ReadProgress? = nil) -> UserFile {
        var bytes: [UInt8] = []
        if file == "-" {
            bytes = readAll(fd: STDIN_FILENO)
        } else {
            let fd = open(file, O_RDONLY | O_CLOEXEC)
            var why: String?
            if fd < 0 {
                why = errno == ENOENT ? "no such file" : systemErrorReason()
            } else {
                var info = stat()
                if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
                    why = "a folder, not a file"
                } else {
                    bytes = readAll(fd: fd, expected: (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : 0)
                }
                close(fd)
            }
            if let why { return UserFile(file: file, format: .geojson, data: UserLayerData(), error: "\(file): cannot read (\(why))") }
        }
        let name = file == "-" ? "<stdin>" : file
        if file == "-" { return readStandardInput(bytes) }
        guard let format = UserDataReader.format(of: bytes, file: file) else {
            return Ogr2ogr.read(file, name: name)
        }
        do {
            let data = try UserDataReader.read(bytes, format: format, file: name, progress: progress)
            return UserFile(file: file, format: format, data: data)
        } catch {
            return UserFile(file: file, format: format, data: UserLayerData(), error: error.description)
        }
    }

    /// Standard input read whole (`render -`): a GeoJSON document, or lines of live points as the viewer
    /// reads them (the last state of each id).
    static func readStandardInput(_ bytes: [UInt8]) -> UserFile {
        let name = "<stdin>"
        let format = UserDataReader.format(of: bytes, file: "-")
        if format == .geojson, let data = try? UserDataReader.read(bytes, format: .geojson, file: name) {
            return UserFile(file: "-", format: .stream, data: data)
        }
        if let format, format != .geojson {
            do {
                return UserFile(file: "-", format: .stream, data: try UserDataReader.read(bytes, format: format, file: name))
            } catch {
                return UserFile(file: "-", format: .stream, data: UserLayerData(), error: error.description)
            }
        }
        var live = LiveFeatures()
        for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) { live.take(Array(line)) }
        let data = live.features
        if data.count == 0 {
            // Neither: the GeoJSON reader's own line and column.
            do {
                _ = try UserDataReader.read(bytes, format: .geojson, file: name)
            } catch {
                return UserFile(file: "-", format: .stream, data: data, error: error.description)
            }
        }
        return UserFile(file: "-", format: .stream, data: data)
    }

    /// All of a descriptor's bytes.
    static func readAll(fd: Int32, expected: Int = 0) -> [UInt8] {
        var out: [UInt8] = []
        // A regular file's size is known: one allocation, not a doubling array (half the peak memory).
        out.reserveCapacity(expected + 1)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            out += buffer[0..<n]
        }
        return out
    }

    /// Puts the files on the map, over the base map in the order given, and fits the view to them when
    /// the command line did not set it.
    static func apply(_ files: [UserFile], to state: inout ViewerState, viewGiven: Bool) {
        for (i, f) in files.enumerated() {
            state.layers.layers.append(UserDataLayer(file: f, look: i))
        }
        if !viewGiven { state.fitToUserData() }
    }

    /// The one line a failed file says on stderr (`render`), or that the skipped features do.
    static func report(_ files: [UserFile]) -> [String] {
        files.compactMap { f in
            if let e = f.error { return e }
            guard f.data.skipped > 0 else { return nil }
            return "\(f.file == "-" ? "<stdin>" : f.file): \(f.data.skipped) feature\(f.data.skipped == 1 ? "" : "s") left out (the first: \(f.data.firstSkipReason ?? "?"))"
        }
    }
}
