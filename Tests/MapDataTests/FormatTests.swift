import Foundation
import GeoCore
import TestSupport
import Testing

@testable import MapBuilders
@testable import MapData
@testable import MapFormats

@Suite("Encoder and reader")
struct FormatTests {
    static func sampleLines() -> [SourceFeature] {
        var r = SeededRandom(state: 7)
        var lines: [SourceFeature] = []
        for n in 0..<40 {
            var lat = r.unit() * 160 - 80
            var lon = r.unit() * 340 - 170
            var pts: [Coordinate] = []
            for _ in 0..<(2 + r.below(700)) {
                lat = min(89, max(-89, lat + (r.unit() - 0.5) * 0.05))
                lon = min(179.9, max(-179.9, lon + (r.unit() - 0.5) * 0.05))
                pts.append(Coordinate(latitude: lat, longitude: lon))
            }
            lines.append(SourceFeature(FeatureClass(rawValue: UInt8(n % 3)) ?? .coastline, line: pts))
        }
        return lines
    }

    static let sampleCities = [
        City(
            name: "Hà Nội", coordinate: Coordinate(latitude: 21.0245, longitude: 105.84117), countryCode: "VN",
            population: 8_053_663),
        City(
            name: "Đà Nẵng", coordinate: Coordinate(latitude: 16.06778, longitude: 108.22083), countryCode: "VN",
            population: 1_276_000),
        City(
            name: "Zürich", coordinate: Coordinate(latitude: 47.36667, longitude: 8.55), countryCode: "CH",
            population: 415_367),
        City(
            name: "Atlanta", coordinate: Coordinate(latitude: 33.749, longitude: -84.38798), countryCode: "US",
            population: 510_823),
    ]

    static let sampleBytes = MapAssetWriter.encode(lines: sampleLines(), cities: sampleCities)

    @Test func finestLevelRoundTripsExactlyToTheQuantum() throws {
        let asset = try MapAsset(bytes: Self.sampleBytes)
        let finest = asset.levels.count - 1
        #expect(asset.levels[finest].toleranceDegrees == 0)
        // Reassemble the pieces of each layer and compare with the quantized input.
        var decoded: [FeatureClass: Set<[Int32]>] = [:]
        for i in asset.levels[finest].chunks {
            let c = try asset.chunk(i)
            for line in 0..<c.polylineCount {
                for p in c.starts[line]..<c.starts[line + 1] {
                    decoded[c.info.featureClass, default: []].insert([c.lon[p], c.lat[p]])
                }
            }
        }
        for line in FormatTests.sampleLines() {
            for p in line.parts[0] {
                let q: [Int32] = [Int32((p.longitude * 1e5).rounded()), Int32((p.latitude * 1e5).rounded())]
                #expect(decoded[line.featureClass]?.contains(q) == true)
                let back = Coordinate(latitude: Double(q[1]) * 1e-5, longitude: Double(q[0]) * 1e-5)
                #expect(abs(back.latitude - p.latitude) <= 0.5e-5 + 1e-12)
            }
        }
    }

    @Test func piecesAreBoundedAndChunksHoldTheirPoints() throws {
        let asset = try MapAsset(bytes: Self.sampleBytes)
        for i in asset.chunks.indices {
            let c = try asset.chunk(i)
            #expect(c.lon.count <= MapAssetFormat.maxChunkPoints)
            for line in 0..<c.polylineCount {
                #expect(c.starts[line + 1] - c.starts[line] <= MapAssetFormat.maxPiecePoints)
            }
        }
    }

    @Test func coarserLevelsHaveFewerPoints() throws {
        let asset = try MapAsset(bytes: Self.sampleBytes)
        var counts: [Int] = []
        for level in asset.levels {
            var n = 0
            for i in level.chunks { n += try asset.chunk(i).lon.count }
            counts.append(n)
        }
        #expect(counts == counts.sorted())
        #expect((counts.first ?? 0) < (counts.last ?? 0))
    }

