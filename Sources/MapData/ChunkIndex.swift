/// A grid over one level's chunk boxes, so that a query looks only at the chunks near the view
/// instead of the whole level. Cells are as wide as the level's typical chunk; a box is listed in
/// every cell it meets.
struct ChunkIndex: Sendable {
    /// Cell size in stored units.
    let cellUnits: Int64
    /// Chunk indices per cell, keyed by `key(gx, gy)`.
    let cells: [Int64: [Int32]]
    /// Every chunk of the level, for queries wider than the grid is worth using.
    let all: Range<Int>

    init(chunks: [ChunkInfo], range: Range<Int>) {
        all = range
        var sizes = range.map { Int64(chunks[$0].maxX) - Int64(chunks[$0].minX) }.sorted()
        sizes += range.map { Int64(chunks[$0].maxY) - Int64(chunks[$0].minY) }
        sizes.sort()
        let median = sizes.isEmpty ? 1 : sizes[sizes.count / 2]
        cellUnits = max(1, median)
        var cells: [Int64: [Int32]] = [:]
        for i in range {
            let c = chunks[i]
            let x0 = Self.floorDiv(Int64(c.minX), cellUnits)
            let x1 = Self.floorDiv(Int64(c.maxX), cellUnits)
            let y0 = Self.floorDiv(Int64(c.minY), cellUnits)
            let y1 = Self.floorDiv(Int64(c.maxY), cellUnits)
            // A box over very many cells (a long coastline at a coarse level) is cheaper to test than to list.
            guard (x1 - x0 + 1) * (y1 - y0 + 1) <= 64 else {
                cells[Self.everywhere, default: []].append(Int32(i))
                continue
            }
            for gy in y0...y1 { for gx in x0...x1 { cells[Self.key(gx, gy), default: []].append(Int32(i)) } }
        }
        self.cells = cells
    }

    /// Chunks whose cells meet the box [minX, maxX] × [minY, maxY] (stored units), each once, in index
    /// order; a superset of the chunks whose boxes meet it.
    func candidates(minX: Int64, minY: Int64, maxX: Int64, maxY: Int64) -> [Int] {
        let x0 = Self.floorDiv(minX, cellUnits)
        let x1 = Self.floorDiv(maxX, cellUnits)
        let y0 = Self.floorDiv(minY, cellUnits)
        let y1 = Self.floorDiv(maxY, cellUnits)
        guard x1 >= x0, y1 >= y0, (x1 - x0 + 1) * (y1 - y0 + 1) <= 4096 else { return Array(all) }
        var found = Set<Int32>(cells[Self.everywhere] ?? [])
        for gy in y0...y1 {
            for gx in x0...x1 { if let list = cells[Self.key(gx, gy)] { found.formUnion(list) } }
        }
        return found.map(Int.init).sorted()
    }

    private static let everywhere = Int64.min
    private static func key(_ gx: Int64, _ gy: Int64) -> Int64 { (gy << 32) ^ (gx & 0xFFFF_FFFF) }
    static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }
}
