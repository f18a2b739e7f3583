/// What a cell shows, independent of any terminal: the renderer's vocabulary of styles.
public enum StyleRole: UInt8, CaseIterable, Sendable {
    case plain, coastline, lake, border, grid, gridLabel, city, cityLabel, circleOutline, edge
    case status, scaleBar, message, error, prompt, help
}

/// One terminal cell: a glyph, its role, and whether it lies in the shaded area outside the circle.
public struct Cell: Equatable, Sendable {
    /// The character shown (one column wide).
    public var glyph: Character
    /// How it is styled.
    public var role: StyleRole
    /// True outside the inverted circle (drawn with the shade's background).
    public var shaded: Bool

    /// A cell.
    public init(glyph: Character = " ", role: StyleRole = .plain, shaded: Bool = false) {
        self.glyph = glyph
        self.role = role
        self.shaded = shaded
    }
}

/// A full screen of cells, row-major.
public struct Frame: Equatable, Sendable {
    /// Columns.
    public let cols: Int
    /// Rows.
    public let rows: Int
    /// `cols × rows` cells, row by row.
    public private(set) var cells: [Cell]

    /// A blank frame.
    public init(cols: Int, rows: Int) {
        self.cols = max(0, cols)
        self.rows = max(0, rows)
        cells = Array(repeating: Cell(), count: self.cols * self.rows)
    }

    /// The cell at a position (a blank cell outside the frame).
    public subscript(col: Int, row: Int) -> Cell {
        get { contains(col: col, row: row) ? cells[row * cols + col] : Cell() }
        set { if contains(col: col, row: row) { cells[row * cols + col] = newValue } }
    }

    /// True inside the frame.
    public func contains(col: Int, row: Int) -> Bool { col >= 0 && row >= 0 && col < cols && row < rows }

    /// Writes text from a position, clipped at the right edge; returns the columns written.
    @discardableResult
    public mutating func write(_ text: String, col: Int, row: Int, role: StyleRole, keepShade: Bool = true) -> Int {
        var c = col
        for ch in text {
            guard c < cols else { break }
            if c >= 0 {
                let shaded = keepShade ? self[c, row].shaded : false
                self[c, row] = Cell(glyph: ch, role: role, shaded: shaded)
            }
            c += 1
        }
        return c - col
    }

    /// Marks a cell as shaded (outside the circle).
    public mutating func setShaded(col: Int, row: Int, _ shaded: Bool) {
        if contains(col: col, row: row) { cells[row * cols + col].shaded = shaded }
    }

    /// One line of glyphs.
    public func line(_ row: Int) -> String {
        String(cells[(row * cols)..<((row + 1) * cols)].map(\.glyph))
    }

    /// The frame as text: one line per row, no styles.
    public var text: String {
        (0..<rows).map { line($0) }.joined(separator: "\n")
    }
}
