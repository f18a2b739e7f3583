import Foundation
import GeoCore
import TestSupport
import Testing

@testable import MapBuilders
@testable import MapData
@testable import MapFormats

@Suite("OSM import")
struct OSMImportTests {
    func town(_ file: String) throws -> (MapContents, OSMImportReport) {
        try OSMImporter.contents(pbf: OSMFixtures.bytes(file), name: file, source: file, classMinZoom: zoomLadder)
    }

    @Test(arguments: ["town-dense-zlib.osm.pbf", "town-plain-raw.osm.pbf", "town-locations.osm.pbf"])
    func theTownsFeaturesClassesAndNames(file: String) throws {
        let (contents, report) = try town(file)
        #expect(report.nodes == 37 && report.ways == 6 && report.relations == 1 && report.missingReferences == 0)
        let byClass = Dictionary(grouping: contents.features, by: \.featureClass)
        let street = try #require(byClass[.minorRoad]?.first)
        #expect(street.name == "Testikatu" && street.parts.count == 1 && street.parts[0].count == 6)
        #expect(abs(street.parts[0][5].longitude - 24.945) < 1e-9 && abs(street.parts[0][5].latitude - 60.17) < 1e-9)
        #expect(byClass[.path]?.count == 1)
        #expect(byClass[.building]?.first?.parts.map(\.count) == [5])
        // The lake: one outer ring joined from two ways, and the island as a second ring.
        let lake = try #require(byClass[.water]?.first)
        #expect(lake.name == "Testijärvi")
        #expect(lake.parts.map(\.count).sorted() == [4, 5])
        #expect(
            contents.places == [
                City(
                    name: "Testilä", coordinate: Coordinate(latitude: 60.1725, longitude: 24.9425), countryCode: "",
                    population: 0, kind: .suburb)
            ])
        // The header box becomes the coverage box.
        let c = try #require(contents.coverage)
        #expect(abs(c.west - 24.939) < 1e-9 && abs(c.north - 60.176) < 1e-9)
        #expect(contents.metadata.contains { $0 == ("attribution", "© OpenStreetMap contributors") })
    }

    @Test func theSameTownInEveryEncodingGivesTheSameFile() throws {
        let bytes = try ["town-dense-zlib.osm.pbf", "town-plain-raw.osm.pbf", "town-locations.osm.pbf"].map {
            var (contents, _) = try town($0)
            contents.metadata = []
            return MapAssetWriter.encode(contents)
        }
        #expect(bytes[0] == bytes[1] && bytes[1] == bytes[2])
    }

    @Test func linesSplitWhereTheExtractLacksTheirNodes() throws {
        let (contents, report) = try town("town-missing-nodes.osm.pbf")
        #expect(report.missingReferences == 2)
        let pieces = contents.features.filter { $0.name == "Testikatu" }
        #expect(pieces.map { $0.parts[0].count } == [3, 3])
    }

    /// libosmium writes an "undefined" location for a node the file lacks (`--ignore-missing-nodes`):
    /// the line splits there instead of running to 214.7°, and a way with no node at all vanishes.
    @Test func anUndefinedLocationSplitsTheLine() throws {
        let (contents, report) = try town("undefined-locations.osm.pbf")
        #expect(report.missingReferences == 4)
        let street = contents.features.filter { $0.name == "Puuttuvankatu" }
        #expect(street.map { $0.parts[0].count } == [3, 2])
        #expect(contents.features.allSatisfy { $0.name != "Tyhjätie" })
        // The ways' points (not the land of the extract's box).
        let points = contents.features.filter { !$0.featureClass.isFillOnly }.flatMap { $0.parts.joined() }
        #expect(
            !points.isEmpty
                && points.allSatisfy { abs($0.latitude - 60.17) < 1e-6 && abs($0.longitude - 24.9425) < 0.01 })
    }

    /// Rings come from every member way whatever its role, holes are decided by containment, and an inner
    /// way tagged like its relation is a hole, not an area of its own (osm-testdata grid 902, 926, 904).
    @Test func multipolygonRingsFollowTheirGeometryNotTheirRoles() throws {
        let (contents, report) = try town("multipolygon-roles.osm.pbf")
        #expect(report.openRings == 0)
        let byName = Dictionary(grouping: contents.features, by: { $0.name ?? "" })
        // 902: one ring of two ways, one of them with role inner.
        #expect(byName["Roolimetsä"]?.map { $0.parts.map(\.count) } == [[5]])
        // 926: the relation's outer and its hole; the inner way draws no wood over the hole.
        #expect(byName["Reikämetsä"]?.map { $0.parts.map(\.count) } == [[5, 5]])
        #expect(contents.features.filter { $0.featureClass == .wood }.count == 3)
        // 904: the hole was listed first with role outer; the outer ring comes first.
        let outerFirst = try #require(byName["Ulkometsä"]?.first?.parts)
        #expect(outerFirst.count == 2 && abs(outerFirst[0][0].longitude - 24.960) < 1e-9)
    }

    @Test func theWrittenFileReadsBackWithNamesPlacesAndLevels() throws {
        let (contents, _) = try town("town-dense-zlib.osm.pbf")
        let asset = try MapAsset(bytes: MapAssetWriter.encode(contents), name: "town.tmap")
        #expect(asset.version == MapAssetFormat.version && asset.unitsPerDegree == 10_000_000)
        #expect(asset.levels.map(\.minZoom) == OSMImporter.zoomLevels)
        #expect(asset.minZoom == 11 && asset.attribution == "© OpenStreetMap contributors")
        #expect(Set(try asset.names().map(\.name)) == ["Testikatu", "Testijärvi"])
        #expect(try asset.cities().map(\.kind) == [.suburb])
        // Buildings and paths appear from zoom 15, minor roads from 13.
        func classes(atZoom z: Double) throws -> Set<FeatureClass> {
            Set(
                try asset.chunks(in: asset.coverage, zoom: z, classes: Set(FeatureClass.allCases)).hits.map {
                    $0.chunk.info.featureClass
                })
        }
        // The extract's box is land at every zoom (the town has no coastline, so no sea).
        #expect(try classes(atZoom: 11) == [.land, .water])
        #expect(try classes(atZoom: 13) == [.land, .water, .minorRoad])
        #expect(try classes(atZoom: 15) == [.land, .water, .minorRoad, .path, .building])
        // A street keeps OSM's 1e-7° resolution.
        let hit = try #require(try asset.chunks(in: asset.coverage, zoom: 16, classes: [.minorRoad]).hits.first)
        #expect(hit.chunk.lon.first == 249_400_000 && hit.chunk.lat.first == 601_700_000)
        #expect(asset.featureName(hit.chunk.nameIndex[0]) == "Testikatu")
    }

    @Test func helsinkiImportsDeterministically() throws {
        let bytes = OSMFixtures.bytes("Helsinki.osm.pbf")
        let (a, report) = try OSMImporter.contents(
            pbf: bytes, name: "h", source: "Helsinki.osm.pbf", classMinZoom: zoomLadder)
        let (b, _) = try OSMImporter.contents(
            pbf: bytes, name: "h", source: "Helsinki.osm.pbf", classMinZoom: zoomLadder)
        let file = MapAssetWriter.encode(a)
        #expect(file == MapAssetWriter.encode(b))
        // The imported map is at most a quarter of the extract; its street network adds at most 60 %
        // (issue 46).
        var withoutNetwork = a
        withoutNetwork.network = nil
        let map = MapAssetWriter.encode(withoutNetwork)
        #expect(map.count * 4 <= bytes.count, "\(map.count) bytes")
        #expect(Double(file.count) <= 1.6 * Double(map.count), "\(file.count) bytes, \(map.count) without the network")
        #expect(report.junctions > 3000 && report.edges > 4000 && report.restrictions > 40, "\(report)")
        #expect(report.nodes == 24_260 && report.ways == 5_130 && report.relations == 620)
        #expect(
            (report.features[.building] ?? 0) > 300 && (report.features[.minorRoad] ?? 0) > 100, "\(report.features)")
        let bundled = try MapAsset(
            path: OSMFixtures.folder.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("assets/helsinki.tmap").path)
        #expect(bundled.chunks.count == (try MapAsset(bytes: file)).chunks.count)
    }

    @Test func ringsJoinInEitherDirection() {
        #expect(Rings.assemble([[1, 2, 3], [5, 4, 3], [5, 1]]).closed.count == 1)
        #expect(Rings.assemble([[1, 2, 3], [3, 4]]).open == 1)
        #expect(Rings.assemble([[1, 2, 3, 1]]).closed == [[1, 2, 3, 1]])
    }

    @Test func aDamagedExtractIsATypedError() {
        var bytes = OSMFixtures.bytes("town-dense-zlib.osm.pbf")
        bytes[bytes.count / 2] ^= 0x5a
        #expect(throws: MapDataError.self) {
            try OSMImporter.contents(pbf: bytes, name: "x.osm.pbf", source: "x", classMinZoom: zoomLadder)
        }
    }
}