    @Test func sameInputSameBytes() {
        #expect(
            MapAssetWriter.encode(lines: FormatTests.sampleLines(), cities: FormatTests.sampleCities)
                == Self.sampleBytes)
    }

    @Test func citiesAreLargestFirstAndSearchIgnoresCaseAndAccents() throws {
        let asset = try MapAsset(bytes: Self.sampleBytes)
        let cities = try asset.cities()
        #expect(cities.map(\.population) == cities.map(\.population).sorted(by: >))
        #expect(try citiesNamed(in: asset, "ha noi").map(\.name) == ["Hà Nội"])
        #expect(try citiesNamed(in: asset, "DA NANG").map(\.name) == ["Đà Nẵng"])
        #expect(try citiesNamed(in: asset, "zur").map(\.name) == ["Zürich"])
        #expect(try citiesNamed(in: asset, "").isEmpty)
        #expect(try citiesNamed(in: asset, "xyz").isEmpty)
    }

    /// Places without names read the same positions, sizes and kinds as whole places, and each name is
    /// found by its place's number (also in the bundled world's 34,006).
    @Test(arguments: [false, true])
    func placePointsMatchTheWholePlaces(bundled: Bool) throws {
        let asset = bundled ? bundledWorld : try MapAsset(bytes: Self.sampleBytes)
        let cities = try asset.cities()
        let points = try asset.placePoints()
        #expect(points.count == cities.count && points.count == asset.cityCount)
        #expect(points.latitude == cities.map(\.coordinate.latitude))
        #expect(points.longitude == cities.map(\.coordinate.longitude))
        #expect(points.population == cities.map(\.population))
        #expect(points.kind == cities.map(\.kind))
        #expect(cities.indices.allSatisfy { asset.placeName($0) == cities[$0].name })
        #expect(asset.placeName(-1) == nil && asset.placeName(cities.count) == nil)
    }

    /// A small-scale view's first places: the same whether decoded alone (fresh file, widening) or cut
    /// from all of them, and their names are found without decoding the rest.
    @Test func theFirstPlacesAreAPrefixOfAll() throws {
        let all = try bundledWorld.placePoints()
        for floors in [[1_000_000, 100_000, 15_000, 0], [50_000, 2_000_000]] {
            let fresh = try MapAsset(path: bundledWorldPath)
            for floor in floors {
                let first = try fresh.placePoints(populationAtLeast: floor)
                let n = all.population.firstIndex { $0 < floor } ?? all.count
                #expect(first == all.prefix(n), "floor \(floor)")
                #expect(first.count == n && (floor > 0 ? n < all.count : n == all.count))
                #expect(fresh.placeName(n - 1) == bundledWorld.placeName(n - 1))
            }
            #expect(
                try bundledWorld.placePoints(populationAtLeast: 1_000_000)
                    == fresh.placePoints(populationAtLeast: 1_000_000))
        }
        let fresh = try MapAsset(path: bundledWorldPath)
        _ = try fresh.placePoints(populationAtLeast: 5_000_000)
        #expect(fresh.placeName(all.count - 1) == bundledWorld.placeName(all.count - 1), "a name past the first places")
    }

    /// Search keys drop accents, case and the compatibility forms names are typed in (without ICU).
    @Test(arguments: [
        ("Hà Nội", "ha noi"), ("Đà Nẵng", "da nang"), ("Ærøskøbing", "aeroskobing"), ("Łódź", "lodz"),
        ("Ｔｏｋｙｏ", "tokyo"), ("ﬁnland ﬂat", "finland flat"), ("Straße", "strasse"), ("İstanbul", "istanbul"),
        ("Αθήνα", "αθηνα"), ("Москва́", "москва"),
    ])
    func namesFoldForSearch(name: String, key: String) {
        #expect(NameFolding.fold(name) == key)
    }

    @Test func artificialEdgesAreCut() {
        let ring = [
            Coordinate(latitude: 60, longitude: 170), Coordinate(latitude: 65, longitude: 180),
            Coordinate(latitude: 70, longitude: 180), Coordinate(latitude: 72, longitude: 175),
            Coordinate(latitude: -89.9995, longitude: 10), Coordinate(latitude: -89.9995, longitude: 20),
            Coordinate(latitude: -80, longitude: 20),
        ]
        let pieces = ArtificialEdges.split(ring)
        #expect(pieces.count == 3)
        #expect(pieces.map(\.count) == [2, 3, 2])
        #expect(
            ArtificialEdges.isArtificial(
                Coordinate(latitude: 0, longitude: 179), Coordinate(latitude: 0, longitude: -179)))
    }

    @Test func queryFindsChunksAcrossTheAntimeridianAndInEveryWorldCopy() throws {
        let line = SourceFeature(
            .coastline, line: [Coordinate(latitude: -17, longitude: 179), Coordinate(latitude: -18, longitude: 179.5)])
        let asset = try MapAsset(bytes: MapAssetWriter.encode(lines: [line], cities: []))
        let finest = asset.levels.count - 1
        // A view from 170°E to 190°E (unwrapped) meets it once, unshifted.
        let east = try asset.query(bounds: CoordinateBounds(north: 0, south: -30, west: 170, east: 190), level: finest)
        #expect(east.map(\.shift) == [0])
        // A view from -190 to -170 meets it one world to the west.
        let west = try asset.query(
            bounds: CoordinateBounds(north: 0, south: -30, west: -190, east: -170), level: finest)
        #expect(west.map(\.shift) == [-1])
        // A view 3 worlds wide (-540…540) meets it in 3 copies: 179° − 720° = −541° lies outside.
        let wide = try asset.query(
            bounds: CoordinateBounds(north: 80, south: -80, west: -540, east: 540), level: finest)
        #expect(wide.map(\.shift).sorted() == [-1, 0, 1])
        // Outside in latitude: nothing.
        #expect(
            try asset.query(bounds: CoordinateBounds(north: 80, south: 10, west: -540, east: 540), level: finest)
                .isEmpty)
    }

    @Test func levelChoiceFollowsTheDotSize() throws {
        let asset = try MapAsset(bytes: Self.sampleBytes)
        // Zoom 0 at the equator: 156 km per dot takes the coarsest level (0.5° ≈ 55.7 km).
        #expect(asset.level(forMetersPerDot: 156_543, latitude: 0) == 0)
        // 1 m per dot takes the finest.
        #expect(asset.level(forMetersPerDot: 1, latitude: 0) == asset.levels.count - 1)
        // 0.015° = 1670 m on the equator: chosen at 2 km per dot, not at 1.5 km.
        #expect(asset.levels[asset.level(forMetersPerDot: 2000, latitude: 0)].toleranceDegrees == 0.015)
        #expect(asset.levels[asset.level(forMetersPerDot: 1500, latitude: 0)].toleranceDegrees == 0.004)
        // The same choice by zoom, at any latitude (the cosines cancel): dot sizes between the tolerances.
        for zoom in stride(from: 0.05, through: 20, by: 0.1) {
            for latitude in [0.0, 45, 70] {
                let mpd = WebMercator.metersPerDot(latitude: latitude, zoom: zoom)
                #expect(asset.level(forZoom: zoom) == asset.level(forMetersPerDot: mpd, latitude: latitude))
            }
        }
    }

    /// Files of format version 1 (the bundled world, GSHHG imports made before version 2) still read:
    /// a fixture written by the version 1 writer, from the first six sample lines.
    @Test func versionOneFilesStillRead() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "Fixtures/sample-v1.tmap")
        let v1 = try MapAsset(bytes: [UInt8](try Data(contentsOf: url)), name: "sample-v1.tmap")
        #expect(v1.version == 1 && v1.unitsPerDegree == 100_000 && v1.nameCount == 0)
        #expect(v1.levels.map(\.toleranceDegrees) == MapAssetWriter.defaultTolerances)
        let v2 = try MapAsset(
            bytes: MapAssetWriter.encode(
                lines: Array(FormatTests.sampleLines().prefix(6)), cities: FormatTests.sampleCities))
        #expect(v2.version == Int(MapAssetFormat.version))
        #expect(try v1.cities() == v2.cities())
        // Every level holds the same points in both versions, class by class.
        for level in v1.levels.indices {
            func points(_ a: MapAsset) throws -> [FeatureClass: [[Int32]]] {
                var out: [FeatureClass: [[Int32]]] = [:]
                for i in a.levels[level].chunks {
                    let c = try a.chunk(i)
                    for p in c.lon.indices { out[c.info.featureClass, default: []].append([c.lon[p], c.lat[p]]) }
                }
                return out.mapValues { $0.sorted { ($0[0], $0[1]) < ($1[0], $1[1]) } }
            }
            #expect(try points(v1) == points(v2), "level \(level)")
            #expect(abs(v1.levels[level].minZoom - v2.levels[level].minZoom) < 1e-9)
        }
    }
}

