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
        let widthDots = cols * ViewSize.dotsPerCellX
        var sums = [Float](repeating: 0, count: cols * rows)
        var counts = [UInt8](repeating: 0, count: cols * rows)
        // Each tile's shades once a frame (a tile still waiting for a neighbour is computed anew each
        // frame, not each dot row).
        var shadesOf: [TileID: [Float]] = [:]
        var shown = false
        // Unit x of dot column x's centre: cx + (x + 0.5 − halfWidth) / worldSize.
        let unitStep = 1 / t.worldSize
        let unitAt0 = t.center.x + (0.5 - t.halfWidth) * unitStep
        for y in 0..<(rows * ViewSize.dotsPerCellY) {
            let uy = t.center.y + (Double(y) + 0.5 - t.halfHeight) * unitStep
            guard uy >= 0, uy < 1 else { continue }
            let ty = min(n - 1, Int(uy * Double(n)))
            let rowBase = (y / ViewSize.dotsPerCellY) * cols
            var x = 0
            while x < widthDots {
                // The run of dots over one tile: from x to the first dot past the tile's east edge.
                let column = ((unitAt0 + Double(x) * unitStep) * Double(n)).rounded(.down)
                let edge = (column + 1) / Double(n)
                let end = min(widthDots, max(x + 1, Int(((edge - unitAt0) / unitStep).rounded(.up))))
                defer { x = end }
                let tile = TileID(z: z, x: ((Int(column) % n) + n) % n, y: ty)
                if shadesOf[tile] == nil { shadesOf[tile] = source.shades(of: tile) ?? [] }
                guard let shades = shadesOf[tile], !shades.isEmpty else { continue }
                let size = Int(Double(shades.count).squareRoot())
                let py = min(size - 1, Int((uy * Double(n) - Double(ty)) * Double(size)))
                // Pixel column of dot x: ((unit x) · n − column) · size.
                let scale = unitStep * Double(n) * Double(size)
                let base = (unitAt0 * Double(n) - column) * Double(size)
                shades.withUnsafeBufferPointer { row in
                    let line = py * size
                    for dot in x..<end {
                        let px = min(size - 1, max(0, Int(base + Double(dot) * scale)))
                        let v = row[line + px]
                        guard !v.isNaN else { continue }
                        let cell = rowBase + dot / ViewSize.dotsPerCellX
                        sums[cell] += v
                        counts[cell] += 1
                        shown = true
                    }
                }
            }
        }
        guard shown else { return }
        context.hillshade = zip(sums, counts).map { $1 == 0 ? .nan : $0 / Float($1) }
    }
}
