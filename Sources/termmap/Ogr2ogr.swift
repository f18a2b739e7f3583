import FoundationEssentials
import Glibc
import MapData
import MapRender
import Support

/// Formats termmap does not read itself, through GDAL's `ogr2ogr` (Debian `gdal-bin`) when it is on
/// the PATH: run, not linked (the viewer's start-up pays nothing for GDAL), as
/// `ogr2ogr -f GeoJSONSeq -t_srs EPSG:4326 /vsistdout/ FILE`, its output read as GeoJSON as it comes.
enum Ogr2ogr {
    /// Seconds without output after which a run is given up.
    static let silenceLimit = 30.0

    /// `ogr2ogr` on the PATH, if there.
    static func executable(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        for dir in (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(dir)/ogr2ogr"
            if access(path, X_OK) == 0 { return path }
        }
        return nil
    }

    /// The layer of `file` (`name` in messages) as ogr2ogr converts it, or a failed file with the
    /// program's last line of stderr.
    static func read(_ file: String, name: String) -> UserFile {
        let first = read(file, name: name, reproject: true)
        // A file without a coordinate system (a Shapefile without its .prj): its coordinates are taken
        // for longitudes and latitudes, as GDAL's own tools take them.
        if let error = first.error, error.contains("no coordinate system") { return read(file, name: name, reproject: false) }
        return first
    }

    static func read(_ file: String, name: String, reproject: Bool) -> UserFile {
        func failed(_ why: String) -> UserFile { UserFile(file: file, format: .ogr, data: UserLayerData(), error: "\(name): \(why)") }
        guard file != "-" else { return failed("not GeoJSON, CSV, GPX or KML (standard input is read as those only)") }
        guard let program = executable() else {
            return failed("not a format termmap reads itself; with GDAL's ogr2ogr on the PATH (Debian: apt install gdal-bin) it reads it")
        }
        var out: [Int32] = [0, 0]
        var err: [Int32] = [0, 0]
        guard pipe(&out) == 0, pipe(&err) == 0 else { return failed("cannot run ogr2ogr: \(systemErrorReason())") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO)
        posix_spawn_file_actions_adddup2(&actions, err[1], STDERR_FILENO)
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        for fd in [out[0], err[0], out[1], err[1]] { posix_spawn_file_actions_addclose(&actions, fd) }
        let argv = [program, "-f", "GeoJSONSeq"] + (reproject ? ["-t_srs", "EPSG:4326"] : []) + ["/vsistdout/", file]
        var pid: pid_t = 0
        let cArgs = argv.map { strdup($0) } + [nil]
        defer { for a in cArgs { free(a) } }
        let rc = posix_spawn(&pid, program, &actions, nil, cArgs, environ)
        close(out[1])
        close(err[1])
        defer {
            close(out[0])
            close(err[0])
        }
        guard rc == 0 else { return failed("cannot run \(program): \(systemErrorReason(rc))") }
        var stdout: [UInt8] = []
        var stderr: [UInt8] = []
        var open = (true, true)
        var lastOutput = monotonicSeconds()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var silent = false
        while open.0 || open.1 {
            var fds = [pollfd(fd: open.0 ? out[0] : -1, events: Int16(POLLIN), revents: 0), pollfd(fd: open.1 ? err[0] : -1, events: Int16(POLLIN), revents: 0)]
            let n = poll(&fds, 2, 1000)
            if n < 0 && errno != EINTR { break }
            for (k, fd) in [out[0], err[0]].enumerated() where fds[k].revents != 0 {
                let got = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                if got > 0 {
                    if k == 0 { stdout += buffer[0..<got] } else { stderr += buffer[0..<got] }
                    lastOutput = monotonicSeconds()
                } else if got == 0 || errno != EINTR {
                    if k == 0 { open.0 = false } else { open.1 = false }
                }
            }
            if monotonicSeconds() - lastOutput > silenceLimit {
                silent = true
                kill(pid, SIGKILL)
                break
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let said = String(decoding: stderr, as: UTF8.self)
        if reproject, said.contains("source layer has no") { return failed("no coordinate system") }
        let lastLine = said.split(whereSeparator: \.isNewline).last.map(String.init)
        if silent {
            return failed("ogr2ogr gave nothing for \(Int(silenceLimit)) s" + (lastLine.map { ": \($0)" } ?? ""))
        }
        let exited = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        guard exited == 0 else { return failed(lastLine ?? "ogr2ogr failed (exit \(exited))") }
        do {
            return UserFile(file: file, format: .ogr, data: try UserDataReader.read(stdout, format: .ogr, file: name))
        } catch {
            return failed(lastLine.map { "ogr2ogr: \($0)" } ?? String(error.description.dropFirst(name.count + 2)))
        }
    }
}
