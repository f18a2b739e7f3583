import Foundation
import GeoCore
import MapData
import Raster
import Testing

@testable import MapRender
@testable import Viewer

/// Points of interest against `Tests/MapDataTests/Fixtures/osm/pois.json` (Tools/make_poi_fixtures.py:
/// pyosmium's named amenities, shops, hotels, sights and stations of the Helsinki extract).
@Suite("Points of interest")
struct PointsOfInterestTests {
    struct POI: Decodable {
        var lat: Double, lon: Double, name: String
    }
    static let pois: [POI] = {
        struct Root: Decodable { var pois: [POI] }
        let url = repositoryRoot.appendingPathComponent("Tests/MapDataTests/Fixtures/osm/pois.json")
        do { return try JSONDecoder().decode(Root.self, from: Data(contentsOf: url)).pois } catch {
            preconditionFailure("pois.json: \(error)")
        }
    }()

    /// At 200×60 and zoom 17 in the demo city: the named points of interest in view are pyosmium's
    /// (within 2), at least 60 % of them have their name placed, each placed name is one of them, and
    /// `poisOmitted` is the number whose name was not placed.
    @Test(arguments: [(60.1685, 24.9450), (60.1665, 24.9440), (60.1700, 24.9405)])
    func namedPointsOfInterestAreSignedAndMostlyNamed(lat: Double, lon: Double) throws {
        let view = try MapView(
            center: Coordinate(latitude: lat, longitude: lon), zoom: 17, size: try ViewSize(cols: 200, rows: 60))
        var frame = Frame(cols: 200, rows: 60)
        let map = MapRenderer.render(
            into: &frame, view: view, sources: bundledCitySources, style: MapStyle(mode: .ansi256))
        let inView = Self.pois.filter { p in
            let d = view.dotPoint(for: Coordinate(latitude: p.lat, longitude: p.lon))
            return d.x >= 0 && d.y >= 0 && d.x < view.size.widthDots && d.y < view.size.heightDots
        }
        #expect(inView.count >= 20, "a view with points of interest")
        #expect(abs(map.poisNamed - inView.count) <= 2, "\(map.poisNamed) named in view, pyosmium has \(inView.count)")
        let placed = map.placed.filter { $0.role == .poiLabel }
        #expect(Double(placed.count) >= 0.6 * Double(map.poisNamed), "\(placed.count) of \(map.poisNamed) named")
        #expect(map.poisOmitted == map.poisNamed - placed.count)
        let names = Set(inView.map { Transliteration.screenText($0.name, ascii: false) })
        for label in placed {
            #expect(
                names.contains(Transliteration.screenText(label.text, ascii: false)),
                "\(label.text) is not a point of interest in view")
        }
        // Each placed name has its kind's sign beside it.
        let signs = map.placed.filter { $0.role == .feature(.poi) }
        #expect(signs.count >= placed.count)
    }

    /// Tilesets' points of interest (OpenMapTiles `poi` from tilemaker, Protomaps `pois`) are signed and
    /// named the same way, each name one of the extract's.
    @Test(arguments: ["helsinki-omt.pmtiles", "helsinki-protomaps.pmtiles"])
    func tilesetsPointsOfInterestAreSignedAndNamed(file: String) throws {
        let path = repositoryRoot.appendingPathComponent("Tests/MapDataTests/Fixtures/tiles/\(file)").path
        let tiles = TileSource(archive: try TileArchives.open(path), label: "tiles")
        let sources = MapSources(features: FeatureSources(base: bundledCitySources.features.base, details: [tiles]))
        let view = try MapView(
            center: Coordinate(latitude: 60.1685, longitude: 24.9450), zoom: 17, size: try ViewSize(cols: 200, rows: 60)
        )
        for batch in MapRenderer.missingTiles(view: view, sources: sources) { tiles.load(batch.tiles) }
        var frame = Frame(cols: 200, rows: 60)
        let map = MapRenderer.render(into: &frame, view: view, sources: sources, style: MapStyle(mode: .ansi256))
        let placed = map.placed.filter { $0.role == .poiLabel }
        #expect(
            map.poisNamed >= 20 && Double(placed.count) >= 0.6 * Double(map.poisNamed),
            "\(placed.count) of \(map.poisNamed)")
        #expect(map.poisOmitted == map.poisNamed - placed.count)
        let names = Set(Self.pois.map { Transliteration.screenText($0.name, ascii: false) })
        for label in placed { #expect(names.contains(label.text), "\(label.text)") }
    }
}

/// The legend (`w`) lists each class on screen with its look in the current mode.
@Suite("Legend")
struct LegendTests {
    @Test(arguments: [ColorMode.ansi256, .ansi8, .plain])
    func theLegendListsWhatIsOnScreenWithItsLook(mode: ColorMode) throws {
        var s = try ViewerState(
            cols: 120, rows: 40, center: Coordinate(latitude: 60.1685, longitude: 24.9450), zoom: 17)
        s.animationsEnabled = false
        _ = s.update(.key(.char("w")))
        #expect(s.showLegend)
        let screen = Renderer.draw(s, sources: bundledCitySources, options: RenderOptions(mode: mode))
        let map = try #require(screen.map)
        #expect(map.shownClasses.contains(.building) && map.shownClasses.contains(.path))
        let rows = (0..<40).map { r in String(String.UnicodeScalarView((0..<120).map { screen.frame[$0, r].glyph })) }
        for name in ["legend", "building", "path", "restaurant"] {
            #expect(rows.contains { $0.contains(name) }, "\(mode): no \(name) in the legend")
        }
        // The building entry's sample cells look as buildings do in this mode.
        let row = try #require(rows.firstIndex { $0.contains("│ ") && $0.contains("building") })
        let left = try #require(rows[row].unicodeScalars.map(Character.init).firstIndex(of: "│"))
        let sample = screen.frame[left + 2, row]
        let expected = MapRenderer.legendSample(.building, style: MapStyle(mode: mode))[0]
        #expect(sample == expected)
        _ = s.update(.key(.char("w")))
        #expect(!s.showLegend)
    }
}
