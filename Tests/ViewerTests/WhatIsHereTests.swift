import Foundation
import GeoCore
import Raster
import Testing

@testable import MapData
@testable import MapFormats
@testable import MapRender
@testable import Viewer

/// What is here (`i`), against `Tests/ViewerTests/Fixtures/info.json` (Tools/make_info_fixtures.py):
/// the OpenStreetMap ways pyosmium reads at 20 seeded places of the extract the demo city is imported
/// from, and the features mapbox-vector-tile decodes at 12 seeded places of the tile fixture.
@Suite("What is here")
struct WhatIsHereTests {
    struct OSMCase: Decodable, CustomTestStringConvertible {
        var kind: String
        var lat: Double, lon: Double
        var id: String
        var name: String?
        var properties: [String: String]
        var testDescription: String { "\(kind) \(id) \(name ?? "")" }
    }
    struct TileCase: Decodable, CustomTestStringConvertible {
        var layer: String
        var lat: Double, lon: Double
        var id: String?
        var properties: [String: String]
        var testDescription: String { "\(layer) at \(lat), \(lon)" }
    }
    struct TileNameCase: Decodable, CustomTestStringConvertible {
        var lat: Double, lon: Double
        var `class`: String
        var name: String?
        var testDescription: String { "\(self.class) \(name ?? "unnamed") at \(lat), \(lon)" }
    }
    struct Fixture: Decodable {
        var osm: [OSMCase]
        var tiles: [TileCase]
        var idsTile: [String?]
        var tileNames: [TileNameCase]
    }
    static let fixture: Fixture = {
        let url = repositoryRoot.appendingPathComponent("Tests/ViewerTests/Fixtures/info.json")
        do { return try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: url)) } catch {
            preconditionFailure("info.json: \(error)")
        }
    }()

    static func state(lat: Double, lon: Double, zoom: Double, cols: Int = 100, rows: Int = 30) throws -> ViewerState {
        var s = try ViewerState(cols: cols, rows: rows, center: Coordinate(latitude: lat, longitude: lon), zoom: zoom)
        s.animationsEnabled = false
        _ = s.update(.command(.whatIsHere))
        return s
    }

    static func properties(_ f: FeatureDetails) -> [String: String] {
        Dictionary((f.identity?.properties ?? []).map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
    }

    @Test("the generator's places are there") func fixtureLoads() {
        #expect(Self.fixture.osm.count == 20 && Self.fixture.tiles.count == 12)
        #expect(Self.fixture.osm.filter { $0.kind == "building" }.count == 10)
    }

    /// At zoom 17 the crosshair on a named street or in a building lists the way pyosmium reads there,
    /// with its OSM id, its name and the tags the import keeps.
    @Test(arguments: fixture.osm)
    func theDemoCityNamesTheWay(_ c: OSMCase) throws {
        let s = try Self.state(lat: c.lat, lon: c.lon, zoom: 17)
        let info = try #require(
            Renderer.draw(s, sources: bundledCitySources, options: RenderOptions(mode: .ansi256)).info)
        let match = info.features.first { $0.identity?.id == c.id }
        let listed = info.features.map { "\($0.className) \($0.identity?.id ?? "-")" }
        #expect(match != nil, "\(c.id) not in \(listed)")
        #expect(match?.name == c.name)
        #expect(match.map(Self.properties) == c.properties)
        #expect(match?.className == (c.kind == "building" ? "building" : match?.className))
        #expect(abs(info.coordinate.latitude - c.lat) < 1e-9 && abs(info.coordinate.longitude - c.lon) < 1e-9)
    }

    /// On the tiles the list has the feature mapbox-vector-tile decodes there: its layer, id and
    /// properties as the tile has them.
    @Test(arguments: fixture.tiles)
    func theTilesNameTheFeature(_ c: TileCase) throws {
        let s = try Self.state(lat: c.lat, lon: c.lon, zoom: 16)
        let sources = try TileRenderingTests.sources("helsinki-omt.pmtiles")
        let info = try #require(Renderer.drawLoaded(s, sources: sources, options: RenderOptions(mode: .ansi256)).info)
        let match = info.features.first { $0.identity?.layer == c.layer && Self.properties($0) == c.properties }
        #expect(
            match != nil,
            "\(c.layer) \(c.properties) not in \(info.features.map { ($0.identity?.layer, Self.properties($0)) })")
        #expect(match?.identity?.id == c.id)
    }

    /// On OpenMapTiles tiles a street's line carries no name (`transportation_name` does): the list
    /// names it by the name line of its class that runs along it, as shapely finds it there.
    @Test(arguments: fixture.tileNames)
    func theTilesNameTheStreet(_ c: TileNameCase) throws {
        let s = try Self.state(lat: c.lat, lon: c.lon, zoom: 16)
        let sources = try TileRenderingTests.sources("helsinki-omt.pmtiles")
        let info = try #require(Renderer.drawLoaded(s, sources: sources, options: RenderOptions(mode: .ansi256)).info)
        let className = [
            "primary": "primary road", "secondary": "secondary road", "tertiary": "tertiary road",
            "minor": "minor road",
        ][c.class]
        let road = info.features.first { $0.className == className && $0.identity?.layer == "transportation" }
        #expect(road != nil, "\(info.features.map { "\($0.className) \($0.name ?? "-")" })")
        #expect(road?.name == c.name)
    }

    /// The decoder reads feature ids as mapbox-vector-tile wrote them (0 bits to 2^40), none where none.
    @Test func tileFeatureIdsAreRead() throws {
        let bytes = try [UInt8](
            Data(contentsOf: repositoryRoot.appendingPathComponent("Tests/MapDataTests/Fixtures/tiles/ids.mvt")))
        var ids: [String?] = []
        let valid = bytes.withUnsafeBytes { raw in
            MVTDecoder.visit(raw, wanted: { _ in true }) { _, f in ids.append(f.id.map { String($0) }) }
        }
        #expect(valid && ids == Self.fixture.idsTile)
    }

    /// A user's feature lists every property and its number in its file; the first answer is the
    /// topmost feature, and the crosshair marks the centre while the panel is open.
    @Test func aUsersFeatureListsEveryProperty() throws {
        let text =
            #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"name":"far"},"geometry":{"type":"Point","coordinates":[40,10]}},{"type":"Feature","properties":{"name":"Lenkki","ele":12,"note":"x=y"},"geometry":{"type":"LineString","coordinates":[[30.00001,-0.1],[30.00001,0.1]]}}]}"#
        let data = try UserDataReader.read(Array(text.utf8), format: .geojson, file: "run.geojson")
        var s = try Self.state(lat: 0, lon: 30, zoom: 12)
        s.layers.layers.append(
            UserDataLayer(file: UserFile(file: "run.geojson", format: .geojson, data: data), look: 0))
        let screen = Renderer.draw(s, sources: nil, options: RenderOptions(mode: .plain))
        let info = try #require(screen.info)
        #expect(info.features.count == 1)
        let f = try #require(info.features.first)
        #expect(f.className == "file run.geojson" && f.name == "Lenkki" && f.identity?.id == "2")
        #expect(
            f.identity?.properties == [
                FeatureProperty("name", "Lenkki"), FeatureProperty("ele", "12"), FeatureProperty("note", "x=y"),
            ])
        let cell = InfoReport.crosshairCell(s.view.size)
        #expect(screen.frame[cell.col, cell.row].glyph == "┼")
        let text2 = (0..<screen.frame.rows).map { r in
            String((0..<screen.frame.cols).map { Character(screen.frame[$0, r].glyph) })
        }
        #expect(text2.contains { $0.contains("note=x=y") } && text2.contains { $0.contains("feature 2 of the file") })
        // Closed: no crosshair, no panel.
        var closed = s
        _ = closed.update(.key(.escape))
        let after = Renderer.draw(closed, sources: nil, options: RenderOptions(mode: .plain))
        #expect(after.info == nil && after.frame[cell.col, cell.row].glyph != "┼")
    }

    /// Where nothing is, the panel says so; `render --json` carries the same as `info`.
    @Test func nothingHereSaysSo() throws {
        let s = try Self.state(lat: 0, lon: -140, zoom: 3)
        let screen = Renderer.draw(s, sources: nil, options: RenderOptions(mode: .plain))
        #expect(screen.info?.features.isEmpty == true)
        let rows = (0..<screen.frame.rows).map { r in
            String((0..<screen.frame.cols).map { Character(screen.frame[$0, r].glyph) })
        }
        #expect(rows.contains { $0.contains("nothing here") })
        let json =
            try JSONSerialization.jsonObject(with: Data(try StateJSON.encode(s, map: screen.map).utf8))
            as? [String: Any]
        let info = try #require(json?["info"] as? [String: Any])
        #expect(Set(info.keys) == ["lat", "lon", "zoom", "features"] && (info["features"] as? [Any])?.isEmpty == true)
        #expect(info["lat"] as? Double == 0 && info["lon"] as? Double == -140)
    }

    /// ↑ and ↓ scroll a long list no further than its end; hjkl still pan (the panel follows).
    @Test func theListScrolls() throws {
        var props = (1...60).map { "\"k\($0)\":\"v\($0)\"" }.joined(separator: ",")
        props = "{" + props + "}"
        let text = #"{"type":"Feature","properties":\#(props),"geometry":{"type":"Point","coordinates":[30,0]}}"#
        let data = try UserDataReader.read(Array(text.utf8), format: .geojson, file: "many.geojson")
        var s = try Self.state(lat: 0, lon: 30, zoom: 12)
        s.layers.layers.append(
            UserDataLayer(file: UserFile(file: "many.geojson", format: .geojson, data: data), look: 0))
        func rows(_ s: ViewerState) -> [String] {
            let f = Renderer.draw(s, sources: nil, options: RenderOptions(mode: .plain)).frame
            return (0..<f.rows).map { r in String((0..<f.cols).map { Character(f[$0, r].glyph) }) }
        }
        #expect(rows(s).contains { $0.contains("k1=v1") } && !rows(s).contains { $0.contains("k60=v60") })
        for _ in 0..<100 { _ = s.update(.key(.down)) }
        let limit = try #require(Renderer.draw(s, sources: nil, options: RenderOptions(mode: .plain)).infoScrollLimit)
        _ = s.update(.rendered(missing: [], infoScrollLimit: limit))
        #expect(
            s.infoScroll == limit && rows(s).contains { $0.contains("k60=v60") }
                && !rows(s).contains { $0.contains("k1=v1") })
        _ = s.update(.key(.up))
        #expect(s.infoScroll == limit - 1)
        let before = s.view.center
        _ = s.update(.key(.char("l")))
        #expect(s.view.center.longitude > before.longitude && s.showInfo)
    }

    /// The rule for "within the cell": a point in its square, a segment through it, an area whose edge
    /// crosses it or whose inside (even–odd: a hole is outside) holds its centre.
    @Test func withinTheCell() {
        let cell: Pick.CellSquare = (10, 10, 12, 14)
        func ring(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> [(Double, Double)] {
            [(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)]
        }
        func meets(_ rings: [[(Double, Double)]], area: Bool) -> Bool {
            let points = rings.flatMap { $0 }
            var ranges: [Range<Int>] = []
            var start = 0
            for r in rings {
                ranges.append(start..<(start + r.count))
                start += r.count
            }
            return Pick.meets(ranges, { points[$0] }, cell, area: area)
        }
        #expect(meets([ring(0, 0, 100, 100)], area: true), "a cell deep inside a building")
        #expect(!meets([ring(0, 0, 100, 100)], area: false), "the same ring as a line passes far from it")
        #expect(!meets([ring(0, 0, 100, 100), ring(5, 5, 20, 20)], area: true), "a cell in a courtyard")
        #expect(meets([ring(11, 0, 30, 30)], area: true), "an edge through the cell")
        #expect(!meets([ring(20, 20, 30, 30)], area: true), "an area beside it")
        #expect(meets([[(0, 12), (50, 12)]], area: false), "a street across it")
        #expect(meets([[(11, 11)]], area: false) && !meets([[(13, 11)]], area: false), "a point in it, one beside")
    }

    /// Degrees, minutes and seconds read back through `g`'s parser to the hundredth of a second.
    @Test(arguments: [
        (60.169889, 24.940944), (-33.8688, 151.2093), (0.0, -0.000001), (89.999999, -179.999999), (-12.5, 179.99999),
    ])
    func degreesMinutesSecondsReadBack(_ lat: Double, _ lon: Double) throws {
        let text = CoordinateFormat.degreesMinutesSeconds(Coordinate(latitude: lat, longitude: lon))
        let back = try InputParsing.coordinate(text).get()
        #expect(
            abs(back.latitude - lat) <= 0.005 / 3600 + 1e-12 && abs(back.longitude - lon) <= 0.005 / 3600 + 1e-12,
            "\(text)")
    }
}
