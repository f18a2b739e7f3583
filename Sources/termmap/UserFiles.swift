import Dispatch
import FoundationEssentials
import GeoCore
import Glibc
import MapData
import MapFormats
import MapRender
import Support
import Synchronization
import SystemSupport
import TerminalUI
import Viewer

/// The user's own files, read (standard input for `-`) and put on the map: one layer each, the view
/// fitted to them unless --center or --zoom decides it.
enum UserFiles {
    /// `render`'s files, with a progress bar on stderr (a terminal) for a file that takes over half a
    /// second.
    static func readForRender(_ files: [String], ogr: Ogr2ogr.Limits = .standard) -> [UserFile] {
        let showsBar = isatty(STDERR_FILENO) == 1
        return files.map { file in
            let started = monotonicSeconds()
            let drew = Mutex(false)
            let name = file == "-" ? "standard input" : file
            let read = readOne(file, ogr: ogr) { share in
                guard showsBar, monotonicSeconds() - started > 0.5 else { return }
                drew.withLock { $0 = true }
                let width = 30
                let done = Int((share * Double(width)).rounded())
                writeStderr(
                    "\r" + SafeText.forLine(name) + " [" + String(repeating: "#", count: done)
                        + String(repeating: " ", count: width - done) + "] \(Int(share * 100)) %")
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
    static func readInBackground(_ files: [String], inbox: EventInbox, ogr: Ogr2ogr.Limits = .standard) {
        for file in files {
            DispatchQueue(label: "termmap.read").async {
                let told = Mutex(0.0)
                let read = readOne(file, ogr: ogr) { share in
                    let now = monotonicSeconds()
                    guard
                        told.withLock({ last in
                            guard now - last >= 0.1 else { return false }
                            last = now
                            return true
                        })
                    else { return }
                    let loading = UserFile(file: file, format: .geojson, data: UserLayerData(), progress: share)
                    inbox.post(.userFile(UserFileUpdate(file: loading)))
                }
                inbox.post(.userFile(UserFileUpdate(file: read)))
            }
        }
    }

    /// One file read: a regular file through a read-only mapping whose pages are given back as the
    /// reader passes them (a 100 MB file costs a few megabytes of memory while read, not 100), standard
    /// input as a stream (`StreamInput.readToEnd`). A device, a pipe or a socket named as a file is
    /// refused: it has no end to read to (`/dev/zero`), or no size to map.
    static func readOne(_ file: String, ogr: Ogr2ogr.Limits = .standard, progress: ReadProgress? = nil) -> UserFile {
        if file == "-" { return StreamInput.readToEnd(fd: STDIN_FILENO, name: "-") }
        // Without blocking: opening a named pipe would wait for a writer.
        let fd = open(file, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            let why = errno == ENOENT ? "no such file" : systemErrorReason()
            return UserFile(file: file, format: .geojson, data: UserLayerData(), error: "\(file): cannot read (\(why))")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            return UserFile(
                file: file, format: .geojson, data: UserLayerData(),
                error: "\(file): cannot read (\(systemErrorReason()))")
        }
        if let kind = notAFile(info.st_mode) {
            let hint =
                kind == "a folder"
                ? "" : " (give it as standard input, termmap - < \(file), or follow it with --follow)"
            return UserFile(
                file: file, format: .geojson, data: UserLayerData(), error: "\(file): \(kind), not a file\(hint)")
        }
        guard info.st_size > 0 else {
            return UserFile(file: file, format: .geojson, data: UserLayerData(), error: "\(file): an empty file")
        }
        if let mapped = MappedFile(fd: fd, count: Int(info.st_size)) {
            return MappedFileGuard.reading(file) {
                read(
                    file, mapped.bytes, ogr: ogr,
                    progress: { share in
                        mapped.giveBack(below: Int(share * Double(mapped.bytes.count)))
                        progress?(share)
                    })
            }
        }
        let bytes = readAll(fd: fd, expected: Int(info.st_size))
        return bytes.withUnsafeBufferPointer { read(file, $0, ogr: ogr, progress: progress) }
    }

    /// What a file's mode says it is when it is not a regular file (`a folder`, `a character device`),
    /// nil for a regular file.
    static func notAFile(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "a folder"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFIFO: return "a named pipe"
        case S_IFSOCK: return "a socket"
        default: return "not a regular file"
        }
    }

    /// `file`'s `bytes` read by their format (GDAL's for one termmap does not read itself).
    static func read(_ file: String, _ bytes: UnsafeBufferPointer<UInt8>, ogr: Ogr2ogr.Limits, progress: ReadProgress?)
        -> UserFile
    {
        guard let format = UserDataReader.format(of: Array(bytes.prefix(1 << 16)), file: file) else {
            return Ogr2ogr.read(file, name: file, limits: ogr)
        }
        do {
            let data = try UserDataReader.read(bytes, format: format, file: file, progress: progress)
            return UserFile(file: file, format: format, data: data)
        } catch {
            return UserFile(file: file, format: format, data: UserLayerData(), error: error.description)
        }
    }

    /// A regular file mapped read-only, its pages given back behind the reader. Sendable: the mapping
    /// is read only, and what is given back is under a lock.
    final class MappedFile: @unchecked Sendable {
        let bytes: UnsafeBufferPointer<UInt8>
        /// The bytes from the start given back so far.
        private let givenBack = Mutex(0)

        init?(fd: Int32, count: Int) {
            guard let base = mmap(nil, count, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else { return nil }
            _ = madvise(base, count, MADV_SEQUENTIAL)
            bytes = UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: count)
        }

        /// Gives back the pages more than a megabyte below `offset` (a reader may look back a little;
        /// a page looked at again is read again from the file).
        func giveBack(below offset: Int) {
            guard let base = bytes.baseAddress else { return }
            let page = max(4096, sysconf(Int32(_SC_PAGESIZE)))
            let end = (offset - (1 << 20)) / page * page
            givenBack.withLock { done in
                guard end > done else { return }
                _ = madvise(UnsafeMutableRawPointer(mutating: base + done), end - done, MADV_DONTNEED)
                done = end
            }
        }

        deinit {
            if let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
        }
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

    /// The one line a failed file says on stderr (`render`), or that the skipped features do.
    static func report(_ files: [UserFile]) -> [String] {
        files.compactMap { f in
            if let e = f.error { return e }
            var said: [String] = []
            if f.data.skipped > 0 {
                said.append(
                    "\(f.data.skipped) feature\(f.data.skipped == 1 ? "" : "s") left out (the first: \(f.data.firstSkipReason ?? "?"))"
                )
            }
            said += f.data.notes.phrases + f.timeNotes
            return said.isEmpty ? nil : "\(f.file == "-" ? "<stdin>" : f.file): " + said.joined(separator: "; ")
        }
    }
}
