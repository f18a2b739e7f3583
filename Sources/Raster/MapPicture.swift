/// The imagery of a view as a picture, for terminals that draw pictures (issue 47): RGBA rows, one
/// pixel a braille dot (2 × 4 a cell), over whole chunks of a grid of cells fixed to the world. A pan
/// moves the view by whole cells, so a chunk the view keeps has the same pixels as before: the
/// terminal can show again what it holds (kitty's placements) instead of being sent it anew.
public struct MapPicture: Equatable, Sendable {
    /// A chunk's size in cells: 32 × 16 (64 × 64 pixels), a few dozen a screen.
    public static let chunkCols = 32, chunkRows = 16

    /// A cell's pixels across and down: 2 × 4 (a dot a pixel, scaled by the terminal: kitty), or the
    /// terminal's own cell size (sixel, drawn pixel for pixel).
    public let cellWidth: Int, cellHeight: Int
    public let width: Int
    public let height: Int
    /// Rows top to bottom, 4 bytes a pixel (alpha 0 where there is no imagery).
    public let rgba: [UInt8]
    /// The view cell of the picture's top left (zero or negative: the first chunk may begin left of
    /// and above the view).
    public let col: Int, row: Int
    /// The grid's world chunk of the picture's top left.
    public let chunkX: Int, chunkY: Int
    /// The chunks across the world, where a whole number (integer zooms): chunk x and x + `worldChunks`
    /// are one place, so a pan across the antimeridian keeps what the terminal holds. 0: not whole.
    public let worldChunks: Int
    /// What fixes the grid (the zoom and where the cells fall on the world): chunks of two pictures of
    /// one grid and one place hold the same pixels when nothing else changed.
    public let grid: Int

    /// A picture.
    public init(
        width: Int, height: Int, rgba: [UInt8], cellWidth: Int = 2, cellHeight: Int = 4, col: Int = 0, row: Int = 0,
        chunkX: Int = 0, chunkY: Int = 0, worldChunks: Int = 0, grid: Int = 0
    ) {
        self.worldChunks = worldChunks
        (self.width, self.height, self.rgba) = (width, height, rgba)
        (self.cellWidth, self.cellHeight) = (cellWidth, cellHeight)
        (self.col, self.row, self.chunkX, self.chunkY, self.grid) = (col, row, chunkX, chunkY, grid)
    }

    /// One chunk: where it sits in the view's cells, its pixels, and a key that differs between two
    /// chunks of different places or pixels.
    public struct Chunk: Sendable {
        public let col: Int, row: Int
        public let width: Int, height: Int
        public let rgba: [UInt8]
        public let key: Int
        /// True when no pixel of it has imagery.
        public let isEmpty: Bool

        /// The cells of it inside a view of `cols` × `rows` cells, counted from its top left.
        public func shown(cols: Int, rows: Int) -> (left: Int, top: Int, right: Int, bottom: Int) {
            (
                max(0, -col), max(0, -row), min(MapPicture.chunkCols, cols - col),
                min(MapPicture.chunkRows, rows - row)
            )
        }
    }

    /// The chunks that meet the view's `cols` × `rows` cells, row by row.
    public func chunks(cols: Int, rows: Int) -> [Chunk] {
        let (cw, ch) = (Self.chunkCols * cellWidth, Self.chunkRows * cellHeight)
        var out: [Chunk] = []
        for cy in 0..<(height / ch) {
            for cx in 0..<(width / cw) {
                let (c, r) = (col + cx * Self.chunkCols, row + cy * Self.chunkRows)
                guard c < cols, r < rows, c + Self.chunkCols > 0, r + Self.chunkRows > 0 else { continue }
                var pixels = [UInt8](repeating: 0, count: cw * ch * 4)
                var opaque = false
                for y in 0..<ch {
                    let from = ((cy * ch + y) * width + cx * cw) * 4
                    pixels.replaceSubrange((y * cw * 4)..<((y + 1) * cw * 4), with: rgba[from..<(from + cw * 4)])
                }
                for i in stride(from: 3, to: pixels.count, by: 4) where pixels[i] != 0 {
                    opaque = true
                    break
                }
                var h = Hasher()
                h.combine(grid)
                h.combine(worldChunks > 0 ? ((chunkX + cx) % worldChunks + worldChunks) % worldChunks : chunkX + cx)
                h.combine(chunkY + cy)
                pixels.withUnsafeBytes { h.combine(bytes: $0) }
                out.append(
                    Chunk(col: c, row: r, width: cw, height: ch, rgba: pixels, key: h.finalize(), isEmpty: !opaque))
            }
        }
        return out
    }
}

/// A cell's size in a picture the terminal draws: 2 × 4 pixels, a braille dot a pixel, for a terminal
/// that scales pictures over cells (kitty's protocol); the terminal's own pixels for one that does not
/// (sixel).
public struct PictureCell: Equatable, Sendable {
    public var width: Int, height: Int

    /// A cell of `width` × `height` pixels.
    public init(width: Int, height: Int) { (self.width, self.height) = (width, height) }

    /// A braille dot a pixel.
    public static let dots = PictureCell(width: 2, height: 4)
}

/// How a terminal draws pictures: kitty's graphics protocol (scaled over cells, kept by the terminal)
/// or sixel (pixels written into the cells, at the terminal's cell size).
public enum PictureProtocol: Equatable, Sendable {
    case kitty
    case sixel(PictureCell)
}
