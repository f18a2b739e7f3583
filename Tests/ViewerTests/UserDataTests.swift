import Foundation
import GeoCore
import MapData
import MapFormats
import Raster
import TestSupport
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

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Fixtures/userdata")
    /// The real files (never copied into the project), when they are beside it.
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "../../../shared/overlay-samples"
    )
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
        #expect(UserDataExpectation.all.filter { !$0.real }.count == 9)
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
            #expect(
                abs(got.west - b[0]) < 1e-9 && abs(got.south - b[1]) < 1e-9 && abs(got.east - b[2]) < 1e-9
                    && abs(got.north - b[3]) < 1e-9)
        }
        #expect(data.names == e.names)
        for f in 0..<min(data.count, e.properties.count) {
            for (key, value) in e.properties[f] {
                #expect(data.property(key, of: f) == value, "feature \(f), property \(key)")
            }
            // `when`: a GPX track's times, each point's, for the time bar (checked by gps_e2e.py against
            // the points' own times).
            let extra = data.columns.filter {
                e.properties[f][$0] == nil && data.property($0, of: f) != nil && !(e.unchecked ?? []).contains($0)
                    && !(e.file.hasSuffix(".gpx") && $0 == "when")
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
                center: Coordinate(latitude: v.lat, longitude: v.lon), zoom: v.zoom,
                size: try ViewSize(cols: v.cols, rows: v.rows))
            let c = MapRenderer.drawn(view: view, sources: nil, layers: [layer])
            var inked = Set<[Int]>()
            for row in 0..<v.rows {
                // The file's look, or a colour of its own (simplestyle): the inks from the overlays' up.
                for col in 0..<v.cols where c.canvas.ink(col: col, row: row) >= StyleTable.ink(.overlay(0)) {
                    inked.insert([col, row])
                }
            }
            let expected = Set(v.cells)
            func near(_ cell: [Int], _ set: Set<[Int]>) -> Bool {
                (-1...1).contains { dx in (-1...1).contains { dy in set.contains([cell[0] + dx, cell[1] + dy]) } }
            }
            let recall =
                expected.isEmpty ? 1 : Double(expected.filter { near($0, inked) }.count) / Double(expected.count)
            let precision =
                inked.isEmpty
                ? (expected.isEmpty ? 1 : 0) : Double(inked.filter { near($0, expected) }.count) / Double(inked.count)
            #expect(recall >= 0.95, "\(e.file) at \(v.lat),\(v.lon) z\(v.zoom): recall \(recall) of \(expected.count)")
            #expect(
                precision >= 0.95, "\(e.file) at \(v.lat),\(v.lon) z\(v.zoom): precision \(precision) of \(inked.count)"
            )
        }
    }
}

