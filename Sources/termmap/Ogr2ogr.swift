import FoundationEssentials
import Glibc
import MapData
import MapFormats
import MapRender
import Support
import SystemSupport

/// Formats termmap does not read itself, through GDAL's `ogr2ogr` (Debian `gdal-bin`) when it is on
/// the PATH: run, not linked (the viewer's start-up pays nothing for GDAL), as
/// `ogr2ogr -f GeoJSONSeq -t_srs EPSG:4326 /vsistdout/ FILE`, its output read as GeoJSON as it comes,
/// a line at a time, into the layer (no copy of the output is kept).
///
/// A file can make GDAL work without end (a GeoPackage view that recurses, a KMZ that inflates): the
/// program runs under limits of address space and CPU time (`setrlimit` through the shell's `ulimit`),
/// the layer it makes stops at as much memory as the program may use, and silence for 30 s ends it;
/// each limit, reached, is one line saying which.
enum Ogr2ogr {
    /// Seconds without output after which a run is given up.
    static let silenceLimit = 30.0

    /// What a run may use (`--ogr2ogr-memory`, `--ogr2ogr-seconds`).
    struct Limits: Equatable, Sendable {
        /// The most the layer made of the program's output may hold, and the program's address space
        /// (at least `programFloor`: GDAL's libraries alone map 170 MB), in bytes.
        var memoryBytes = 2 << 30
        /// The program's CPU time, in seconds.
        var seconds = 300

        static let standard = Limits()
        static let programFloor = 512 << 20

        /// The program's address space.
        var programBytes: Int { max(memoryBytes, Self.programFloor) }
    }

    /// `ogr2ogr` on the PATH, if there.
    static func executable(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        RasterImport.programOnPath(["ogr2ogr"], environment: environment)
    }

    /// The layer of `file` (`name` in messages) as ogr2ogr converts it, or a failed file with the
    /// program's reason.
    static func read(_ file: String, name: String, limits: Limits = .standard) -> UserFile {
        let first = read(file, name: name, reproject: true, limits: limits)
        // A file without a coordinate system (a Shapefile without its .prj): its coordinates are taken
        // for longitudes and latitudes, as GDAL's own tools take them.
        if let error = first.error, error.contains("no coordinate system") {
            return read(file, name: name, reproject: false, limits: limits)
        }
        return first
    }

    /// How a run ended.
    enum Ending {
        case exited(Int32)
        case signalled(Int32)
        case silent
        case layerFull(String)
    }

    static func read(_ file: String, name: String, reproject: Bool, limits: Limits) -> UserFile {
        func failed(_ why: String) -> UserFile {
            UserFile(file: file, format: .ogr, data: UserLayerData(), error: "\(name): \(why)")
        }
        guard file != "-" else { return failed("not GeoJSON, CSV, GPX or KML (standard input is read as those only)") }
        guard let program = executable() else {
            return failed(
                "not a format termmap reads itself; with GDAL's ogr2ogr on the PATH (Debian: apt install gdal-bin) it reads it"
            )
        }
        let child: Child
        switch spawn(program, file: file, reproject: reproject, limits: limits) {
        case .success(let c): child = c
        case .failure(let why): return failed(why.description)
        }
        defer {
            close(child.out)
            close(child.err)
        }
        var records = Records(name: name, memoryLimit: limits.memoryBytes)
        let (ending, said) = collect(child, into: &records)
        records.finish()
        switch outcome(ending, said: said, reproject: reproject, limits: limits, data: records.builder.finished()) {
        case .success(let data): return UserFile(file: file, format: .ogr, data: data)
        case .failure(let why) where why.description == Reason.noDriver.description:
            // What the file looks like, since neither reader knows it.
            return failed("not a format termmap or GDAL reads (\(FirstBytes.describe(file: file)))")
        case .failure(let why): return failed(why.description)
        }
    }

    /// A running ogr2ogr: its process and the read ends of its output and its errors.
    struct Child {
        let pid: pid_t
        let out: Int32
        let err: Int32
    }

