import Raster
import Support

/// A terminal in memory that understands the ECMA-48 subset `TerminalPainter` sends (CUP, CUF, SGR,
/// ED, EL, ECH, ICH, DCH, DECSTBM, IND, RI, CR, LF and UTF-8 text) the way xterm does, erased cells
/// taking the current background (terminfo's `bce`), and records anything else as an error: so that a
/// test can check what a real terminal would show after the bytes. A two-column glyph takes two cells
/// (the second holds U+0000), and writing over either half blanks the other, as xterm does.
public struct ModelTerminal {
    /// One cell: its glyph and what it was drawn with.
    public struct Cell: Equatable, Sendable {
        public var glyph: Unicode.Scalar = " "
        public var foreground: Int = -1
        public var background: Int = -1
        public var bold = false
        public var underline = false
        public var reverse = false
    }

    public let cols: Int
    public let rows: Int
    /// The cells, row by row.
    public private(set) var cells: [Cell]
    /// Where the cursor is.
    public private(set) var row = 0
    public private(set) var col = 0
    /// What the next glyph is drawn with (its glyph unused).
    public private(set) var pen = Cell()
    /// Sequences it did not understand.
    public private(set) var errors: [String] = []
    /// Times the screen scrolled by a glyph written at the end of the last row.
    public private(set) var unwantedScrolls = 0
    /// The last column was written: the next glyph goes to the next line first (xterm's delayed wrap).
    private var wrapPending = false
    private var top = 0
    private var bottom: Int
    private var undecoded: [UInt8] = []

    /// A blank screen of `cols × rows`.
    public init(cols: Int, rows: Int) {
        self.cols = cols
        self.rows = rows
        bottom = rows
        cells = Array(repeating: Cell(), count: cols * rows)
    }

    /// The cell at a position.
    public subscript(col: Int, row: Int) -> Cell { cells[row * cols + col] }

    /// The first cell that does not show `frame` in `mode`, as (col, row).
    public func firstDifference(_ frame: Frame, mode: ColorMode) -> (col: Int, row: Int)? {
        for r in 0..<rows {
            for c in 0..<cols {
                // The second half of a two-column glyph is drawn with the first, in its pen.
                if frame[c, r].isContinuation {
                    if self[c, r].glyph.value != 0 { return (c, r) }
                    continue
                }
                let want = Self.look(frame[c, r], mode)
                let has = self[c, r]
                let same =
                    want.glyph == " "
                    ? has.glyph == " " && has.background == want.background && has.underline == want.underline
                        && has.reverse == want.reverse
                    : has == want
                if !same { return (c, r) }
            }
        }
        return nil
    }

    /// How a terminal in `mode` shows a cell: without colours only the attributes; with 8, the bright
    /// colours as bold.
    static func look(_ cell: Raster.Cell, _ mode: ColorMode) -> Cell {
        var c = Cell()
        c.glyph = cell.glyph
        c.bold = cell.style.bold
        c.underline = cell.style.underline
        c.reverse = cell.style.reverse
        guard mode.hasColor else { return c }
        c.foreground = cell.style.foreground.map { Int($0.index) } ?? -1
        c.background = cell.style.background.map { Int($0.index) } ?? -1
        if mode == .ansi8 {
            if c.foreground >= 8 && c.foreground < 16 {
                c.foreground -= 8
                c.bold = true
            }
            if c.background >= 8 && c.background < 16 { c.background -= 8 }
        }
        return c
    }

    /// Takes bytes as a terminal does.
    public mutating func feed(_ bytes: [UInt8]) {
        var i = 0
        let b = undecoded + bytes
        undecoded = []
        while i < b.count {
            if b[i] == 0x1B {
                guard i + 1 < b.count else {
                    undecoded = [0x1B]
                    return
                }
                switch b[i + 1] {
                case 0x5B:
                    var j = i + 2
                    while j < b.count, (0x30...0x3F).contains(b[j]) { j += 1 }
                    guard j < b.count else {
                        undecoded = Array(b[i...])
                        return
                    }
                    let params = String(decoding: b[(i + 2)..<j], as: UTF8.self)
                    control(params, final: b[j])
                    i = j + 1
                    continue
                case 0x44:
                    index()
                case 0x4D:
                    reverseIndex()
                default:
                    errors.append("ESC \(b[i + 1])")
                }
                i += 2
                continue
            }
            let lead = b[i]
            let length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
            guard i + length <= b.count else { break }
            if lead == 0x0D {
                col = 0
                wrapPending = false
            } else if lead == 0x0A {
                index()
                wrapPending = false
            } else if lead < 0x20 {
                errors.append("control \(lead)")
            } else if let s = String(decoding: b[i..<(i + length)], as: UTF8.self).unicodeScalars.first {
                put(s)
            }
            i += length
        }
        if i < b.count { undecoded = Array(b[i...]) }
    }

