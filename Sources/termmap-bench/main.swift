import CPty
import Foundation
import GeoCore
import MapData
import MapFormats
import MapRender
import Raster
import Support
import SystemSupport
import Viewer

// termmap-bench: frame time per scene, asset load, whole-process render, peak memory, and bytes
// the interactive viewer sends to a terminal. `--json` for machines, `--frames N`, `--data DIR`.

struct Scene {
    let name: String
    let lat: Double
    let lon: Double
    let zoom: Double
    let circleMeters: Double?
    var needsHighResolution = false
    /// Drawn from the tile fixture (`.pmtiles`) over the world instead of the bundled city.
    var tiles = false
    /// With the what-is-here panel open (`i`): every frame asks what is in the crosshair's cell.
    var whatIsHere = false
}

let scenes = [
    Scene(name: "world z0", lat: 0, lon: 0, zoom: 0, circleMeters: nil),
    Scene(name: "Europe z4", lat: 50, lon: 10, zoom: 4, circleMeters: nil),
    Scene(name: "Norwegian coast z7", lat: 62.5, lon: 6.5, zoom: 7, circleMeters: nil),
    Scene(name: "San Francisco z12 + 5 km circle", lat: 37.7749, lon: -122.4194, zoom: 12, circleMeters: 5000),
    Scene(name: "Georgia Tech z14", lat: 33.777328, lon: -84.397348, zoom: 14, circleMeters: nil),
    // Sparse views: open sea (at z10 every cell has the sea's background), and a small island.
    Scene(name: "open Pacific z10", lat: 0, lon: -140, zoom: 10, circleMeters: nil),
    Scene(name: "Pitcairn Island z14", lat: -25.066, lon: -130.1, zoom: 14, circleMeters: nil),
    Scene(name: "Fiji antimeridian z6", lat: -17.7, lon: 179.5, zoom: 6, circleMeters: nil),
    Scene(name: "Helsinki demo city z14", lat: 60.16878, lon: 24.94164, zoom: 14, circleMeters: nil),
    Scene(name: "Helsinki demo city z16", lat: 60.16878, lon: 24.94164, zoom: 16, circleMeters: nil),
    Scene(name: "Helsinki demo city z18", lat: 60.16878, lon: 24.94164, zoom: 18, circleMeters: nil),
    Scene(name: "Helsinki .pmtiles z14", lat: 60.1690, lon: 24.9420, zoom: 14, circleMeters: nil, tiles: true),
    Scene(name: "Helsinki .pmtiles z17", lat: 60.1690, lon: 24.9420, zoom: 17, circleMeters: nil, tiles: true),
    Scene(name: "Helsinki demo city z17", lat: 60.1699, lon: 24.9384, zoom: 17, circleMeters: nil),
    Scene(
        name: "Helsinki demo city z17 + what is here", lat: 60.1699, lon: 24.9384, zoom: 17, circleMeters: nil,
        whatIsHere: true),
    Scene(
        name: "Helsinki .pmtiles z17 at Simonkatu", lat: 60.1699, lon: 24.9384, zoom: 17, circleMeters: nil, tiles: true
    ),
    Scene(
        name: "Helsinki .pmtiles z17 + what is here", lat: 60.1699, lon: 24.9384, zoom: 17, circleMeters: nil,
        tiles: true,
        whatIsHere: true),
    Scene(
        name: "GSHHG full z12 (Oslofjord)", lat: 59.7, lon: 10.6, zoom: 12, circleMeters: nil, needsHighResolution: true
    ),
]
let sizes = [(200, 60), (400, 120)]

struct Failure: Error, CustomStringConvertible {
    var description: String
}

func nowSeconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

func percentile(_ values: [Double], _ p: Double) -> Double {
    let s = values.sorted()
    guard !s.isEmpty else { return .nan }
    let i = min(s.count - 1, max(0, Int((p * Double(s.count)).rounded(.up)) - 1))
    return s[i]
}

func median(_ values: [Double]) -> Double { percentile(values, 0.5) }

let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

func binDirectory() -> URL {
    let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    return URL(fileURLWithPath: exe).deletingLastPathComponent()
}

