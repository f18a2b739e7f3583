import Foundation
import GeoCore
import MapData
import Raster
import Testing

@testable import MapRender
@testable import Viewer

/// What `Tools/make_user_data_fixtures.py` says of each file: Python's json and csv modules for the
/// counts, properties and bounds, mercantile's Web Mercator for the cells its features pass through.
struct UserDataExpectation: Decodable, CustomTestStringConvertible {
    struct View: Decodable {
        var lat, lon, zoom: Double
        var cols, rows: Int
        var cells: [[Int]]
    }
    var file: String
    var real: Bool
    var count: Int
    var skipped: Int
    var counts: [String: Int]
    var bounds: [Double]?
    var names: [String?]
    var properties: [[String: String?]]
    /// Properties the reference does not read as text (GPX times become datetimes).
    var unchecked: [String]? = nil
    var views: [View]
    var testDescription: String { file }

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/userdata")
    /// The real files (never copied into the project), when they are beside it.
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../shared/overlay-samples")
        .standardized
    static let all: [UserDataExpectation] = {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent("expected.json")),
            let list = try? JSONDecoder().decode([UserDataExpectation].self, from: data)
        else { return [] }
        return list
    }()

    var path: String { (real ? Self.samples : Self.folder).appendingPathComponent(file).path }
}

@Suite("The user's own files: read as an independent reader reads them, drawn where their coordinates are")
struct UserDataTests {
    func read(_ path: String) throws -> UserLayerData {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let format = try #require(UserDataReader.format(of: bytes, file: path))
        return try UserDataReader.read(bytes, format: format, file: path)
    }

    @Test("the generator's expectations are there") func expectationsLoad() {
        #expect(UserDataExpectation.all.filter { !$0.real }.count == 8)
    }

    /// Counts by type, features left out, bounds, labels and every property equal Python's json and csv.
    @Test(arguments: UserDataExpectation.all)
    func readsAsPythonReads(_ e: UserDataExpectation) throws {
        guard !e.real || FileManager.default.fileExists(atPath: e.path) else { return }
        let data = try read(e.path)
        #expect(data.count == e.count)
        #expect(data.skipped == e.skipped)
        #expect(Dictionary(uniqueKeysWithValues: data.countsByType.map { ($0.key.name, $0.value) }) == e.counts)
        if let b = e.bounds, let got = data.bounds {
            #expect(abs(got.west - b[0]) < 1e-9 && abs(got.south - b[1]) < 1e-9 && abs(got.east - b[2]) < 1e-9 && abs(got.north - b[3]) < 1e-9)
        }
        #expect(data.names == e.names)
        for f in 0..<min(data.count, e.properties.count) {
            for (key, value) in e.properties[f] {
                #expect(data.property(key, of: f) == value, "feature \(f), property \(key)")
            }
            let extra = data.columns.filter {
                e.properties[f][$0] == nil && data.property($0, of: f) != nil && !(e.unchecked ?? []).contains($0)
            }
            #expect(extra.isEmpty, "feature \(f) has properties the reference lacks: \(extra)")
        }
    }

    /// The cells with the layer's ink match mercantile's projection of the same points and segments
    /// within one cell: recall and precision at least 0.95, at zooms 0 to 5 and across the antimeridian.
    @Test(arguments: UserDataExpectation.all)
    func drawnWhereTheCoordinatesAre(_ e: UserDataExpectation) throws {
        guard !e.real || FileManager.default.fileExists(atPath: e.path) else { return }
        let file = UserFile(file: e.file, format: .geojson, data: try read(e.path))
        let layer = UserDataLayer(file: file, look: 0)
        for v in e.views {
            let view = try MapView(
                center: Coordinate(latitude: v.lat, longitude: v.lon), zoom: v.zoom, size: try ViewSize(cols: v.cols, rows: v.rows))
            let c = MapRenderer.drawn(view: view, sources: nil, layers: [layer])
            var inked = Set<[Int]>()
            for row in 0..<v.rows {
                // The file's look, or a colour of its own (simplestyle): the inks from the overlays' up.
                for col in 0..<v.cols where c.canvas.ink(col: col, row: row) >= StyleTable.ink(.overlay(0)) { inked.insert([col, row]) }
            }
            let expected = Set(v.cells)
            func near(_ cell: [Int], _ set: Set<[Int]>) -> Bool {
                (-1...1).contains { dx in (-1...1).contains { dy in set.contains([cell[0] + dx, cell[1] + dy]) } }
            }
            let recall = expected.isEmpty ? 1 : Double(expected.filter { near($0, inked) }.count) / Double(expected.count)
            let precision = inked.isEmpty ? (expected.isEmpty ? 1 : 0) : Double(inked.filter { near($0, expected) }.count) / Double(inked.count)
            #expect(recall >= 0.95, "\(e.file) at \(v.lat),\(v.lon) z\(v.zoom): recall \(recall) of \(expected.count)")
            #expect(precision >= 0.95, "\(e.file) at \(v.lat),\(v.lon) z\(v.zoom): precision \(precision) of \(inked.count)")
        }
    }
}

