import Support

/// The bytes that take a terminal from the frame it shows to the next one, the way ratatui and
/// bubbletea draw: a copy of what the screen shows is compared cell by cell with each new frame, and
/// only the cells that look different are sent.
///
/// It speaks ECMA-48 (ISO/IEC 6429): cursor position (CUP, CUF), select graphic rendition (SGR),
/// erase in display (ED), insert and delete character (ICH, DCH), the VT100's scrolling region
/// (DECSTBM) with index and reverse index (IND, RI). Every terminal termmap runs in speaks it (xterm
/// and its kin, VTE, tmux, screen, the Linux console; the VT100 without colours and without ICH and
/// DCH); what one cannot do is said in `Abilities`, from terminfo.
///
/// Between two frames the terminal is left with no attributes set, so that anything else writing to it
/// (the curses library clearing it after a resize) starts from there.
public struct TerminalPainter: Sendable {
    /// What the terminal can do besides moving the cursor, setting attributes and clearing.
    public struct Abilities: Equatable, Sendable {
        /// What it shows of styles.
        public var colorMode: ColorMode
        /// True when it shows UTF-8 (otherwise a glyph beyond ASCII goes out as `?`).
        public var unicode: Bool
        /// A scrolling region (terminfo `csr`) with index and reverse index.
        public var scrollRegion: Bool
        /// Inserting and deleting characters (terminfo `ich` and `dch`).
        public var insertDelete: Bool
        /// Writing the bottom-right cell leaves the cursor there instead of scrolling the screen
        /// (terminfo `xenl`, or no automatic margins).
        public var lastCellSafe: Bool
        /// Erasing characters (terminfo `ech`) and the rest of a line (`el`).
        public var eraseCharacters: Bool
        public var eraseLine: Bool
        /// Erased cells take the current background (terminfo `bce`; otherwise the default one).
        public var backgroundErase: Bool

        /// Abilities.
        public init(
            colorMode: ColorMode, unicode: Bool, scrollRegion: Bool, insertDelete: Bool, lastCellSafe: Bool,
            eraseCharacters: Bool, eraseLine: Bool, backgroundErase: Bool
        ) {
            self.colorMode = colorMode
            self.unicode = unicode
            self.scrollRegion = scrollRegion
            self.insertDelete = insertDelete
            self.lastCellSafe = lastCellSafe
            self.eraseCharacters = eraseCharacters
            self.eraseLine = eraseLine
            self.backgroundErase = backgroundErase
        }

        /// xterm's (and its kin's, and asciinema's player's): everything, in `mode`.
        public static func xterm(_ mode: ColorMode) -> Abilities {
            Abilities(
                colorMode: mode, unicode: true, scrollRegion: true, insertDelete: true, lastCellSafe: true,
                eraseCharacters: true, eraseLine: true, backgroundErase: true)
        }
    }

    /// What the terminal can do.
    public let abilities: Abilities
    /// Columns and rows of the screen.
    public private(set) var cols: Int
    public private(set) var rows: Int
    /// What the screen shows, row by row: each cell's glyph and pen.
    private var shown: [Shown]

    /// A cell as the terminal shows it.
    struct Shown: Equatable {
        var glyph: UInt32
        var pen: Pen
    }
    /// Where the cursor is (nil: not known, as after writing the last column, whose wrap terminals
    /// treat differently).
    private var cursor: (row: Int, col: Int)?
    /// The pen the terminal draws with now.
    private var pen: Pen = 0
    /// Bytes of a shift made since the last frame, sent before it.
    private var pending: [UInt8] = []

    /// A painter for a screen of `cols × rows` that is blank, with the default colours (just cleared).
    public init(cols: Int, rows: Int, abilities: Abilities) {
        self.abilities = abilities
        self.cols = max(0, cols)
        self.rows = max(0, rows)
        shown = Array(repeating: Self.blank, count: self.cols * self.rows)
    }