/// The release `termmap` beside this binary, built (or brought up to date) first.
func termmapBinary() throws -> String { try releaseBinary("termmap") }

/// A release product of the package beside this binary, built (or brought up to date) first.
func releaseBinary(_ product: String) throws -> String {
    let path = binDirectory().appendingPathComponent(product).path
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = ["swift", "build", "-c", "release", "--product", product, "--package-path", packageRoot.path]
    p.standardOutput = FileHandle.nullDevice
    try p.run()
    p.waitUntilExit()
    guard FileManager.default.isExecutableFile(atPath: path) else {
        throw Failure(description: "cannot build \(product)")
    }
    return path
}

/// Start-up against a bare Swift program (Foundation, one line printed): the median, over 15 pairs run
/// in turn, of termmap's wall time over the bare program's, per command line.
func startupRatios(termmap: String, bare: String, dataArgs: [String]) throws -> [(String, Double)] {
    let cases: [(String, [String])] = [
        ("render, the world z0", ["render", "--size", "200x60", "--zoom", "0"]),
        ("render, Europe z4", ["render", "--size", "200x60", "--center", "48,10", "--zoom", "4"]),
        ("render, a street view z16", ["render", "--size", "200x60", "--center", "60.1699,24.9384", "--zoom", "16"]),
        ("--version", ["--version"]),
    ]
    var out: [(String, Double)] = []
    for (name, args) in cases {
        var ratios: [Double] = []
        for _ in 0..<16 {
            let t = try runProcess(termmap, args + (args.first == "render" ? dataArgs : []), measurePeak: false).millis
            let b = try runProcess(bare, [], measurePeak: false).millis
            ratios.append(t / b)
        }
        out.append((name, median(Array(ratios.dropFirst()))))
    }
    return out
}

// MARK: Frame times

func frameTimes(_ scene: Scene, cols: Int, rows: Int, sources: MapSources, frames: Int) throws -> [Double] {
    var start = SessionStart(
        cols: cols, rows: rows, center: Coordinate(latitude: scene.lat, longitude: scene.lon), zoom: scene.zoom)
    start.animations = false
    start.whatIsHere = scene.whatIsHere
    if let r = scene.circleMeters {
        start.circle = true
        start.radiusMeters = r
    }
    var state = try start.state()
    var times: [Double] = []
    var sink = 0
    for i in 0..<(frames + 10) {
        // A small pan before every frame: one dot right or left, so every frame draws a new view.
        state.view.pan(dx: i % 2 == 0 ? 1 : -1, dy: 0)
        let t0 = nowSeconds()
        let screenful = Renderer.draw(state, sources: sources, options: RenderOptions(mode: .ansi256))
        let t1 = nowSeconds()
        sink &+= screenful.frame.cells.count
        // The first frames of a tileset lack tiles: loaded here, outside the time (they warm up).
        for batch in screenful.map?.missing ?? [] { sources.load(batch) }
        if i >= 10 { times.append((t1 - t0) * 1e6) }  // the first 10 frames warm the chunk cache
    }
    precondition(sink > 0)
    return times
}

/// The time to turn a 400×120 colour frame (San Francisco, a circle: many style changes) into text
/// with SGR sequences, in milliseconds, 50 runs.
func textTimes(sources: MapSources) throws -> [Double] {
    var start = SessionStart(
        cols: 400, rows: 120, center: Coordinate(latitude: 37.7749, longitude: -122.4194), zoom: 12)
    start.circle = true
    start.radiusMeters = 5000
    let state = try start.state()
    let frame = Renderer.render(state, sources: sources, options: RenderOptions(mode: .ansi256))
    var times: [Double] = []
    var sink = 0
    for _ in 0..<55 {
        let t0 = nowSeconds()
        let text = AnsiWriter.text(frame, mode: .ansi256)
        times.append((nowSeconds() - t0) * 1000)
        sink &+= text.utf8.count
    }
    precondition(sink > 0)
    return Array(times.dropFirst(5))
}

// MARK: The user's own files

