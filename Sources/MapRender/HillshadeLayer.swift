import GeoCore
import MapData
import MapFormats
import Raster

/// Hillshade (issue 48, `H`): how lit each cell's ground is under the standard sun (`Hillshade`:
/// 315°, 45°, Horn's method, as `gdaldem hillshade`), the mean of its eight dots' pixels at the
/// terrain's tile zoom; the compositor shows it as the land's tint made lighter or darker (256 and 16
/// colours) or a stipple of shadow (8 colours and none). Water stays water: only cells of the land's
/// tint are shaded.
public struct HillshadeLayer: MapLayer, Equatable {
    /// The layer.
    public init() {}

    public func draw(into context: inout LayerContext) {
        guard let source = context.sources?.terrain else { return }
        let t = context.transform
        let (cols, rows) = (context.view.size.cols, context.view.size.rows)
        let z = source.tileZoom(context.view.zoom)
        let n = 1 << z
        var sums = [Float](repeating: 0, count: cols * rows)
        var counts = [UInt8](repeating: 0, count: cols * rows)
        var shown = false
        // The tile of the last dot and its shades (neighbouring dots share a tile).
        var last: (tile: TileID, shades: [Float]?, size: Int)?
        for y in 0..<(rows * ViewSize.dotsPerCellY) {
            let uy = t.center.y + (Double(y) + 0.5 - t.halfHeight) / t.worldSize
            guard uy >= 0, uy < 1 else { continue }
            for x in 0..<(cols * ViewSize.dotsPerCellX) {
                let ux = t.center.x + (Double(x) + 0.5 - t.halfWidth) / t.worldSize
                let wrapped = ux - ux.rounded(.down)
                let tile = TileID(
                    z: z, x: min(n - 1, Int(wrapped * Double(n))), y: min(n - 1, Int(uy * Double(n))))
                if last?.tile != tile {
                    let shades = source.shades(of: tile)
                    last = (tile, shades, shades.map { Int(Double($0.count).squareRoot()) } ?? 0)
                }
                guard let shades = last?.shades, let size = last?.size, size > 0 else { continue }
                let px = min(size - 1, Int((wrapped * Double(n) - Double(tile.x)) * Double(size)))
                let py = min(size - 1, Int((uy * Double(n) - Double(tile.y)) * Double(size)))
                let v = shades[py * size + px]
                guard !v.isNaN else { continue }
                let cell = (y / ViewSize.dotsPerCellY) * cols + x / ViewSize.dotsPerCellX
                sums[cell] += v
                counts[cell] += 1
                shown = true
            }
        }
        guard shown else { return }
        context.hillshade = zip(sums, counts).map { $1 == 0 ? .nan : $0 / Float($1) }
    }
}
