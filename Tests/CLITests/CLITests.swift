import Foundation
import Testing

/// Runs the built `termmap` binary.
func runTermmap(_ args: [String], environment: [String: String] = [:]) throws -> (
    status: Int32, out: String, err: String
) {
    let candidates = [
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("termmap"),
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/debug/termmap"),
    ]
    guard let exe = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
        throw CocoaError(.fileNoSuchFile)
    }
    let p = Process()
    p.executableURL = exe
    p.arguments = args
    var env = ProcessInfo.processInfo.environment
    // No configuration file of the person running the tests: a test that wants one names it.
    env["XDG_CONFIG_HOME"] = "/nonexistent-termmap-test-config"
    env["TERMMAP_CONFIG"] = nil
    // Nor the theme its terminal implies (`--theme auto` reads COLORFGBG).
    env["COLORFGBG"] = nil
    for (k, v) in environment { env[k] = v }
    p.environment = env
    let out = Pipe()
    let err = Pipe()
    p.standardOutput = out
    p.standardError = err
    p.standardInput = FileHandle.nullDevice
    try p.run()
    let o = out.fileHandleForReading.readDataToEndOfFile()
    let e = err.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
}

@Suite("termmap command line")
struct CLITests {
    @Test(arguments: [
        ["render", "--size", "0x0"], ["render", "--center", "91,0"], ["render", "--zoom", "-1"],
        ["render", "--zoom", "abc"], ["render", "--bogus"], ["render", "--keys", "<Nope>"],
        ["render", "--size", "100"], ["render", "--zoom"], ["render", "--color", "pink"],
        ["render", "--theme", "blue"],
        ["render", "--radius", "0"], ["render", "--zoom", "nan"], ["render", "--zoom", "inf"],
        ["render", "--zoom", "1", "--zoom", "2"], ["render", "--center", ""],
        ["render", "--size", "99999x5"], ["render", "--center", "1e400,0"],
        ["render", "--json=yes"], ["data", "frobnicate"], ["render", "--size", "10x3"], ["render", "--size", "19x24"],
        ["render", "--size", "80x5"], ["--bogus", "--about"],
    ])
    func badOptionsExitTwoWithOneLine(args: [String]) throws {
        let r = try runTermmap(args)
        #expect(r.status == 2, "\(args)")
        let lines = r.err.split(separator: "\n")
        #expect(lines.count == 1, "\(args): \(r.err)")
        #expect(r.err.hasPrefix("termmap: "))
    }

