import GeoCore
import Raster

/// Which side of the coast each cell of a view lies on, from OpenStreetMap coastline ways alone. A
/// coastline way has the land on its left and the water on its right (the OSM wiki, "Tag:natural=
/// coastline"), so the crossing of a cell's row or column nearest to the cell tells its side, without
/// closing any ring (an extract cuts them, and a view sees only pieces).
enum CoastSides {
    /// A cell's side: not known (no coast crosses its row or column), land or sea.
    enum Side: UInt8 { case unknown, land, sea }

    /// A coastline segment in the view's dots (y grows southward), in the way's direction.
    typealias Segment = (x0: Double, y0: Double, x1: Double, y1: Double)
    /// Where a segment crosses a line of cell centres, and whether past it (east, south) is sea.
    typealias Crossing = (at: Double, seaPast: Bool)

    /// The side of each cell (row by row) of a `cols` × `rows` view, from the segments of the coast
    /// ways in or near it (crossings beyond the view's edges count: they are in the loaded chunks).
    static func classify(_ segments: [Segment], cols: Int, rows: Int) -> [Side] {
        guard cols > 0, rows > 0 else { return [] }
        // Crossings of each row's and each column's centre line: where, and the side just past it
        // (east of a row crossing, south of a column crossing).
        var rowCrossings = [[Crossing]](repeating: [], count: rows)
        var colCrossings = [[Crossing]](repeating: [], count: cols)
        for s in segments {
            // Going north (up the screen) the land is west, so east of it is sea.
            let north = s.y1 < s.y0
            ScanlineFill.crossings(s.y0, s.x0, s.y1, s.x1, lines: rowCentres, within: 0...(rows - 1)) {
                rowCrossings[$0].append(($1, north))
            }
            // Going east the land is north, so south of it is sea.
            let east = s.x1 > s.x0
            ScanlineFill.crossings(s.x0, s.y0, s.x1, s.y1, lines: columnCentres, within: 0...(cols - 1)) {
                colCrossings[$0].append(($1, east))
            }
        }
        for i in rowCrossings.indices { rowCrossings[i].sort { $0.at < $1.at } }
        for i in colCrossings.indices { colCrossings[i].sort { $0.at < $1.at } }

        /// The nearest crossing to `p` on a sorted line: its distance and the side of `p`.
        func nearest(_ line: [Crossing], _ p: Double) -> (Double, Side)? {
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
            let y = ViewTransform.centerY(row: row)
            for col in 0..<cols {
                let x = ViewTransform.centerX(col: col)
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
