import FoundationEssentials
import GeoCore
import Glibc
import MapData
import MapRender
import Support
import Viewer

/// The user's own files, read (standard input for `-`) and put on the map: one layer each, the view
/// fitted to them unless --center or --zoom decides it.
enum UserFiles {
    /// Every file, read: each a layer, or a failed file with its one line.
    static func read(_ files: [String]) -> [UserFile] {
        files.map(readOne)
    }

    static func readOne(_ file: String) -> UserFile {
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
            let data = try UserDataReader.read(bytes, format: format, file: name)
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
