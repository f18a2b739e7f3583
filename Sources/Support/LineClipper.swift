/// Liang–Barsky clipping of a segment to an axis-aligned rectangle (Liang & Barsky 1984).
public enum LineClipper {
    /// The parameter interval [t0, t1] ⊂ [0, 1] of the segment inside the rectangle, or nil.
    public static func interval(
        _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, minX: Double, minY: Double, maxX: Double, maxY: Double
    ) -> (Double, Double)? {
        guard let (a, b) = clip(x0, y0, x1, y1, minX: minX, minY: minY, maxX: maxX, maxY: maxY) else { return nil }
        let dx = x1 - x0
        let dy = y1 - y0
        let len = abs(dx) >= abs(dy) ? dx : dy
        guard len != 0 else { return (0, 1) }
        let t0 = abs(dx) >= abs(dy) ? (a.x - x0) / dx : (a.y - y0) / dy
        let t1 = abs(dx) >= abs(dy) ? (b.x - x0) / dx : (b.y - y0) / dy
        return (min(t0, t1), max(t0, t1))
    }

    /// The visible part of the segment, or nil when none of it is inside.
    public static func clip(
        _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, minX: Double, minY: Double, maxX: Double, maxY: Double
    ) -> ((x: Double, y: Double), (x: Double, y: Double))? {
        guard x0.isFinite, y0.isFinite, x1.isFinite, y1.isFinite else { return nil }
        let dx = x1 - x0
        let dy = y1 - y0
        var t0 = 0.0
        var t1 = 1.0
        // The four edges in turn (written out: this runs for every segment of every frame).
        @inline(__always) func edge(_ p: Double, _ q: Double) -> Bool {
            if p == 0 { return q >= 0 }
            let r = q / p
            if p < 0 {
                if r > t1 { return false }
                if r > t0 { t0 = r }
            } else {
                if r < t0 { return false }
                if r < t1 { t1 = r }
            }
            return true
        }
        guard edge(-dx, x0 - minX), edge(dx, maxX - x0), edge(-dy, y0 - minY), edge(dy, maxY - y0) else { return nil }
        return ((x0 + t0 * dx, y0 + t0 * dy), (x0 + t1 * dx, y0 + t1 * dy))
    }
}
