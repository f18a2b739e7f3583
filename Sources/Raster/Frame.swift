import Support

/// A colour of the xterm palette (0–7 the ANSI colours, 8–15 their bright forms, 16–255 the 256-colour
/// cube and greys), or an exact 24-bit colour, which a truecolour terminal is sent (an image's, in
/// truecolour only: the other modes are given palette entries). Four bytes, so that a cell stays small.
public struct PaletteColor: Hashable, Sendable {
    /// A palette index (0–255), or `1 << 24 | rgb` for an exact colour.
    public let value: UInt32

    /// The colour at `index`.
    @inlinable
    public init(_ index: UInt8) { value = UInt32(index) }

    /// An exact sRGB colour (its nearest palette entry stands for it outside truecolour).
    @inlinable
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        value = 1 << 24 | UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue)
    }

    /// The stored form (`value`), for styles that keep colours packed.
    @inlinable
    init(value: UInt32) { self.value = value }

    /// True for an exact colour.
    @inlinable
    public var isExact: Bool { value >= 1 << 24 }

    /// The palette index: its own, or for an exact colour the nearest entry (`PaletteQuantizer.nearest`).
    @inlinable
    public var index: UInt8 {
        isExact
            ? PaletteQuantizer.nearest(UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF))
            : UInt8(value)
    }

    /// The sRGB value: the exact one, else the palette entry's (xterm's; 0–15 as xterm's defaults).
    public var rgb: (UInt8, UInt8, UInt8) {
        if isExact { return (UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)) }
        return PaletteQuantizer.rgb(UInt8(value))
    }

    /// A colour that reads on this one: an ANSI colour's bright form (or a bright one's plain form);
    /// for the cube and the greys, black on light and white on dark (by the xterm palette's luminance).
    public var contrasting: PaletteColor {
        switch index {
        case 0..<8: return PaletteColor(index + 8)
        case 8..<16: return PaletteColor(index - 8)
        case 16..<232:
            // The 6×6×6 cube: levels 0, 95, 135, 175, 215, 255 (xterm's 256colres.pl).
            let i = Int(index) - 16
            let level = [0.0, 95, 135, 175, 215, 255]
            let (r, g, b) = (level[i / 36], level[(i / 6) % 6], level[i % 6])
            return 0.2126 * r + 0.7152 * g + 0.0722 * b > 128 ? PaletteColor(0) : PaletteColor(15)
        default:
            return Int(index - 232) * 10 + 8 > 128 ? PaletteColor(0) : PaletteColor(15)
        }
    }
}

/// How a cell looks, in concrete terms (ratatui's `Cell { fg, bg, modifier }`): colours and attributes.
/// A nil colour is the terminal's own default. Screens and writers only translate this to their medium.
/// The colours are kept packed (`PaletteColor.value`, `none` for nil): a frame holds one style a cell,
/// and is made and compared every frame.
public struct CellStyle: Hashable, Sendable {
    /// The packed foreground and background.
    @usableFromInline var fg: UInt32
    @usableFromInline var bg: UInt32
    /// Bold (also how 8-colour terminals show the bright colours 8–15).
    public var bold: Bool
    /// Reverse video.
    public var reverse: Bool
    /// Underlined.
    public var underline: Bool

    /// The packed form of no colour (the terminal's default).
    @usableFromInline static let none = UInt32.max

    /// The glyph's colour.
    @inlinable
    public var foreground: PaletteColor? {
        get { fg == Self.none ? nil : PaletteColor(value: fg) }
        set { fg = newValue?.value ?? Self.none }
    }
    /// The cell's background.
    @inlinable
    public var background: PaletteColor? {
        get { bg == Self.none ? nil : PaletteColor(value: bg) }
        set { bg = newValue?.value ?? Self.none }
    }

    /// A style.
    public init(
        foreground: PaletteColor? = nil, background: PaletteColor? = nil, bold: Bool = false, reverse: Bool = false,
        underline: Bool = false
    ) {
        fg = foreground?.value ?? Self.none
        bg = background?.value ?? Self.none
        self.bold = bold
        self.reverse = reverse
        self.underline = underline
    }

    /// The terminal's default colours, no attributes.
    public static let plain = CellStyle()

    /// Field by field, and inlinable: the synthesised `==` is not inlined across modules, and the screen
    /// compares styles for every cell of every frame.
    @inlinable
    public static func == (a: CellStyle, b: CellStyle) -> Bool {
        a.fg == b.fg && a.bg == b.bg && a.bold == b.bold && a.reverse == b.reverse && a.underline == b.underline
    }

