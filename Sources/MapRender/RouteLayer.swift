import GeoCore
import Raster
import Support

/// A route over the map (`d`, issue 46): its line two dots wide in the route's look, each step's stretch
/// a feature of the pick buffer (`route`, named by the step, so `i` on it names the step), with start
/// and end markers; or a route's start alone while the end is being chosen; or the reach of a profile,
/// which shades every cell its reachable streets do not cross, as `c` shades outside the circle.
public struct RouteLayer: MapLayer, Equatable {
    /// The route's stretches, one a step, each with the step's words.
    public var steps: [(instruction: String, line: [Coordinate])]
    /// Where it starts and ends (the start alone while the end is being chosen).
    public var start: Coordinate?
    public var end: Coordinate?
    /// The reachable streets' lines; nil when reach is not shown.
    public var reach: [[Coordinate]]?

    /// A layer.
    public init(
        steps: [(instruction: String, line: [Coordinate])] = [], start: Coordinate? = nil, end: Coordinate? = nil,
        reach: [[Coordinate]]? = nil
    ) {
        (self.steps, self.start, self.end, self.reach) = (steps, start, end, reach)
    }

    public static func == (a: RouteLayer, b: RouteLayer) -> Bool {
        a.start == b.start && a.end == b.end && a.reach == b.reach && a.steps.count == b.steps.count
            && zip(a.steps, b.steps).allSatisfy { $0.instruction == $1.instruction && $0.line == $1.line }
    }

    public func draw(into c: inout LayerContext) {
        let t = c.transform
        if let reach { c.shade = Self.shade(outside: reach, t, cols: c.view.size.cols, rows: c.view.size.rows) }
        let ink = StyleTable.ink(.route)
        for (i, step) in steps.enumerated() {
            let feature = PickedFeature(
                className: "route", name: step.instruction, reference: FeatureReference(source: nil, feature: .own(i)))
            c.drawing(feature) { canvas in
                let dots = step.line.map { t.dot(for: $0) }
                for (p, q) in zip(dots, dots.dropFirst()) {
                    canvas.line(p.x, p.y, q.x, q.y, ink: ink)
                    // The second dot: beside a steep line, below a flat one.
                    let steep = abs(q.y - p.y) > abs(q.x - p.x)
                    let (dx, dy) = steep ? (1.0, 0.0) : (0.0, 1.0)
                    canvas.line(p.x + dx, p.y + dy, q.x + dx, q.y + dy, ink: ink)
                }
            }
        }
        // The map's names give way where they would cover the route, as they do to the user's data.
        if !steps.isEmpty {
            let under = Self.shade(outside: steps.map(\.line), t, cols: c.view.size.cols, rows: c.view.size.rows)
            c.labels.giveWay(to: under.map { !$0 })
        }
        for (point, glyph) in [(start, c.ascii ? "A" : "◉"), (end, c.ascii ? "B" : "◎")] {
            guard let point else { continue }
            let d = t.dot(for: point)
            let (col, row) = (
                Int((d.x / Double(ViewSize.dotsPerCellX)).rounded(.down)),
                Int((d.y / Double(ViewSize.dotsPerCellY)).rounded(.down))
            )
            c.labels.addMarker(Character(glyph), col: col, row: row, role: .route)
        }
    }

    /// Per map cell, true where none of `lines` passes (for reach, the shade), each segment walked a
    /// quarter cell at a time.
    static func shade(outside lines: [[Coordinate]], _ t: ViewTransform, cols: Int, rows: Int) -> [Bool] {
        var shade = [Bool](repeating: true, count: cols * rows)
        let (cw, ch) = (Double(ViewSize.dotsPerCellX), Double(ViewSize.dotsPerCellY))
        for line in lines {
            let dots = line.map { t.dot(for: $0) }
            for (p0, q0) in zip(dots, dots.dropFirst()) {
                // Only the part on screen is walked (a street across a zoom-18 view is thousands of cells).
                guard
                    let (p, q) = LineClipper.clip(
                        p0.x, p0.y, q0.x, q0.y, minX: 0, minY: 0, maxX: Double(cols) * cw, maxY: Double(rows) * ch)
                else { continue }
                let steps = max(1, Int((max(abs(q.x - p.x) / cw, abs(q.y - p.y) / ch) * 4).rounded(.up)))
                for k in 0...steps {
                    let f = Double(k) / Double(steps)
                    let col = Int(((p.x + (q.x - p.x) * f) / cw).rounded(.down))
                    let row = Int(((p.y + (q.y - p.y) * f) / ch).rounded(.down))
                    if col >= 0, row >= 0, col < cols, row < rows { shade[row * cols + col] = false }
                }
            }
        }
        return shade
    }
}
