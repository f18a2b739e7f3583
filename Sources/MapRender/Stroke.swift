import GeoCore
import MapFormats
import Raster
import Support

/// How a line is drawn: its ink, dotted or dashed, one or two dots wide, and where it is not drawn.
struct StrokeStyle {
    var ink: UInt8
    /// A dot every `every` (dotted), or `on` dots of every `every` (dashed).
    var every = 1
    var on = 1
    /// Where its features lie in the view.
    var place: WorldPlacement
    /// Two dots wide.
    var wide = false
    /// Boxes (in dots) where a finer source draws it instead.
    var excluded: [DotRect] = []
    /// A tile's square (in dots), which its features are drawn within.
    var clip: DotRect?
    /// An area's outline: along the clip's edge it is where the tile writer cut the area, not drawn.
    var outline = false
    /// Its points are wanted (names along lines another chunk draws), not its ink.
    var inkless = false

    /// Dotted lines keep their dots at world positions, so a pan moves them with the map.
    let phaseX: Int
    let phaseY: Int

    /// A look of lines placed at `place`.
    init(
        ink: UInt8, every: Int = 1, on: Int = 1, place: WorldPlacement, wide: Bool = false, excluded: [DotRect] = [],
        clip: DotRect? = nil, outline: Bool = false, inkless: Bool = false
    ) {
        (self.ink, self.every, self.on, self.place, self.wide) = (ink, every, on, place, wide)
        (self.excluded, self.clip, self.outline, self.inkless) = (excluded, clip, outline, inkless)
        phaseX = BrailleCanvas.dot(-place.offsetX)
        phaseY = BrailleCanvas.dot(-place.offsetY)
    }
}

/// Lines and rings drawn dot by dot, for every source alike (the map's chunks and tiles, the user's files).
enum Stroke {
    /// Ring (or line) `ring` of `data`: a segment to each next point more than a dot from the last one
    /// drawn to (at small scales most are within one: they add nothing a dot can show), always to the
    /// end. `closes`: a ring its file left open (GDAL reads those) is closed where it is drawn. `along`,
    /// when given, gets every point in dots (names follow the line).
    static func ring<F: FeatureColumns>(
        _ data: F, _ ring: Int, _ style: StrokeStyle, closes: Bool, _ canvas: inout BrailleCanvas,
        along points: inout [DotPoint]?
    ) {
        data.withCoordinates { xs, ys in
            Self.ring(xs, ys, data.points(ofRing: ring), style, closes: closes, &canvas, along: &points)
        }
    }

    /// The points `range` of columns `xs`, `ys` as a ring (or line), as `ring(_:_:_:closes:_:along:)` draws it.
    @inline(__always)
    static func ring<C: RandomAccessCollection<Double>>(
        _ xs: C, _ ys: C, _ range: Range<Int>, _ style: StrokeStyle, closes: Bool, _ canvas: inout BrailleCanvas,
        along points: inout [DotPoint]?
    ) where C.Index == Int {
        let (ws, ox, oy) = (style.place.ws, style.place.offsetX, style.place.offsetY)
        let (start, end) = (range.lowerBound, range.upperBound)
        guard end > start else { return }
        var (px, py) = (xs[start] * ws + ox, ys[start] * ws + oy)
        points?.reserveCapacity(end - start)
        points?.append(DotPoint(x: px, y: py))
        let open = closes && (xs[end - 1] != xs[start] || ys[end - 1] != ys[start])
        for k in (start + 1)..<(open ? end + 1 : end) {
            let i = k < end ? k : start
            let (qx, qy) = (xs[i] * ws + ox, ys[i] * ws + oy)
            if k < end - 1 && abs(qx - px) < 1 && abs(qy - py) < 1 {
                points?.append(DotPoint(x: qx, y: qy))
                continue
            }
            if !style.inkless {
                segment(
                    &canvas, px, py, qx, qy, ink: style.ink, every: style.every, on: style.on, phaseX: style.phaseX,
                    phaseY: style.phaseY, wide: style.wide, excluded: style.excluded, clip: style.clip,
                    outline: style.outline)
            }
            points?.append(DotPoint(x: qx, y: qy))
            (px, py) = (qx, qy)
        }
    }

    /// One segment, inside `clip` (a tile's square) and outside excluded rectangles. An area outline
    /// along the clip's edge is where the tile writer cut the area, not its edge: it is not drawn.
    static func segment(
        _ canvas: inout BrailleCanvas, _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, ink: UInt8, every: Int,
        on: Int = 1,
        phaseX: Int, phaseY: Int, wide: Bool, excluded: [DotRect], clip: DotRect? = nil, outline: Bool = false
    ) {
        var (x0, y0, x1, y1) = (x0, y0, x1, y1)
        // Most segments of a tile lie inside its square: nothing to cut.
        if let c = clip, !(min(x0, x1) > c.x0 && max(x0, x1) < c.x1 && min(y0, y1) > c.y0 && max(y0, y1) < c.y1) {
            let e = 1e-6
            if outline
                && ((abs(x0 - c.x0) < e && abs(x1 - c.x0) < e) || (abs(x0 - c.x1) < e && abs(x1 - c.x1) < e)
                    || (abs(y0 - c.y0) < e && abs(y1 - c.y0) < e) || (abs(y0 - c.y1) < e && abs(y1 - c.y1) < e))
            {
                return
            }
            guard let (a, b) = LineClipper.interval(x0, y0, x1, y1, minX: c.x0, minY: c.y0, maxX: c.x1, maxY: c.y1)
            else { return }
            let (dx, dy) = (x1 - x0, y1 - y0)
            (x0, y0, x1, y1) = (x0 + a * dx, y0 + a * dy, x0 + b * dx, y0 + b * dy)
        }
        // The common case, nothing excluded and one dot wide, allocates nothing.
        if excluded.isEmpty && !wide {
            canvas.line(x0, y0, x1, y1, ink: ink, every: every, on: on, phase: phaseX, phaseY: phaseY)
            return
        }
        var pieces: [(Double, Double)] = [(0, 1)]
        for r in excluded {
            guard let (a, b) = LineClipper.interval(x0, y0, x1, y1, minX: r.x0, minY: r.y0, maxX: r.x1, maxY: r.y1)
            else { continue }
            pieces = pieces.flatMap { p -> [(Double, Double)] in
                var out: [(Double, Double)] = []
                if a > p.0 { out.append((p.0, min(a, p.1))) }
                if b < p.1 { out.append((max(b, p.0), p.1)) }
                return out.filter { $0.0 < $0.1 }
            }
        }
        let dx = x1 - x0
        let dy = y1 - y0
        for (a, b) in pieces {
            let (ax, ay, bx, by) = (x0 + a * dx, y0 + a * dy, x0 + b * dx, y0 + b * dy)
            canvas.line(ax, ay, bx, by, ink: ink, every: every, on: on, phase: phaseX, phaseY: phaseY)
            if wide {
                // The second dot row (or column) of a road two dots wide.
                if abs(dx) >= abs(dy) {
                    canvas.line(ax, ay + 1, bx, by + 1, ink: ink, every: every, on: on, phase: phaseX, phaseY: phaseY)
                } else {
                    canvas.line(ax + 1, ay, bx + 1, by, ink: ink, every: every, on: on, phase: phaseX, phaseY: phaseY)
                }
            }
        }
    }
}
