import Foundation
import Testing

/// A configuration file in a folder of its own; returns its path.
func writeConfig(_ text: String) throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("termmap-config-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let path = dir.appendingPathComponent("config").path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

/// `termmap config`'s lines without their `# origin` comments (what is in effect, not whence).
func settingsInEffect(_ out: String) -> [String] {
    out.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().map { line in
        let setting = line.range(of: "  # ", options: .backwards).map { String(line[..<$0.lowerBound]) } ?? String(line)
        return setting.trimmingCharacters(in: .whitespaces)
    }
}

@Suite("configuration file")
struct ConfigTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("MapDataTests/Fixtures/tiles")

    /// A value for each option the file may set (the test below fails when an option is added without one).
    static let samples: [(name: String, value: String, render: Bool)] = [
        ("center", "60.17,24.94", true), ("zoom", "12.5", true), ("resume", "true", true), ("units", "imperial", true),
        ("radius", "2km", true), ("ascii", "true", true), ("color", "16", true), ("graphics", "none", true),
        ("theme", "light", true),
        ("data", "/tmp", true), ("tiles", fixtures.appendingPathComponent("helsinki-omt.pmtiles").path, true),
        ("tile-cache", "32", true), ("tile-cache-disk", "0", true), ("no-animation", "true", false),
        ("no-mouse", "true", false), ("idle-timeout", "5", false), ("ogr2ogr-memory", "256", true),
        ("ogr2ogr-seconds", "60", true),
        // Elevation tiles: `config` lists it; render's use of it is terrain_e2e's.
        ("terrain", fixtures.appendingPathComponent("raster-png-no-format.mbtiles").path, false),
        // A gpsd nobody listens at (port 1): render says so in its JSON, the map drawn.
        ("gps", "127.0.0.1:1", true),
    ]

    @Test func everySettableOptionHasASample() throws {
        let listed = try runTermmap(["config", "--no-config"]).out
        let names = settingsInEffect(listed).prefix { !$0.isEmpty }.map {
            String($0.replacing("# ", with: "").split(separator: " ")[0])
        }
        #expect(names.sorted() == Self.samples.map(\.name).sorted())
    }

    /// Each option set in the file gives what it gives on the command line: `termmap config` for every
    /// one, and `render`'s JSON state and screen for those render takes.
    @Test(arguments: samples)
    func fileEqualsCommandLine(_ sample: (name: String, value: String, render: Bool)) throws {
        let flag = sample.value == "true"
        let config = try writeConfig("\(sample.name) = \(sample.value)\n")
        let args = flag ? ["--\(sample.name)"] : ["--\(sample.name)", sample.value]
        let fromFile = try runTermmap(["config", "--config", config])
        let fromArgs = try runTermmap(["config", "--no-config"] + args)
        #expect(fromFile.status == 0 && fromArgs.status == 0, "\(fromFile.err)\(fromArgs.err)")
        #expect(settingsInEffect(fromFile.out) == settingsInEffect(fromArgs.out))
        #expect(fromFile.out.contains("\(config):1"))
        #expect(fromArgs.out.contains("# command line"))
        guard sample.render else { return }
        let state = ["XDG_STATE_HOME": FileManager.default.temporaryDirectory.path + "/termmap-config-state"]
        for output in [["--json", "--keys", "MhM"], ["--color", "256"]]
        where !(sample.name == "color" && output[0] == "--color") {
            let base = ["render", "--size", "60x20"] + output
            let a = try runTermmap(base + ["--config", config], environment: state)
            let b = try runTermmap(base + ["--no-config"] + args, environment: state)
            #expect(a.status == 0, "\(a.err)")
            #expect(a.out == b.out && a.err == b.err, "\(sample.name): \(output)")
        }
    }

    @Test func theCommandLineWinsAndItsListReplacesTheFiles() throws {
        let omt = Self.fixtures.appendingPathComponent("helsinki-omt.pmtiles").path
        let protomaps = Self.fixtures.appendingPathComponent("helsinki-protomaps.pmtiles").path
        let config = try writeConfig("theme = light\nzoom = 3\ntiles = \"\(omt)\", \"\(protomaps)\"\n")
        let r = try runTermmap(["config", "--config", config, "--theme", "dark", "--tiles", omt])
        #expect(r.status == 0)
        #expect(r.out.contains("theme = dark") && r.out.contains("# command line"))
        #expect(r.out.contains("tiles = \(omt) "))
        #expect(!r.out.contains(protomaps))
        #expect(r.out.contains("zoom = 3 ") && r.out.contains("\(config):2"))
        // The environment's file, unless the command line names one or none.
        let env = ["TERMMAP_CONFIG": config]
        #expect(try runTermmap(["config"], environment: env).out.contains("theme = light"))
        #expect(!(try runTermmap(["config", "--no-config"], environment: env).out.contains("theme = light")))
        // Kiosk mode reads only what its command line names.
        #expect(!(try runTermmap(["config", "--kiosk"], environment: env).out.contains("theme = light")))
        #expect(try runTermmap(["config", "--kiosk", "--config", config]).out.contains("theme = light"))
        // XDG_CONFIG_HOME's file.
        let home = URL(fileURLWithPath: config).deletingLastPathComponent().deletingLastPathComponent().path
        let dir = home + "/termmap"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try "units = imperial\n".write(toFile: dir + "/config", atomically: true, encoding: .utf8)
        #expect(try runTermmap(["config"], environment: ["XDG_CONFIG_HOME": home]).out.contains("\nunits = imperial"))
    }

    @Test func commentsQuotesAndLists() throws {
        let config = try writeConfig(
            """
            # a comment
              # an indented one

            center = "https://www.openstreetmap.org/#map=15/60.17/24.94"   # after a space
            theme=light#not a comment start, so part of the value
            """)
        let r = try runTermmap(["config", "--config", config])
        #expect(r.status == 2)
        #expect(
            r.err
                == "termmap: \(config):5: theme 'light#not a comment start, so part of the value' must be auto, dark or light\n"
        )
        let good = try writeConfig("center = \"https://www.openstreetmap.org/#map=15/60.17/24.94\"   # after a space\n")
        let json = try runTermmap(["render", "--config", good, "--json", "--size", "40x12"]).out
        #expect(json.contains("\"zoom\":15"))
    }

    /// Every kind of bad line: one line naming the file and the line, and exit 2.
    @Test(arguments: [
        ("colour = 256", "1: unknown option 'colour' (did you mean 'color'?)"),
        ("theme = purple", "1: theme 'purple' must be auto, dark or light"),
        ("zoom = 3\nzoom = 4", "2: 'zoom' is set twice (line 1 too)"),
        ("size = 80x24", "1: option 'size' is for the command line only"),
        ("ascii = yes", "1: 'ascii' is true or false"),
        ("zoom", "1: expected 'name = value'"),
        ("= 3", "1: a name is missing before '='"),
        ("theme = \"light", "1: a quote is not closed"),
        ("theme = \"light\" \"dark\"", "1: expected ',' between quoted values"),
        ("theme = \"light\", \"dark\"", "1: 'theme' takes one value"),
        ("center =", "1: 'center' needs a value"),
        ("[colors]", "1: unknown section '[colors]' (the one section is [keys])"),
        ("[keys", "1: a section is written [keys]"),
        (
            "[keys]\nzoomin = \"x\"",
            "2: unknown command 'zoomin' (did you mean 'zoom-in'?) (termmap help keys lists them)"
        ),
        ("[keys]\nzoom-in = \"x\"\nzoom-out = \"x\"", "3: key 'x' is bound to 'zoom-in' on line 2 too"),
        (
            "[keys]\nzoom-in = \"xy\"",
            "2: 'xy' is not one key (write keys as --keys does: \"+\", \"<Enter>\", \"<Ctrl-L>\")"
        ),
        (
            "[keys]\nzoom-in = \"<Nope>\"",
            "2: '<Nope>' is not one key (write keys as --keys does: \"+\", \"<Enter>\", \"<Ctrl-L>\")"
        ),
        ("[keys]\nquit = \"q\"\nquit = \"Q\"", "3: 'quit' is bound twice (line 2 too)"),
    ])
    func badLines(_ line: (text: String, error: String)) throws {
        let config = try writeConfig(line.text + "\n")
        for args in [["config", "--check"], ["render"], ["--about"]] {
            let r = try runTermmap(args + ["--config", config])
            #expect(r.status == 2, "\(args)")
            #expect(r.err == "termmap: \(config):\(line.error)\n")
            #expect(r.out.isEmpty)
        }
    }

    @Test func missingFiles() throws {
        let r = try runTermmap(["render", "--config", "/nonexistent/termmap.conf"])
        #expect(r.status == 2)
        #expect(r.err == "termmap: config '/nonexistent/termmap.conf': no such file or directory\n")
        let both = try runTermmap(["config", "--config", "x", "--no-config"])
        #expect(both.status == 2 && both.err.contains("give one"))
        // The default place may hold nothing.
        #expect(try runTermmap(["config", "--check"]).out.hasPrefix("no configuration file"))
    }

    /// `[keys]`: a command gets exactly the keys listed; a key taken from another command moves.
    @Test func keysRebound() throws {
        let config = try writeConfig("[keys]\nzoom-in = \"x\", \"<Ctrl-L>\"\nworld = \"+\"\n")
        func zoom(_ keys: String) throws -> String {
            let r = try runTermmap([
                "render", "--config", config, "--json", "--size", "40x12", "--zoom", "3", "--keys", keys,
            ])
            #expect(r.status == 0, "\(r.err)")
            let state = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any]
            return "\(state?["zoom"] ?? "?")"
        }
        #expect(try zoom("x") != "3")
        #expect(try zoom("<Ctrl-L>") == (try zoom("x")))
        #expect(try zoom("=") == "3", "zoom-in has exactly the keys listed: = is no longer one")
        #expect(try zoom("+") == "0", "+ moved to world")
        #expect(try zoom("<zoom-in>") == (try zoom("x")))
        // The help and the key table show the keys in effect; redraw lost Ctrl-L.
        let table = try runTermmap(["help", "keys", "--config", config]).out
        #expect(table.contains("| `x` `Ctrl-L` | `<zoom-in>` |"))
        #expect(table.contains("| `+` | `<world>` |"))
        #expect(table.contains("|  | `<redraw>` |"))
        let help = try runTermmap(["render", "--config", config, "--size", "100x40", "--keys", "?"]).out
        #expect(help.contains("x Ctrl-L"))
    }
}

/// `render` never asks the terminal: `--theme auto` (the default) is COLORFGBG's theme, then dark.
@Suite("theme auto in render")
struct RenderThemeTests {
    @Test func colorFGBGThenDark() throws {
        func screen(_ args: [String], _ env: [String: String] = [:]) throws -> String {
            try runTermmap(["render", "--color", "256", "--size", "60x20"] + args, environment: env).out
        }
        let light = try screen(["--theme", "light"])
        let dark = try screen(["--theme", "dark"])
        #expect(light != dark)
        #expect(try screen([], ["COLORFGBG": "0;15"]) == light)
        #expect(try screen(["--theme", "auto"], ["COLORFGBG": "0;default;7"]) == light)
        #expect(try screen([], ["COLORFGBG": "15;0"]) == dark)
        #expect(try screen([]) == dark)
        #expect(try screen(["--theme", "dark"], ["COLORFGBG": "0;15"]) == dark)
    }
}
