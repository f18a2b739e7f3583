import Foundation
import GeoCore
import MapBuilders
import MapData
import MapFormats
import Support
import TestSupport
import Testing

/// What commands print of outside text (a tileset's metadata, a file's name, an extract's name, a
/// configuration value, a file's content in an error line) never acts on the terminal: the hostile
/// corpus in each, the output parsed for any sequence termmap does not write itself.
@Suite("Hostile text in command output")
struct HostileOutputTests {
    /// A corpus string as a test argument, described safely.
    struct Hostile: CustomTestStringConvertible, Sendable {
        let text: String
        var testDescription: String { SafeText.forLine(text) }
    }
    static let corpus = HostileText.corpus.map(Hostile.init)

    static func folder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "termmap-hostile-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Both streams of a run hold nothing foreign. (`--pick`'s legend lines are `LETTER<TAB>CLASS`: that
    /// tab is termmap's own, and the class after it is made visible.)
    static func expectClean(_ r: (status: Int32, out: String, err: String), _ what: String) {
        let out = r.out.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            line.count >= 2 && line.dropFirst().first == "\t" ? line.prefix(1) + " " + line.dropFirst(2) : String(line)
        }.joined(separator: "\n")
        #expect(
            HostileText.foreignSequence(in: Array(out.utf8)) == nil,
            "\(what) stdout: \(SafeText.forLine(r.out.prefix(300)))")
        #expect(
            HostileText.foreignSequence(in: Array(r.err.utf8)) == nil,
            "\(what) stderr: \(SafeText.forLine(r.err.prefix(300)))")
    }

    /// A tileset whose name, attribution, description and layer names are the text, itself so named:
    /// `data info`, `data list`, `--about`, and the status line of `render` (plain and coloured, JSON).
    @Test(arguments: corpus)
    func aTilesetsMetadata(_ hostile: Hostile) throws {
        let text = hostile.text
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fileName = text.replacingOccurrences(of: "/", with: "-") + ".pmtiles"
        let path = dir.appendingPathComponent(fileName).path
        let tile = ProtoBuilder.tile(
            layer: "transportation_name",
            features: [(2, ProtoBuilder.commands([(0, 2048), (4096, 2048)], close: false), ["name": text])])
        let id = TileID(z: 14, x: 9326, y: 4742)
        let layers = "[{\"id\":\(jsonQuoted(text)),\"fields\":{}},{\"id\":\"transportation_name\",\"fields\":{}}]"
        _ = try PMTilesBuilder.write(
            [PMTilesBuilder.Tile(id: id.pmtilesID, length: tile.count, hash: PMTilesBuilder.hash(tile))], to: path,
            description: PMTilesBuilder.Description(
                bounds: CoordinateBounds(north: 60.2, south: 60.1, west: 24.8, east: 25.0),
                metadata: [
                    "name": .string(text), "attribution": .string(text), "description": .string(text),
                    "vector_layers": .raw(layers),
                ])
        ) { _ in tile }
        Self.expectClean(try runTermmap(["data", "info", path]), "data info")
        Self.expectClean(try runTermmap(["data", "list", "--data", dir.path]), "data list")
        Self.expectClean(try runTermmap(["--tiles", path, "--about"]), "--about")
        for extra in [["--color", "never"], ["--color", "256"], ["--json"], ["--pick"], ["--ascii"]] {
            Self.expectClean(
                try runTermmap(
                    [
                        "render", "--tiles", path, "--center", "60.1690,24.9420", "--zoom", "15", "--tile-cache-disk",
                        "0",
                    ] + extra),
                "render \(extra)")
        }
    }

    /// An extract with the text as its file name, imported (what `import-osm` prints names it).
    @Test(arguments: corpus.filter { !$0.text.contains("/") })
    func anExtractsName(_ hostile: Hostile) throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pbf = PBFBuilder(
            nodes: [.init(id: 1, latitude: 60.17, longitude: 24.93), .init(id: 2, latitude: 60.17, longitude: 24.95)],
            ways: [.init(id: 3, nodes: [1, 2], tags: [("highway", "residential"), ("name", hostile.text)])]
        ).bytes()
        let path = dir.appendingPathComponent(hostile.text + ".osm.pbf")
        try Data(pbf).write(to: path)
        let r = try runTermmap(["data", "import-osm", path.path, "--data", dir.path, "--name", "x"])
        #expect(r.status == 0, "\(SafeText.forLine(r.err))")
        Self.expectClean(r, "import-osm")
        Self.expectClean(
            try runTermmap(["data", "import-osm", path.path + "-missing", "--data", dir.path, "--name", "y"]),
            "import-osm missing")
    }

    /// A configuration file whose values are the text: `config` lists them, `--check` and the viewer's
    /// start quote them in their one error line.
    @Test(arguments: corpus)
    func aConfigurationsValues(_ hostile: Hostile) throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("config")
        let quoted =
            "\""
            + hostile.text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            + "\""
        try Data("units = \(quoted)\n\(hostile.text) = 1\n[keys]\nzoom-in = \(quoted)\n".utf8).write(to: config)
        Self.expectClean(try runTermmap(["config", "--config", config.path]), "config")
        Self.expectClean(try runTermmap(["config", "--check", "--config", config.path]), "config --check")
        Self.expectClean(try runTermmap(["render", "--config", config.path]), "render --config")
        try Data("center = \(quoted)\n".utf8).write(to: config)
        Self.expectClean(try runTermmap(["config", "--config", config.path]), "config center")
    }

    /// Files whose content errors quote: a GeoJSON type, a CSV coordinate, a syntax error's neighbourhood,
    /// a bad key script; and files named with the text that are missing or folders.
    @Test(arguments: corpus)
    func errorLinesQuotingAFile(_ hostile: Hostile) throws {
        let text = hostile.text
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let geojson = dir.appendingPathComponent("x.geojson")
        try Data(
            "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\(jsonQuoted(text)),\"coordinates\":[1,2]}}"
                .utf8
        ).write(to: geojson)
        Self.expectClean(try runTermmap(["render", geojson.path]), "geojson type")
        try Data(("{\"type\":\"Feature\"," + text + "}").utf8).write(to: geojson)
        Self.expectClean(try runTermmap(["render", geojson.path]), "geojson syntax")
        let csv = dir.appendingPathComponent("x.csv")
        try Data("lat,lon,name\n\"\(text.replacingOccurrences(of: "\"", with: "\"\""))\",24,x\n".utf8).write(to: csv)
        Self.expectClean(try runTermmap(["render", csv.path]), "csv")
        Self.expectClean(try runTermmap(["render", "--keys", "<" + text + ">"]), "--keys")
        Self.expectClean(try runTermmap(["render", "--center", text]), "--center")
        let named = dir.appendingPathComponent(text.replacingOccurrences(of: "/", with: "-"))
        Self.expectClean(try runTermmap(["render", named.path]), "missing file")
        try FileManager.default.createDirectory(at: named, withIntermediateDirectories: true)
        Self.expectClean(try runTermmap(["render", named.path]), "a folder")
        Self.expectClean(try runTermmap(["render", "--data", named.path + "-none"]), "--data")
    }
}