    /// What shows of this style on a blank cell: the background and the attributes that show on a
    /// blank (reverse, underline), not the foreground.
    public var blankLook: CellStyle {
        CellStyle(background: background, reverse: reverse, underline: underline)
    }
}

/// One terminal cell: a glyph and its style. A plain value (no reference inside), so frames are cheap
/// to make and copy. A glyph two columns wide (CJK, most emoji) is in the first of its two cells, and
/// the second holds `Cell.continuation`.
public struct Cell: Equatable, Sendable {
    /// The character shown: one scalar (U+0000 in the second cell of a wide one).
    public var glyph: Unicode.Scalar
    /// How it looks.
    public var style: CellStyle

    /// A cell.
    public init(glyph: Unicode.Scalar = " ", style: CellStyle = .plain) {
        self.glyph = glyph
        self.style = style
    }

    /// The glyph of the second cell of a two-column glyph: the terminal draws nothing there of its own.
    public static let continuationGlyph: Unicode.Scalar = "\u{0}"

    /// True in the second cell of a two-column glyph.
    @inlinable
    public var isContinuation: Bool { glyph.value == 0 }

    /// True when the terminal shows `self` and `other` alike: the same glyph, and the same style, or for
    /// two blanks the same `blankLook`.
    public func looksLike(_ other: Cell) -> Bool {
        guard glyph == other.glyph else { return false }
        return glyph == " " ? style.blankLook == other.style.blankLook : style == other.style
    }
}

/// A full screen of cells, row-major.
public struct Frame: Equatable, Sendable {
    /// Columns.
    public let cols: Int
    /// Rows.
    public let rows: Int
    /// `cols × rows` cells, row by row.
    public var cells: [Cell] { storage }
    /// The cells (usable from the inlined accessors below: they run for every cell of a frame).
    @usableFromInline var storage: [Cell]
    /// True once a two-column glyph has been set: until then no cell is half of one, and setting a cell
    /// needs no look at its neighbours (a map frame of braille sets every cell, and most hold no wide
    /// glyph at all).
    @usableFromInline var holdsWideGlyphs = false

    public static func == (a: Frame, b: Frame) -> Bool {
        a.cols == b.cols && a.rows == b.rows && a.storage == b.storage
    }

    /// A blank frame.
    public init(cols: Int, rows: Int) {
        self.cols = max(0, cols)
        self.rows = max(0, rows)
        storage = Array(repeating: Cell(), count: self.cols * self.rows)
    }

    /// The cell at a position (a blank cell outside the frame). A cell set over half of a two-column
    /// glyph blanks its other half: a frame never holds half a glyph.
    @inlinable
    public subscript(col: Int, row: Int) -> Cell {
        get { contains(col: col, row: row) ? storage[row * cols + col] : Cell() }
        set {
            guard contains(col: col, row: row) else { return }
            // Most frames never hold a wide glyph: a cell is set in place (this runs for every cell).
            guard holdsWideGlyphs || newValue.isContinuation else {
                storage[row * cols + col] = newValue
                return
            }
            setKeepingGlyphsWhole(newValue, col: col, row: row)
        }
    }

    /// Sets a cell of a frame that holds (or is about to hold) a two-column glyph: one set over half of
    /// one blanks its other half.
    @usableFromInline
    mutating func setKeepingGlyphsWhole(_ cell: Cell, col: Int, row: Int) {
        let i = row * cols + col
        if storage[i].isContinuation || (col + 1 < cols && storage[i + 1].isContinuation) {
            splitWide(at: col, row: row)
        }
        storage[i] = cell
        if cell.isContinuation { holdsWideGlyphs = true }
    }

    /// Sets cells in place through `body` (cell `row * cols + col`), for a pass over the whole frame
    /// that sets one-column glyphs and backgrounds only (a map's braille, dots and tints): the frame's
    /// two-column glyphs, if it has any, are blanked first, so that none is left half. A cell set through
    /// the subscript costs a look at its neighbours and a check that the cells are its own; a pass over
    /// 48,000 cells costs neither.
    @inlinable
    public mutating func withOneColumnCells<R>(_ body: (inout UnsafeMutableBufferPointer<Cell>) throws -> R) rethrows
        -> R
    {
        if holdsWideGlyphs {
            for i in storage.indices where storage[i].isContinuation {
                storage[i].glyph = " "
                if i > 0 { storage[i - 1].glyph = " " }
            }
            holdsWideGlyphs = false
        }
        return try storage.withUnsafeMutableBufferPointer { try body(&$0) }
    }