/// `--user-file FILE`: reads the file as the viewer does (milliseconds), then times frames of it over the
/// world at 200×60 at zooms 0, 8 and 14 (microseconds each; p50 and p99), panned a dot between frames.
func userFileTimes(_ path: String, world: MapAsset, frames: Int) throws {
    guard let bytes = FileManager.default.contents(atPath: path).map({ [UInt8]($0) }),
        let format = UserDataReader.format(of: bytes, file: path)
    else { throw Failure(description: "cannot read \(path) as GeoJSON, CSV, GPX or KML") }
    let t0 = nowSeconds()
    let data = try UserDataReader.read(bytes, format: format, file: path)
    let readMillis = (nowSeconds() - t0) * 1000
    print(
        "read \(path): \(data.count) features, \(data.x.count) points, \(CoordinateFormat.fixed(Double(data.approximateBytes) / 1e6, 1)) MB kept, "
            + "\(CoordinateFormat.fixed(readMillis, 1)) ms")
    let file = UserFile(file: path, format: format, data: data)
    let sources = MapSources(world: world)
    var start = SessionStart(cols: 200, rows: 62, center: Coordinate(latitude: 0, longitude: 0), zoom: 0)
    start.animations = false
    start.files = [file]
    start.viewGiven = false
    let base = try start.state()
    let centre = base.view.center
    for zoom in [0.0, 8, 14] {
        var state = base
        _ = try? state.view.setCenter(centre, zoomLevel: zoom)
        var times: [Double] = []
        for i in 0..<(frames + 5) {
            state.view.pan(dx: i % 2 == 0 ? 1 : -1, dy: 0)
            let a = nowSeconds()
            let screenful = Renderer.draw(state, sources: sources, options: RenderOptions(mode: .ansi256))
            let b = nowSeconds()
            precondition(screenful.frame.cells.count > 0)
            if i >= 5 { times.append((b - a) * 1e6) }
        }
        print(
            "frames at zoom \(Int(zoom)), 200×60: p50 \(CoordinateFormat.fixed(percentile(times, 0.5) / 1000, 2)) ms, p99 \(CoordinateFormat.fixed(percentile(times, 0.99) / 1000, 2)) ms"
        )
    }
}

// MARK: Tiles

let tileFixture = packageRoot.appendingPathComponent("Tests/MapDataTests/Fixtures/tiles/helsinki-omt.pmtiles").path

/// The world and the tile fixture, with an empty tile cache.
func tileSources(_ world: MapAsset) throws -> MapSources {
    let source = TileSource(archive: try TileArchives.open(tileFixture), label: "tiles")
    return MapSources(features: FeatureSources(base: world, details: [source]))
}

/// A new view from a local `.pmtiles`: the time of its first frame, every tile read, decoded and drawn
/// (a fresh source each run: nothing cached but the file's pages), in microseconds.
func newViewTimes(_ scene: Scene, cols: Int, rows: Int, world: MapAsset, runs: Int) throws -> [Double] {
    var start = SessionStart(
        cols: cols, rows: rows, center: Coordinate(latitude: scene.lat, longitude: scene.lon), zoom: scene.zoom)
    start.animations = false
    let state = try start.state()
    var times: [Double] = []
    var far = state
    far.view = try MapView(center: Coordinate(latitude: 0, longitude: 0), zoom: 3, size: state.view.size)
    for _ in 0..<runs {
        let sources = try tileSources(world)
        // A running viewer has drawn before: its places and their names are ready, its tile cache empty.
        _ = Renderer.render(far, sources: sources, options: RenderOptions(mode: .ansi256))
        let t0 = nowSeconds()
        let screenful = Renderer.drawLoaded(state, sources: sources, options: RenderOptions(mode: .ansi256))
        times.append((nowSeconds() - t0) * 1e6)
        precondition(screenful.frame.cells.count == cols * rows && screenful.map?.tiles.loading == 0)
    }
    return times
}

// MARK: Processes

