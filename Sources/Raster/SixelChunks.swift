/// What a sixel terminal shows of the imagery, and the sequences that bring it to a new view (issue
/// 47). Sixel has no placements: a picture is pixels written into cells, which text then overwrites.
/// So each chunk of the picture (`MapPicture.chunks`, drawn at the terminal's own cell size) is sent
/// only when the cells it covers should show something else: it is new there, its pixels changed (a
/// tile arrived), or text that stood on it went away and left a hole. The caller then writes the
/// text of those cells again, over the picture.
public struct SixelChunks {
    /// What each place shows: by the chunk's top left cell, its key and the part shown.
    private var shown: [Cell: (key: Int, area: Area)] = [:]

    struct Cell: Hashable {
        var col, row: Int
    }

    /// A rectangle of cells sent this time, whose text is to be written again.
    public struct Area: Equatable, Sendable {
        public var col, row, cols, rows: Int
    }

    /// Nothing shown yet.
    public init() {}

    /// The sequences that show `picture` over the view's `cols` × `rows` cells, the cells they cover,
    /// and the cells a chunk showed before that none shows now (to be cleared: sixel cannot).
    /// `holes` are cells whose text went away since the last time (their chunks are sent again).
    public mutating func update(_ picture: MapPicture?, cols: Int, rows: Int, holes: [(col: Int, row: Int)] = [])
        -> (bytes: [UInt8], areas: [Area], vacated: [Area])
    {
        guard let picture else {
            defer { shown = [:] }
            return ([], [], shown.values.map(\.area))
        }
        var out: [UInt8] = []
        var areas: [Area] = []
        var now: [Cell: (key: Int, area: Area)] = [:]
        for chunk in picture.chunks(cols: cols, rows: rows) where !chunk.isEmpty {
            let part = chunk.shown(cols: cols, rows: rows)
            let area = Area(
                col: chunk.col + part.left, row: chunk.row + part.top, cols: part.right - part.left,
                rows: part.bottom - part.top)
            let place = Cell(col: area.col, row: area.row)
            var h = Hasher()
            h.combine(chunk.key)
            h.combine(area.cols)
            h.combine(area.rows)
            let key = h.finalize()
            now[place] = (key, area)
            let holed = holes.contains {
                (area.col..<(area.col + area.cols)).contains($0.col)
                    && (area.row..<(area.row + area.rows)).contains($0.row)
            }
            guard shown[place]?.key != key || holed else { continue }
            let (cw, ch) = (picture.cellWidth, picture.cellHeight)
            let (w, hgt) = (area.cols * cw, area.rows * ch)
            var pixels = [UInt8](repeating: 0, count: w * hgt * 4)
            for y in 0..<hgt {
                let from = ((part.top * ch + y) * chunk.width + part.left * cw) * 4
                pixels.replaceSubrange((y * w * 4)..<((y + 1) * w * 4), with: chunk.rgba[from..<(from + w * 4)])
            }
            out += Array("\u{1B}[\(area.row + 1);\(area.col + 1)H".utf8)
            out += SixelEncoder.encode(rgba: pixels, width: w, height: hgt)
            areas.append(area)
        }
        let vacated = shown.filter { now[$0.key] == nil }.map(\.value.area)
        shown = now
        return (out, areas, vacated)
    }

    /// The terminal lost what it showed (a cleared screen, a new size).
    public mutating func forget() { shown = [:] }
}
