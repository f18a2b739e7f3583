import Support
import TestSupport
import Testing

@testable import Raster

@Suite("Braille canvas and line drawing")
struct RasterTests {
    @Test(arguments: [
        (0, 0, 0x2801), (0, 1, 0x2802), (0, 2, 0x2804), (0, 3, 0x2840),
        (1, 0, 0x2808), (1, 1, 0x2810), (1, 2, 0x2820), (1, 3, 0x2880),
    ])
    func dotNumberingFollowsUnicodeBraille(x: Int, y: Int, scalar: UInt32) {
        // Dots 1-2-3-7 down the left column, 4-5-6-8 down the right (Unicode braille patterns).
        var c = BrailleCanvas(cols: 1, rows: 1)
        c.set(x: x, y: y, ink: 5)
        #expect(BrailleCanvas.brailleGlyph(c.pattern(col: 0, row: 0)).value == scalar)
    }

    /// The dot's bit as lines draw it is the Unicode braille numbering's (the table).
    @Test func theWorkedOutBitIsTheTables() {
        for y in 0..<8 {
            for x in 0..<4 { #expect(BrailleCanvas.bit(x, y) == BrailleCanvas.bits[y % 4][x % 2], "\(x),\(y)") }
        }
    }

    @Test func fullCellIsU28FF() {
        var c = BrailleCanvas(cols: 2, rows: 1)
        for y in 0..<4 { for x in 0..<2 { c.set(x: x, y: y, ink: 1) } }
        #expect(BrailleCanvas.brailleGlyph(c.pattern(col: 0, row: 0)) == "⣿")
        #expect(c.pattern(col: 1, row: 0) == 0)
    }

    @Test func theHigherInkWinsASharedCellInEitherOrder() {
        var a = BrailleCanvas(cols: 1, rows: 1)
        a.set(x: 0, y: 0, ink: 5)
        a.set(x: 1, y: 3, ink: 1)
        #expect(a.ink(col: 0, row: 0) == 5)
        var b = BrailleCanvas(cols: 1, rows: 1)
        b.set(x: 1, y: 3, ink: 1)
        b.set(x: 0, y: 0, ink: 5)
        #expect(b.ink(col: 0, row: 0) == 5)
        b.set(x: 0, y: 1, ink: 7)
        #expect(b.ink(col: 0, row: 0) == 7)
        #expect(BrailleCanvas(cols: 1, rows: 1).ink(col: 0, row: 0) == 0)
    }

    @Test func liangBarskyClipsToTheRectangle() {
        let r = LineClipper.clip(-10, 5, 20, 5, minX: 0, minY: 0, maxX: 10, maxY: 10)
        #expect(r?.0.x == 0 && r?.1.x == 10 && r?.0.y == 5)
        #expect(LineClipper.clip(-10, -10, -5, 20, minX: 0, minY: 0, maxX: 10, maxY: 10) == nil)
        #expect(LineClipper.clip(0, 0, .nan, 1, minX: 0, minY: 0, maxX: 10, maxY: 10) == nil)
        let diagonal = LineClipper.clip(-5, -5, 15, 15, minX: 0, minY: 0, maxX: 10, maxY: 10)
        #expect(diagonal?.0.x == 0 && diagonal?.0.y == 0 && diagonal?.1.x == 10 && diagonal?.1.y == 10)
    }

    @Test func offScreenSegmentsSetNothingAndHugeOnesStayCheap() {
        var c = BrailleCanvas(cols: 10, rows: 5)
        c.line(-1000, -1000, -500, 2000, ink: 5)
        #expect(c.patterns.allSatisfy { $0 == 0 })
        // A segment a billion dots long is clipped first, so only the visible 20 dots are stepped.
        c.line(-1e9, 10, 1e9, 10, ink: 5)
        #expect(c.patterns.filter { $0 != 0 }.count == 10)
    }

    @Test func bresenhamIsContinuous() {
        var c = BrailleCanvas(cols: 20, rows: 10)
        c.line(0, 0, 39, 27, ink: 5)
        // Every column of dots from 0 to 39 has a dot.
        for x in 0..<40 {
            let col = x / 2
            let hasDot = (0..<10).contains { row in
                let p = c.pattern(col: col, row: row)
                return (0..<4).contains { p & BrailleCanvas.bits[$0][x % 2] != 0 }
            }
            #expect(hasDot, "column \(x)")
        }
    }

    @Test func dottedLinesSkipDots() {
        var c = BrailleCanvas(cols: 20, rows: 1)
        c.line(0, 0, 39, 0, ink: 1, every: 4)
        let dots = c.patterns.reduce(0) { $0 + $1.nonzeroBitCount }
        #expect(dots == 10)
    }

    @Test func asciiGlyphsShowEveryDotAndTheSlope() {
        for p in 1...255 { #expect(AsciiGlyphs.glyph(UInt8(p)) != " ", "pattern \(p)") }
        #expect(AsciiGlyphs.glyph(0) == " ")
        #expect(AsciiGlyphs.glyph(0x01 | 0x02 | 0x04 | 0x40) == "|")  // left column
        #expect(AsciiGlyphs.glyph(0x01 | 0x02 | 0x20 | 0x80) == "\\")  // top-left to bottom-right
        #expect(AsciiGlyphs.glyph(0x08 | 0x10 | 0x04 | 0x40) == "/")
        #expect(AsciiGlyphs.glyph(0x02 | 0x10) == "-")  // a row in the upper half
        #expect(AsciiGlyphs.glyph(0x04 | 0x20) == "_")  // a row in the lower half
    }

    @Test func scanlineEvenOdd() {
        let xs = [0.0, 10, 10, 0]
        let ys = [0.0, 0, 10, 10]
        let c = ScanlineFill.crossings(xs, ys, y: 5)
        #expect(c == [0, 10])
        #expect(ScanlineFill.inside(5, crossings: c))
        #expect(!ScanlineFill.inside(11, crossings: c))
        #expect(ScanlineFill.crossings(xs, ys, y: 20).isEmpty)
    }

    @Test func frameWritesClipAtTheEdge() {
        var f = Frame(cols: 5, rows: 2)
        #expect(f.write("termmap", col: 2, row: 1, style: .plain) == 3)
        #expect(f.line(1) == "  ter")
        f.write("x", col: -1, row: 0, style: .plain)
        f[10, 10] = Cell(glyph: "!")
        #expect(f.text == "     \n  ter")
    }

    @Test func ansiTranslatesStylesAndPlainIsText() {
        var f = Frame(cols: 3, rows: 1)
        f[0, 0] = Cell(glyph: "⠁", style: CellStyle(foreground: PaletteColor(45), background: PaletteColor(17)))
        f[1, 0] = Cell(glyph: "x", style: CellStyle(foreground: PaletteColor(6), background: PaletteColor(4)))
        f[2, 0] = Cell(glyph: "y", style: CellStyle(foreground: PaletteColor(11), bold: true, reverse: true))
        #expect(AnsiWriter.text(f, mode: .plain) == "⠁xy")
        // Only what changes; the line ends with no attributes set.
        #expect(
            AnsiWriter.text(f, mode: .ansi256)
                == "\u{1b}[38;5;45;48;5;17m⠁\u{1b}[36;44mx\u{1b}[1;7;93;49my\u{1b}[0m")
        // Bright as 90–97 with 16 colours, as bold with 8.
        #expect(AnsiWriter.text(f, mode: .ansi16).hasSuffix("\u{1b}[1;7;93;49my\u{1b}[0m"))
        #expect(AnsiWriter.text(f, mode: .ansi8).hasSuffix("\u{1b}[1;7;33;49my\u{1b}[0m"))
    }

    /// Every line of `render`'s text, fed to a terminal at a line's start, shows the frame's row as the
    /// mode shows it (random styles, 4-byte glyphs, attributes coming and going).
    @Test(arguments: [ColorMode.ansi256, .ansi16, .ansi8, .monochrome])
    func everyLineShowsItsRow(mode: ColorMode) {
        var random = SeededRandom(state: 7)
        var f = Frame(cols: 17, rows: 5)
        let glyphs: [Unicode.Scalar] = ["a", " ", "⣿", "𝄞", "°"]
        for row in 0..<5 {
            for col in 0..<17 {
                let style = CellStyle(
                    foreground: random.below(3) == 0 ? nil : PaletteColor(UInt8(random.below(256))),
                    background: random.below(2) == 0 ? nil : PaletteColor(UInt8(random.below(256))),
                    bold: random.below(3) == 0, reverse: random.below(4) == 0, underline: random.below(5) == 0)
                f[col, row] = Cell(glyph: glyphs[random.below(glyphs.count)], style: style)
            }
        }
        var terminal = ModelTerminal(cols: 17, rows: 5)
        let lines = AnsiWriter.text(f, mode: mode).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 5)
        for (row, line) in lines.enumerated() {
            terminal.feed(Array("\u{1B}[\(row + 1);1H".utf8) + Array(line.utf8))
        }
        #expect(terminal.firstDifference(f, mode: mode) == nil)
        #expect(terminal.penIsPlain)
    }