/// Wall time of one whole process, from spawn to exit (posix_spawn + waitpid: Foundation's Process
/// polls for the exit and would add tens of milliseconds).
/// Runs a program to its end: its wall time in milliseconds and its own peak resident memory in MB.
func runProcess(_ path: String, _ args: [String], measurePeak: Bool = true) throws -> (
    millis: Double, peakMegabytes: Double
) {
    // Linux records the memory a process had before its exec as part of its peak, and a child of
    // posix_spawn shares this (large) process's memory until its exec: its own wait4 peak would count
    // the bench. GNU time is small: run under it, the child's peak is its own.
    let timeTool = "/usr/bin/time"
    let report = NSTemporaryDirectory() + "termmap-bench-rss-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: report) }
    let measured = measurePeak && FileManager.default.isExecutableFile(atPath: timeTool)
    let program = measured ? timeTool : path
    let argv0 = measured ? [timeTool, "-o", report, "-f", "%M", path] + args : [path] + args
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = argv0.map { strdup($0) } + [nil]
    defer { for a in argv { free(a) } }
    var pid: pid_t = 0
    let t0 = nowSeconds()
    guard posix_spawn(&pid, program, &actions, nil, argv, environ) == 0 else {
        throw Failure(description: "cannot start \(program)")
    }
    var status: Int32 = 0
    var usage = rusage()
    wait4(pid, &status, 0, &usage)
    let t1 = nowSeconds()
    guard status == 0 else { throw Failure(description: "\(path) \(args) exited with \(status)") }
    var peak = Double(usage.ru_maxrss) / 1024  // kilobytes on Linux
    if measured, let text = try? String(contentsOfFile: report, encoding: .utf8),
        let kb = Double(text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "\n").last ?? "")
    {
        peak = kb / 1024
    }
    return ((t1 - t0) * 1000, peak)
}

// MARK: Bytes through a pty

/// One key's cost on the wire: the bytes it made the viewer send, and the bytes of a full repaint
/// (Ctrl-L) of the view it arrived at, which is what a terminal without minimal updates would get.
struct StepBytes {
    var name: String
    var key: String
    var bytes: Int
    var repaint: Int
    var percent: Double { 100 * Double(bytes) / Double(max(1, repaint)) }
}

/// Bytes the viewer writes for a pan in each direction and a zoom step, each followed by a full
/// repaint of the view it reached, in a 200×60 xterm-256color pty (no animation) at a center and zoom.
func terminalBytes(binary: String, dataArgs: [String], center: String = "50,10", zoom: String = "5") throws
    -> [StepBytes]
{
    var master: Int32 = -1
    var slave: Int32 = -1
    guard termmap_open_pty(200, 60, &master, &slave) == 0 else { throw Failure(description: "openpty failed") }
    defer { close(master) }
    let p = Process()
    p.executableURL = URL(fileURLWithPath: binary)
    p.arguments = ["--no-animation", "--center", center, "--zoom", zoom] + dataArgs
    var env = ProcessInfo.processInfo.environment
    env["TERM"] = "xterm-256color"
    env["LANG"] = "C.UTF-8"
    env.removeValue(forKey: "NO_COLOR")
    p.environment = env
    let handle = FileHandle(fileDescriptor: slave, closeOnDealloc: true)
    p.standardInput = handle
    p.standardOutput = handle
    p.standardError = handle
    try p.run()
    close(slave)

    func drain(quietMilliseconds: Int32 = 400) -> Int {
        var total = 0
        var buffer = [UInt8](repeating: 0, count: 65536)
        while termmap_wait_readable(master, quietMilliseconds) > 0 {
            let n = read(master, &buffer, buffer.count)
            if n <= 0 { break }
            total += n
        }
        return total
    }
    func send(_ s: String) { _ = s.utf8CString.withUnsafeBufferPointer { write(master, $0.baseAddress, s.utf8.count) } }

    _ = drain(quietMilliseconds: 1500)  // start-up and first paint
    var steps: [StepBytes] = []
    for (name, key) in [("pan down", "j"), ("pan up", "k"), ("pan right", "l"), ("pan left", "h"), ("zoom in", "+")] {
        send(key)
        let bytes = drain()
        send("\u{0c}")
        steps.append(StepBytes(name: name, key: key, bytes: bytes, repaint: drain()))
    }
    send("q")
    _ = drain(quietMilliseconds: 500)
    p.waitUntilExit()
    return steps
}

// MARK: Main

/// What the command line asks of the bench.
struct BenchOptions {
    var json = false
    var frames = 200
    var dataDir: String?
    var only: String?
    var staticBinary: String?
}

