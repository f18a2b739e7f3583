import FoundationEssentials
import GeoCore
import Glibc
import MapBuilders
import MapData
import MapFormats
import Support
import SystemSupport

/// `termmap data import-raster FILE`: a GeoTIFF, or any raster GDAL reads, as imagery (issue 47). GDAL's
/// own `gdal2tiles` (Debian `gdal-bin`, run as `ogr2ogr` is: a program people have, not a library
/// linked) cuts it into Web Mercator PNG tiles in a folder beside the data folder's files; their bytes
/// become `NAME.pmtiles` (PMTiles tile type PNG), which the viewer then draws under the map.
enum RasterImport {
    /// `gdal2tiles` on the PATH (Debian 12 installs it as `gdal2tiles.py`, later releases as
    /// `gdal2tiles`), if there.
    static func executable(environment: [String: String]) -> String? {
        programOnPath(["gdal2tiles", "gdal2tiles.py"], environment: environment)
    }

    /// Imports `path` into the data folder as `name` (default: the file's stem), at `zooms` (default:
    /// gdal2tiles' choice, from the raster's size to its full resolution). Returns the exit status.
    static func run(
        _ path: String, name: String?, zooms: String?, dataDir: String?, environment: [String: String]
    ) throws -> Int32 {
        let file = URL(fileURLWithPath: path).lastPathComponent
        let stem = file.split(separator: ".").first.map(String.init) ?? file
        let chosen = name ?? String(stem.lowercased().map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "-" })
        try DataCommands.checkImportName(chosen)
        guard FileManager.default.fileExists(atPath: path) else { throw DataFailure("\(path): no such file") }
        guard !isDirectory(path) else { throw DataFailure("\(path): is a directory") }
        if let zooms {
            let parts = zooms.split(separator: "-").compactMap { Int($0) }
            guard parts.count == 2, parts[0] >= 0, parts[0] <= parts[1], parts[1] <= 22 else {
                throw DataFailure("--zooms '\(zooms)' must be A-B, 0 ≤ A ≤ B ≤ 22 (e.g. 0-12)")
            }
        }
        guard let program = executable(environment: environment) else {
            throw DataFailure(
                "data import-raster needs GDAL's gdal2tiles (Debian: apt-get install gdal-bin); not on the PATH")
        }
        let folder = try DataCommands.dataFolder(dataDir, environment: environment)
        let work = folder + "/.\(chosen).import-raster"
        _ = try? FileManager.default.removeItem(atPath: work)
        defer { _ = try? FileManager.default.removeItem(atPath: work) }
        // XYZ rows (`--xyz`), no web viewers (`-w none`), each tile the average of the pixels it covers.
        let argv =
            [program, "--xyz", "-q", "-w", "none", "-r", "average", "--processes=2"]
            + (zooms.map { ["-z", $0] } ?? []) + [path, work]
        let (status, said) = try spawnWaiting(argv)
        guard status == 0 else {
            let last =
                said.split(whereSeparator: \.isNewline).last { !$0.trimmingPrefix(while: \.isWhitespace).isEmpty }
                .map(String.init) ?? "exit status \(status)"
            // A picture without a coordinate system or place cannot be put on the map: say so first.
            let unplaced = last.contains("--s_srs") || last.contains("georeference")
            throw DataFailure(
                "\(path): " + (unplaced ? "has no coordinate system or place; " : "") + "gdal2tiles: "
                    + SafeText.forLine(last))
        }
        let tiles = tilesMade(in: work)
        guard !tiles.isEmpty else { throw DataFailure("\(path): gdal2tiles made no tiles") }
        let out = folder + "/" + chosen + ".pmtiles"
        let written = try write(tiles, from: work, to: out, name: chosen, source: file)
        let zs = tiles.map(\.tile.z)
        printLine(
            "imported \(file): \(tiles.count) tiles, zooms \(zs.min() ?? 0)-\(zs.max() ?? 0), into \(out) "
                + "(\(written) bytes); it is drawn under the map (I shows and hides it)")
        return 0
    }

    /// The tiles gdal2tiles wrote, `Z/X/Y.png`.
    static func tilesMade(in work: String) -> [(tile: TileID, path: String)] {
        var found: [(TileID, String)] = []
        let fm = FileManager.default
        for z in (try? fm.contentsOfDirectory(atPath: work)) ?? [] {
            guard let zoom = Int(z), zoom <= TileID.maxZoom else { continue }
            for x in (try? fm.contentsOfDirectory(atPath: "\(work)/\(z)")) ?? [] {
                guard let column = Int(x) else { continue }
                for y in (try? fm.contentsOfDirectory(atPath: "\(work)/\(z)/\(x)")) ?? [] where y.hasSuffix(".png") {
                    guard let row = Int(y.dropLast(4)) else { continue }
                    let tile = TileID(z: zoom, x: column, y: row)
                    if tile.isValid { found.append((tile, "\(work)/\(z)/\(x)/\(y)")) }
                }
            }
        }
        return found
    }

    /// Writes the tiles as a PMTiles archive at `out`; returns its size.
    static func write(
        _ tiles: [(tile: TileID, path: String)], from work: String, to out: String, name: String, source: String
    ) throws -> Int {
        var paths: [UInt64: String] = [:]
        var entries: [PMTilesBuilder.Tile] = []
        for (tile, path) in tiles {
            let bytes = try DataCommands.readBytes(path)
            paths[tile.pmtilesID] = path
            entries.append(
                PMTilesBuilder.Tile(id: tile.pmtilesID, length: bytes.count, hash: PMTilesBuilder.hash(bytes)))
        }
        // The area: the deepest zoom's tiles together.
        let deepest = tiles.map(\.tile.z).max() ?? 0
        var bounds: CoordinateBounds?
        for (tile, _) in tiles where tile.z == deepest {
            let s = tile.unitSquare
            let nw = WebMercator.unproject(MercatorPoint(x: s.minX, y: s.minY))
            let se = WebMercator.unproject(MercatorPoint(x: s.minX + s.size, y: s.minY + s.size))
            let b =
                bounds
                ?? CoordinateBounds(north: nw.latitude, south: se.latitude, west: nw.longitude, east: se.longitude)
            bounds = CoordinateBounds(
                north: max(b.north, nw.latitude), south: min(b.south, se.latitude), west: min(b.west, nw.longitude),
                east: max(b.east, se.longitude))
        }
        let area = bounds ?? CoordinateBounds(north: 85, south: -85, west: -180, east: 180)
        let zs = tiles.map(\.tile.z)
        let metadata: [String: PMTilesBuilder.JSONText] = [
            "name": .string(name), "format": .string("png"), "type": .string("baselayer"),
            "description": .string("\(source), cut into tiles by gdal2tiles (termmap data import-raster)"),
            "attribution": .string(source), "minzoom": .raw(String(zs.min() ?? 0)),
            "maxzoom": .raw(String(zs.max() ?? 0)),
        ]
        let building = out + ".part"
        _ = try PMTilesBuilder.write(
            entries, to: building, description: PMTilesBuilder.Description(bounds: area, metadata: metadata)
        ) { tile in
            guard let path = paths[tile.id] else { return [] }
            return try DataCommands.readBytes(path)
        }
        guard rename(building, out) == 0 else {
            throw DataFailure("\(out): cannot write (\(systemErrorReason()))")
        }
        var facts = stat()
        return stat(out, &facts) == 0 ? Int(facts.st_size) : 0
    }

    /// The first of `names` found executable in a folder of the PATH (folder by folder), if any: how the
    /// GDAL programs termmap runs are found.
    static func programOnPath(_ names: [String], environment: [String: String]) -> String? {
        for dir in (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            for name in names where access("\(dir)/\(name)", X_OK) == 0 { return "\(dir)/\(name)" }
        }
        return nil
    }

    /// Runs `argv` (no shell), its input /dev/null and its output written to `output` (discarded by
    /// default); waits; returns its exit status and the last 32 KB of what it said on stderr.
    static func spawnWaiting(_ argv: [String], output: String = "/dev/null") throws -> (Int32, String) {
        var err: [Int32] = [0, 0]
        guard pipe(&err) == 0 else { throw DataFailure("cannot run \(argv[0]): \(systemErrorReason())") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, err[1], STDERR_FILENO)
        posix_spawn_file_actions_addclose(&actions, err[0])
        posix_spawn_file_actions_addclose(&actions, err[1])
        var pid: pid_t = 0
        let cArgs = argv.map { strdup($0) } + [nil]
        defer { for a in cArgs { free(a) } }
        let rc = posix_spawn(&pid, argv[0], &actions, nil, cArgs, environ)
        close(err[1])
        guard rc == 0 else {
            close(err[0])
            throw DataFailure("cannot run \(argv[0]): \(systemErrorReason(rc))")
        }
        var said: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 14)
        while true {
            let got = buffer.withUnsafeMutableBytes { Glibc.read(err[0], $0.baseAddress, $0.count) }
            if got > 0 {
                said += buffer[0..<got]
                if said.count > 1 << 16 { said.removeFirst(said.count - (1 << 15)) }
            } else if got == 0 || errno != EINTR {
                break
            }
        }
        close(err[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (
            (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f), String(decoding: said, as: UTF8.self)
        )
    }
}
