/// Douglas–Peucker line simplification (Douglas & Peucker 1973), iterative so that long lines cannot
/// overflow the stack.
enum DouglasPeucker {
    /// Indices of the points to keep (first and last always kept) for a tolerance in stored units, on
    /// quantized planar lon/lat.
    static func keep(_ xs: [Int32], _ ys: [Int32], tolerance: Double) -> [Int] {
        keep(count: xs.count, tolerance: tolerance) { (Double(xs[$0]), Double(ys[$0])) }
    }

    /// Indices (0 ..< count) of the points to keep of a line whose point i is `point(i)`.
    @inline(__always)
    static func keep(count n: Int, tolerance: Double, point: (Int) -> (Double, Double)) -> [Int] {
        guard n > 2, tolerance > 0 else { return Array(0..<n) }
        var keep = [Bool](repeating: false, count: n)
        keep[0] = true
        keep[n - 1] = true
        var stack: [(Int, Int)] = [(0, n - 1)]
        let tol2 = tolerance * tolerance
        while let (a, b) = stack.popLast() {
            guard b > a + 1 else { continue }
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
        return keep.indices.filter { keep[$0] }
    }
}