    /// The screen is blank, with the default colours, at `cols × rows` (it has just been cleared).
    public mutating func cleared(cols: Int, rows: Int) {
        self = TerminalPainter(cols: cols, rows: rows, abilities: abilities)
    }

    typealias Pen = TerminalEncoder.Pen
    /// A blank with the default colours and no attributes.
    static let blank = Shown(glyph: 0x20, pen: 0)

    // MARK: Moving what is shown

    /// The map's content moved `by` columns (positive: to the right) in `rowRange`: each of those rows
    /// has characters inserted or deleted at its left, and the picture kept moves with it. Nothing
    /// happens when the terminal cannot, or the move is not smaller than the screen.
    public mutating func moveColumns(by: Int, rows rowRange: Range<Int>) {
        let n = abs(by)
        let rowRange = rowRange.clamped(to: 0..<rows)
        guard abilities.insertDelete, n > 0, n < cols, !rowRange.isEmpty else { return }
        var out = TerminalEncoder()
        // Cells the terminal opens up take the current background (bce): make it the default.
        setPen(0, &out)
        for row in rowRange {
            moveCursor(row: row, col: 0, &out)
            out.csi(n, final: by < 0 ? 0x50 : 0x40)  // DCH or ICH
            let start = row * cols
            if by < 0 {
                shift(from: start + n, to: start, count: cols - n, blanks: (start + cols - n)..<(start + cols))
            } else {
                shift(from: start, to: start + n, count: cols - n, blanks: start..<(start + n))
            }
        }
        forgetCutGlyphs(rows: rowRange)
        pending += out.bytes
    }

    /// The content of `rowRange` moved `by` rows (positive: down): the terminal scrolls that region,
    /// and the picture kept moves with it. Nothing happens when the terminal cannot, or the move is
    /// not smaller than the region.
    public mutating func moveRows(by: Int, within rowRange: Range<Int>) {
        let n = abs(by)
        let rowRange = rowRange.clamped(to: 0..<rows)
        guard abilities.scrollRegion, n > 0, n < rowRange.count else { return }
        var out = TerminalEncoder()
        setPen(0, &out)
        out.csi2(rowRange.lowerBound + 1, rowRange.upperBound, final: 0x72)  // DECSTBM
        cursor = nil  // DECSTBM homes the cursor
        // RI at the region's top moves its lines down; IND at its bottom moves them up.
        moveCursor(row: by > 0 ? rowRange.lowerBound : rowRange.upperBound - 1, col: 0, &out)
        for _ in 0..<n { out.put(0x1B, by > 0 ? 0x4D : 0x44) }
        // The whole screen again, said in full: some emulators (pyte 0.8) take a bare `ESC [ r` as 0.
        out.csi2(1, rows, final: 0x72)
        cursor = nil
        let top = rowRange.lowerBound * cols
        let bottom = rowRange.upperBound * cols
        let moved = n * cols
        if by > 0 {
            shift(from: top, to: top + moved, count: bottom - top - moved, blanks: top..<(top + moved))
        } else {
            shift(from: top + moved, to: top, count: bottom - top - moved, blanks: (bottom - moved)..<bottom)
        }
        pending += out.bytes
    }

    /// Moves `count` cells of the copy of the screen from one place to another (overlapping, as
    /// memmove), then makes `blanks` blank: what a terminal's move does to what it shows.
    private mutating func shift(from: Int, to: Int, count: Int, blanks: Range<Int>) {
        shown.withUnsafeMutableBufferPointer { cells in
            guard let base = cells.baseAddress else { return }
            (base + to).update(from: base + from, count: count)
            (base + blanks.lowerBound).update(repeating: Self.blank, count: blanks.count)
        }
    }