@Suite("Data search path")
struct DataLocatorTests {
    @Test func explicitThenUserThenBundled() {
        let locator = DataLocator(
            explicit: "/opt/maps", environment: ["XDG_DATA_HOME": "/home/u/.data", "HOME": "/home/u"],
            executablePath: "/nowhere/bin/termmap")
        #expect(locator.directories.prefix(2) == ["/opt/maps", "/home/u/.data/termmap"])
        // The bundled assets are found from the source tree this binary was built from.
        #expect(locator.directories.last?.hasSuffix("/assets") == true)
        #expect(locator.find(DataLocator.worldFileName)?.hasSuffix("/assets/world.tmap") == true)
    }

    @Test func homeWhenXDGIsUnsetOrRelative() {
        #expect(DataLocator.userDataDirectory(environment: ["HOME": "/home/u"]) == "/home/u/.local/share/termmap")
        #expect(
            DataLocator.userDataDirectory(environment: ["HOME": "/home/u", "XDG_DATA_HOME": "relative"])
                == "/home/u/.local/share/termmap")
    }
}

extension FormatTests {
    /// Version 3: places' regions and other names in a section of their own, read only for search; a
    /// file whose places have none has an empty section and every place reads empty names.
    @Test func placeNamesRoundTrip() throws {
        var cities = Self.sampleCities
        cities[0].names = PlaceNames(region: "Oregon", alternates: ["Rose City", "PDX town"])
        let asset = try MapAsset(
            bytes: MapAssetWriter.encode(lines: Array(Self.sampleLines().prefix(6)), cities: cities))
        let byName = Dictionary(uniqueKeysWithValues: zip(try asset.cities().map { $0.name }, try asset.placeNames()))
        #expect(byName[cities[0].name] == PlaceNames(region: "Oregon", alternates: ["Rose City", "PDX town"]))
        #expect(byName.values.filter { !$0.isEmpty }.count == 1)
        #expect(try asset.cities().allSatisfy { $0.names.isEmpty }, "places load without their search names")
        let plain = try MapAsset(bytes: MapAssetWriter.encode(lines: [], cities: Self.sampleCities))
        #expect(try plain.placeNames() == Self.sampleCities.map { _ in PlaceNames() })
    }
}
