/// A grid over boxes (a level's chunk boxes, a user's file's feature boxes, in integer units), so that a
/// query looks only at the boxes near the view instead of all of them. Cells are as wide as the typical
/// box; a box is listed in every cell it meets. The lists lie in one array, cell after cell (a compressed
/// sparse row layout): built in two passes over the boxes with no hashing and no per-cell arrays, since
/// a level's grid is built while a key waits for its frame (13,306 chunks at the world file's finest
/// level), and a million-point file's while it opens.
public struct BoxIndex: Sendable {
    /// Cell size in the boxes' units.
    public let cellUnits: Int64
    /// The grid's first column and row, in cells from the origin, and its size in cells.
    public let column0: Int64, row0: Int64, columns: Int64, rows: Int64
    /// Where each cell's list starts in `entries` (one more than the cells: the last list's end).
    public let starts: [Int32]
    /// Box numbers, cell after cell, each cell's in order.
    public let entries: [Int32]
    /// Boxes that cover too many cells to list (a long coastline at a coarse level, a file's long track).
    public let everywhere: [Int32]
    /// Every box's number.
    public let all: Range<Int>

    /// Boxes over more cells than this are tested at every query instead of listed.
    public static let maxCellsPerBox: Int64 = 64
    /// The grid's most cells: sparse data over a wide area gets wider cells instead.
    public static let maxCells: Int64 = 1 << 20
    /// A query over more cells than this returns every box.
    public static let maxCellsPerQuery: Int64 = 16384

    /// A box in the index's units, [minX, maxX] × [minY, maxY].
    public struct Box: Sendable {
        public var minX: Int64, minY: Int64, maxX: Int64, maxY: Int64

        /// A box.
        public init(minX: Int64, minY: Int64, maxX: Int64, maxY: Int64) {
            (self.minX, self.minY, self.maxX, self.maxY) = (minX, minY, maxX, maxY)
        }
    }

    /// The grid over boxes `range` (`box(i)` is box i), of at most `maxCells` cells (fewer for a few
    /// boxes: a grid costs four bytes a cell).
    public init(_ range: Range<Int>, maxCells: Int64 = BoxIndex.maxCells, box: (Int) -> Box) {
        all = range
        // The cell is the median side of the boxes, from at most 2,048 of them (a sample spread over
        // them: the median needs no exactness, and sorting every side cost more than the rest of the
        // build).
        let stride = max(1, range.count / 1024)
        var sides: [Int64] = []
        sides.reserveCapacity(2 * (range.count / stride + 1))
        for i in Swift.stride(from: range.lowerBound, to: range.upperBound, by: stride) {
            let b = box(i)
            sides.append(b.maxX - b.minX)
            sides.append(b.maxY - b.minY)
        }
        sides.sort()
        var cell = max(1, sides.isEmpty ? 1 : sides[sides.count / 2])
        // The grid spans the boxes it will list: a box over too many cells would stretch it for nothing.
        var minX = Int64.max
        var minY = Int64.max
        var maxX = Int64.min
        var maxY = Int64.min
        for i in range {
            let c = box(i)
            guard Self.cellCount(c, cell) <= Self.maxCellsPerBox else { continue }
            minX = min(minX, c.minX)
            minY = min(minY, c.minY)
            maxX = max(maxX, c.maxX)
            maxY = max(maxY, c.maxY)
        }
        if minX > maxX { (minX, minY, maxX, maxY) = (0, 0, 0, 0) }
        while (Self.floorDiv(maxX, cell) - Self.floorDiv(minX, cell) + 1)
            * (Self.floorDiv(maxY, cell) - Self.floorDiv(minY, cell) + 1) > maxCells
        {
            cell *= 2
        }
        let column0 = Self.floorDiv(minX, cell)
        let row0 = Self.floorDiv(minY, cell)
        let columns = Self.floorDiv(maxX, cell) - column0 + 1
        let rows = Self.floorDiv(maxY, cell) - row0 + 1
        (cellUnits, self.column0, self.row0, self.columns, self.rows) = (cell, column0, row0, columns, rows)

        // Pass 1 counts each cell's boxes; pass 2 puts them in place.
        var counts = [Int32](repeating: 0, count: Int(columns * rows) + 1)
        var wide: [Int32] = []
        func eachCell(of c: Box, _ body: (Int) -> Void) -> Bool {
            let x0 = Self.floorDiv(c.minX, cell) - column0
            let x1 = Self.floorDiv(c.maxX, cell) - column0
            let y0 = Self.floorDiv(c.minY, cell) - row0
            let y1 = Self.floorDiv(c.maxY, cell) - row0
            // Too many cells, or outside the grid (wider cells can bring a box left out of it under
            // the limit): tested at every query instead.
            guard (x1 - x0 + 1) * (y1 - y0 + 1) <= Self.maxCellsPerBox, x0 >= 0, y0 >= 0, x1 < columns, y1 < rows
            else { return false }
            for gy in y0...y1 { for gx in x0...x1 { body(Int(gy * columns + gx)) } }
            return true
        }
        for i in range where !eachCell(of: box(i), { counts[$0 + 1] += 1 }) { wide.append(Int32(i)) }
        for k in 1..<counts.count { counts[k] += counts[k - 1] }
        var fill = counts
        var entries = [Int32](repeating: 0, count: Int(counts[counts.count - 1]))
        for i in range {
            _ = eachCell(of: box(i)) { k in
                entries[Int(fill[k])] = Int32(i)
                fill[k] += 1
            }
        }
        starts = counts
        self.entries = entries
        everywhere = wide
    }

    /// The boxes whose cells meet any of `boxes`, each once, in order; a superset of the boxes that
    /// meet them.
    public func candidates(_ boxes: [Box]) -> [Int] {
        var marked = [Bool](repeating: false, count: all.count)
        for i in everywhere { marked[Int(i) - all.lowerBound] = true }
        for box in boxes {
            let x0 = max(Self.floorDiv(box.minX, cellUnits) - column0, 0)
            let x1 = min(Self.floorDiv(box.maxX, cellUnits) - column0, columns - 1)
            let y0 = max(Self.floorDiv(box.minY, cellUnits) - row0, 0)
            let y1 = min(Self.floorDiv(box.maxY, cellUnits) - row0, rows - 1)
            guard x0 <= x1, y0 <= y1 else { continue }
            // A box over most of the grid meets most chunks: testing them all is cheaper.
            if (x1 - x0 + 1) * (y1 - y0 + 1) > Self.maxCellsPerQuery { return Array(all) }
            for gy in y0...y1 {
                for k in Int(gy * columns + x0)...Int(gy * columns + x1) {
                    for e in Int(starts[k])..<Int(starts[k + 1]) { marked[Int(entries[e]) - all.lowerBound] = true }
                }
            }
        }
        return marked.indices.filter { marked[$0] }.map { $0 + all.lowerBound }
    }

    /// How many cells of `cell` units a box meets.
    public static func cellCount(_ c: Box, _ cell: Int64) -> Int64 {
        (floorDiv(c.maxX, cell) - floorDiv(c.minX, cell) + 1) * (floorDiv(c.maxY, cell) - floorDiv(c.minY, cell) + 1)
    }

    public static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }
}

extension BoxIndex {
    /// The grid over a level's chunks (`range` of `chunks`), in the map data's stored units.
    public init(chunks: [ChunkInfo], range: Range<Int>) {
        self.init(range) { i in
            let c = chunks[i]
            return Box(minX: Int64(c.minX), minY: Int64(c.minY), maxX: Int64(c.maxX), maxY: Int64(c.maxY))
        }
    }
}
