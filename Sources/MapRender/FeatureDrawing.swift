import GeoCore
import MapFormats
import Raster

/// One feature drawn, whatever its source (a chunk of the map's data, a tile's, a user's file): its
/// areas' cells filled, its lines and rings stroked, and its points given back for the layer to sign (a
/// point of interest, a user's marker). What differs between sources is the look, not the drawing.
struct FeatureDrawing {
    /// How its lines and rings are stroked.
    var stroke: StrokeStyle
    /// False when they are not stroked at all (a background area, whose edge is another class's line).
    var strokes: Bool
    /// The ink its areas' cells take (nil: not filled).
    var fillInk: UInt8?
    /// Its pick set (`PickBuffer.register`).
    let set: Int
    /// Where its features lie in the view.
    let place: ChunkPlacement
    /// The fill, made at the first area.
    private var fill: AreaFill?
    /// The boxes (in dots) where a finer source draws the class instead.
    private let excluded: [DotRect]
    /// The map's size in dots.
    private let width: Double
    private let height: Double

    /// A drawing of features placed at `place`, left out inside `excluded`.
    init(
        stroke: StrokeStyle, strokes: Bool = true, fillInk: UInt8?, set: Int, place: ChunkPlacement,
        excluded: [DotRect] = []
    ) {
        (self.stroke, self.strokes, self.fillInk, self.set) = (stroke, strokes, fillInk, set)
        (self.place, self.excluded) = (place, excluded)
        (width, height) = (Double(place.mapCols * ViewSize.dotsPerCellX), Double(place.mapRows * ViewSize.dotsPerCellY))
    }

    /// True when feature `f`'s box comes within two dots of the view (a feature wholly off it is left
    /// on its box: a city's chunk holds all of the city).
    func inView(_ data: some FeatureColumns, _ f: Int) -> Bool {
        let (x0, y0, x1, y1) = data.box(f)
        let (ws, ox, oy) = (place.ws, place.offsetX, place.offsetY)
        let (width, height) = (
            Double(place.mapCols * ViewSize.dotsPerCellX), Double(place.mapRows * ViewSize.dotsPerCellY)
        )
        return x1 * ws + ox >= -2 && x0 * ws + ox <= width + 2 && y1 * ws + oy >= -2 && y0 * ws + oy <= height + 2
    }

    /// Draws feature `f` of `data` (its coordinates `xs`, `ys`) under pick tag `tag` (0: the fill asks
    /// for one when some cell is inside an area, and nothing is stroked under it): its areas filled,
    /// then its lines and rings stroked (with `named`, each line's dots given to `line`: names follow
    /// them), and each of its points' positions in dots appended to `points`.
    @inline(__always)
    mutating func draw<F: FeatureColumns>(
        _ data: F, _ f: Int, _ xs: F.Coordinates, _ ys: F.Coordinates, tag: UInt32, _ c: inout LayerContext,
        named: Bool = false, points: inout [(x: Double, y: Double)], line: ([DotPoint]) -> Void = { _ in }
    ) {
        let pieces = data.pieces(of: f)
        if let ink = fillInk {
            for p in pieces where data.pieceType(p) == .polygon {
                if fill == nil { fill = AreaFill(place, excluded: excluded) }
                fill?.fill(data, piece: p, ink: ink, set: set, feature: f, tag: tag, &c)
            }
        }
        let (ws, ox, oy) = (place.ws, place.offsetX, place.offsetY)
        c.canvas.tag = tag
        for p in pieces {
            let type = data.pieceType(p)
            if type == .point {
                for r in data.rings(of: p) {
                    let i = data.points(ofRing: r).lowerBound
                    points.append((xs[i] * ws + ox, ys[i] * ws + oy))
                }
                continue
            }
            guard strokes else { continue }
            for r in data.rings(of: p) {
                var along: [DotPoint]? = named ? [] : nil
                Stroke.ring(xs, ys, data.points(ofRing: r), stroke, closes: type == .polygon, &c.canvas, along: &along)
                if let along { line(along) }
            }
        }
        c.canvas.tag = 0
    }
}