    /// A word that is neither an option nor a command is a file to show: one that is not there ends in
    /// one line naming it (exit 1), before any terminal is touched; `--` makes a command's name a file.
    @Test(arguments: [["render", "stray"], ["nonsense"], ["render", "--", "--json"], ["render", "--", "data"]])
    func aMissingFileIsOneLine(args: [String]) throws {
        let r = try runTermmap(args)
        #expect(r.status == 1, "\(args)")
        #expect(
            r.err.split(separator: "\n").count == 1 && r.err.contains("'\(args.last ?? "")'")
                || r.err.contains("\(args.last ?? ""): cannot read"), "\(args): \(r.err)")
    }

    /// Options are per command (the option table): another command's option is unknown here.
    @Test(arguments: [
        (["render", "--kiosk"], "--kiosk"), (["render", "--no-animation"], "--no-animation"),
        (["render", "--idle-timeout", "3"], "--idle-timeout"), (["--size", "80x24"], "--size"), (["--json"], "--json"),
        (["--keys", "q"], "--keys"), (["render", "--out", "x"], "--out"),
        (["data", "import-gshhg", "x", "--zoom", "3"], "--zoom"), (["data", "pack", "--data", "x"], "--data"),
    ])
    func anotherCommandsOptionIsUnknown(args: [String], option: String) throws {
        let r = try runTermmap(args)
        #expect(r.status == 2)
        #expect(r.err == "termmap: unknown option '\(option)' (see --help)\n")
    }

    /// A misspelt option, command or help topic gets the nearest one (as the configuration file's
    /// mistakes do); the help topic's is a usage mistake.
    @Test(arguments: [
        (["--colour", "never"], "unknown option '--colour' (did you mean '--color'?)", Int32(2)),
        (["--centre", "1,2"], "unknown option '--centre' (did you mean '--center'?)", 2),
        (["render", "--sise", "80x24"], "unknown option '--sise' (did you mean '--size'?)", 2),
        (["-center", "1,2"], "unknown option '-center' (did you mean '--center'?)", 2),
        (["rendr"], "'rendr': no such file, nor a command (did you mean 'render'?)", 1),
        (["help", "mann"], "help has no topic 'mann' (did you mean 'man'?)", 2),
    ])
    func aMisspeltWordGetsTheNearest(args: [String], line: String, status: Int32) throws {
        let r = try runTermmap(args)
        #expect(r.status == status, "\(args)")
        #expect(r.err == "termmap: \(line)\n")
    }

    @Test func renderPrintsTheScreenAtItsSize() throws {
        let r = try runTermmap(["render", "--size", "80x24", "--center", "33.777328,-84.397348", "--zoom", "14"])
        #expect(r.status == 0)
        let lines = r.out.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 24)
        #expect(lines.allSatisfy { $0.count == 80 })
        #expect(lines[22].contains("zoom 14.00"))
        #expect(!r.out.contains("\u{1b}["))
    }

    @Test func renderJSONMatchesTheRequestedView() throws {
        let r = try runTermmap([
            "render", "--size", "100x32", "--center", "33.777328,-84.397348", "--zoom", "14", "--json",
        ])
        #expect(r.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any]
        #expect(object?["zoom"] as? Double == 14)
        let map = object?["map"] as? [String: Any]
        #expect(map?["cols"] as? Int == 100 && map?["rows"] as? Int == 30)
        // The span of the GeoCore fixture for this view (pyproj): 100×30 cells at zoom 14.
        let fixtureURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("GeoCoreTests/Fixtures/geocore.json")
        let fixtures = try JSONSerialization.jsonObject(with: Data(contentsOf: fixtureURL)) as? [String: Any]
        let spans = fixtures?["spans"] as? [[String: Any]] ?? []
        let expected = spans.first {
            ($0["lat"] as? Double) == 33.777328 && ($0["zoom"] as? Double) == 14 && ($0["cols"] as? Int) == 100
                && ($0["rows"] as? Int) == 30
        }
        #expect(expected != nil)
        let region = object?["region"] as? [String: Any]
        let span = region?["span"] as? [String: Any]
        #expect(abs((span?["longitudeDelta"] as? Double ?? 0) - (expected?["longitudeDelta"] as? Double ?? -1)) < 1e-12)
        #expect(abs((span?["latitudeDelta"] as? Double ?? 0) - (expected?["latitudeDelta"] as? Double ?? -1)) < 1e-9)
        #expect(object?["circle"] is NSNull)
    }

    @Test func colourOnlyWhenAsked() throws {
        let plain = try runTermmap(["render", "--size", "40x10"])
        #expect(!plain.out.contains("\u{1b}["))
        let colour = try runTermmap(["render", "--size", "40x10", "--color", "256"])
        #expect(colour.out.contains("\u{1b}[38;5;"))
        let sixteen = try runTermmap(["render", "--size", "40x10", "--color", "16", "--circle", "--radius", "3000km"])
        #expect(sixteen.out.contains("44m") && !sixteen.out.contains("38;5;"))
        // Bright colours: 90–97 with 16 colours, bold with 8 (the grid's labels are bright white).
        let world = ["render", "--size", "80x24", "--center", "60.1699,24.9384", "--zoom", "16", "--color"]
        let bright = try runTermmap(world + ["16"])
        let eight = try runTermmap(world + ["8"])
        #expect(bright.out.contains("97m") && !bright.out.contains("[1;37m"))
        #expect(!eight.out.contains("97m") && eight.out.range(of: #"\[(0;)?1;37m"#, options: .regularExpression) != nil)
    }

    @Test func dataProblemsExitOne() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("termmap-cli-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("not a map".utf8).write(to: dir.appendingPathComponent("world.tmap"))
        let r = try runTermmap(["render", "--data", dir.path])
        #expect(r.status == 1)
        #expect(r.err.contains("world.tmap: not a termmap map data file"))
        #expect(r.err.split(separator: "\n").count == 1)
        let missing = try runTermmap(["render", "--data", dir.path + "/nope"])
        #expect(missing.status == 1)
    }

    @Test func aboutCreditsTheSources() throws {
        let r = try runTermmap(["--about"])
        #expect(r.status == 0)
        #expect(r.out.contains("Natural Earth"))
        #expect(r.out.contains("contains GeoNames data, CC BY 4.0"))
        #expect(r.out.contains("Streets: OSM helsinki (Helsinki.osm.pbf): © OpenStreetMap contributors, ODbL 1.0."))
    }

    /// A folder where a file is expected is one line saying so, not Foundation's error dumped whole.
    @Test(arguments: [
        ["data", "info"], ["data", "import-osm"], ["render", "--tiles"],
        ["data", "pack", "--out", "/nonexistent/x.tmap", "--lines"],
        ["render", "--tour"],
    ])
    func aFolderForAFileIsOneLine(_ command: [String]) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "termmap-dir-\(getpid())-\(command.joined(separator: "-").replacing("/", with: "_"))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let args = command + [dir.path] + (command[1] == "import-osm" ? ["--data", dir.path + "/out"] : [])
        let r = try runTermmap(args)
        #expect(r.status == (command.contains("--tour") ? 2 : 1), "\(args): \(r.err)")
        #expect(r.err.split(separator: "\n").count == 1, "\(r.err)")
        #expect(r.err.contains(dir.path) && r.err.hasSuffix(": is a directory\n"), "\(r.err)")
        #expect(!r.err.contains("Error("), "\(r.err)")
    }

    /// A junk `.pmtiles` and a cut `.tmap` in `--data DIR` are left out with one line each on stderr and
    /// a note on the message line; the rest is drawn, and `render` and `--about` succeed.
    @Test func aDamagedFileInTheDataFolderIsSkipped() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("termmap-damaged-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("junk".utf8).write(to: dir.appendingPathComponent("junk.pmtiles"))
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let city = try Data(contentsOf: root.appendingPathComponent("assets/helsinki.tmap"))
        try city.prefix(3000).write(to: dir.appendingPathComponent("cut.tmap"))
        let view = ["--center", "60.1699,24.9384", "--zoom", "14", "--size", "80x24", "--color", "never"]
        let r = try runTermmap(["render", "--data", dir.path] + view)
        #expect(r.status == 0, "\(r.err)")
        let lines = r.err.split(separator: "\n")
        #expect(lines.count == 2, "\(r.err)")
        #expect(
            lines.allSatisfy { $0.hasPrefix("termmap: \(dir.path)/") && $0.hasSuffix("; skipped, the rest is used") })
        let screen = r.out.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(
            screen[23].hasPrefix("cut.tmap is damaged and not used") || screen[23].hasPrefix("junk.pmtiles is damaged"))
        let clean = try runTermmap(["render"] + view)
        #expect(
            Array(screen.prefix(22))
                == Array(clean.out.split(separator: "\n", omittingEmptySubsequences: false).prefix(22)))
        let about = try runTermmap(["--data", dir.path, "--about"])
        #expect(about.status == 0 && about.out.contains("OpenStreetMap"), "\(about.err)")
        // A file given as the folder says so.
        let file = try runTermmap(["render", "--data", dir.path + "/cut.tmap"])
        #expect(file.status == 1 && file.err == "termmap: --data \(dir.path)/cut.tmap: not a folder\n", "\(file.err)")
    }

    /// `--about` credits the data the other options name: `termmap --tiles FILE --about`.
    @Test func aboutCreditsTheDataTheOptionsName() throws {
        let tiles = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("MapDataTests/Fixtures/tiles/helsinki-omt.pmtiles").path
        let r = try runTermmap(["--tiles", tiles, "--about"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("Tiles: helsinki-omt"), "\(r.out)")
        #expect(r.out.contains("Natural Earth"))
        let missing = try runTermmap(["--data", "/nonexistent-termmap-folder", "--about"])
        #expect(missing.status == 1 && missing.err.split(separator: "\n").count == 1, "\(missing.err)")
    }

    /// `data = DIR` in the configuration file is the data folder of the data commands too, as of the
    /// viewer and `render`: an import goes there, the list shows it there, render draws it, remove
    /// takes it from there.
    @Test func theConfigurationsDataFolderIsTheDataCommandsToo() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("termmap-config-data-\(getpid())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let data = dir.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let config = dir.appendingPathComponent("config")
        try "data = \(data.path)\n".write(to: config, atomically: true, encoding: .utf8)
        let environment = ["TERMMAP_CONFIG": config.path]
        let town = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("MapDataTests/Fixtures/osm/town-dense-zlib.osm.pbf").path
        let imported = try runTermmap(["data", "import-osm", town, "--name", "town"], environment: environment)
        #expect(imported.status == 0, "\(imported.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: data.path) == ["town.tmap"])
        let list = try runTermmap(["data", "list"], environment: environment)
        #expect(
            list.out.split(separator: "\n").contains { $0.hasPrefix("town ") && $0.hasSuffix(data.path) }, "\(list.out)"
        )
        let frame = try runTermmap(["render", "--center", "60.171,24.9425", "--zoom", "15"], environment: environment)
        #expect(frame.out.contains("Testikatu"))
        let removed = try runTermmap(["data", "remove", "town"], environment: environment)
        #expect(removed.status == 0, "\(removed.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: data.path).isEmpty)
    }

    @Test func importListAndRemoveAnExtract() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("termmap-osm-\(getpid())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let town = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("MapDataTests/Fixtures/osm/town-dense-zlib.osm.pbf").path
        let r = try runTermmap(["data", "import-osm", town, "--data", dir.path, "--name", "town"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("37 nodes, 6 ways, 1 relations") && r.out.contains("© OpenStreetMap contributors"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["town.tmap"])
        let list = try runTermmap(["data", "list", "--data", dir.path])
        #expect(list.status == 0)
        #expect(list.out.contains("town") && list.out.contains("town-dense-zlib.osm.pbf"))
        #expect(list.out.contains("60.1690, 24.9390 → 60.1760, 24.9460"))
        #expect(!list.out.contains("no OSM ids"), "a version 5 import keeps them")
        // An import of an earlier format version says it lacks what `i` shows.
        let old = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("MapDataTests/Fixtures/helsinki-v4.tmap")
        try FileManager.default.copyItem(at: old, to: dir.appendingPathComponent("old.tmap"))
        let older = try runTermmap(["data", "list", "--data", dir.path])
        let oldLine = older.out.split(separator: "\n").first { $0.hasPrefix("old ") }
        #expect(oldLine?.contains("(format 4: no OSM ids or tags; import it again)") == true, "\(older.out)")
        try FileManager.default.removeItem(at: dir.appendingPathComponent("old.tmap"))
        // Sizes are the files' own (the bundled world is megabytes, not 0 KB).
        let world = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("assets/world.tmap").path
        let worldBytes = try #require(try FileManager.default.attributesOfItem(atPath: world)[.size] as? Int)
        let bundled = try runTermmap(["data", "list"])
        #expect(bundled.out.contains(" \(worldBytes / 1024) KB "), "\(bundled.out)")
        // The town is drawn and credited by render, from the folder.
        let frame = try runTermmap(["render", "--data", dir.path, "--center", "60.171,24.9425", "--zoom", "15"])
        #expect(frame.out.contains("Testikatu") && frame.out.contains("© OSM"))
        let removed = try runTermmap(["data", "remove", "town", "--data", dir.path])
        #expect(removed.status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
        let again = try runTermmap(["data", "remove", "town", "--data", dir.path])
        #expect(again.status == 1 && again.err.contains("no such import"))
    }

    /// `data remove` takes what `data list` shows: a tileset in the folder goes; the world map and the
    /// bundled city are not removed, and each answer says what the file is.
    @Test func removeTakesWhatListShows() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("termmap-remove-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("MapDataTests/Fixtures/tiles/helsinki-omt.pmtiles")
        try FileManager.default.copyItem(at: fixture, to: dir.appendingPathComponent("helsinki-omt.pmtiles"))
        let list = try runTermmap(["data", "list", "--data", dir.path])
        #expect(list.out.contains("helsinki-omt  PMTiles v3"))
        let removed = try runTermmap(["data", "remove", "helsinki-omt", "--data", dir.path])
        #expect(removed.status == 0 && removed.out == "removed \(dir.path)/helsinki-omt.pmtiles\n", "\(removed.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
        let world = try runTermmap(["data", "remove", "world", "--data", dir.path])
        #expect(world.status == 1 && world.err.contains("world is termmap's world map"), "\(world.err)")
        #expect(!world.err.contains("choose another"))
        let city = try runTermmap(["data", "remove", "helsinki", "--data", dir.path])
        #expect(city.status == 1 && city.err.contains("helsinki is bundled with termmap"), "\(city.err)")
        for r in [world, city] { #expect(r.err.split(separator: "\n").count == 1) }
    }

    /// A damaged or foreign extract: exit 1, one line naming the file and the fault, nothing written.
    @Test(arguments: [("garbage", "not an OSM PBF file"), ("cut", "truncated in blob"), ("missing", "no such file")])
    func aBadExtractWritesNothing(kind: String, message: String) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("termmap-bad-\(getpid())-\(kind)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in.osm.pbf")
        let town = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("MapDataTests/Fixtures/osm/town-dense-zlib.osm.pbf")
        switch kind {
        case "garbage": try Data("<osm version='0.6'></osm>".utf8).write(to: input)
        case "cut": try Data(try Data(contentsOf: town).prefix(300)).write(to: input)
        default: break
        }
        let out = dir.appendingPathComponent("out")
        let r = try runTermmap(["data", "import-osm", input.path, "--data", out.path])
        #expect(r.status == 1)
        #expect(r.err.hasPrefix("termmap: \(input.path): ") && r.err.contains(message), "\(r.err)")
        #expect(r.err.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test(arguments: [("world", "is the name of bundled data"), ("../x", "use letters, digits")])
    func importNamesAreChecked(name: String, message: String) throws {
        let r = try runTermmap(["data", "import-osm", "/dev/null", "--name", name])
        #expect(r.status == 2 && r.err.contains(message))
    }

    @Test(arguments: [["render", "--help"], ["data", "-h"], ["--zoom", "3", "--help"]])
    func helpAfterACommandIsHelp(args: [String]) throws {
        let r = try runTermmap(args)
        #expect(r.status == 0)
        #expect(r.out.hasPrefix("usage: termmap"))
    }
}

@Suite("docs/viewer.md stays true")
struct ReferenceDocumentTests {
    /// docs/viewer.md, the reference of keys, options and `render`.
    static func reference() throws -> String {
        try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("docs/viewer.md"), encoding: .utf8)
    }

    @Test func optionTableIsTheOneTheProgramParses() throws {
        let r = try runTermmap(["help", "options"])
        #expect(r.status == 0)
        let readme = try Self.reference()
        #expect(readme.contains(r.out), "docs/viewer.md option table is out of date: paste `termmap help options`")
        // The table is what parsing accepts: each row's options work for the commands it names, and
        // `--help` lists each of them.
        let help = try runTermmap(["--help"]).out
        let rows = r.out.split(separator: "\n").dropFirst(2)
        #expect(rows.count >= 19)
        for row in rows {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            let usage = cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            #expect(help.contains(usage), "--help lacks \(usage)")
        }
    }

    @Test func capturedFrameIsWhatRenderPrints() throws {
        let readme = try Self.reference()
        // The command in backticks right after "## A frame", then the fenced block after it.
        guard let section = readme.range(of: "## A frame") else {
            Issue.record("docs/viewer.md has no '## A frame' section")
            return
        }
        let rest = readme[section.upperBound...]
        guard let commandStart = rest.range(of: "`termmap render "),
            let commandEnd = rest[commandStart.upperBound...].range(of: "`"),
            let fenceStart = rest.range(of: "```\n"),
            let fenceEnd = rest[fenceStart.upperBound...].range(of: "\n```")
        else {
            Issue.record("docs/viewer.md frame section is malformed")
            return
        }
        let args = String(rest[rest.index(commandStart.lowerBound, offsetBy: 9)..<commandEnd.lowerBound])
            .split(separator: " ").map(String.init)
        let r = try runTermmap(args)
        #expect(r.status == 0)
        let frame = String(rest[fenceStart.upperBound..<fenceEnd.lowerBound])
        #expect(r.out.hasSuffix("\n"))
        #expect(
            String(r.out.dropLast()) == frame,
            "docs/viewer.md frame differs from: termmap \(args.joined(separator: " "))")
    }
}
