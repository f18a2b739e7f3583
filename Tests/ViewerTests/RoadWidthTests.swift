import Foundation
import GeoCore
import MapData
import Raster
import Testing

@testable import MapRender

/// Roads as wide as they are, against `Tests/MapDataTests/Fixtures/osm/roads.json` (Tools/make_road_fixtures.py:
/// pyosmium's primary roads of the Helsinki extract, with no other car road within 25 m, and their width
/// and lanes tags) and docs/data.md's rule and table of class widths.
@Suite("Roads as wide as they are")
struct RoadWidthTests {
    struct Road: Decodable {
        var lat: Double, lon: Double, bearing: Double
        var width: String?
        var lanes: String?
    }
    static let roads: [Road] = {
        struct Root: Decodable { var roads: [Road] }
        let url = repositoryRoot.appendingPathComponent("Tests/MapDataTests/Fixtures/osm/roads.json")
        do { return try JSONDecoder().decode(Root.self, from: Data(contentsOf: url)).roads } catch {
            preconditionFailure("roads.json: \(error)")
        }
    }()

    /// docs/data.md's width of a class (`| primary road | 12 |`).
    static func readmeWidth(_ name: String) throws -> Double {
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/data.md"), encoding: .utf8)
        let line = try #require(readme.split(separator: "\n").first { $0.hasPrefix("| \(name) | ") })
        return try #require(Double(line.split(separator: "|")[1].trimmingCharacters(in: .whitespaces)))
    }

    /// Across a primary road at zoom 17, 18 and 19 the cells of its band grow with the zoom and match its
    /// width within one cell (counted along the row or column it crosses most squarely).
    @Test(arguments: roads.indices)
    func aRoadsBandIsAsWideAsTheRoad(index: Int) throws {
        let road = Self.roads[index]
        // docs/data.md: the `width` tag, else 3.25 m a lane, else the class's width.
        #expect(try Self.readmeWidth("primary road") == StyleTable.roadWidth(.primary))
        let width =
            try road.width.flatMap(Double.init) ?? road.lanes.flatMap(Double.init).map { $0 * 3.25 }
            ?? Self.readmeWidth("primary road")
        var counts: [Int] = []
        for zoom in [17.0, 18, 19] {
            let size = try ViewSize(cols: 200, rows: 60)
            let view = try MapView(center: Coordinate(latitude: road.lat, longitude: road.lon), zoom: zoom, size: size)
            var frame = Frame(cols: 200, rows: 60)
            let pick = MapRenderer.render(
                into: &frame, view: view, sources: bundledCitySources, style: MapStyle(mode: .ansi256)
            ).pick
            let centre = view.dotPoint(for: Coordinate(latitude: road.lat, longitude: road.lon))
            let (col, row) = (Int(centre.x / 2), Int(centre.y / 4))
            let theta = road.bearing * .pi / 180
            // A road running more north–south than east–west is crossed by its row, else by its column; the
            // crossing is the width over the cosine of the angle between the road's normal and that line.
            let acrossRow = abs(cos(theta)) >= abs(sin(theta))
            let cellMetres = view.metersPerDot * Double(acrossRow ? ViewSize.dotsPerCellX : ViewSize.dotsPerCellY)
            let expected = width / (acrossRow ? abs(cos(theta)) : abs(sin(theta))) / cellMetres
            func isRoad(_ c: Int, _ r: Int) -> Bool { pick.area(col: c, row: r)?.className == "primary road" }
            #expect(isRoad(col, row), "z\(zoom): the road's own cell")
            var run = 1
            for step in [-1, 1] {
                var k = 1
                while acrossRow ? isRoad(col + step * k, row) : isRoad(col, row + step * k) {
                    run += 1
                    k += 1
                }
            }
            #expect(
                abs(Double(run) - expected) <= 1, "z\(zoom): \(run) cells across, the road is \(expected) cells wide")
            counts.append(run)
        }
        #expect(counts[0] < counts[1] && counts[1] < counts[2], "\(counts)")
    }
}
