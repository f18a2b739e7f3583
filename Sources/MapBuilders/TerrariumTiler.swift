import MapData
import MapFormats

/// Heights on a Web Mercator grid cut into Terrarium elevation tiles (issue 48, `data import-dem`): the
/// deepest zoom's tiles from the grid's pixels, each lower zoom's from the one below it, a pixel the
/// mean of the four under it that have a height. A pixel without a height (nodata) stays one: alpha 0.
/// Terrarium (Mapzen's terrain tiles, <https://github.com/tilezen/joerd/blob/master/docs/formats.md>):
/// `height + 32768 = R · 256 + G + B / 256`.
public struct TerrariumTiler {
    /// The pixels a tile side.
    public static let side = 256

    /// The heights, row by row from the north-west pixel of tile (`originX`, `originY`) at `zoom`; NaN
    /// where there is none.
    public var heights: [Float]
    /// Pixels across and down (whole tiles).
    public let width: Int, height: Int
    /// The zoom of the grid's pixels, and its first tile.
    public let zoom: Int, originX: Int, originY: Int

    /// A grid of `width` × `height` pixels (multiples of 256) at `zoom` from tile (`originX`, `originY`).
    public init(heights: [Float], width: Int, height: Int, zoom: Int, originX: Int, originY: Int) {
        (self.heights, self.width, self.height) = (heights, width, height)
        (self.zoom, self.originX, self.originY) = (zoom, originX, originY)
    }

    /// The tiles of this grid that hold a height, as Terrarium PNGs.
    public func tiles() -> [(tile: TileID, png: [UInt8])] {
        var out: [(TileID, [UInt8])] = []
        let side = Self.side
        for ty in 0..<(height / side) {
            for tx in 0..<(width / side) {
                var rgba = [UInt8](repeating: 0, count: side * side * 4)
                var any = false
                for y in 0..<side {
                    let row = (ty * side + y) * width + tx * side
                    for x in 0..<side {
                        let h = heights[row + x]
                        guard h.isFinite else { continue }
                        any = true
                        let (r, g, b) = TerrainEncoding.terrariumColor(Double(h))
                        let i = (y * side + x) * 4
                        (rgba[i], rgba[i + 1], rgba[i + 2], rgba[i + 3]) = (r, g, b, 255)
                    }
                }
                guard any, let png = PNGEncoder.png(width: side, height: side, rgba: rgba) else { continue }
                out.append((TileID(z: zoom, x: originX + tx, y: originY + ty), png))
            }
        }
        return out
    }

    /// The grid one zoom out: each pixel the mean of the (up to four) pixels under it with a height; the
    /// tiles that hold this grid's.
    public func zoomedOut() -> TerrariumTiler {
        let side = Self.side
        let (ox, oy) = (originX / 2, originY / 2)
        let tilesAcross = (originX + width / side - 1) / 2 - ox + 1
        let tilesDown = (originY + height / side - 1) / 2 - oy + 1
        let (w, h) = (tilesAcross * side, tilesDown * side)
        // Where this grid's first pixel falls in the new one, in the new one's pixels ×2.
        let (dx, dy) = ((originX - 2 * ox) * side, (originY - 2 * oy) * side)
        var sums = [Float](repeating: 0, count: w * h)
        var counts = [UInt8](repeating: 0, count: w * h)
        for y in 0..<height {
            let ny = (y + dy) / 2
            for x in 0..<width {
                let v = heights[y * width + x]
                guard v.isFinite else { continue }
                let k = ny * w + (x + dx) / 2
                sums[k] += v
                counts[k] += 1
            }
        }
        let means = zip(sums, counts).map { $1 == 0 ? Float.nan : $0 / Float($1) }
        return TerrariumTiler(heights: means, width: w, height: h, zoom: zoom - 1, originX: ox, originY: oy)
    }
}