/// The frame figures, measured in this process.
struct FrameFigures {
    var loads: [Double] = []
    var rows: [(String, Int, Int, Double, Double)] = []
    // Per tile scene at 200x60: the steady frame's median, a new view's first frame (median and worst).
    var newViews: [(String, Double, Double, Double)] = []
    var text: [Double] = []
    // Frame time against cells on sparse views: what a frame costs besides its vertices.
    var cellFits: [(name: String, constant: Double, perCell: Double)] = []
}

/// The figures of whole termmap processes: start-up, memory, bytes on the wire, the import.
struct ProcessFigures {
    var processTimes: [Double] = []
    var peak = 0.0
    var startup: [(String, Double)] = []
    var staticStartup: [(String, Double)] = []
    var bytes: [StepBytes] = []
    var cityBytes: [StepBytes] = []
    var imports: [Double] = []
    var importPeak = 0.0
    var imported = 0
    var pbfSize = 1
}

/// The options, or nil when the arguments asked for something else, done now (`--help`, `--user-file`).
func parseOptions() throws -> BenchOptions? {
    var args = Array(CommandLine.arguments.dropFirst())
    var options = BenchOptions()
    options.json = args.contains("--json")
    args.removeAll { $0 == "--json" }
    var i = 0
    while i < args.count {
        switch args[i] {
        case "--frames" where i + 1 < args.count:
            options.frames = max(10, Int(args[i + 1]) ?? 200)
            i += 2
        case "--data" where i + 1 < args.count:
            options.dataDir = args[i + 1]
            i += 2
        case "--scene" where i + 1 < args.count:
            options.only = args[i + 1]
            i += 2
        case "--static" where i + 1 < args.count:
            options.staticBinary = args[i + 1]
            i += 2
        case "--user-file" where i + 1 < args.count:
            let world = try MapAsset(path: packageRoot.appendingPathComponent("assets/world.tmap").path)
            try userFileTimes(args[i + 1], world: world, frames: options.frames)
            return nil
        case "--routes":
            for line in try routeLines() { print(line) }
            return nil
        case "--imagery":
            let world = try MapAsset(path: packageRoot.appendingPathComponent("assets/world.tmap").path)
            for line in try imageryLines(world: world, frames: options.frames) { print(line) }
            return nil
        case "--terrain":
            let world = try MapAsset(path: packageRoot.appendingPathComponent("assets/world.tmap").path)
            for line in try terrainLines(world: world, frames: options.frames) { print(line) }
            return nil
        case "--help":
            print(
                "usage: termmap-bench [--json] [--frames N] [--data DIR] [--scene TEXT] [--static BINARY] [--routes] [--imagery] [--terrain]"
            )
            print("  --routes         only: route times and network memory, the demo city and 16 times it")
            print("  --imagery        only: imagery frame times and repaint bytes at 200x60 (--frames first)")
            print(
                "  --terrain        only: frame times with contours and hillshade at 200x60, zoom 14 (--frames first)")
            print("  --scene TEXT     only the frame times of scenes whose name contains TEXT (for profiling)")
            print("  --static BINARY  also time the start-up of this termmap (built with --static-swift-stdlib)")
            print("  --user-file FILE only: read FILE (GeoJSON, CSV, GPX, KML) and time its frames at zooms 0, 8, 14")
            return nil
        default:
            throw Failure(description: "unknown argument \(args[i])")
        }
    }
    return options
}