    private mutating func put(_ glyph: Unicode.Scalar) {
        if wrapPending {
            wrapPending = false
            col = 0
            if row == bottom - 1 {
                index()
                unwantedScrolls += 1
            } else if row < rows - 1 {
                row += 1
            }
        }
        // A character that acts on a terminal, or hides, is never written as text.
        if SafeText.isUnsafe(glyph, leading: true) {
            errors.append("U+\(String(glyph.value, radix: 16)) written as text")
        }
        let width = CharacterWidth.of(glyph) == 2 ? 2 : 1
        if width == 2, col == cols - 1 {
            errors.append("a two-column glyph in the last column")
        }
        var cell = pen
        cell.glyph = glyph
        blankHalves(col: col, width: min(width, cols - col))
        cells[row * cols + col] = cell
        if width == 2, col + 1 < cols {
            cell.glyph = "\u{0}"
            cells[row * cols + col + 1] = cell
        }
        if col + width >= cols { wrapPending = true } else { col += width }
    }

    /// Before `width` cells from `col` of the cursor's row are written: a two-column glyph across
    /// their edges is blanked whole (xterm's way).
    private mutating func blankHalves(col: Int, width: Int) {
        let start = row * cols
        if cells[start + col].glyph.value == 0, col > 0 { cells[start + col - 1].glyph = " " }
        let after = col + width
        if after < cols, cells[start + after].glyph.value == 0 { cells[start + after].glyph = " " }
    }

    /// After characters moved along row `r`: halves of two-column glyphs cut apart are blanks.
    private mutating func blankCutHalves(row r: Int) {
        let start = r * cols
        for c in 0..<cols where cells[start + c].glyph.value == 0 {
            if c == 0 || CharacterWidth.of(cells[start + c - 1].glyph) != 2 { cells[start + c].glyph = " " }
        }
        if cols > 0, CharacterWidth.of(cells[start + cols - 1].glyph) == 2, cells[start + cols - 1].glyph.value != 0 {
            cells[start + cols - 1].glyph = " "
        }
    }

    private var blank: Cell {
        var c = Cell()
        c.background = pen.background  // erased cells take the current background (bce)
        return c
    }

    private mutating func index() {
        if row == bottom - 1 {
            cells.removeSubrange((top * cols)..<((top + 1) * cols))
            cells.insert(contentsOf: repeatElement(blank, count: cols), at: (bottom - 1) * cols)
        } else if row < rows - 1 {
            row += 1
        }
    }

    private mutating func reverseIndex() {
        if row == top {
            cells.removeSubrange(((bottom - 1) * cols)..<(bottom * cols))
            cells.insert(contentsOf: repeatElement(blank, count: cols), at: top * cols)
        } else if row > 0 {
            row -= 1
        }
    }

    private mutating func control(_ params: String, final: UInt8) {
        let numbers = params.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
        func n(_ k: Int, default d: Int) -> Int { k < numbers.count && numbers[k] > 0 ? numbers[k] : d }
        wrapPending = false
        switch final {
        case 0x48:  // CUP
            row = min(rows, n(0, default: 1)) - 1
            col = min(cols, n(1, default: 1)) - 1
        case 0x43:  // CUF
            col = min(cols - 1, col + n(0, default: 1))
        case 0x4A where params == "2":  // ED, all
            cells = Array(repeating: blank, count: cols * rows)
        case 0x50:  // DCH
            let k = min(n(0, default: 1), cols - col)
            let start = row * cols
            cells.removeSubrange((start + col)..<(start + col + k))
            cells.insert(contentsOf: repeatElement(blank, count: k), at: start + cols - k)
            blankCutHalves(row: row)
        case 0x40:  // ICH
            let k = min(n(0, default: 1), cols - col)
            let start = row * cols
            cells.removeSubrange((start + cols - k)..<(start + cols))
            cells.insert(contentsOf: repeatElement(blank, count: k), at: start + col)
            blankCutHalves(row: row)
        case 0x58:  // ECH
            let k = min(n(0, default: 1), cols - col)
            blankHalves(col: col, width: k)
            let start = row * cols + col
            cells.replaceSubrange(start..<(start + k), with: repeatElement(blank, count: k))
        case 0x4B where params.isEmpty || params == "0":  // EL, to the end
            blankHalves(col: col, width: cols - col)
            let start = row * cols + col
            cells.replaceSubrange(start..<(row * cols + cols), with: repeatElement(blank, count: cols - col))
        case 0x72:  // DECSTBM
            top = n(0, default: 1) - 1
            bottom = min(rows, n(1, default: rows))
            row = 0
            col = 0
        case 0x6D:  // SGR
            sgr(params.isEmpty ? [0] : numbers)
        default:
            errors.append("CSI \(params) \(Character(Unicode.Scalar(final)))")
        }
    }

    private mutating func sgr(_ p: [Int]) {
        var k = 0
        while k < p.count {
            switch p[k] {
            case 0: pen = Cell()
            case 1: pen.bold = true
            case 4: pen.underline = true
            case 7: pen.reverse = true
            case 30...37: pen.foreground = p[k] - 30
            case 39: pen.foreground = -1
            case 40...47: pen.background = p[k] - 40
            case 49: pen.background = -1
            case 90...97: pen.foreground = p[k] - 90 + 8
            case 100...107: pen.background = p[k] - 100 + 8
            case 38, 48:
                guard k + 2 < p.count, p[k + 1] == 5 else {
                    errors.append("SGR \(p)")
                    return
                }
                if p[k] == 38 { pen.foreground = p[k + 2] } else { pen.background = p[k + 2] }
                k += 2
            default: errors.append("SGR \(p)")
            }
            k += 1
        }
    }

    /// True when the pen has no colours and no attributes.
    public var penIsPlain: Bool { pen == Cell() }
}