/// Format version 5's extras: what the import keeps of each feature, and files of version 4 still read.
@Suite("Format version 5")
struct FormatVersionFiveTests {
    static let helsinki: MapAsset = {
        do {
            let (contents, _) = try OSMImporter.contents(
                pbf: OSMFixtures.bytes("Helsinki.osm.pbf"), name: "Helsinki.osm.pbf", source: "h",
                classMinZoom: zoomLadder)
            return try MapAsset(bytes: MapAssetWriter.encode(contents), name: "helsinki.tmap")
        } catch {
            preconditionFailure("\(error)")
        }
    }()

    /// The finest level's features carry their OSM object, main tag and ref, and a road's lanes as its
    /// width; coarser levels carry none. Points of interest are points with their kind.
    @Test func theFinestLevelKeepsObjectsTagsAndWidths() throws {
        let asset = Self.helsinki
        let finest = try #require(asset.levels.last)
        var roads = 0
        var withLanes = 0
        var pois = 0
        for i in finest.chunks {
            let chunk = try asset.chunk(i)
            #expect(chunk.info.hasExtras)
            for f in 0..<chunk.featureCount where chunk.info.featureClass == .primary {
                roads += 1
                let ref = try #require(OSMReference(packed: chunk.osm[f]))
                #expect(ref.type == .way && ref.id > 0)
                #expect(chunk.tags[f].hasPrefix("highway=primary"))
                if chunk.details[f] > 0 { withLanes += 1 }
            }
            if chunk.info.featureClass == .poi {
                #expect(chunk.info.kind == .points)
                for f in 0..<chunk.featureCount {
                    pois += 1
                    #expect((10...16).contains(chunk.details[f]))
                    #expect(chunk.nameIndex[f] >= 0)
                }
            }
        }
        // pyosmium: 144 of the extract's 145 primary ways have a lanes tag (2 lanes: 65 dm).
        #expect(roads > 100 && Double(withLanes) >= 0.9 * Double(roads), "\(withLanes) of \(roads)")
        // The ways of roads.json (Tools/make_road_fixtures.py, pyosmium) by their lanes: 3.25 m a lane.
        struct Road: Decodable {
            var way: Int64
            var lanes: String?
        }
        struct Roads: Decodable { var roads: [Road] }
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "Fixtures/osm/roads.json")
        for road in try JSONDecoder().decode(Roads.self, from: Data(contentsOf: url)).roads {
            let lanes = try #require(road.lanes.flatMap(Double.init))
            var found = 0
            for i in finest.chunks {
                let chunk = try asset.chunk(i)
                for f in 0..<chunk.featureCount where OSMReference(packed: chunk.osm[f]) == OSMReference(.way, road.way)
                {
                    found += 1
                    #expect(Double(chunk.details[f]) == (lanes * 32.5).rounded(), "way \(road.way)")
                }
            }
            #expect(found > 0, "way \(road.way) not found")
        }
        #expect(pois >= 1000, "\(pois) points of interest")
        for level in asset.levels.dropLast() {
            for i in level.chunks { #expect(!(try asset.chunk(i)).info.hasExtras) }
        }
    }

    /// A file of version 4 (the demo city as bundled before version 5) reads: every chunk decodes, with no extras.
    @Test func versionFourFilesStillRead() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "Fixtures/helsinki-v4.tmap")
        let v4 = try MapAsset(bytes: [UInt8](try Data(contentsOf: url)), name: "helsinki-v4.tmap")
        #expect(v4.version == 4)
        var features = 0
        for i in v4.chunks.indices {
            let chunk = try v4.chunk(i)
            #expect(!chunk.info.hasExtras && chunk.osm.isEmpty)
            features += chunk.featureCount
        }
        #expect(features > 3000)
        #expect(try v4.names().contains { $0.name == "Mannerheimintie" && $0.kind == .street })
    }
}
