/// Spans of a polygon along horizontal lines (even–odd rule), for filling areas cell row by cell row.
public enum ScanlineFill {
    /// Sorted x positions where the closed polygon crosses the line y (half-open rule at vertices).
    public static func crossings(_ xs: [Double], _ ys: [Double], y: Double) -> [Double] {
        var out: [Double] = []
        let n = xs.count
        guard n >= 3 else { return out }
        var j = n - 1
        for i in 0..<n {
            let yi = ys[i]
            let yj = ys[j]
            if (yi > y) != (yj > y) {
                out.append(xs[i] + (y - yi) / (yj - yi) * (xs[j] - xs[i]))
            }
            j = i
        }
        out.sort()
        return out
    }

    /// True when x lies inside the even–odd spans given by sorted crossings.
    public static func inside(_ x: Double, crossings: [Double]) -> Bool {
        var count = 0
        for c in crossings {
            if c > x { break }
            count += 1
        }
        return count % 2 == 1
    }
}

extension ScanlineFill {
    /// Lines `spacing` apart, line n at n·spacing + offset (the centres of a grid's cells: a braille
    /// cell's rows are 4 dots apart, its columns 2).
    @frozen
    public struct Lines: Sendable {
        public let spacing: Double
        public let offset: Double

        /// Lines.
        @inlinable
        public init(spacing: Double, offset: Double) {
            self.spacing = spacing
            self.offset = offset
        }

        /// Line n's position.
        @inlinable public func at(_ n: Int) -> Double { Double(n) * spacing + offset }
        /// The first line at `v` or past it.
        @inlinable public func first(from v: Double) -> Int { Int(((v - offset) / spacing).rounded(.up)) }
        /// The last line at `v` or before it.
        @inlinable public func last(to v: Double) -> Int { Int(((v - offset) / spacing).rounded(.down)) }
    }

    /// Where the edge from (u0, v0) to (u1, v1) crosses the lines of `lines` numbered within `range`
    /// (u across the lines, v along them), half-open so that a vertex two edges share counts once:
    /// `body` gets each line's number and the crossing's v. Inlined where it is called: it runs for every
    /// edge of every area a frame fills.
    @inlinable @inline(__always)
    public static func crossings(
        _ u0: Double, _ v0: Double, _ u1: Double, _ v1: Double, lines: Lines, within range: ClosedRange<Int>,
        _ body: (Int, Double) -> Void
    ) {
        guard u0 != u1 else { return }
        let first = max(range.lowerBound, lines.first(from: min(u0, u1)))
        let last = min(range.upperBound, lines.first(from: max(u0, u1)) - 1)
        guard first <= last else { return }
        let slope = (v1 - v0) / (u1 - u0)
        for n in first...last { body(n, v0 + (lines.at(n) - u0) * slope) }
    }

    /// The lines of `lines` within `range` that lie between each pair of sorted crossings (even–odd):
    /// `body` gets each span's first and last line.
    @inlinable @inline(__always)
    public static func spans(
        _ sorted: [Double], lines: Lines, within range: ClosedRange<Int>, _ body: (Int, Int) -> Void
    ) {
        var k = 0
        while k + 1 < sorted.count {
            let from = max(range.lowerBound, lines.first(from: sorted[k]))
            let to = min(range.upperBound, lines.last(to: sorted[k + 1]))
            if from <= to { body(from, to) }
            k += 2
        }
    }
}