@Suite("The user's own files: bad input ends in one line naming the file, the line and the column")
struct UserDataBadInputTests {
    static let cases: [(name: String, text: String, says: String)] = [
        ("bad.geojson", "{\"type\":\"FeatureCollection\",\n \"features\":[{\"type\":\"Feature\" \"geometry\":null}]}", "bad.geojson:2:32: expected ',' or '}'"),
        ("deep.geojson", String(repeating: "[", count: 100_000), "deep.geojson:1:"),
        ("crs.geojson", #"{"type":"Point","coordinates":[1,2],"crs":{"type":"name","properties":{"name":"EPSG:3857"}}}"#, "a crs other than WGS 84"),
        ("utf8.geojson", "{\"type\":\"Feature\",\"properties\":{\"name\":\"\u{FF}\"}}", "invalid UTF-8"),
        ("empty.geojson", #"{"type":"FeatureCollection","features":[]}"#, "empty.geojson: no features"),
        ("nocoords.csv", "a,b\n1,2\n", "nocoords.csv:1:1: no coordinate columns"),
        ("quote.csv", "lat,lon,name\n1,2,\"open\n", "quote.csv:2:1: a quoted field without its closing quote"),
        ("bomb.gpx", """
            <?xml version="1.0"?><!DOCTYPE gpx [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>
            <gpx><wpt lat="1" lon="2"><name>&b;</name></wpt></gpx>
            """, "bomb.gpx:1:"),
        ("xxe.kml", """
            <?xml version="1.0"?><!DOCTYPE kml [<!ENTITY x SYSTEM "file:///etc/passwd">]>
            <kml><Placemark><name>&x;</name><Point><coordinates>1,2</coordinates></Point></Placemark></kml>
            """, "entities are not read"),
        ("broken.kml", "<kml><Placemark></kml>", "broken.kml:1:"),
    ]

    @Test(arguments: cases.indices)
    func oneLine(_ i: Int) throws {
        let c = Self.cases[i]
        let bytes: [UInt8] = c.name == "utf8.geojson" ? Array(c.text.utf8).map { $0 == 0xC3 ? 0xFF : $0 }.filter { $0 != 0xBF } : Array(c.text.utf8)
        let format = try #require(UserDataReader.format(of: bytes, file: c.name))
        do {
            _ = try UserDataReader.read(bytes, format: format, file: c.name)
            Issue.record("\(c.name) was read")
        } catch {
            #expect(error.description.contains(c.says), "\(error.description)")
            #expect(!error.description.contains("\n"))
            #expect(error.description.hasPrefix(c.name))
        }
    }

    /// A file that reads but holds bad features keeps the good ones and counts the rest.
    @Test func badFeaturesAreCounted() throws {
        let text = """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[200,0]}},
            {"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1e999,0]}},
            {"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[[0,0]]}},
            {"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[10,20]}}]}
            """
        let data = try UserDataReader.read(Array(text.utf8), format: .geojson, file: "mixed.geojson")
        #expect(data.count == 1 && data.skipped == 3)
        #expect(data.firstSkipReason?.contains("outside") == true)
    }
}

@Suite("The user's own colours (simplestyle-spec)")
struct SimpleStyleTests {
    /// `stroke`, `marker-color` and `fill` win over the file's look: xterm's nearest cube colour in 256
    /// colours (#ff0000 is 196, #00ff00 46, #0087ff 33), the nearest of the 16 in 16 (bright red, green).
    @Test func simplestyleColoursWin() throws {
        let text = """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","properties":{"stroke":"#ff0000"},"geometry":{"type":"LineString","coordinates":[[-20,0],[20,0]]}},
            {"type":"Feature","properties":{"marker-color":"#0f0"},"geometry":{"type":"Point","coordinates":[0,30]}},
            {"type":"Feature","properties":{"fill":"#0087ff","stroke":"#ff0000"},"geometry":{"type":"Polygon","coordinates":[[[-10,-40],[10,-40],[10,-20],[-10,-20],[-10,-40]]]}}]}
            """
        let data = try UserDataReader.read(Array(text.utf8), format: .geojson, file: "styled.geojson")
        let layer = UserDataLayer(file: UserFile(file: "styled.geojson", format: .geojson, data: data), look: 2)
        let view = try MapView(center: Coordinate(latitude: 0, longitude: 0), zoom: 1, size: try ViewSize(cols: 100, rows: 30))
        for (mode, red, green) in [(ColorMode.ansi256, 196, 46), (.ansi16, 9, 10)] {
            var frame = Frame(cols: 100, rows: 30)
            _ = MapRenderer.render(into: &frame, view: view, overlays: [layer], sources: nil, style: MapStyle(mode: mode))
            let line = ViewTransform(view).dot(for: Coordinate(latitude: 0, longitude: 5))
            let lineCell = frame[Int(line.x) / 2, Int(line.y) / 4]
            #expect(lineCell.style.foreground == PaletteColor(UInt8(red)), "\(mode): the line")
            let marker = ViewTransform(view).dot(for: Coordinate(latitude: 30, longitude: 0))
            let markerCell = frame[Int(marker.x) / 2, Int(marker.y) / 4]
            #expect(markerCell.glyph == "▲" && markerCell.style.foreground == PaletteColor(UInt8(green)), "\(mode): the marker")
            if mode == .ansi256 {
                let inside = ViewTransform(view).dot(for: Coordinate(latitude: -30, longitude: 0))
                #expect(frame[Int(inside.x) / 2, Int(inside.y) / 4].style.background == PaletteColor(33), "the fill")
            }
        }
    }
}