/// The frame figures of every scene, in this process.
func measureFrames(_ options: BenchOptions) throws -> (FrameFigures, MapAsset?) {
    let frames = options.frames
    let dataDir = options.dataDir
    let only = options.only
    var figures = FrameFigures()
    let worldPath =
        (dataDir.map { $0 + "/world.tmap" }).flatMap { FileManager.default.fileExists(atPath: $0) ? $0 : nil }
        ?? packageRoot.appendingPathComponent("assets/world.tmap").path
    for _ in 0..<20 {
        let t0 = nowSeconds()
        _ = try MapAsset(path: worldPath)
        figures.loads.append((nowSeconds() - t0) * 1000)
    }
    let world = try MapAsset(path: worldPath)
    var high: MapAsset?
    if let d = dataDir, FileManager.default.fileExists(atPath: d + "/gshhg.tmap") {
        high = try MapAsset(path: d + "/gshhg.tmap")
    }
    let city = try MapAsset(path: packageRoot.appendingPathComponent("assets/helsinki.tmap").path)
    let sources = MapSources(world: world, highResolution: high, details: [city])

    for scene in scenes {
        if scene.needsHighResolution && high == nil { continue }
        if let only, !scene.name.contains(only) { continue }
        for (c, r) in sizes {
            let t = try frameTimes(
                scene, cols: c, rows: r, sources: scene.tiles ? try tileSources(world) : sources, frames: frames)
            figures.rows.append((scene.name, c, r, median(t), percentile(t, 0.99)))
            if scene.tiles && c == 200 {
                let cold = try newViewTimes(scene, cols: c, rows: r, world: world, runs: 20)
                figures.newViews.append((scene.name, median(t), median(cold), cold.max() ?? 0))
            }
        }
    }

    figures.text = try textTimes(sources: sources)
    if only == nil {
        for scene in scenes where scene.name.hasPrefix("open Pacific") || scene.name.hasPrefix("Pitcairn") {
            let sizes = [(100, 30), (200, 60), (300, 90), (400, 120), (500, 150)]
            let points = try sizes.map { c, r in
                (Double(c * r), median(try frameTimes(scene, cols: c, rows: r, sources: sources, frames: frames)))
            }
            let n = Double(points.count)
            let mx = points.map(\.0).reduce(0, +) / n
            let my = points.map(\.1).reduce(0, +) / n
            let slope =
                points.map { ($0.0 - mx) * ($0.1 - my) }.reduce(0, +)
                / points.map { ($0.0 - mx) * ($0.0 - mx) }.reduce(0, +)
            figures.cellFits.append((scene.name, my - slope * mx, slope * 1000))
        }
    }
    return (figures, high)
}

/// The scenes asked for with `--scene`, as lines.
func printScenes(_ figures: FrameFigures) {
    for r in figures.rows { print("\(r.0) \(r.1)x\(r.2): median \(Int(r.3)) µs, p99 \(Int(r.4)) µs") }
    print("text of a 400x120 colour frame: \(CoordinateFormat.fixed(median(figures.text), 2)) ms median of 50")
    for v in figures.newViews {
        print("\(v.0) new view: first frame \(Int(v.2)) µs median, \(Int(v.3)) µs worst, steady \(Int(v.1)) µs")
    }
}

/// The figures of whole termmap processes.
func measureProcesses(_ options: BenchOptions, high: MapAsset?) throws -> ProcessFigures {
    var p = ProcessFigures()
    let dataDir = options.dataDir
    let binary = try termmapBinary()
    let dataArgs = dataDir.map { ["--data", $0] } ?? []
    let europe = ["render", "--size", "200x60", "--center", "50,10", "--zoom", "4"] + dataArgs
    for _ in 0..<20 {
        // Wall time of the process alone (no GNU time around it).
        p.processTimes.append(try runProcess(binary, europe, measurePeak: false).millis)
    }
    p.peak = try runProcess(binary, europe).peakMegabytes
    for scene in scenes where !scene.needsHighResolution || high != nil {
        var a =
            ["render", "--size", "400x120", "--center", "\(scene.lat),\(scene.lon)", "--zoom", "\(scene.zoom)"]
            + dataArgs + (scene.tiles ? ["--tiles", tileFixture] : [])
        if let r = scene.circleMeters { a += ["--circle", "--radius", "\(r)"] }
        p.peak = max(p.peak, try runProcess(binary, a).peakMegabytes)
    }
    let bare = try releaseBinary("termmap-bare")
    p.startup = try startupRatios(termmap: binary, bare: bare, dataArgs: dataArgs)
    p.staticStartup =
        try options.staticBinary.map { try startupRatios(termmap: $0, bare: bare, dataArgs: dataArgs) } ?? []
    p.bytes = try terminalBytes(binary: binary, dataArgs: dataArgs)
    p.cityBytes = try terminalBytes(binary: binary, dataArgs: dataArgs, center: "60.16878,24.94164", zoom: "16")
    // The import of the demo city's extract, whole process, into a scratch folder.
    let pbf = packageRoot.appendingPathComponent("Tests/MapDataTests/Fixtures/osm/Helsinki.osm.pbf").path
    let scratch = NSTemporaryDirectory() + "termmap-bench-import-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    for _ in 0..<10 {
        let run = try runProcess(binary, ["data", "import-osm", pbf, "--data", scratch, "--name", "bench"])
        p.imports.append(run.millis)
        p.importPeak = max(p.importPeak, run.peakMegabytes)
    }
    p.imported = (try? FileManager.default.attributesOfItem(atPath: scratch + "/bench.tmap")[.size] as? Int) ?? 0
    p.pbfSize = (try? FileManager.default.attributesOfItem(atPath: pbf)[.size] as? Int) ?? 1

    return p
}