@Suite("The user's own files: bad input ends in one line naming the file, the line and the column")
struct UserDataBadInputTests {
    static let cases: [(name: String, text: String, says: String)] = [
        (
            "bad.geojson",
            "{\"type\":\"FeatureCollection\",\n \"features\":[{\"type\":\"Feature\" \"geometry\":null}]}",
            "bad.geojson:2:32: expected ',' or '}'"
        ),
        ("deep.geojson", String(repeating: "[", count: 100_000), "deep.geojson:1:"),
        (
            "crs.geojson",
            #"{"type":"Point","coordinates":[1,2],"crs":{"type":"name","properties":{"name":"EPSG:3857"}}}"#,
            "a crs other than WGS 84"
        ),
        ("utf8.geojson", "{\"type\":\"Feature\",\"properties\":{\"name\":\"\u{FF}\"}}", "invalid UTF-8"),
        ("empty.geojson", #"{"type":"FeatureCollection","features":[]}"#, "empty.geojson: no features"),
        ("nocoords.csv", "a,b\n1,2\n", "nocoords.csv:1:1: no coordinate columns"),
        ("quote.csv", "lat,lon,name\n1,2,\"open\n", "quote.csv:2:1: a quoted field without its closing quote"),
        (
            "bomb.gpx",
            """
            <?xml version="1.0"?><!DOCTYPE gpx [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>
            <gpx><wpt lat="1" lon="2"><name>&b;</name></wpt></gpx>
            """, "bomb.gpx:1:"
        ),
        (
            "xxe.kml",
            """
            <?xml version="1.0"?><!DOCTYPE kml [<!ENTITY x SYSTEM "file:///etc/passwd">]>
            <kml><Placemark><name>&x;</name><Point><coordinates>1,2</coordinates></Point></Placemark></kml>
            """, "entities are not read"
        ),
        ("broken.kml", "<kml><Placemark></kml>", "broken.kml:1:"),
    ]

    @Test(arguments: cases.indices)
    func oneLine(_ i: Int) throws {
        let c = Self.cases[i]
        let bytes: [UInt8] =
            c.name == "utf8.geojson"
            ? Array(c.text.utf8).map { $0 == 0xC3 ? 0xFF : $0 }.filter { $0 != 0xBF } : Array(c.text.utf8)
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
        // A longitude of 200° is drawn where it points (GDAL, geojson-vt); one not finite leaves its
        // position, and so its point, out; a line of one position is no line.
        #expect(data.count == 3 && data.skipped == 1)
        #expect(data.notes.longitudesPast180 == 1)
        #expect(data.firstSkipReason?.contains("not finite") == true, "\(data.firstSkipReason ?? "")")
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
        let view = try MapView(
            center: Coordinate(latitude: 0, longitude: 0), zoom: 1, size: try ViewSize(cols: 100, rows: 30))
        for (mode, red, green) in [(ColorMode.ansi256, 196, 46), (.ansi16, 9, 10)] {
            var frame = Frame(cols: 100, rows: 30)
            _ = MapRenderer.render(
                into: &frame, view: view, overlays: [layer], sources: nil, style: MapStyle(mode: mode))
            let line = ViewTransform(view).dot(for: Coordinate(latitude: 0, longitude: 5))
            let lineCell = frame[Int(line.x) / 2, Int(line.y) / 4]
            #expect(lineCell.style.foreground == PaletteColor(UInt8(red)), "\(mode): the line")
            let marker = ViewTransform(view).dot(for: Coordinate(latitude: 30, longitude: 0))
            let markerCell = frame[Int(marker.x) / 2, Int(marker.y) / 4]
            #expect(
                markerCell.glyph == "▲" && markerCell.style.foreground == PaletteColor(UInt8(green)),
                "\(mode): the marker")
            if mode == .ansi256 {
                let inside = ViewTransform(view).dot(for: Coordinate(latitude: -30, longitude: 0))
                #expect(frame[Int(inside.x) / 2, Int(inside.y) / 4].style.background == PaletteColor(33), "the fill")
            }
        }
    }
}

@Suite("The user's own files: labels, dots and columns")
struct UserLayerLabelAndColumnTests {
    /// Named points of a file, 80 of them scattered over about what a 120 × 40 view at `zoom` shows (a
    /// seeded walk: where they fall does not matter, only that their names crowd), and a named line.
    static func crowdedFile(zoom: Double) throws -> UserFile {
        let span = 3 / pow(2, zoom - 7)
        var rng = SplitMix(seed: 7)
        var features: [String] = []
        for k in 0..<80 {
            let lon = 12 + span * (Double(rng.next() % 1000) / 1000 - 0.5)
            let lat = 51.2 + span / 2 * (Double(rng.next() % 1000) / 1000 - 0.5)
            features.append(
                #"{"type":"Feature","properties":{"name":"P\#(k)"},"geometry":{"type":"Point","coordinates":[\#(lon),\#(lat)]}}"#
            )
        }
        features.append(
            #"{"type":"Feature","properties":{"name":"The long road"},"geometry":{"type":"LineString","coordinates":[[9.5,50.2],[14.5,52.3]]}}"#
        )
        let text = #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}"
        let data = try UserDataReader.read(Array(text.utf8), format: .geojson, file: "crowd.geojson")
        return UserFile(file: "crowd.geojson", format: .geojson, data: data)
    }

