/// A contour line of a grid of heights: its level and its points, in grid units (sample `i` of row `j`
/// at (i, j)), as x, y pairs.
public struct ContourLine: Equatable, Sendable {
    /// The height it follows, in metres.
    public let level: Double
    /// x0, y0, x1, y1, … in grid units.
    public var points: [Float]
    /// True when it closes on itself (its last point is its first).
    public var closed: Bool

    /// A line.
    public init(level: Double, points: [Float], closed: Bool = false) {
        (self.level, self.points, self.closed) = (level, points, closed)
    }
}

/// Contour lines of a grid of heights by marching squares (Lorensen and Cline's cases on a square:
/// <https://en.wikipedia.org/wiki/Marching_squares>): each cell of four samples is crossed by a level
/// where some corners are at or above it and some below, at the points found by linear interpolation
/// along its edges (the heights between samples are taken as bilinear). Two cells that share an edge
/// compute the same point on it from the same two samples, so lines meet exactly, within a grid and
/// across grids that share their edge samples (tiles). A saddle (corners above and below on the
/// diagonals) is resolved by the cell's mean height, as GDAL's contour generator does.
public enum ContourTracer {
    /// The lines of `heights` (`width` × `height` samples row by row; NaN: no height, its cells are
    /// skipped) at every multiple of `interval` metres, joined into polylines.
    public static func lines(heights: [Float], width: Int, height: Int, interval: Double) -> [ContourLine] {
        guard width >= 2, height >= 2, heights.count >= width * height, interval > 0, interval.isFinite else {
            return []
        }
        var segments: [Int: [Segment]] = [:]
        for j in 0..<(height - 1) {
            for i in 0..<(width - 1) {
                let k = j * width + i
                let (a, b, c, d) = (heights[k], heights[k + 1], heights[k + width + 1], heights[k + width])
                guard !(a.isNaN || b.isNaN || c.isNaN || d.isNaN) else { continue }
                let lo = Double(min(min(a, b), min(c, d)))
                let hi = Double(max(max(a, b), max(c, d)))
                // Levels L with lo < L ≤ hi: a corner at L counts as above it.
                var n = Int((lo / interval).rounded(.down)) + 1
                while Double(n) * interval <= hi {
                    let level = Double(n) * interval
                    cell(i, j, width, (a, b, c, d), Float(level)) { segments[n, default: []].append($0) }
                    n += 1
                }
            }
        }
        return segments.keys.sorted().flatMap { n in
            join(segments[n] ?? []).map {
                ContourLine(level: Double(n) * interval, points: $0.points, closed: $0.closed)
            }
        }
    }

    /// One piece of a line in a cell: from a point on one edge to a point on another, each edge named
    /// by a key its neighbour cell gives it too.
    struct Segment {
        var from: (key: Int, x: Float, y: Float)
        var to: (key: Int, x: Float, y: Float)
    }

    /// The segments of level `l` in cell (`i`, `j`) with corners top left, top right, bottom right,
    /// bottom left `q`.
    static func cell(
        _ i: Int, _ j: Int, _ width: Int, _ q: (Float, Float, Float, Float), _ l: Float, _ out: (Segment) -> Void
    ) {
        let (a, b, c, d) = q
        let index = (a >= l ? 8 : 0) | (b >= l ? 4 : 0) | (c >= l ? 2 : 0) | (d >= l ? 1 : 0)
        guard index != 0, index != 15 else { return }
        let (x, y) = (Float(i), Float(j))
        // Edge keys: the horizontal edge right of sample (i, j) is 2k, the vertical one below it 2k + 1.
        let k = j * width + i
        func t(_ p: Float, _ q: Float) -> Float { (l - p) / (q - p) }
        let top = (key: 2 * k, x: x + t(a, b), y: y)
        let right = (key: 2 * (k + 1) + 1, x: x + 1, y: y + t(b, c))
        let bottom = (key: 2 * (k + width), x: x + t(d, c), y: y + 1)
        let left = (key: 2 * k + 1, x: x, y: y + t(a, d))
        switch index {
        case 1, 14: out(Segment(from: left, to: bottom))
        case 2, 13: out(Segment(from: bottom, to: right))
        case 3, 12: out(Segment(from: left, to: right))
        case 4, 11: out(Segment(from: top, to: right))
        case 6, 9: out(Segment(from: top, to: bottom))
        case 7, 8: out(Segment(from: left, to: top))
        case 5:
            // a and c below, b and d above: the mean decides whether the middle is above (b and d joined
            // through it) or below.
            if (a + b + c + d) / 4 >= l {
                out(Segment(from: left, to: top))
                out(Segment(from: bottom, to: right))
            } else {
                out(Segment(from: top, to: right))
                out(Segment(from: left, to: bottom))
            }
        default:  // 10: a and c above, b and d below.
            if (a + b + c + d) / 4 >= l {
                out(Segment(from: top, to: right))
                out(Segment(from: left, to: bottom))
            } else {
                out(Segment(from: left, to: top))
                out(Segment(from: bottom, to: right))
            }
        }
    }

    /// Segments of one level joined end to end at their shared edges into polylines.
    static func join(_ segments: [Segment]) -> [(points: [Float], closed: Bool)] {
        // Each edge key is the end of at most two segments of a level.
        var atEdge: [Int: (Int, Int)] = [:]
        atEdge.reserveCapacity(segments.count * 2)
        for (n, s) in segments.enumerated() {
            for key in [s.from.key, s.to.key] {
                if let other = atEdge[key] { atEdge[key] = (other.0, n) } else { atEdge[key] = (n, -1) }
            }
        }
        var used = [Bool](repeating: false, count: segments.count)
        var lines: [(points: [Float], closed: Bool)] = []
        /// The other segment at `key` than `n`, if unused.
        func next(_ key: Int, after n: Int) -> Int? {
            guard let pair = atEdge[key] else { return nil }
            let m = pair.0 == n ? pair.1 : pair.0
            return m >= 0 && !used[m] ? m : nil
        }
        /// Points from segment `n`'s end `key` onwards, marking those walked; and the key it ended at.
        func walk(from key: Int, after n: Int) -> (points: [(Float, Float)], end: Int) {
            var out: [(Float, Float)] = []
            var (key, n) = (key, n)
            while let m = next(key, after: n) {
                used[m] = true
                let s = segments[m]
                let far = s.from.key == key ? s.to : s.from
                out.append((far.x, far.y))
                (key, n) = (far.key, m)
            }
            return (out, key)
        }
        for (n, s) in segments.enumerated() where !used[n] {
            used[n] = true
            let forward = walk(from: s.to.key, after: n)
            // A ring comes back to the edge it left from (its last point is its first).
            let closed = forward.end == s.from.key && !forward.points.isEmpty
            let backward = closed ? [] : walk(from: s.from.key, after: n).points
            var points: [Float] = []
            points.reserveCapacity(2 * (forward.points.count + backward.count + 2))
            for p in backward.reversed() { points += [p.0, p.1] }
            points += [s.from.x, s.from.y, s.to.x, s.to.y]
            for p in forward.points { points += [p.0, p.1] }
            lines.append((points, closed))
        }
        return lines
    }
}