    @Test func labelsKeepTheBackgroundTheyAreWrittenOver() {
        var f = Frame(cols: 4, rows: 1)
        f.setBackground(col: 1, row: 0, PaletteColor(17))
        f.write("abc", col: 0, row: 0, style: CellStyle(foreground: PaletteColor(229)))
        #expect(f[1, 0].style.background == PaletteColor(17) && f[0, 0].style.background == nil)
        f.write("abc", col: 0, row: 0, style: .plain, keepBackground: false)
        #expect(f[1, 0].style.background == nil)
    }

    /// One decision for the terminal and for `render`: the option first, then NO_COLOR, then what the
    /// output is; a terminal of 8 colours (TERM=xterm, the Linux console) gets 8, one of 16 gets 16.
    @Test(
        arguments: [
            ("never", false, true, 256, ColorMode.monochrome), ("never", false, false, 256, .plain),
            ("256", true, false, nil, .ansi256), ("always", false, true, 8, .ansi8), ("16", false, true, 256, .ansi16),
            ("16", false, true, 8, .ansi8), ("8", false, true, 256, .ansi8), ("8", false, false, nil, .ansi8),
            ("always", false, true, 16, .ansi16), (nil, false, true, 16, .ansi16),
            (nil, true, true, 256, .monochrome), (nil, false, false, 256, .plain), (nil, false, true, 256, .ansi256),
            (nil, false, true, 8, .ansi8), (nil, false, true, 0, .monochrome), ("256", false, true, 0, .monochrome),
        ] as [(String?, Bool, Bool, Int?, ColorMode)])
    func colourModeIsDecidedOnce(option: String?, noColor: Bool, isTerminal: Bool, colors: Int?, mode: ColorMode) {
        #expect(
            ColorMode.choose(option: option, noColor: noColor, isTerminal: isTerminal, terminalColors: colors) == mode)
    }
}

