import GeoCore
import Testing

@testable import MapBuilders
@testable import MapData
@testable import MapFormats

/// Which source draws which class where: the finest first, coarser ones kept out of its box.
@Suite("Source precedence")
struct FeatureSourcesTests {
    /// A world-wide base with a coastline through the city, and a street-level city with a street.
    static let base = try! MapAsset(
        bytes: MapAssetWriter.encode(
            lines: [
                SourceFeature(
                    .coastline,
                    line: [
                        Coordinate(latitude: 60.16, longitude: 24.90), Coordinate(latitude: 60.18, longitude: 24.98),
                    ]),
                SourceFeature(
                    .border,
                    line: [
                        Coordinate(latitude: 60.10, longitude: 24.90), Coordinate(latitude: 60.20, longitude: 24.95),
                    ]),
            ], cities: []), name: "world.tmap")
    static let city = try! MapAsset(
        bytes: MapAssetWriter.encode(
            MapContents(
                features: [
                    SourceFeature(
                        .minorRoad,
                        line: [
                            Coordinate(latitude: 60.169, longitude: 24.94),
                            Coordinate(latitude: 60.171, longitude: 24.945),
                        ],
                        name: "Testikatu")
                ], levels: LevelSpec.fromZooms([11, 15]), unitsPerDegree: MapAssetFormat.unitsPerDegreeOSM,
                coverage: CoordinateBounds(north: 60.175, south: 60.165, west: 24.93, east: 24.95),
                metadata: [("attribution", "© OpenStreetMap contributors")], classMinZoom: zoomLadder)),
        name: "city.tmap")

    let sources = FeatureSources(base: Self.base, details: [Self.city])

    func classes(_ hits: SourceHits) -> Set<FeatureClass> { Set(hits.hits.map { $0.chunk.info.featureClass }) }

    @Test func theCityTakesTheShorelineWithinItsBoxOnly() throws {
        // A view larger than the city: the base still draws its coastline, but not inside the city's box.
        let wide = CoordinateBounds(north: 60.2, south: 60.14, west: 24.88, east: 25.0)
        let results = try sources.query(bounds: wide, zoom: 13, metersPerDot: 5)
        #expect(results.map { $0.source.label } == ["city", "NE10m"])
        #expect(classes(results[0]) == [.minorRoad])
        #expect(classes(results[1]) == [.coastline, .border])
        #expect(results[1].excluded[.coastline] == [Self.city.coverage])
        #expect(results[1].excluded[.border] == nil)  // the city holds no borders
        // A view inside the city's box: the base's coastline is not even queried.
        let inside = CoordinateBounds(north: 60.172, south: 60.168, west: 24.935, east: 24.945)
        let r = try sources.query(bounds: inside, zoom: 16, metersPerDot: 1)
        #expect(classes(r[1]) == [.border])
    }

    @Test func theCityIsDrawnFromItsFirstZoomAndWhereItIs() throws {
        let view = CoordinateBounds(north: 60.172, south: 60.168, west: 24.935, east: 24.945)
        #expect(try sources.query(bounds: view, zoom: 10.9, metersPerDot: 50).map { $0.source.label } == ["NE10m"])
        let elsewhere = CoordinateBounds(north: 48.9, south: 48.8, west: 2.3, east: 2.4)
        #expect(try sources.query(bounds: elsewhere, zoom: 16, metersPerDot: 1).map { $0.source.label } == ["NE10m"])
    }

    @Test func boxesMeetAcrossTheAntimeridian() {
        let fiji = CoordinateBounds(north: -16, south: -19, west: 177, east: 181)
        #expect(FeatureSources.meets(fiji, CoordinateBounds(north: -17, south: -18, west: -179.5, east: -179)))
        #expect(!FeatureSources.meets(fiji, CoordinateBounds(north: -17, south: -18, west: 170, east: 176)))
        #expect(FeatureSources.contains(fiji, CoordinateBounds(north: -17, south: -18, west: -179.5, east: -179)))
    }
}
