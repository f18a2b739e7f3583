import MapData

/// Cuts an area's rings along a square grid (Sutherland & Hodgman 1974, "Reentrant polygon clipping",
/// against one slab of columns, then one of rows). Each ring is clipped on its own: within a square the
/// clipped rings fill, by the even–odd rule, exactly what the whole rings filled there (the edges the
/// clip adds along the square's sides come in coincident pairs and cancel).
enum GridClip {
    typealias Ring = (xs: [Int32], ys: [Int32])

    /// The squares `rings` meet, as (column, row, the rings' share of that square, each closed); a
    /// square's column is ⌊(x + originX) / cellUnits⌋, its row ⌊(y + originY) / cellUnits⌋.
    static func split(_ rings: [Ring], cellUnits: Int, originX: Int, originY: Int) -> [(Int, Int, [Ring])] {
        var squares: [Int: (Int, Int, [Ring])] = [:]
        var order: [Int] = []
        for ring in rings {
            for (col, column) in slabs(ring, axis: 0, origin: originX, cellUnits: cellUnits) {
                for (row, piece) in slabs(column, axis: 1, origin: originY, cellUnits: cellUnits) {
                    guard piece.xs.count >= 4, area2(piece) != 0 else { continue }
                    // Columns and rows of a world-wide grid stay far below 2^20.
                    let key = col << 20 | row
                    if squares[key] == nil {
                        squares[key] = (col, row, [])
                        order.append(key)
                    }
                    squares[key]?.2.append(piece)
                }
            }
        }
        return order.compactMap { squares[$0] }
    }

    /// The ring's part in each slab of the grid along one axis (0: columns, 1: rows) that it meets,
    /// with the slab's number; a ring within one slab is its own part.
    static func slabs(_ ring: Ring, axis: Int, origin: Int, cellUnits: Int) -> [(Int, Ring)] {
        let values = axis == 0 ? ring.xs : ring.ys
        guard let low = values.min(), let high = values.max() else { return [] }
        let first = MapAssetWriter.floorDiv(Int(low) + origin, cellUnits)
        let last = MapAssetWriter.floorDiv(Int(high) + origin, cellUnits)
        guard first < last else { return [(first, ring)] }
        return (first...last).map { n in
            let lo = Double(n * cellUnits - origin)
            return (n, clip(ring, axis: axis, lo: lo, hi: lo + Double(cellUnits)))
        }
    }

    /// The part of a closed ring between lo and hi on one axis (0: x, 1: y), closed again.
    static func clip(_ ring: Ring, axis: Int, lo: Double, hi: Double) -> Ring {
        var pts: [(Double, Double)] = zip(ring.xs, ring.ys).map { (Double($0), Double($1)) }
        if let f = pts.first, let l = pts.last, f == l { pts.removeLast() }
        pts = clipHalf(pts, axis: axis, bound: lo, keepAbove: true)
        pts = clipHalf(pts, axis: axis, bound: hi, keepAbove: false)
        var out: Ring = ([], [])
        for (x, y) in pts {
            let qx = Int32(x.rounded())
            let qy = Int32(y.rounded())
            if out.xs.last == qx && out.ys.last == qy { continue }
            out.xs.append(qx)
            out.ys.append(qy)
        }
        if let x = out.xs.first, let y = out.ys.first, out.xs.count >= 3 {
            out.xs.append(x)
            out.ys.append(y)
        }
        return out
    }

    /// One Sutherland–Hodgman pass: the polygon on one side of the line coordinate(axis) = bound.
    private static func clipHalf(_ pts: [(Double, Double)], axis: Int, bound: Double, keepAbove: Bool)
        -> [(Double, Double)]
    {
        guard let last = pts.last else { return [] }
        func value(_ p: (Double, Double)) -> Double { axis == 0 ? p.0 : p.1 }
        func inside(_ p: (Double, Double)) -> Bool { keepAbove ? value(p) >= bound : value(p) <= bound }
        func cross(_ a: (Double, Double), _ b: (Double, Double)) -> (Double, Double) {
            let t = (bound - value(a)) / (value(b) - value(a))
            return axis == 0 ? (bound, a.1 + t * (b.1 - a.1)) : (a.0 + t * (b.0 - a.0), bound)
        }
        var out: [(Double, Double)] = []
        out.reserveCapacity(pts.count)
        var prev = last
        for p in pts {
            if inside(p) {
                if !inside(prev) { out.append(cross(prev, p)) }
                out.append(p)
            } else if inside(prev) {
                out.append(cross(prev, p))
            }
            prev = p
        }
        return out
    }

    /// Twice the signed area of a closed ring (shoelace), in stored units squared.
    static func area2(_ ring: Ring) -> Int64 {
        var sum: Int64 = 0
        for i in 0..<(ring.xs.count - 1) {
            sum += Int64(ring.xs[i]) * Int64(ring.ys[i + 1]) - Int64(ring.xs[i + 1]) * Int64(ring.ys[i])
        }
        return sum
    }
}
