import GeoCore
import MapData
import MapFormats
import TestSupport
import Testing

@testable import MapRender
@testable import Viewer

/// The place grid finds every place in a box, across the antimeridian and at the poles too, and the
/// table's order names the largest first.
struct PlaceGridTests {
    static let table: PlaceTable = {
        var random = SeededRandom(state: 7)
        let cities = (0..<3_000).map { i in
            City(
                name: "p\(i)",
                coordinate: Coordinate(
                    latitude: random.unit() * 180 - 90, longitude: random.unit() * 360 - 180),
                countryCode: "  ", population: random.below(1_000_000), kind: i % 7 == 0 ? .capital : .city)
        }
        return PlaceTable(base: PlacePoints(cities), extras: [])
    }()

    @Test(arguments: [
        (10.0, 20.0, 30.0, 45.0), (-90, -80, -180, 180), (80, 90, 170, 190), (-5, 5, -200, -170),
        (0.1, 0.2, 0.1, 0.2), (-90, 90, -540, 540),
    ])
    func everyPlaceInTheBoxIsNear(south: Double, north: Double, west: Double, east: Double) {
        let table = Self.table
        let near = PlaceGrid(table).near(south: south, north: north, west: west, east: east)
        #expect(Set(near).count == near.count, "no place twice")
        let inside = (0..<table.count).filter { id in
            let c = table.coordinate(id)
            let lon = WebMercator.unwrap(c.longitude, near: (west + east) / 2)
            return c.latitude >= south && c.latitude <= north
                && (east - west >= 360 || (lon >= west && lon <= east) || (lon + 360 <= east) || (lon - 360 >= west))
        }
        #expect(Set(inside).isSubset(of: Set(near)), "\(inside.count) inside, \(near.count) near")
        #expect(table.within(south: south, north: north, west: west, east: east) == inside, "the first view's scan")
        if east - west < 10 && north - south < 10 { #expect(near.count < table.count / 50) }
    }

    @Test func capitalsRankHalfAgainTheirPopulation() {
        let cities = [
            City(name: "a", coordinate: Coordinate(latitude: 0, longitude: 0), countryCode: "  ", population: 1000),
            City(
                name: "b", coordinate: Coordinate(latitude: 0, longitude: 0), countryCode: "  ", population: 700,
                kind: .capital),
            City(name: "c", coordinate: Coordinate(latitude: 0, longitude: 0), countryCode: "  ", population: 600),
        ]
        let table = PlaceTable(base: PlacePoints(cities), extras: [])
        #expect([0, 1, 2].sorted(by: table.precedes) == [1, 0, 2])
    }
}
