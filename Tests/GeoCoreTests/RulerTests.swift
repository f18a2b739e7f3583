import Foundation
import Testing

@testable import GeoCore

/// GeographicLib's values for 30 rulers (`Tools/make_ruler_fixtures.py`).
struct RulerFixture: Decodable {
    struct Leg: Decodable { let meters, bearing: Double }
    struct Case: Decodable {
        let vertices: [[Double]]
        let closed: Bool
        let legs: [Leg]
        let totalMeters: Double
        let areaSquareMeters: Double?
        let perimeterMeters: Double?
    }
    let cases: [Case]

    static let shared: RulerFixture? = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "Fixtures/ruler.json")
        return (try? Data(contentsOf: url)).flatMap { try? JSONDecoder().decode(RulerFixture.self, from: $0) }
    }()
}

@Suite("The geodesic ruler against GeographicLib")
struct RulerTests {
    /// Legs and perimeters to 1e-9 relative, bearings to 1e-7°, areas to 1e-3 m² + 1e-9 relative (PROJ
    /// 9.1 and GeographicLib 2 differ by 1e-5 relative on 1 m squares: that margin is the 1e-3 m²),
    /// across ±180°, round both poles, for 1 m and 10,000 km legs.
    @Test func rulersMeasureAsGeographicLibDoes() throws {
        let fixture = try #require(RulerFixture.shared, "run Tools/make_ruler_fixtures.py")
        #expect(fixture.cases.count == 30)
        for (k, c) in fixture.cases.enumerated() {
            let points = c.vertices.map { Coordinate(latitude: $0[0], longitude: $0[1]) }
            var ruler = Ruler(start: points[0])
            for p in points.dropFirst() { ruler.add(p) }
            if c.closed { ruler.close() }
            let legs = ruler.legs
            #expect(legs.count == c.legs.count, "case \(k)")
            for (got, want) in zip(legs, c.legs) {
                #expect(
                    abs(got.meters - want.meters) <= 1e-9 * want.meters + 1e-9,
                    "case \(k): \(got.meters) m, want \(want.meters)")
                var d = abs(got.bearing - want.bearing)
                d = min(d, 360 - d)
                #expect(d <= 1e-7, "case \(k): bearing \(got.bearing)°, want \(want.bearing)°")
            }
            #expect(abs(ruler.totalMeters - c.totalMeters) <= 1e-9 * c.totalMeters + 1e-9, "case \(k)")
            if let area = c.areaSquareMeters, let perimeter = c.perimeterMeters {
                let polygon = try #require(ruler.polygon, "case \(k): closed")
                #expect(abs(polygon.area - area) <= 1e-3 + 1e-9 * area, "case \(k): \(polygon.area) m², want \(area)")
                #expect(abs(polygon.perimeter - perimeter) <= 1e-9 * perimeter, "case \(k): perimeter")
            } else {
                #expect(ruler.polygon == nil)
            }
        }
    }

    /// Backspace takes back the closing leg, then vertices, never the start.
    @Test func removeLastTakesBackTheClosingLegFirst() {
        var r = Ruler(start: Coordinate(latitude: 0, longitude: 0))
        r.add(Coordinate(latitude: 0, longitude: 1))
        r.add(Coordinate(latitude: 1, longitude: 1))
        r.close()
        #expect(r.closed && r.legs.count == 3)
        #expect(r.removeLast() && !r.closed && r.legs.count == 2)
        #expect(r.removeLast() && r.vertices.count == 2)
        #expect(r.removeLast() && r.vertices.count == 1)
        #expect(!r.removeLast() && r.vertices.count == 1)
    }
}