    /// After a move: a two-column glyph the move cut in half (terminals blank what is left of it, each
    /// its own way) is not known any more, so that it is drawn again.
    private mutating func forgetCutGlyphs(rows rowRange: Range<Int>) {
        for row in rowRange {
            let start = row * cols
            for col in 0..<cols where shown[start + col].glyph == 0 {
                // A second half without its first (the first column has none to its left).
                if col == 0 || shown[start + col - 1].glyph == 0 || shown[start + col - 1] == Self.unknown {
                    shown[start + col] = Self.unknown
                }
            }
            // A first half in the last column lost its second.
            let last = start + cols - 1
            if cols > 0, shown[last] != Self.unknown, Self.isWide(shown[last].glyph) {
                shown[last] = Self.unknown
            }
        }
    }

    /// A cell of the copy whose content is not known (never equal to a cell of a frame): drawn again.
    static let unknown = Shown(glyph: .max, pen: .max)

    /// True for a glyph two columns wide.
    static func isWide(_ glyph: UInt32) -> Bool {
        guard let s = Unicode.Scalar(glyph) else { return false }
        return CharacterWidth.of(s) == 2
    }

    /// Before cells `col ..< col + width` of `row` are written: a two-column glyph the terminal shows
    /// across their edge loses its other half (the terminal blanks it), so that half is not known any
    /// more and is drawn again if the frame has something there.
    private mutating func forgetHalves(row: Int, col: Int, width: Int) {
        let start = row * cols
        // The first cell is the second half of a glyph to its left.
        if col > 0, shown[start + col].glyph == 0, shown[start + col] != Self.unknown {
            shown[start + col - 1] = Self.unknown
        }
        // The cell after the last is the second half of a glyph being overwritten.
        let after = col + width
        if after < cols, shown[start + after].glyph == 0, shown[start + after] != Self.unknown {
            shown[start + after] = Self.unknown
        }
    }

    // MARK: Frames

    /// The bytes that make the terminal show `frame` (with the moves made since the last one first);
    /// `fullRepaint` clears the screen and sends every cell, as does a frame of another size.
    public mutating func paint(_ frame: Frame, fullRepaint: Bool = false) -> [UInt8] {
        var out = TerminalEncoder()
        out.bytes = pending
        pending = []
        out.bytes.reserveCapacity(out.bytes.count + frame.cells.count * 4)
        if fullRepaint || frame.cols != cols || frame.rows != rows { clear(to: frame, &out) }
        let mode = abilities.colorMode
        var resolved: [Pen] = []
        var isBlank: [Bool] = []
        resolved.reserveCapacity(cols)
        isBlank.reserveCapacity(cols)
        frame.cells.withUnsafeBufferPointer { cells in
            for row in 0..<rows {
                let start = row * cols
                // A blank may take a neighbour's pen where it looks the same: fewer colour changes.
                TerminalEncoder.rowPens(frame.cells[start..<(start + cols)], mode, into: &resolved, blank: &isBlank)
                for col in 0..<cols {
                    var glyph = cells[start + col].glyph.value
                    // The second cell of a two-column glyph is drawn with its first.
                    if glyph == 0, abilities.unicode, col > 0 { continue }
                    let wide = abilities.unicode && col + 1 < cols && cells[start + col + 1].glyph.value == 0
                    // Nothing that acts on a terminal is written as a glyph, whatever reached the frame.
                    if glyph < 0x20 || (0x7F...0x9F).contains(glyph) { glyph = glyph == 0 ? 0x20 : 0x3F }
                    if glyph >= 0x80, !abilities.unicode { glyph = 0x3F }  // ?
                    let want = Shown(glyph: glyph, pen: resolved[col])
                    let has = shown[start + col]
                    if wide {
                        // Both cells or neither: the glyph covers the two.
                        let pair = Shown(glyph: 0, pen: resolved[col])
                        if want == has, shown[start + col + 1] == pair { continue }
                        if row == rows - 1, col + 1 == cols - 1, !abilities.lastCellSafe { continue }
                        forgetHalves(row: row, col: col, width: 2)
                        moveCursor(row: row, col: col, &out)
                        setPen(resolved[col], &out)
                        out.scalar(glyph)
                        shown[start + col] = want
                        shown[start + col + 1] = pair
                        cursor = col + 2 < cols ? (row, col + 2) : nil
                        continue
                    }
                    if want == has { continue }
                    // Two blanks that look the same: the foreground of neither can be seen.
                    if isBlank[col], has.glyph == 0x20, ((has.pen ^ want.pen) & TerminalEncoder.blankLook) == 0 {
                        continue
                    }
                    // A run of blanks alike: erased in one sequence where that is shorter than spaces.
                    if isBlank[col], let end = erasableRun(from: col, pens: resolved, isBlank: isBlank) {
                        forgetHalves(row: row, col: col, width: end - col)
                        moveCursor(row: row, col: col, &out)
                        setPen(resolved[col], &out)
                        if end == cols, abilities.eraseLine {
                            out.put(0x1B, 0x5B, 0x4B)  // EL: to the end of the line
                        } else {
                            out.csi(end - col, final: 0x58)  // ECH; the cursor stays
                        }
                        for k in col..<end { shown[start + k] = Shown(glyph: 0x20, pen: resolved[k]) }
                        continue
                    }
                    // Some terminals scroll the screen after writing its last cell: leave it.
                    if row == rows - 1, col == cols - 1, !abilities.lastCellSafe { continue }
                    forgetHalves(row: row, col: col, width: 1)
                    moveCursor(row: row, col: col, &out)
                    setPen(resolved[col], &out)
                    out.scalar(glyph)
                    shown[start + col] = want
                    cursor = col + 1 < cols ? (row, col + 1) : nil
                }
            }
        }
        setPen(0, &out)
        return out.bytes
    }

