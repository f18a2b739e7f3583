import Foundation
import GeoCore
import MapData
import Raster
import Testing

@testable import MapRender
@testable import Viewer

/// Land and sea from coastline ways alone (land on a way's left): the street-level sea.
@Suite("Coast sides")
struct CoastSidesTests {
    /// A coast going north along x = 51 dots: land to the west, sea to the east; reversed, the other way.
    @Test func aStraightCoastSplitsTheView() {
        let north = CoastSides.classify([(51, 200, 51, -10)], cols: 50, rows: 10)
        #expect((0..<10).allSatisfy { row in (0..<25).allSatisfy { north[row * 50 + $0] == .land } })
        #expect((0..<10).allSatisfy { row in (26..<50).allSatisfy { north[row * 50 + $0] == .sea } })
        let south = CoastSides.classify([(51, -10, 51, 200)], cols: 50, rows: 10)
        #expect(south[0] == .sea && south[49] == .land)
    }

    /// An island drawn as OpenStreetMap draws one (anticlockwise on the map, land on the left): inside
    /// is land, outside sea, whichever crossing is nearer.
    @Test func anIsland() {
        // Screen dots, y down: south-west, south-east, north-east, north-west.
        let ring: [(Double, Double)] = [(40, 81), (81, 81), (81, 41), (40, 41), (40, 81)]
        let segments = zip(ring, ring.dropFirst()).map { ($0.0, $0.1, $1.0, $1.1) }
        let sides = CoastSides.classify(segments, cols: 60, rows: 30)
        func side(_ col: Int, _ row: Int) -> CoastSides.Side { sides[row * 60 + col] }
        #expect(side(30, 15) == .land)  // (61, 62): the island's middle
        #expect(side(22, 12) == .land && side(38, 18) == .land)
        #expect(side(10, 15) == .sea && side(50, 15) == .sea && side(30, 5) == .sea && side(30, 25) == .sea)
        // A cell whose row and column meet no coast is not known.
        #expect(side(5, 2) == .unknown)
    }

    /// A street-level extract with a coastline (a bay's shore going north, the sea to its east, as
    /// OpenStreetMap draws it) and a street: at zoom 14 with colour the street's side is land and the
    /// other sea, where the world's land is no longer drawn.
    @Test func anExtractsSea() throws {
        let coast = SourceFeature(
            .coastline, line: [.init(latitude: 60.150, longitude: 24.950), .init(latitude: 60.180, longitude: 24.952)])
        let street = SourceFeature(
            .minorRoad, line: [.init(latitude: 60.165, longitude: 24.930), .init(latitude: 60.166, longitude: 24.945)],
            name: "Rantakatu")
        let bytes = MapAssetWriter.encode(
            MapContents(
                features: [coast, street], levels: LevelSpec.fromZooms([11, 13, 15]),
                unitsPerDegree: MapAssetFormat.unitsPerDegreeOSM,
                coverage: CoordinateBounds(north: 60.19, south: 60.14, west: 24.90, east: 25.00),
                metadata: [("label", "OSM bay")]))
        let sources = MapSources(
            features: FeatureSources(base: TileRenderingTests.bundledWorld, details: [try MapAsset(bytes: bytes)]))
        let s = try scripted(cols: 100, rows: 30, lat: 60.165, lon: 24.951, zoom: 14)
        let frame = Renderer.render(s, sources: sources, options: RenderOptions(mode: .ansi256))
        let view = s.view
        func background(_ lat: Double, _ lon: Double) throws -> UInt8? {
            let d = view.dotPoint(for: .init(latitude: lat, longitude: lon))
            try #require(d.x >= 0 && d.x < 200 && d.y >= 0 && d.y < 112, "on screen")
            return frame[Int(d.x) / 2, Int(d.y) / 4].style.background?.index
        }
        // The view is 0.017° wide; the shore runs through its middle.
        #expect(try background(60.165, 24.946) == 235, "west of the shore: land")
        #expect(try background(60.165, 24.956) == nil, "east of the shore: sea (the terminal's own background)")
        #expect(try background(60.1665, 24.9445) == 235 && background(60.1635, 24.9575) == nil)
    }
}
