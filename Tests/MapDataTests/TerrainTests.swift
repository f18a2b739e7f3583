import GeoCore
import MapFormats
import TestSupport
import Testing

@testable import MapData

/// Terrain (issue 48): the two encodings' formulas, and heights read from a tile of known pixels.
struct TerrainTests {
    /// Terrarium `(R · 256 + G + B / 256) − 32768` and terrain-RGB `−10000 + (R · 65536 + G · 256 + B) · 0.1`,
    /// at values worked by hand.
    @Test func encodingsGiveTheirFormulasHeights() {
        #expect(TerrainEncoding.terrarium.height(red: 128, green: 0, blue: 0) == 0)
        #expect(TerrainEncoding.terrarium.height(red: 129, green: 56, blue: 128) == 312.5)
        #expect(TerrainEncoding.terrarium.height(red: 0, green: 0, blue: 0) == -32768)
        #expect(TerrainEncoding.mapbox.height(red: 1, green: 134, blue: 160) == 0)
        #expect(abs(TerrainEncoding.mapbox.height(red: 1, green: 146, blue: 212) - 312.4) < 1e-9)
        #expect(TerrainEncoding(named: "Terrarium") == .terrarium && TerrainEncoding(named: "terrain-rgb") == .mapbox)
        #expect(TerrainEncoding(named: "png") == nil)
    }

    /// A zoom-0 tile whose heights rise 1 m a pixel eastwards: the height between two pixel centres is
    /// their mean (bilinear), a pixel's centre gives its own height, and a tile of no alpha gives none.
    @Test func heightsAreBilinearBetweenPixelCentres() throws {
        var rgba: [UInt8] = []
        for _ in 0..<256 {
            for x in 0..<256 {
                let v = 32768 + x  // Terrarium: x metres
                rgba += [UInt8(v >> 8), UInt8(v & 0xFF), 0, 255]
            }
        }
        let zero = TileID(z: 0, x: 0, y: 0)
        let bytes = PMTilesWriter.archive(
            tiles: [(zero.pmtilesID, PNGWriter.png(width: 256, height: 256, rgba: rgba))], maxZoom: 0, tileType: 2)
        let source = TerrainSource(
            archive: try PMTilesArchive(source: LocalFileSource(bytes: bytes)), label: "ramp", encoding: .terrarium)
        #expect(source.height(at: MercatorPoint(x: 0.5, y: 0.5), zoom: 0) == nil)  // not loaded yet
        source.load([zero]) { _ in true }
        // The centre of pixel 100 is at (100.5 / 256); halfway to pixel 101's, 100.5 m.
        let h = try #require(source.height(at: MercatorPoint(x: 100.5 / 256, y: 0.5), zoom: 0))
        #expect(abs(h.meters - 100) < 1e-9 && h.tileZoom == 0)
        let between = try #require(source.height(at: MercatorPoint(x: 101 / 256, y: 0.3), zoom: 0))
        #expect(abs(between.meters - 100.5) < 1e-9)
    }
}