@Suite("Blank styling and dotted lines")
struct BlankStylingTests {
    @Test func twoBlanksLookAlikeWhenTheirBackgroundsAndVisibleAttributesDo() {
        let blank = Cell(glyph: " ", style: CellStyle(foreground: PaletteColor(250)))
        #expect(blank.looksLike(Cell()))
        #expect(!blank.looksLike(Cell(glyph: " ", style: CellStyle(background: PaletteColor(17)))))
        #expect(!blank.looksLike(Cell(glyph: " ", style: CellStyle(reverse: true))))
        #expect(!Cell(glyph: "x").looksLike(Cell(glyph: "x", style: CellStyle(foreground: PaletteColor(1)))))
    }

    @Test func blanksKeepTheirLookAndBorrowTheRestFromAGlyph() {
        // Styles 0–9 have the default background, 10 and up the shade's: the look is the tens digit,
        // the foreground the units.
        let combine: (Int, Int) -> Int = { lent, own in own / 10 * 10 + lent % 10 }
        let styles = [0, 0, 3, 0, 0, 5, 0, 16, 0, 10, 7]
        let blank = [true, true, false, true, true, false, true, false, true, true, false]
        // Leading blanks take the first glyph's style; a plain blank after the shaded glyph 16 keeps its
        // plain background with 16's foreground (6: no foreground change is sent for it); a shaded
        // blank after it takes 16.
        let expected = [3, 3, 3, 3, 3, 5, 5, 16, 6, 16, 7]
        #expect(BlankStyling.resolve(styles, isBlank: blank, combine: combine) == expected)
        #expect(BlankStyling.resolve([10, 0], isBlank: [true, true], combine: combine) == [10, 0])
        #expect(BlankStyling.resolve([Int](), isBlank: [], combine: combine) == [])
    }

    @Test func dottedLinePhaseAndSnap() {
        var c = BrailleCanvas(cols: 4, rows: 1)
        // Every 4th dot of a horizontal line, shifted by a phase of 1: dots at x = 3 and 7.
        c.line(0, 0, 7, 0, ink: 1, every: 4, phase: 1)
        #expect((0..<4).map { c.pattern(col: $0, row: 0) } == [0, 0x08, 0, 0x08])
        // A point a hair below a dot boundary (the projection's rounding) falls in the upper dot row.
        var d = BrailleCanvas(cols: 1, rows: 1)
        d.line(0, 1 - 1e-9, 0, 1 - 1e-9, ink: 1)
        #expect(d.pattern(col: 0, row: 0) == 0x02)
    }
}