    /// Why a run gave no layer, in one line.
    struct Reason: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }

        /// No driver of GDAL's opened the file (it lists them all after `Unable to open datasource`).
        static let noDriver = Reason("no GDAL driver opens it")
    }

    /// True when ogr2ogr's errors say it ran out of memory: a line that speaks of memory (`Out of memory`,
    /// `std::bad_alloc`, a stand-in's `MemoryError`), not one of the list of drivers it tried, which
    /// names GDAL's `Memory` driver (`  -> \`Memory'`).
    static func saysOutOfMemory(_ said: String) -> Bool {
        said.split(whereSeparator: \.isNewline).contains { line in
            let text = line.lowercased()
            return (text.contains("memory") || text.contains("bad_alloc"))
                && !line.trimmingPrefix(while: { $0 == " " }).hasPrefix("->")
        }
    }

    /// Starts ogr2ogr writing GeoJSONSeq to its standard output, under `limits` (through the shell:
    /// posix_spawn sets none; ulimit -v is KB of address space, -t CPU seconds), its input /dev/null.
    static func spawn(_ program: String, file: String, reproject: Bool, limits: Limits) -> Result<Child, Reason> {
        var out: [Int32] = [0, 0]
        var err: [Int32] = [0, 0]
        guard pipe(&out) == 0, pipe(&err) == 0 else {
            return .failure(Reason("cannot run ogr2ogr: \(systemErrorReason())"))
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO)
        posix_spawn_file_actions_adddup2(&actions, err[1], STDERR_FILENO)
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        for fd in [out[0], err[0], out[1], err[1]] { posix_spawn_file_actions_addclose(&actions, fd) }
        let limitScript =
            "ulimit -v \(limits.programBytes / 1024) && ulimit -t \(max(1, limits.seconds)) && exec \"$0\" \"$@\""
        let argv =
            ["/bin/sh", "-c", limitScript, program, "-f", "GeoJSONSeq"] + (reproject ? ["-t_srs", "EPSG:4326"] : []) + [
                "/vsistdout/", file,
            ]
        var pid: pid_t = 0
        let cArgs = argv.map { strdup($0) } + [nil]
        defer { for a in cArgs { free(a) } }
        let rc = posix_spawn(&pid, "/bin/sh", &actions, nil, cArgs, environ)
        close(out[1])
        close(err[1])
        guard rc == 0 else {
            close(out[0])
            close(err[0])
            return .failure(Reason("cannot run \(program): \(systemErrorReason(rc))"))
        }
        return .success(Child(pid: pid, out: out[0], err: err[0]))
    }

    /// Feeds ogr2ogr's records into `records` as they come, keeping the last of what it says; stops it
    /// when the layer is full or it has been silent too long. Returns how it ended and what it said.
    static func collect(_ child: Child, into records: inout Records) -> (Ending, String) {
        var stderr: [UInt8] = []
        var open = (true, true)
        var lastOutput = monotonicSeconds()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var ending: Ending?
        while open.0 || open.1 {
            var fds = [
                pollfd(fd: open.0 ? child.out : -1, events: Int16(POLLIN), revents: 0),
                pollfd(fd: open.1 ? child.err : -1, events: Int16(POLLIN), revents: 0),
            ]
            let n = poll(&fds, 2, 1000)
            if n < 0 && errno != EINTR { break }
            for (k, fd) in [child.out, child.err].enumerated() where fds[k].revents != 0 {
                let got = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                if got > 0 {
                    if k == 0 {
                        records.feed(buffer[0..<got])
                    } else {
                        // Only its last lines are kept: what it says last is its reason.
                        stderr += buffer[0..<got]
                        if stderr.count > 1 << 16 { stderr.removeFirst(stderr.count - (1 << 15)) }
                    }
                    lastOutput = monotonicSeconds()
                } else if got == 0 || errno != EINTR {
                    if k == 0 { open.0 = false } else { open.1 = false }
                }
            }
            if let full = records.full {
                ending = .layerFull(full)
                kill(child.pid, SIGKILL)
                break
            }
            if monotonicSeconds() - lastOutput > silenceLimit {
                ending = .silent
                kill(child.pid, SIGKILL)
                break
            }
        }
        var status: Int32 = 0
        while waitpid(child.pid, &status, 0) < 0 && errno == EINTR {}
        let ended = ending ?? ((status & 0x7f) == 0 ? .exited((status >> 8) & 0xff) : .signalled(status & 0x7f))
        return (ended, String(decoding: stderr, as: UTF8.self))
    }

    /// The layer a run gave, with a note where a limit stopped it, or the one line saying why there is
    /// none. Its errors, not its warnings (`No SRS set on layer`, `DateTime`), are ever the reason.
    static func outcome(_ ending: Ending, said: String, reproject: Bool, limits: Limits, data: UserLayerData)
        -> Result<UserLayerData, Reason>
    {
        var data = data
        if reproject, said.contains("source layer has no") { return .failure(Reason("no coordinate system")) }
        // `FAILURE:` then `Unable to open datasource `FILE' with the following drivers.` and the list.
        if said.split(whereSeparator: \.isNewline).contains(where: {
            $0.hasPrefix("Unable to open datasource") && $0.hasSuffix("with the following drivers.")
        }) {
            return .failure(.noDriver)
        }
        let lines = said.split(whereSeparator: \.isNewline).map(String.init)
        let lastError = lines.last { $0.hasPrefix("ERROR") } ?? lines.last { !$0.hasPrefix("Warning") }
        let outOfMemory =
            "ogr2ogr ran out of its memory limit (\(limits.programBytes >> 20) MB; --ogr2ogr-memory sets it)"
        switch ending {
        case .silent:
            return .failure(
                Reason("ogr2ogr gave nothing for \(Int(silenceLimit)) s" + (lastError.map { ": \($0)" } ?? "")))
        case .layerFull(let ceiling):
            data.noteStop(ceiling)
        case .signalled(let signal) where signal == SIGXCPU || signal == SIGKILL:
            guard data.count > 0 else {
                return .failure(
                    Reason("ogr2ogr reached its CPU time limit (\(limits.seconds) s; --ogr2ogr-seconds sets it)"))
            }
            data.noteStop("ogr2ogr's CPU time limit (\(limits.seconds) s; --ogr2ogr-seconds sets it)")
        case .signalled(let signal):
            // Out of its address space GDAL aborts (std::bad_alloc) or faults.
            let why =
                signal == SIGABRT || signal == SIGSEGV || saysOutOfMemory(said)
                ? outOfMemory : "ogr2ogr ended by signal \(signal)" + (lastError.map { ": \($0)" } ?? "")
            guard data.count > 0 else { return .failure(Reason(why)) }
            data.noteStop(why)
        case .exited(let code) where code != 0:
            if saysOutOfMemory(said) {
                return .failure(Reason(outOfMemory))
            }
            return .failure(Reason(lastError ?? "ogr2ogr failed (exit \(code))"))
        case .exited:
            break
        }
        guard data.count > 0 else {
            // termmap's own reason: nothing to draw, or why its features were left out.
            return .failure(
                Reason(
                    data.firstSkipReason.map { "no usable feature (\(data.skipped) left out; the first: \($0))" }
                        ?? "no features (ogr2ogr found nothing to draw)"))
        }
        return .success(data)
    }

    /// GeoJSON text sequences (RFC 8142: RS-led records; or one record a line) into a layer as they
    /// come: a record at a time, at most `ReadLimits.lineBytes` long, until the layer holds
    /// `memoryLimit` bytes or a ceiling of `ReadLimits`.
    struct Records {
        let name: String
        let memoryLimit: Int
        var builder = UserLayerBuilder()
        var line: [UInt8] = []
        var tooLong = false
        var number = 0
        /// The ceiling reached, when one is.
        var full: String?

        init(name: String, memoryLimit: Int) {
            self.name = name
            self.memoryLimit = memoryLimit
        }

        mutating func feed(_ bytes: ArraySlice<UInt8>) {
            guard full == nil else { return }
            var start = bytes.startIndex
            while let end = bytes[start...].firstIndex(where: { $0 == 0x0A || $0 == 0x1E }) {
                append(bytes[start..<end])
                take()
                start = end + 1
                if full != nil { return }
            }
            append(bytes[start...])
        }

        mutating func append(_ part: ArraySlice<UInt8>) {
            guard !tooLong else { return }
            if line.count + part.count > ReadLimits.lineBytes {
                tooLong = true
                line = []
            } else {
                line += part
            }
        }

        /// The record so far into the layer.
        mutating func take() {
            defer {
                line.removeAll(keepingCapacity: true)
                tooLong = false
            }
            number += 1
            if tooLong {
                builder.skip("record \(number): longer than \(ReadLimits.lineBytes >> 20) MB")
                return
            }
            guard line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { return }
            do {
                try GeoJSONReader.read(line, file: name, into: &builder)
            } catch {
                builder.skip("record \(number): \(error.description)")
            }
            if builder.isFull {
                full = builder.data.notes.stoppedAt ?? "a ceiling"
            } else if number % 1024 == 0, builder.data.approximateBytes > memoryLimit {
                full = "\(memoryLimit >> 20) MB of features (--ogr2ogr-memory sets it)"
            }
        }

        /// The last record, when the output ends without a line break.
        mutating func finish() {
            if !line.isEmpty || tooLong { take() }
        }
    }
}
