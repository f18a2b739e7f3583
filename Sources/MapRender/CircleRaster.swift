import GeoCore
import Raster

/// The inverted circle (seed 002 A, geodesic): its outline in dots, and the shade outside it.
public struct CircleLayer: MapLayer, Equatable {
    /// The geodesic circle.
    public var circle: GeodesicCircle
    /// The share of the view the fit gives it.
    public var ratio: Double

    /// A circle layer.
    public init(circle: GeodesicCircle, ratio: Double) {
        self.circle = circle
        self.ratio = ratio
    }

    public func draw(into c: inout LayerContext) {
        c.shade = CircleRaster.draw(circle, c.view, &c.canvas)
        c.circle = circle
    }
}

/// Draws the inverted circle (seed 002 A, geodesic): its outline in dots, and which cells are shaded.
enum CircleRaster {
    /// Draws the outline on the canvas and returns, per map cell, true where the cell is outside.
    static func draw(_ circle: GeodesicCircle, _ view: MapView, _ canvas: inout BrailleCanvas) -> [Bool] {
        let cols = view.size.cols
        let rows = view.size.rows
        var shade = [Bool](repeating: false, count: cols * rows)
        let ring = circle.ring().map { WebMercator.project($0) }
        let xs = ring.map(\.x)
        let ys = ring.map(\.y)
        guard let firstX = xs.first, let lastX = xs.last else { return shade }
        let centerX = WebMercator.project(circle.center).x
        // A ring around a pole gains a whole world of x on the way round.
        let winding = abs(lastX - firstX) > 0.5
        let t = view.transform
        let ws = t.worldSize

        // Outline, in every world copy that can be seen.
        let copies = t.copies(minX: xs.min() ?? 0, maxX: xs.max() ?? 0)
        if copies.count <= 64 {
            for k in copies {
                let offset = t.originX(copy: k)
                for i in xs.indices {
                    let j = (i + 1) % xs.count
                    var nx = xs[j]
                    if j == 0 && winding { nx += lastX > firstX ? 1 : -1 }
                    canvas.line(
                        xs[i] * ws + offset, t.dotY(ys[i]), nx * ws + offset, t.dotY(ys[j]),
                        ink: StyleTable.ink(.circleOutline))
                }
            }
        }

        if circle.coversMercatorWorld { return shade }
        // The polygon to fill: the ring, closed over the pole it winds around.
        var px = xs
        var py = ys
        if winding {
            let poleY = circle.containsNorthPole ? -1.0 : 2.0
            px += [lastX, firstX]
            py += [poleY, poleY]
        }
        let lo = min(firstX, lastX)
        let centerInside =
            winding
            || ScanlineFill.inside(
                centerX, crossings: ScanlineFill.crossings(xs, ys, y: WebMercator.project(circle.center).y))
        for row in 0..<rows {
            let uy = t.mercator(at: ViewTransform.cellCenter(col: 0, row: row)).y
            guard uy >= 0, uy <= 1 else { continue }
            let crossings = ScanlineFill.crossings(px, py, y: uy)
            for col in 0..<cols {
                var ux = t.mercator(at: ViewTransform.cellCenter(col: col, row: 0)).x
                // The copy of the cell's x that the polygon is drawn in: past the ring's west end
                // around a pole, nearest the circle's center otherwise.
                if winding {
                    ux -= (ux - lo).rounded(.down)
                } else {
                    ux -= (ux - centerX).rounded()
                }
                let inPolygon = ScanlineFill.inside(ux, crossings: crossings)
                let inside = centerInside ? inPolygon : !inPolygon
                shade[row * cols + col] = !inside
            }
        }
        return shade
    }
}
