import GeoCore
import MapFormats
import TestSupport
import Testing

@testable import MapData

/// Several terrain sources as one (issue 48, `--terrain` repeatable): the first wins where it has a
/// height; the next fills its nodata; a layer that stops at a lower zoom is read from its ancestor tile.
struct TerrainStackTests {
    /// A tile of `side` pixels whose heights `height(x, y)` gives (nil: nodata), in `encoding`.
    static func tile(side: Int, _ encoding: TerrainEncoding, _ height: (Int, Int) -> Double?) -> [UInt8] {
        var rgba = [UInt8](repeating: 0, count: side * side * 4)
        for y in 0..<side {
            for x in 0..<side {
                guard let h = height(x, y) else { continue }
                let (r, g, b): (UInt8, UInt8, UInt8)
                switch encoding {
                case .terrarium: (r, g, b) = TerrainEncoding.terrariumColor(h)
                case .mapbox:
                    let v = Int(((h + 10000) * 10).rounded())
                    (r, g, b) = (UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF))
                }
                let i = (y * side + x) * 4
                (rgba[i], rgba[i + 1], rgba[i + 2], rgba[i + 3]) = (r, g, b, 255)
            }
        }
        return PNGWriter.png(width: side, height: side, rgba: rgba)
    }

    /// An archive of these tiles at zooms `zooms`.
    final class Tiles: TileArchive, @unchecked Sendable {
        let info: TilesetInfo
        let tiles: [TileID: [UInt8]]
        init(_ tiles: [TileID: [UInt8]], zooms: ClosedRange<Int>) {
            self.tiles = tiles
            var info = TilesetInfo(
                format: "test", name: "test", minZoom: zooms.lowerBound, maxZoom: zooms.upperBound,
                bounds: CoordinateBounds(north: 85, south: -85, west: -180, east: 180), tileCount: nil,
                attribution: nil, layers: [], compression: "none", imageFormat: "png")
            info.encoding = .terrarium
            self.info = info
        }
        func storedTiles(_ ids: [TileID], wanted: @escaping @Sendable (TileID) -> Bool) -> [TileID: Result<
            [UInt8]?, TileFailure
        >] {
            Dictionary(uniqueKeysWithValues: ids.filter(wanted).map { ($0, .success(tiles[$0])) })
        }
    }

    static func heights(_ stack: TerrainStack, _ tile: TileID) throws -> TileImage {
        let bytes = try #require(try stack.storedTiles([tile], wanted: { _ in true })[tile]?.get())
        return try TileImage.decode(bytes, name: "stacked")
    }

    static func height(_ image: TileImage, _ x: Int, _ y: Int) -> Double? {
        let c = image.pixel(x, y)
        return c.3 == 0 ? nil : TerrainEncoding.terrarium.height(red: c.0, green: c.1, blue: c.2)
    }

    /// The first layer's heights where it has them, the second's (another encoding) in its nodata hole,
    /// each to Terrarium's 1/256 m.
    @Test func theFirstWinsAndTheNextFillsItsGaps() throws {
        let tile = TileID(z: 12, x: 2331, y: 1185)
        let fine = Self.tile(side: 8, .terrarium) { x, y in x < 4 ? 100 + Double(x * 8 + y) : nil }
        let global = Self.tile(side: 8, .mapbox) { _, y in 500 + Double(y) / 10 }
        let stack = TerrainStack(layers: [
            .init(archive: Tiles([tile: fine], zooms: 12...12), label: "fine", encoding: .terrarium),
            .init(archive: Tiles([tile: global], zooms: 12...12), label: "global", encoding: .mapbox),
        ])
        let image = try Self.heights(stack, tile)
        #expect(image.width == 8)
        for y in 0..<8 {
            for x in 0..<8 {
                let want = x < 4 ? 100 + Double(x * 8 + y) : 500 + Double(y) / 10
                let got = try #require(Self.height(image, x, y))
                #expect(abs(got - want) < 1.0 / 256 + 1e-9, "pixel \(x),\(y)")
            }
        }
        #expect(stack.info.name == "fine + global" && stack.info.encoding == .terrarium)
    }

    /// A layer whose tiles stop at zoom 11 is read at zoom 12 from its zoom-11 tile's quarter, stretched
    /// bilinearly: a plane stays the same plane.
    @Test func aLayerThatStopsShortIsReadFromItsAncestor() throws {
        let parent = TileID(z: 11, x: 1165, y: 592)
        // Heights rise 2 m a pixel eastwards and 1 m a pixel southwards across the parent.
        let coarse = Self.tile(side: 8, .terrarium) { x, y in 1000 + 2 * Double(x) + Double(y) }
        let stack = TerrainStack(layers: [
            .init(archive: Tiles([:], zooms: 12...12), label: "empty", encoding: .terrarium),
            .init(archive: Tiles([parent: coarse], zooms: 9...11), label: "coarse", encoding: .terrarium),
        ])
        // The parent's south-east child: its pixel (i, j) centre is at parent pixel 4 + (i + 0.5) / 2 − 0.5.
        let child = TileID(z: 12, x: 2 * parent.x + 1, y: 2 * parent.y + 1)
        let image = try Self.heights(stack, child)
        for (i, j) in [(0, 0), (3, 2), (5, 5)] {
            let (px, py) = (4 + (Double(i) + 0.5) / 2 - 0.5, 4 + (Double(j) + 0.5) / 2 - 0.5)
            let want = 1000 + 2 * min(7, px) + min(7, py)
            let got = try #require(Self.height(image, i, j))
            #expect(abs(got - want) < 1.0 / 256 + 1e-9, "pixel \(i),\(j): \(got) vs \(want)")
        }
        // Nothing in any layer: no tile.
        #expect(
            try stack.storedTiles([TileID(z: 12, x: 0, y: 0)], wanted: { _ in true })[TileID(z: 12, x: 0, y: 0)]?.get()
                == nil)
    }
}
