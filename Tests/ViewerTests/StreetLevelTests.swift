import Foundation
import GeoCore
import MapData
import Raster
import Testing

@testable import MapRender
@testable import Viewer

/// The views of `Tests/MapDataTests/Fixtures/osm/reference.json` (made by Tools/make_osm_fixtures.py with
/// pyosmium and mercantile): which cells car roads cross, and which cells lie within a cell of any way.
enum HelsinkiViews {
    struct View: Decodable {
        var lat: Double
        var lon: Double
        var zoom: Double
        var cols: Int
        var rows: Int
        var carRoadCells: [[Int]]
        var nearWays: [String]
    }
    static let all: [View] = {
        struct File: Decodable { var views: [View]? }
        struct Root: Decodable { var files: [String: File] }
        let url = repositoryRoot.appendingPathComponent("Tests/MapDataTests/Fixtures/osm/reference.json")
        do {
            return try JSONDecoder().decode(Root.self, from: Data(contentsOf: url)).files["Helsinki.osm.pbf"]?.views
                ?? []
        } catch {
            preconditionFailure("reference.json: \(error)")
        }
    }()
}

@Suite("Street level: the Helsinki demo city")
struct StreetLevelTests {
    static let center = (lat: 60.16878, lon: 24.94164)

    func state(zoom: Double, lat: Double = center.lat, lon: Double = center.lon, cols: Int = 100, rows: Int = 30)
        throws -> ViewerState
    {
        var s = try ViewerState(cols: cols, rows: rows, center: Coordinate(latitude: lat, longitude: lon), zoom: zoom)
        s.animationsEnabled = false
        return s
    }

    func frame(_ s: ViewerState, mode: ColorMode = .plain) -> Frame {
        Renderer.render(s, sources: bundledCitySources, options: RenderOptions(mode: mode))
    }

    /// Cells that car roads cross (pyosmium's geometry, mercantile's projection) show something within one
    /// cell: a road's dots or a label.
    @Test(arguments: HelsinkiViews.all.indices)
    func carRoadsAreDrawnWhereTheyAre(index: Int) throws {
        let v = HelsinkiViews.all[index]
        let f = frame(try state(zoom: v.zoom, lat: v.lat, lon: v.lon, cols: v.cols, rows: v.rows + 2))
        var shown = 0
        for cell in v.carRoadCells {
            let near = (-1...1).contains { dr in (-1...1).contains { dc in f[cell[0] + dc, cell[1] + dr].glyph != " " }
            }
            if near { shown += 1 }
        }
        #expect(v.carRoadCells.count > 20, "view \(index): \(v.carRoadCells.count) road cells")
        #expect(
            Double(shown) >= 0.9 * Double(v.carRoadCells.count), "view \(index): \(shown) of \(v.carRoadCells.count)")
    }

    /// Braille cells of two or more dots drawn by street-level layers lie within a cell of an OSM way.
    @Test(arguments: HelsinkiViews.all.indices)
    func streetLevelDotsLieOnRealWays(index: Int) throws {
        let v = HelsinkiViews.all[index]
        let f = frame(try state(zoom: v.zoom, lat: v.lat, lon: v.lon, cols: v.cols, rows: v.rows + 2), mode: .ansi256)
        let osmRoles: [StyleRole] = [
            .feature(.motorway), .feature(.trunk), .feature(.primary), .feature(.secondary), .feature(.tertiary),
            .feature(.minorRoad), .feature(.serviceRoad), .feature(.path), .feature(.rail), .feature(.tram),
            .feature(.river),
            .feature(.stream), .feature(.water), .feature(.park), .feature(.wood), .feature(.building),
        ]
        var osmStyles = Set<CellStyle>()
        for role in osmRoles { osmStyles.insert(StyleTable.style(role, mode: .ansi256)) }
        let (drawn, onWays) = cellsOnWays(f, mask: v.nearWays, styles: osmStyles)
        #expect(drawn > 20, "view \(index): \(drawn) street-level cells")
        #expect(Double(onWays) >= 0.9 * Double(drawn), "view \(index): \(onWays) of \(drawn) on ways")
    }

    @Test(arguments: [12, 14, 16, 18])
    func goldenScreens(zoom: Int) throws {
        let s = try state(zoom: Double(zoom))
        let plain = frame(s)
        assertSnapshot("helsinki-z\(zoom)", plain.text)
        assertSnapshot("roles-helsinki-z\(zoom)", roleMap(frame(s, mode: .ansi256)))
        if zoom >= 14 {
            // Street names are on screen, and the data is credited.
            let names = [
                "Aleksanterinkatu", "Pohjoisesplanadi", "Eteläesplanadi", "Mikonkatu", "Unioninkatu", "Kluuvikatu",
            ]
            #expect(names.contains { plain.text.contains($0) }, "zoom \(zoom): no street name")
            #expect(
                plain.line(plain.rows - 2).contains("© OSM") || plain.line(plain.rows - 2).contains("OpenStreetMap"))
        }
    }

    @Test func searchFindsAStreetOfTheDemoCity() throws {
        var s = try state(zoom: 5)
        for key in "/Mannerheimintie" { s.update(.key(.char(key)), places: bundledCitySources) }
        s.update(.key(.enter), places: bundledCitySources)
        #expect(s.message.hasPrefix("Mannerheimintie, street: zoom 5.00 → "), "\(s.message)")
        #expect(s.view.zoom > 15.5 && s.view.zoom < 17, "\(s.view.zoom)")
        #expect(abs(s.view.center.latitude - 60.17) < 0.01 && abs(s.view.center.longitude - 24.94) < 0.01)
        // A place name still comes before a street: Helsinki the city.
        var city = try state(zoom: 5)
        for key in "/Helsinki" { city.update(.key(.char(key)), places: bundledCitySources) }
        city.update(.key(.enter), places: bundledCitySources)
        #expect(city.message.contains("FI (pop."))
    }

    @Test func streetLevelDataIsOnlyCreditedWhereItIsOnScreen() throws {
        let world = frame(try state(zoom: 3))
        #expect(!world.line(world.rows - 2).contains("OSM"))
        let city = frame(try state(zoom: 16))
        #expect(city.line(city.rows - 2).contains("© OSM"))
    }
}
