/// Douglas–Peucker line simplification (Douglas & Peucker 1973), iterative so that long lines cannot
/// overflow the stack, and bounded so that no line costs more than O(n log n): the classic algorithm
/// is quadratic where each split takes off one point (a jagged ring whose teeth grow along it: a
/// million points took 147 s), so once a line has cost `budget` distance evaluations, the stretches
/// still to split are thinned by radial distance instead (a point is dropped when it lies within the
/// tolerance of the last point kept: every dropped point stays within the tolerance of the line, the
/// bound Douglas–Peucker keeps, with more points kept).
public enum DouglasPeucker {
    /// Indices of the points to keep (first and last always kept) for a tolerance in stored units, on
    /// quantized planar lon/lat.
    public static func keep(_ xs: [Int32], _ ys: [Int32], tolerance: Double) -> [Int] {
        keep(count: xs.count, tolerance: tolerance) { (Double(xs[$0]), Double(ys[$0])) }
    }

    /// Distance evaluations a line of `n` points may cost before its stretches left are thinned by
    /// radial distance: 2 n log₂ n + 16 n, what balanced splits cost with room to spare.
    public static func budget(_ n: Int) -> Int {
        let log2 = Int.bitWidth - max(1, n).leadingZeroBitCount
        return n * (2 * log2 + 16)
    }

    /// Indices (0 ..< count) of the points to keep of a line whose point i is `point(i)`.
    @inline(__always)
    public static func keep(count n: Int, tolerance: Double, point: (Int) -> (Double, Double)) -> [Int] {
        let mask = keepMask(count: n, tolerance: tolerance, point: point)
        return mask.indices.filter { mask[$0] }
    }

    /// Per point of a line whose point i is `point(i)`, whether it is kept (a byte a point: a line of
    /// millions of points kept whole costs no list of their indices).
    @inline(__always)
    public static func keepMask(count n: Int, tolerance: Double, point: (Int) -> (Double, Double)) -> [Bool] {
        guard n > 2, tolerance > 0 else { return [Bool](repeating: true, count: n) }
        var keep = [Bool](repeating: false, count: n)
        keep[0] = true
        keep[n - 1] = true
        var stack: [(Int, Int)] = [(0, n - 1)]
        let tol2 = tolerance * tolerance
        var left = budget(n)
        while let (a, b) = stack.popLast() {
            guard b > a + 1 else { continue }
            guard left >= b - a - 1 else {
                radial(from: a, to: b, tolerance2: tol2, keep: &keep, point: point)
                continue
            }
            left -= b - a - 1
            let (ax, ay) = point(a)
            let (bx, by) = point(b)
            let dx = bx - ax
            let dy = by - ay
            let len2 = dx * dx + dy * dy
            var best = -1.0
            var bestIndex = a
            for i in (a + 1)..<b {
                let (x, y) = point(i)
                let px = x - ax
                let py = y - ay
                let d2: Double
                if len2 == 0 {
                    d2 = px * px + py * py
                } else {
                    // Distance to the segment (not the infinite line), so closed rings simplify well.
                    let t = max(0, min(1, (px * dx + py * dy) / len2))
                    let qx = px - t * dx
                    let qy = py - t * dy
                    d2 = qx * qx + qy * qy
                }
                if d2 > best {
                    best = d2
                    bestIndex = i
                }
            }
            if best > tol2 {
                keep[bestIndex] = true
                stack.append((a, bestIndex))
                stack.append((bestIndex, b))
            }
        }
        return keep
    }

    /// Radial-distance thinning of the points strictly between `a` and `b` (both kept): a point is kept
    /// when it is farther than the tolerance from the last one kept.
    @inline(__always)
    public static func radial(
        from a: Int, to b: Int, tolerance2: Double, keep: inout [Bool], point: (Int) -> (Double, Double)
    ) {
        var (lx, ly) = point(a)
        for i in (a + 1)..<b {
            let (x, y) = point(i)
            let (dx, dy) = (x - lx, y - ly)
            if dx * dx + dy * dy > tolerance2 {
                keep[i] = true
                (lx, ly) = (x, y)
            }
        }
    }
}
