import Foundation
import GeoCore
import MapData
import MapFormats
import Testing

@Suite("Facts about the bundled data")
struct BundledDataTests {
    @Test(arguments: [
        ("Golden Gate", 37.8199, -122.4783), ("Cape of Good Hope", -34.3568, 18.4740),
        ("Cape Froward", -53.8967, -71.2928), ("Cabo da Roca", 38.7804, -9.4989), ("Nordkapp", 71.1685, 25.7838),
    ])
    func coastlinePassesNearCoastalPoints(name: String, lat: Double, lon: Double) throws {
        let d = try nearest(.coastline, to: Coordinate(latitude: lat, longitude: lon), in: bundledWorld)
        #expect(d < 2000, "\(name): nearest coastline \(Int(d)) m")
    }

    @Test func capeHornIsAKnownGapOfNaturalEarth10m() throws {
        // Natural Earth 10m leaves out Isla Hornos: its nearest coastline is the Wollaston group, 9.9 km
        // away. GSHHG full (the optional import) has the island.
        let d = try nearest(.coastline, to: Coordinate(latitude: -55.9800, longitude: -67.2700), in: bundledWorld)
        #expect(d > 9000 && d < 11_000)
    }

    @Test func noCoastlineNearAtlanta() throws {
        let d = try nearest(.coastline, to: Coordinate(latitude: 33.749, longitude: -84.388), in: bundledWorld)
        #expect(d > 50_000)
    }

    @Test func citiesIncludeAtlantaAndHanoi() throws {
        let cities = try bundledWorld.cities()
        #expect(cities.count == 34_006)
        let atlanta = try citiesNamed(in: bundledWorld, "atlanta").first
        #expect(atlanta?.countryCode == "US")
        #expect(abs((atlanta?.coordinate.latitude ?? 0) - 33.749) < 1e-5)
        #expect(abs((atlanta?.coordinate.longitude ?? 0) - -84.38798) < 1e-5)
        let hanoi = try citiesNamed(in: bundledWorld, "hanoi").first
        #expect(hanoi?.countryCode == "VN")
        #expect(abs((hanoi?.coordinate.latitude ?? 0) - 21.0245) < 1e-5)
        #expect(abs((hanoi?.coordinate.longitude ?? 0) - 105.84117) < 1e-5)
        #expect(try citiesNamed(in: bundledWorld, "sao paulo").first?.name == "São Paulo")
    }

    /// Each country's capital is marked (Paris, Tokyo, Canberra; not Sydney, Ürümqi or New York), and
    /// the corrections of `Tools/geonames_overrides.tsv` are in: Suginami in Tokyo, not Ibaraki; the
    /// Wakayama district "Minato" without a whole city's population.
    @Test func capitalsAndGeoNamesCorrections() throws {
        let cities = try bundledWorld.cities()
        func city(_ name: String, _ cc: String) -> City? {
            cities.filter { $0.name == name && $0.countryCode == cc }.max { $0.population < $1.population }
        }
        for (name, cc) in [("Paris", "FR"), ("Tokyo", "JP"), ("Canberra", "AU"), ("Ottawa", "CA"), ("Nairobi", "KE")] {
            #expect(city(name, cc)?.kind == .capital, "\(name)")
        }
        for (name, cc) in [("Sydney", "AU"), ("Ürümqi", "CN"), ("New York City", "US"), ("Mumbai", "IN")] {
            #expect(city(name, cc)?.kind == .city, "\(name)")
        }
        #expect(cities.filter { $0.kind == .capital }.count == 241)
        let suginami = try #require(city("Suginami", "JP"))
        #expect(
            abs(suginami.coordinate.latitude - 35.69938) < 1e-5 && abs(suginami.coordinate.longitude - 139.63623) < 1e-5
        )
        let minato = cities.filter { $0.name == "Minato" && $0.countryCode == "JP" }
        #expect(minato.allSatisfy { $0.population < 375_339 }, "\(minato.map(\.population))")
    }

    @Test func noCoastlineRunsAlongTheAntimeridianOrTheSouthPole() throws {
        for level in bundledWorld.levels.indices {
            for i in bundledWorld.levels[level].chunks where bundledWorld.chunks[i].featureClass == .coastline {
                let c = try bundledWorld.chunk(i)
                for line in 0..<c.polylineCount {
                    for p in c.starts[line]..<(c.starts[line + 1] - 1) {
                        let along180 = abs(c.lon[p]) == 18_000_000 && c.lon[p] == c.lon[p + 1]
                        let atPole = c.lat[p] <= -8_999_900 && c.lat[p + 1] <= -8_999_900
                        #expect(!along180 && !atPole, "level \(level) chunk \(i)")
                    }
                }
            }
        }
    }

    @Test func theWorldViewTouchesFewPoints() throws {
        let world = CoordinateBounds(north: 85, south: -85, west: -180, east: 180)
        let hits = try bundledWorld.query(bounds: world, level: bundledWorld.level(forZoom: 0))
        let points = hits.reduce(0) { $0 + $1.chunk.lon.count }
        #expect(points < 20_000, "\(points) points at zoom 0")
    }

    @Test func bundledAssetsStayWithinSixteenMegabytes() throws {
        let dir = URL(fileURLWithPath: bundledWorldPath).deletingLastPathComponent()
        var total = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path) {
            let attrs = try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent(name).path)
            total += (attrs[.size] as? Int) ?? 0
        }
        #expect(total <= 16 * 1024 * 1024)
    }
}