    /// Blanks the two-column glyph that the cell at (col, row) is half of (keeping each cell's style).
    @usableFromInline
    mutating func splitWide(at col: Int, row: Int) {
        let i = row * cols + col
        if storage[i].isContinuation, col > 0 { storage[i - 1].glyph = " " }
        if col + 1 < cols, storage[i + 1].isContinuation { storage[i + 1].glyph = " " }
        storage[i].glyph = " "
    }

    /// True inside the frame.
    @inlinable
    public func contains(col: Int, row: Int) -> Bool { col >= 0 && row >= 0 && col < cols && row < rows }

    /// Writes text from a position, clipped at the right edge; returns the columns written. Every
    /// character goes through `SafeText.shown` (the last gate before the terminal): one that must not
    /// reach it, or whose width is unknown, is a placeholder; a two-column one takes two cells (a space
    /// where only one is left). With `keepBackground`, a style without a background keeps the background
    /// already there (a label over the circle's shade stays shaded).
    @discardableResult
    public mutating func write(_ text: String, col: Int, row: Int, style: CellStyle, keepBackground: Bool = true)
        -> Int
    {
        var c = col
        if SafeText.plainColumns(text) != nil {
            // A scalar a character, each safe and of a known width: no breaking into characters.
            for scalar in text.unicodeScalars {
                guard c < cols else { break }
                c += put(scalar, columns: SafeText.plainWidth(scalar) ?? 1, col: c, row: row, style, keepBackground)
            }
        } else {
            for ch in text {
                guard c < cols else { break }
                let (scalar, columns) = SafeText.shown(ch)
                c += put(scalar, columns: columns, col: c, row: row, style, keepBackground)
            }
        }
        return c - col
    }

    /// One glyph of `columns` at (`col`, `row`): its cell, and the next for a two-column one (half of one
    /// at an edge is a blank). Returns the columns it takes.
    private mutating func put(
        _ scalar: Unicode.Scalar, columns: Int, col c: Int, row: Int, _ style: CellStyle, _ keepBackground: Bool
    ) -> Int {
        var (scalar, width) = (scalar, columns)
        if width == 2, c < 0 || c + 1 >= cols {
            scalar = " "
            width = c + 1 >= cols ? 1 : 2
        }
        for k in 0..<width where c + k >= 0 {
            var s = style
            if keepBackground, s.background == nil { s.background = self[c + k, row].style.background }
            self[c + k, row] = Cell(
                glyph: k == 0 ? scalar : (width == 2 && scalar != " " ? Cell.continuationGlyph : " "), style: s)
        }
        return width
    }

    /// Blanks row `row` in `style` from edge to edge (a status line's band): every cell of the row is set,
    /// so no half of a two-column glyph is left in it.
    public mutating func fill(row: Int, style: CellStyle) {
        guard row >= 0, row < rows else { return }
        let blank = Cell(glyph: " ", style: style)
        storage.withUnsafeMutableBufferPointer { cells in
            for i in (row * cols)..<((row + 1) * cols) { cells[i] = blank }
        }
    }

    /// Sets the background of a cell.
    @inlinable
    public mutating func setBackground(col: Int, row: Int, _ color: PaletteColor?) {
        if contains(col: col, row: row) { storage[row * cols + col].style.background = color }
    }

    /// No glyph in its own background colour: where the two are the same (a blue lake under a blue
    /// shade in 16 colours), the glyph takes a colour that reads on it.
    public mutating func makeGlyphsReadable() {
        for i in storage.indices where storage[i].glyph != " " {
            if let fg = storage[i].style.foreground, fg == storage[i].style.background {
                storage[i].style.foreground = fg.contrasting
            }
        }
    }

    /// One line of glyphs (a two-column glyph once).
    public func line(_ row: Int) -> String {
        var out = String.UnicodeScalarView()
        out.append(contentsOf: cells[(row * cols)..<((row + 1) * cols)].lazy.filter { !$0.isContinuation }.map(\.glyph))
        return String(out)
    }

    /// The frame as text: one line per row, no styles. Written as UTF-8 bytes in one buffer: `render`
    /// prints this for every screen.
    public var text: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(cells.count * 3 + rows)
        for row in 0..<rows {
            if row > 0 { bytes.append(0x0A) }
            for cell in cells[(row * cols)..<((row + 1) * cols)] where !cell.isContinuation {
                TerminalEncoder.utf8(cell.glyph.value, into: &bytes)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