    /// A pan moves the file's names with the map: every name well inside both frames is where its
    /// feature moved to, and none appears there that was not in the first; no two names overlap.
    @Test(arguments: [7.0, 8.0, 9.0])
    func namesMoveWithTheMapAndNeverOverlap(zoom: Double) throws {
        let (cols, rows) = (120, 40)
        let file = try Self.crowdedFile(zoom: zoom)
        for key in "hjkl" {
            var start = try scripted(cols: cols, rows: rows + 2, lat: 51.2, lon: 12, zoom: zoom)
            start.layers.layers.append(UserDataLayer(file: file, look: 0))
            var s = start
            s.update(.key(.char(key)))
            let shift = try #require(ScreenShift.between(start, s))
            func labels(_ s: ViewerState) -> LabelEngine {
                MapRenderer.drawn(view: s.view, sources: nil, layers: s.layers.layers.filter { $0 is UserDataLayer })
                    .labels
            }
            let (before, after) = (labels(start), labels(s))
            LabelPropertyTests.checkNoOverlap(before, "zoom \(zoom)")
            func inside(_ col: Int, _ row: Int, _ width: Int) -> Bool {
                row >= 2 && row < rows - 2 && col >= width + 3 && col + 2 * width + 3 < cols
            }
            var kept = 0
            var moved: [String] = []
            for l in before.labels where inside(l.col, l.row, l.text.count) {
                let (c, r) = (l.col + shift.columns, l.row + shift.rows)
                guard inside(c, r, l.text.count) else { continue }
                if after.labels.contains(where: { $0.text == l.text && $0.col == c && $0.row == r }) {
                    kept += 1
                } else {
                    moved.append(l.text)
                }
            }
            let names = Set(before.labels.map(\.text))
            let appeared = after.labels.filter { l in
                inside(l.col, l.row, l.text.count) && inside(l.col - shift.columns, l.row - shift.rows, l.text.count)
                    && !names.contains(l.text)
            }
            #expect(moved.isEmpty, "\(key) at zoom \(zoom): moved \(moved)")
            #expect(appeared.isEmpty, "\(key) at zoom \(zoom): new \(appeared.map(\.text))")
            #expect(kept >= 5, "\(key) at zoom \(zoom): \(kept) kept")
            for m in before.markers
            where inside(m.col, m.row, 1) && inside(m.col + shift.columns, m.row + shift.rows, 1) {
                #expect(
                    after.markers.contains { $0.col == m.col + shift.columns && $0.row == m.row + shift.rows },
                    "\(key): a marker moved")
            }
        }
    }

    /// A name of the map that a user's marker falls on gives way whole: no pieces of it between markers.
    @Test func aNameUnderAMarkerGivesWayWhole() throws {
        let view = try MapView(
            center: Coordinate(latitude: 48, longitude: 10), zoom: 4, size: try ViewSize(cols: 120, rows: 40))
        let before = MapRenderer.drawn(view: view, sources: bundledSources, layers: [PlacesLayer()]).labels
        let name = try #require(before.labels.first { $0.text.count >= 5 })
        // A point in the middle cell of that name.
        let middle = name.col + name.text.count / 2
        let point = view.coordinate(at: DotPoint(x: Double(middle * 2) + 1, y: Double(name.row * 4) + 2))
        let text =
            #"{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[\#(point.longitude),\#(point.latitude)]}}"#
        let data = try UserDataReader.read(Array(text.utf8), format: .geojson, file: "on.geojson")
        let layer = UserDataLayer(file: UserFile(file: "on.geojson", format: .geojson, data: data), look: 0)
        var frame = Frame(cols: 120, rows: 40)
        _ = MapRenderer.render(
            into: &frame, view: view, overlays: [layer], sources: bundledSources, style: MapStyle(mode: .ansi256))
        let row = String((0..<120).map { Character(frame[$0, name.row].glyph) })
        let cells = Array(row)
        #expect(cells[middle] == "●", "the marker is in its cell: \(row)")
        let letters = Set(name.text.filter(\.isLetter))
        let left = (name.col..<(name.col + name.text.count)).filter { $0 != middle && letters.contains(cells[$0]) }
        #expect(left.isEmpty, "pieces of '\(name.text)' left: \(row)")
    }

    /// At zoom 0 a line smaller than a dot is drawn as a dot of the file's ink, and the pick names it.
    @Test func aLineSmallerThanADotIsADotThePickNames() throws {
        let text =
            #"{"type":"Feature","properties":{"name":"tiny"},"geometry":{"type":"LineString","coordinates":[[30,10],[30.2,10.1]]}}"#
        let data = try UserDataReader.read(Array(text.utf8), format: .geojson, file: "tiny.geojson")
        let file = UserFile(file: "tiny.geojson", format: .geojson, data: data)
        #expect(file.prepare(0) && file.prepare(12) && !file.prepare(0))
        let (coarse, fine) = (try #require(file.readyLevel(0)), try #require(file.readyLevel(12)))
        #expect(coarse.dust.count == 1 && coarse.data.count == 0)
        #expect(fine.dust.count == 0 && fine.data.count == 1)
        let view = try MapView(
            center: Coordinate(latitude: 0, longitude: 0), zoom: 0, size: try ViewSize(cols: 100, rows: 30))
        var frame = Frame(cols: 100, rows: 30)
        let map = MapRenderer.render(
            into: &frame, view: view, overlays: [UserDataLayer(file: file, look: 0)], sources: nil,
            style: MapStyle(mode: .ansi256))
        let dot = ViewTransform(view).dot(for: Coordinate(latitude: 10.05, longitude: 30.1))
        let picked = map.pick.feature(col: Int(dot.x) / 2, row: Int(dot.y) / 4)
        #expect(
            picked?.className == "file tiny.geojson" && picked?.name == "tiny" && picked?.reference.feature == .own(0))
    }

    /// Offsets are a stride until an item spans differently, then numbers; either way the same entries.
    @Test func offsetsKeepTheirEntries() {
        for spans in [[3, 3, 3, 3], [1, 1, 1], [0, 0], [2, 2, 5, 2, 0, 7], [4]] {
            var o = UserOffsets()
            var expected = [0]
            for s in spans {
                o.append(o.last + s)
                expected.append(expected.last! + s)
            }
            #expect((0..<o.count).map { o[$0] } == expected, "\(spans)")
        }
    }

    /// Property rows give back each value as it went in: absent, empty, and text holding the bytes the
    /// rows use as separators and escapes.
    @Test func propertyRowsGiveBackTheirValues() {
        let rows: [[String?]] = [
            [], [""], [nil, "a"], ["x", nil, nil], ["\u{1F}", "\u{1E}", "\u{1C}\u{1D}", "é"], [nil], ["", ""], ["last"],
        ]
        var p = UserPropertyRows()
        for r in rows { p.append(r) }
        for (i, r) in rows.enumerated() {
            let trimmed = Array(r.prefix((r.lastIndex { $0 != nil } ?? -1) + 1))
            #expect(p.values(row: i) == trimmed, "row \(i)")
            for c in 0..<4 { #expect(p.value(row: i, column: c) == (c < r.count ? r[c] : nil), "row \(i) column \(c)") }
        }
    }

    /// A CSV's quoting as RFC 4180 has it, CRLF lines, a quoted name with a doubled quote and a line
    /// break, and labels from the name column until a row has none.
    @Test func csvFieldsAsWritten() throws {
        let text =
            "name,lat,lon,note\r\n\"Caf\u{E9} \"\"Ny\"\"\",60.1,24.9,\"two\nlines\"\r\nplain,61,25,\r\n,62, 26 ,x\r\n"
        let data = try UserDataReader.read(Array(text.utf8), format: .csv, file: "q.csv")
        #expect(data.count == 3)
        #expect(data.names == ["Caf\u{E9} \"Ny\"", "plain", nil])
        #expect(
            data.property("note", of: 0) == "two\nlines" && data.property("note", of: 1) == ""
                && data.property("note", of: 2) == "x")
        #expect(data.property("name", of: 2) == "")
        let (x, y, _, _) = data.box(2)
        // (Stored to a unit of 2⁻³⁰ of the world: 3.7 cm.)
        let unit = 1 / CoordinateColumn.unitsPerWorld
        #expect(
            abs(x - WebMercator.projectX(longitude: 26)) < unit && abs(y - WebMercator.projectY(latitude: 62)) < unit)
    }
}