    /// Clears the screen for a frame of its size: what the terminal shows is then blank, and the moves of
    /// the picture about to be cleared are dropped.
    private mutating func clear(to frame: Frame, _ out: inout TerminalEncoder) {
        cols = frame.cols
        rows = frame.rows
        shown = Array(repeating: Self.blank, count: cols * rows)
        out.bytes.removeAll(keepingCapacity: true)
        setPen(0, &out)
        out.put(0x1B, 0x5B, 0x48)  // CUP home
        out.put(0x1B, 0x5B, 0x32)
        out.put(0x4A)  // ED: the whole screen
        cursor = (0, 0)
    }

    /// Something else moved the cursor (a picture's sequences): where it is, is not known any more.
    public mutating func forgetCursor() { cursor = nil }

    /// A picture was written over `cols` × `rows` cells from (`col`, `row`) (sixel's, which replaces
    /// the text there): the cells of `frame` in it that hold text are written again by the next paint.
    /// Blank cells are left to the picture.
    public mutating func pictureWritten(col: Int, row: Int, cols: Int, rows: Int, under frame: Frame) {
        cursor = nil
        for r in max(0, row)..<min(self.rows, row + rows) {
            for c in max(0, col)..<min(self.cols, col + cols) where !Self.isBare(frame[c, r]) {
                shown[r * self.cols + c] = Self.unknown
            }
        }
    }

    /// Everything the screen shows is to be written again by the next paint (a picture written
    /// over it is to go).
    public mutating func forgetCells() {
        cursor = nil
        for i in shown.indices { shown[i] = Self.unknown }
    }

    /// The cells of `cols` × `rows` from (`col`, `row`) are to be written again by the next paint,
    /// blanks too (a picture there is to go).
    public mutating func forgetCells(col: Int, row: Int, cols: Int, rows: Int) {
        cursor = nil
        for r in max(0, row)..<max(max(0, row), min(self.rows, row + rows)) {
            for c in max(0, col)..<max(max(0, col), min(self.cols, col + cols)) {
                shown[r * self.cols + c] = Self.unknown
            }
        }
    }

    /// True for a blank cell of the terminal's own background: a picture under the text shows there.
    public static func isBare(_ cell: Cell) -> Bool {
        cell.glyph == " " && cell.style.background == nil && !cell.style.reverse
    }

