import FoundationEssentials
import GeoCore
import Glibc
import Raster

/// What the seeds would have drawn (`v`), dashed over our picture: seed 002 A's hole, a circle round on
/// the screen (`points(forMeters:at:)` at the center's latitude), around the circle drawn below it, and
/// after `f` the box seed 002 B's width-only fit would show. Ours are the geodesic circle and the screen
/// itself.
public struct SeedOverlayLayer: MapLayer, Equatable {
    /// Where seed 002 B's camera would have gone after the last `f`: its zoom and centre.
    public struct Fit: Equatable, Sendable {
        public var zoom: Double
        public var center: Coordinate
        /// A fit.
        public init(zoom: Double, center: Coordinate) {
            self.zoom = zoom
            self.center = center
        }
    }
    /// The seed's fit after the last `f` (nil after any other step).
    public var fit: Fit?

    /// The seeds' picture.
    public init(fit: Fit? = nil) { self.fit = fit }

    public func draw(into c: inout LayerContext) {
        guard let circle = c.circle else { return }
        SeedOverlay.draw(circle: circle, fit: fit, c.view, &c.canvas)
    }
}

enum SeedOverlay {
    static func draw(circle: GeodesicCircle, fit: SeedOverlayLayer.Fit?, _ view: MapView, _ canvas: inout BrailleCanvas)
    {
        let ink = StyleTable.ink(.seedOverlay)
        let row = StyleTable.row(.seedOverlay)
        let every = row?.dotEvery ?? 1
        let on = row?.dashOn ?? 1
        // The seed's ring: round in dots around the center's dot, as the seed computes it.
        let c = view.dotPoint(for: circle.center)
        let r = circle.radiusMeters / WebMercator.metersPerDot(latitude: circle.center.latitude, zoom: view.zoom)
        // A ring far larger than the screen adds nothing but segments to clip.
        if r < 64 * Double(canvas.widthDots + canvas.heightDots) {
            let n = 360
            for i in 0..<n {
                let a0 = Double(i) * 2 * .pi / Double(n)
                let a1 = Double(i + 1) * 2 * .pi / Double(n)
                canvas.line(
                    c.x + r * cos(a0), c.y + r * sin(a0), c.x + r * cos(a1), c.y + r * sin(a1), ink: ink, every: every,
                    on: on)
            }
        }
        // The seed's fit: the view's size at its zoom, around its camera's center.
        guard let fit, fit.zoom.isFinite else { return }
        let box = view.dotPoint(for: fit.center)
        let scale = exp2(view.zoom - fit.zoom)
        let hw = view.size.widthDots / 2 * scale
        let hh = view.size.heightDots / 2 * scale
        let (x0, x1, y0, y1) = (box.x - hw, box.x + hw, box.y - hh, box.y + hh)
        for (ax, ay, bx, by) in [(x0, y0, x1, y0), (x1, y0, x1, y1), (x1, y1, x0, y1), (x0, y1, x0, y0)] {
            canvas.line(ax, ay, bx, by, ink: ink, every: every, on: on)
        }
    }
}