/// A small seeded generator (SplitMix64), so the crowded file is the same on every run.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite("Filling the user's polygons")
struct UserPolygonFillTests {
    /// Filled by parity (rings of millions of points) or from sorted crossings (the rest), a polygon
    /// marks the same cells: seeded random polygons with holes, jagged, across the view's edges.
    @Test(arguments: 0..<20)
    func parityAndSortedCrossingsAgree(seed: Int) throws {
        var r = SeededRandom(state: UInt64(seed) &+ 99)
        var rings: [[(Double, Double)]] = []
        for k in 0..<(1 + r.below(3)) {
            let n = 3 + r.below(400)
            let (cx, cy, radius) = (
                Double(r.below(60)) - 30, Double(r.below(40)) - 20, Double(5 + r.below(40)) / Double(k + 1)
            )
            var ring = (0..<n).map { i -> (Double, Double) in
                let a = 2 * Double.pi * Double(i) / Double(n)
                let s = radius * (0.3 + r.unit())
                return (cx + s * cos(a), cy + s * sin(a) * 0.5)
            }
            ring.append(ring[0])
            rings.append(ring)
        }
        var builder = UserLayerBuilder()
        builder.addPiece(.polygon, rings: rings)
        builder.endFeature(id: nil, name: nil, properties: [])
        let data = builder.finished()
        #expect(data.count == 1)
        let view = try MapView(
            center: Coordinate(latitude: 0, longitude: 0), zoom: 2, size: try ViewSize(cols: 80, rows: 24))
        let t = view.transform
        // Whole, and within a tile's square with a box left out (as a tile's chunk is filled): a box of
        // cells about the first cell the fill without it fills.
        let cols = view.size.cols
        for square in [nil, (minX: 0.4, minY: 0.42, size: 0.15)] {
            let place = ChunkPlacement(WorldPlacement(t, copy: 0), t, tile: square)
            var whole = LayerContext(view: view, sources: nil, ascii: false)
            var unexcluded = AreaFill(place)
            unexcluded.fill(data, piece: 0, ink: 7, set: 0, feature: 0, tag: 1, &whole)
            let first = try #require(whole.fills.firstIndex(of: 7))
            let (x, y) = (ViewTransform.centerX(col: first % cols), ViewTransform.centerY(row: first / cols))
            let excluded: [DotRect] = square == nil ? [] : [(x0: x - 6, y0: y - 6, x1: x + 6, y1: y + 6)]
            var listed = LayerContext(view: view, sources: nil, ascii: false)
            var parity = LayerContext(view: view, sources: nil, ascii: false)
            var fill = AreaFill(place, excluded: excluded)
            fill.fill(data, piece: 0, ink: 7, set: 0, feature: 0, tag: 1, &listed, listingUpTo: .max)
            fill.fill(data, piece: 0, ink: 7, set: 0, feature: 0, tag: 1, &parity, listingUpTo: 0)
            #expect(listed.fills == parity.fills)
            #expect(listed.fills.contains(7))
            #expect(listed.fills.contains(0))
            // No cell whose centre is in an excluded box is filled (a finer source draws it there).
            guard let box = excluded.first else { continue }
            let inBox = listed.fills.indices.filter { i in
                let (x, y) = (ViewTransform.centerX(col: i % cols), ViewTransform.centerY(row: i / cols))
                return x >= box.x0 && x < box.x1 && y >= box.y0 && y < box.y1
            }
            #expect(inBox.contains(first) && inBox.allSatisfy { listed.fills[$0] == 0 })
        }
    }
}