/// Every figure as one JSON object.
func printJSON(_ figures: FrameFigures, _ p: ProcessFigures) {
    let (rows, text, loads, cellFits, newViews) = (
        figures.rows, figures.text, figures.loads, figures.cellFits, figures.newViews
    )
    let (bytes, startup, staticStartup, processTimes, peak) = (
        p.bytes, p.startup, p.staticStartup, p.processTimes, p.peak
    )
    let (imports, importPeak, imported, pbfSize) = (p.imports, p.importPeak, p.imported, p.pbfSize)
    let stepJSON = bytes.map {
        "{\"name\":\"\($0.name)\",\"key\":\"\($0.key)\",\"bytes\":\($0.bytes),\"fullRepaint\":\($0.repaint)}"
    }
    let sceneJSON = rows.map {
        "{\"name\":\"\($0.0)\",\"cols\":\($0.1),\"rows\":\($0.2),\"medianMicros\":\(Int($0.3.rounded())),\"p99Micros\":\(Int($0.4.rounded()))}"
    }
    print(
        "{\"scenes\":[\(sceneJSON.joined(separator: ","))],\"startupRatios\":{\(startup.map { "\"\($0.0)\":\(round($0.1 * 100) / 100)" }.joined(separator: ","))},\"staticStartupRatios\":{\(staticStartup.map { "\"\($0.0)\":\(round($0.1 * 100) / 100)" }.joined(separator: ","))},\"cellFits\":[\(cellFits.map { "{\"name\":\"\($0.name)\",\"constantMicros\":\(Int($0.constant.rounded())),\"nanosPerCell\":\(round($0.perCell * 10) / 10)}" }.joined(separator: ","))],\"textMillis\":\(round(median(text) * 100) / 100),\"assetLoadMillis\":\(round(median(loads) * 100) / 100),"
            + "\"renderProcessMillis\":\(round(median(processTimes) * 10) / 10),\"peakRSSMegabytes\":\(round(peak * 10) / 10),"
            + "\"bytes\":{\"pan\":\(bytes[0].bytes),\"zoom\":\(bytes[4].bytes),\"fullRepaint\":\(bytes[0].repaint),"
            + "\"steps\":[\(stepJSON.joined(separator: ","))]},"
            + "\"import\":{\"millis\":\(round(median(imports) * 10) / 10),\"peakRSSMegabytes\":\(round(importPeak * 10) / 10),"
            + "\"bytes\":\(imported),\"pbfBytes\":\(pbfSize)},"
            + "\"newTileViews\":[\(newViews.map { "{\"name\":\"\($0.0)\",\"steadyMicros\":\(Int($0.1)),\"firstMedianMicros\":\(Int($0.2)),\"firstMaxMicros\":\(Int($0.3))}" }.joined(separator: ","))]}"
    )
}