    /// The bytes to send before leaving: no attributes, and the cursor home, where a curses library
    /// leaves it after clearing the screen and from where it goes on (moves not yet sent are dropped).
    public mutating func finish() -> [UInt8] {
        var out = TerminalEncoder()
        pending = []
        setPen(0, &out)
        moveCursor(row: 0, col: 0, &out)
        return out.bytes
    }

    // MARK: Sequences

    /// Where a run of blanks from `col` ends that one erase draws, when that is shorter than writing
    /// it: blanks of one background without underline or reverse (which erasing does not draw), and
    /// the background the default one unless erased cells take the current one. Erasing to the end of
    /// the line (3 bytes) pays from 4 cells; erasing n characters (4–5 bytes, and a move after it,
    /// which writing would not need) from 8.
    private func erasableRun(from col: Int, pens: [Pen], isBlank: [Bool]) -> Int? {
        let pen = pens[col]
        guard abilities.eraseCharacters || abilities.eraseLine,
            pen & (TerminalEncoder.underline | TerminalEncoder.reverse) == 0,
            abilities.backgroundErase || pen & TerminalEncoder.background == 0
        else { return nil }
        var end = col + 1
        while end < cols, isBlank[end], pens[end] & TerminalEncoder.blankLook == pen & TerminalEncoder.blankLook {
            end += 1
        }
        if end == cols, abilities.eraseLine, end - col >= 4 { return end }
        if abilities.eraseCharacters, end - col >= 8 { return end }
        return nil
    }

    /// Moves the cursor: forward along its row with CUF (or by writing again the cells in between
    /// where that is shorter), to the start of one of the next 3 rows with CR and LF (an LF the
    /// terminal turns into CR LF lands there too), elsewhere with CUP.
    private mutating func moveCursor(row: Int, col: Int, _ out: inout TerminalEncoder) {
        if let c = cursor, col == 0, row > c.row, row - c.row <= 3 {
            if c.col != 0 { out.put(0x0D) }
            for _ in c.row..<row { out.put(0x0A) }
            cursor = (row, 0)
            return
        }
        if let c = cursor, c.row == row {
            if c.col == col { return }
            if col > c.col {
                if !rewrite(row: row, from: c.col, to: col, &out) {
                    out.csi(col - c.col, final: 0x43)  // CUF
                }
                cursor = (row, col)
                return
            }
        }
        out.csi2(row + 1, col + 1, final: 0x48)  // CUP
        cursor = (row, col)
    }

    /// Writes again the cells of `row` from `start` up to `end` when that is shorter than moving over
    /// them (CUF: 3 bytes for one cell, 4 for more) and each looks the same in the current pen; false
    /// when it would not be.
    private mutating func rewrite(row: Int, from start: Int, to end: Int, _ out: inout TerminalEncoder) -> Bool {
        guard end - start <= 3 else { return false }
        var bytes = 0
        for i in (row * cols + start)..<(row * cols + end) {
            let cell = shown[i]
            let glyph = cell.glyph
            // Only one-column glyphs known to be there are written again.
            guard cell != Self.unknown, glyph != 0,
                i + 1 >= shown.count || shown[i + 1].glyph != 0 || (i + 1) % cols == 0
            else { return false }
            let difference = cell.pen ^ pen
            guard difference == 0 || (glyph == 0x20 && difference & TerminalEncoder.blankLook == 0) else {
                return false
            }
            bytes += glyph < 0x80 ? 1 : glyph < 0x800 ? 2 : glyph < 0x10000 ? 3 : 4
        }
        guard bytes < (end - start == 1 ? 3 : 4) else { return false }
        for i in (row * cols + start)..<(row * cols + end) {
            out.scalar(shown[i].glyph)
            shown[i].pen = pen
        }
        return true
    }

    /// Sets the pen with one SGR (the encoder's: only what changed).
    private mutating func setPen(_ new: Pen, _ out: inout TerminalEncoder) {
        out.assume(pen)
        out.setPen(new)
        pen = new
    }
}
