/// Which side of the coast each cell of a view lies on, from OpenStreetMap coastline ways alone. A
/// coastline way has the land on its left and the water on its right (the OSM wiki, "Tag:natural=
/// coastline"), so the crossing of a cell's row or column nearest to the cell tells its side, without
/// closing any ring (an extract cuts them, and a view sees only pieces).
enum CoastSides {
    /// A cell's side: not known (no coast crosses its row or column), land or sea.
    enum Side: UInt8 { case unknown, land, sea }

    /// A coastline segment in the view's dots (y grows southward), in the way's direction.
    typealias Segment = (x0: Double, y0: Double, x1: Double, y1: Double)

    /// The side of each cell (row by row) of a `cols` × `rows` view, from the segments of the coast
    /// ways in or near it (crossings beyond the view's edges count: they are in the loaded chunks).
    static func classify(_ segments: [Segment], cols: Int, rows: Int) -> [Side] {
        // Crossings of each row's and each column's centre line: where, and the side just past it
        // (east of a row crossing, south of a column crossing).
        var rowCrossings = [[(at: Double, seaPast: Bool)]](repeating: [], count: rows)
        var colCrossings = [[(at: Double, seaPast: Bool)]](repeating: [], count: cols)
        for s in segments {
            // Rows: centre lines y = 4·row + 2 between the segment's ends (half-open, so a shared end
            // point counts once).
            if s.y0 != s.y1 {
                let (lo, hi) = (min(s.y0, s.y1), max(s.y0, s.y1))
                let first = max(0, Int(((lo - 2) / 4).rounded(.up)))
                let last = min(rows - 1, Int(((hi - 2) / 4).rounded(.up)) - 1)
                if first <= last {
                    for row in first...last {
                        let y = Double(row) * 4 + 2
                        let x = s.x0 + (y - s.y0) / (s.y1 - s.y0) * (s.x1 - s.x0)
                        // Going north (up the screen) the land is west, so east of it is sea.
                        rowCrossings[row].append((x, s.y1 < s.y0))
                    }
                }
            }
            // Columns: centre lines x = 2·col + 1.
            if s.x0 != s.x1 {
                let (lo, hi) = (min(s.x0, s.x1), max(s.x0, s.x1))
                let first = max(0, Int(((lo - 1) / 2).rounded(.up)))
                let last = min(cols - 1, Int(((hi - 1) / 2).rounded(.up)) - 1)
                if first <= last {
                    for col in first...last {
                        let x = Double(col) * 2 + 1
                        let y = s.y0 + (x - s.x0) / (s.x1 - s.x0) * (s.y1 - s.y0)
                        // Going east the land is north, so south of it is sea.
                        colCrossings[col].append((y, s.x1 > s.x0))
                    }
                }
            }
        }
        for i in rowCrossings.indices { rowCrossings[i].sort { $0.at < $1.at } }
        for i in colCrossings.indices { colCrossings[i].sort { $0.at < $1.at } }

        /// The nearest crossing to `p` on a sorted line: its distance and the side of `p`.
        func nearest(_ line: [(at: Double, seaPast: Bool)], _ p: Double) -> (Double, Side)? {
            guard !line.isEmpty else { return nil }
            // The first crossing past p, by binary search.
            var lo = 0
            var hi = line.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if line[mid].at <= p { lo = mid + 1 } else { hi = mid }
            }
            var best: (Double, Side)?
            if lo > 0 {
                let c = line[lo - 1]
                best = (p - c.at, c.seaPast ? .sea : .land)
            }
            if lo < line.count {
                let c = line[lo]
                let d = c.at - p
                if best == nil || d < best?.0 ?? .infinity { best = (d, c.seaPast ? .land : .sea) }
            }
            return best
        }

        var sides = [Side](repeating: .unknown, count: cols * rows)
        for row in 0..<rows {
            let y = Double(row) * 4 + 2
            for col in 0..<cols {
                let x = Double(col) * 2 + 1
                let across = nearest(rowCrossings[row], x)
                let down = nearest(colCrossings[col], y)
                switch (across, down) {
                case (nil, nil): continue
                case (let a?, nil): sides[row * cols + col] = a.1
                case (nil, let d?): sides[row * cols + col] = d.1
                case (let a?, let d?): sides[row * cols + col] = a.0 <= d.0 ? a.1 : d.1
                }
            }
        }
        return sides
    }
}