/// Every figure as a table for people.
func printText(_ figures: FrameFigures, _ p: ProcessFigures, frames: Int) {
    let (rows, text, loads, cellFits, newViews) = (
        figures.rows, figures.text, figures.loads, figures.cellFits, figures.newViews
    )
    let (bytes, cityBytes, startup, staticStartup) = (p.bytes, p.cityBytes, p.startup, p.staticStartup)
    let (processTimes, peak, imports, importPeak, imported, pbfSize) = (
        p.processTimes, p.peak, p.imports, p.importPeak, p.imported, p.pbfSize
    )
    func f(_ v: Double, _ d: Int) -> String { CoordinateFormat.fixed(v, d) }
    print("termmap-bench: \(frames) frames per scene, each after a 1-dot pan (first 10 not counted)\n")
    print("scene                                size      median µs   p99 µs")
    for r in rows {
        let size = "\(r.1)x\(r.2)"
        print(
            r.0.padding(toLength: 37, withPad: " ", startingAt: 0)
                + size.padding(toLength: 10, withPad: " ", startingAt: 0)
                + f(r.3, 0).leftPad(9) + f(r.4, 0).leftPad(9))
    }
    print("\na new view from a local .pmtiles at 200x60 (fresh cache, 20 runs): first frame, every tile drawn")
    for v in newViews {
        print(
            "  \(v.0): \(f(v.2 / 1000, 2)) ms median, \(f(v.3 / 1000, 2)) ms worst; "
                + "\(f((v.2 - v.1) / 1000, 2)) ms over the steady frame (\(f(v.1 / 1000, 2)) ms)")
    }
    print("\ntext of a 400x120 colour frame (median of 50): \(f(median(text), 2)) ms")
    print("asset load (median of 20):              \(f(median(loads), 2)) ms")
    print("termmap render 200x60 Europe (median 20): \(f(median(processTimes), 1)) ms")
    print("peak RSS of termmap render (all scenes):  \(f(peak, 1)) MB")
    print("\nframe time against cells, sparse views (few vertices at any size; least squares over 5 sizes):")
    for fit in cellFits {
        print(
            "  \(fit.name.padding(toLength: 22, withPad: " ", startingAt: 0)) \(f(fit.constant, 0)) µs + \(f(fit.perCell, 1)) ns a cell"
        )
    }
    print("\nstart-up against a bare Swift program (Foundation, one line; wall time, median of 15 pairs):")
    print(
        "  " + "".padding(toLength: 28, withPad: " ", startingAt: 0) + " this build"
            + (staticStartup.isEmpty ? "" : "  --static-swift-stdlib"))
    for (k, (name, ratio)) in startup.enumerated() {
        let other = k < staticStartup.count ? "  " + (f(staticStartup[k].1, 2) + "×").leftPad(21) : ""
        print("  \(name.padding(toLength: 28, withPad: " ", startingAt: 0)) " + (f(ratio, 2) + "×").leftPad(10) + other)
    }
    print("")
    for (title, steps) in [("Europe z5", bytes), ("the Helsinki demo city z16", cityBytes)] {
        print("bytes to a 200x60 xterm-256color pty, \(title), animation off;")
        print("each step against a full repaint (^L) of the view it reached:")
        for b in steps {
            print(
                "  \(b.name) (\(b.key))".padding(toLength: 18, withPad: " ", startingAt: 0) + "\(b.bytes)".leftPad(7)
                    + " of \(b.repaint)".padding(toLength: 10, withPad: " ", startingAt: 0) + f(b.percent, 1).leftPad(6)
                    + " %")
        }
        print("")
    }
    print(
        "data import-osm Helsinki.osm.pbf (median of 10): \(f(median(imports), 1)) ms, peak \(f(importPeak, 1)) MB, "
            + "\(imported) bytes (\(f(100 * Double(imported) / Double(pbfSize), 1)) % of the extract)")
    print("")
    for line in (try? routeLines()) ?? [] { print(line) }
}

func main() throws {
    // As termmap's own start does.
    tuneAllocatorForFrames()
    guard let options = try parseOptions() else { return }
    let (figures, high) = try measureFrames(options)
    if options.only != nil {
        printScenes(figures)
        return
    }
    let processes = try measureProcesses(options, high: high)
    if options.json {
        printJSON(figures, processes)
    } else {
        printText(figures, processes, frames: options.frames)
    }
}

extension String {
    func leftPad(_ n: Int) -> String { String(repeating: " ", count: max(0, n - count)) + self }
}

do {
    try main()
} catch {
    FileHandle.standardError.write(Data("termmap-bench: \(error)\n".utf8))
    exit(1)
}
