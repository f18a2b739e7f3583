import GeoCore
import MapFormats
import Raster

/// Fills areas cell by cell, for every source alike: the cells whose centre lies inside an area (its
/// rings together, even–odd) take its ink and pick tag where no higher ink holds them; for a tile's
/// chunk only those inside the tile's square, and never those inside an excluded box (where a finer
/// source draws the class).
struct AreaFill {
    let place: ChunkPlacement
    /// The columns and rows whose centres lie within the clip (all of the map without one); nil when none.
    let columns: ClosedRange<Int>?
    let rows: ClosedRange<Int>?
    let excluded: [DotRect]
    /// Per map row, the x where the area's edges cross the row's centre line: each edge goes to the rows
    /// it spans, so a frame costs the edges plus their crossings, not rows × edges (kept between areas).
    private var crossings: [[Double]]

    /// Areas placed at `place`, left out inside `excluded`.
    init(_ place: ChunkPlacement, excluded: [DotRect] = []) {
        self.place = place
        self.excluded = excluded
        let (cols, rows) = (place.mapCols, place.mapRows)
        // Cell centres within the tile's square: [clip.x0, clip.x1), [clip.y0, clip.y1).
        let c = place.clip ?? (0, 0, Double(cols * ViewSize.dotsPerCellX), Double(rows * ViewSize.dotsPerCellY))
        let (c0, c1) = (max(0, columnCentres.first(from: c.x0)), min(cols - 1, columnCentres.first(from: c.x1) - 1))
        let (r0, r1) = (max(0, rowCentres.first(from: c.y0)), min(rows - 1, rowCentres.first(from: c.y1) - 1))
        columns = c0 <= c1 ? c0...c1 : nil
        self.rows = r0 <= r1 ? r0...r1 : nil
        crossings = [[Double]](repeating: [], count: max(0, rows))
    }

    /// Areas of up to this many points are filled from their crossings listed and sorted; larger ones by
    /// parity, in memory the size of the screen (a jagged ring of ten million points crosses a row
    /// millions of times: as a list it made 800 MB).
    static let listedCrossingsUpTo = 4096

    /// Fills piece `piece` of `data` with `ink`. Its pick tag is `tag`, or when 0 the one of feature
    /// `feature` of pick set `set`, asked once some cell is inside (an area off the cells costs no tag).
    mutating func fill(
        _ data: some FeatureColumns, piece: Int, ink: UInt8, set: Int, feature: Int, tag: UInt32 = 0,
        _ c: inout LayerContext, listingUpTo: Int = listedCrossingsUpTo
    ) {
        guard let rowRange = rows, let colRange = columns else { return }
        let (ws, ox, oy) = (place.ws, place.offsetX, place.offsetY)
        var tag = tag
        // The cells of a row from `from` to `to`, outside the excluded boxes (`cuts`).
        func mark(row: Int, _ from: Int, _ to: Int, _ cuts: [(Int, Int)], _ c: inout LayerContext) {
            if tag == 0 { tag = c.pick.tag(set: set, feature: feature) }
            var start = from
            for cut in cuts where cut.1 >= start && cut.0 <= to {
                if cut.0 > start {
                    Self.mark(&c, row: row, cols: place.mapCols, start...(cut.0 - 1), ink: ink, tag: tag)
                }
                start = cut.1 + 1
            }
            if start <= to { Self.mark(&c, row: row, cols: place.mapCols, start...to, ink: ink, tag: tag) }
        }
        // Each edge of every ring, as it crosses the rows' centre lines.
        func edges(_ body: (Int, Double) -> Void) {
            data.withCoordinates { xs, ys in
                for r in data.rings(of: piece) {
                    let ring = data.points(ofRing: r)
                    for i in ring {
                        let j = i + 1 < ring.upperBound ? i + 1 : ring.lowerBound
                        ScanlineFill.crossings(
                            ys[i] * ws + oy, xs[i] * ws + ox, ys[j] * ws + oy, xs[j] * ws + ox, lines: rowCentres,
                            within: rowRange, body)
                    }
                }
            }
        }
        guard data.points(ofPiece: piece).count <= listingUpTo else {
            // Kept as a parity a cell (the crossings left of each cell's centre, odd or even).
            let width = colRange.count + 1
            var parity = [Bool](repeating: false, count: rowRange.count * width)
            var touched = [Bool](repeating: false, count: rowRange.count)
            edges { row, x in
                let from = min(colRange.upperBound + 1, max(colRange.lowerBound, columnCentres.first(from: x)))
                parity[(row - rowRange.lowerBound) * width + from - colRange.lowerBound].toggle()
                touched[row - rowRange.lowerBound] = true
            }
            for (k, row) in rowRange.enumerated() where touched[k] {
                let rowCuts = excluded.isEmpty ? [] : cuts(row: row)
                var inside = false
                var spanStart = -1
                for (j, col) in (colRange.lowerBound...(colRange.upperBound + 1)).enumerated() {
                    inside = inside != parity[k * width + j]
                    if col <= colRange.upperBound, inside, spanStart < 0 { spanStart = col }
                    if spanStart >= 0, !inside || col > colRange.upperBound {
                        mark(row: row, spanStart, min(col - 1, colRange.upperBound), rowCuts, &c)
                        spanStart = -1
                    }
                }
            }
            return
        }
        var touched: [Int] = []
        edges { row, x in
            if crossings[row].isEmpty { touched.append(row) }
            crossings[row].append(x)
        }
        for row in touched {
            crossings[row].sort()
            let rowCuts = excluded.isEmpty ? [] : cuts(row: row)
            ScanlineFill.spans(crossings[row], lines: columnCentres, within: colRange) { from, to in
                mark(row: row, from, to, rowCuts, &c)
            }
            crossings[row].removeAll(keepingCapacity: true)
        }
    }

    /// The columns of `row` inside an excluded box, left to right.
    private func cuts(row: Int) -> [(Int, Int)] {
        guard !excluded.isEmpty, let colRange = columns else { return [] }
        var cuts: [(Int, Int)] = []
        let y = ViewTransform.centerY(row: row)
        for r in excluded where y >= r.y0 && y < r.y1 {
            let a = max(colRange.lowerBound, columnCentres.first(from: r.x0))
            let b = min(colRange.upperBound, columnCentres.first(from: r.x1) - 1)
            if a <= b { cuts.append((a, b)) }
        }
        return cuts.sorted { $0.0 < $1.0 }
    }

    /// Marks `columns` of `row` with an area's ink and pick tag, where no higher ink holds them.
    @inline(__always)
    static func mark(_ c: inout LayerContext, row: Int, cols: Int, _ columns: ClosedRange<Int>, ink: UInt8, tag: UInt32)
    {
        for col in columns where c.fills[row * cols + col] <= ink {
            c.fills[row * cols + col] = ink
            c.pick.fillTags[row * cols + col] = tag
        }
    }
}
