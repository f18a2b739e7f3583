import TestSupport
import Testing

@testable import Raster

/// `TerminalPainter` through a terminal in memory: after its bytes the screen shows the frame, and
/// it sends only what changed.
@Suite("Terminal painter")
struct TerminalPainterTests {
    static func abilities(
        _ mode: ColorMode = .ansi256, unicode: Bool = true, lastCellSafe: Bool = true, erase: Bool = false,
        backgroundErase: Bool = true
    ) -> TerminalPainter.Abilities {
        .init(
            colorMode: mode, unicode: unicode, scrollRegion: true, insertDelete: true, lastCellSafe: lastCellSafe,
            eraseCharacters: erase, eraseLine: erase, backgroundErase: backgroundErase)
    }

    static let styles: [CellStyle] = [
        .plain, CellStyle(foreground: PaletteColor(179)),
        CellStyle(foreground: PaletteColor(33), background: PaletteColor(17)),
        CellStyle(background: PaletteColor(17)), CellStyle(foreground: PaletteColor(9), bold: true),
        CellStyle(foreground: PaletteColor(2), underline: true), CellStyle(reverse: true),
        CellStyle(foreground: PaletteColor(255), background: PaletteColor(12)),
    ]
    static let glyphs: [Unicode.Scalar] = [" ", " ", " ", "⠁", "⣿", "a", "│", "é"]

    /// A frame of random cells, in runs so that it looks like a map (the same style for a stretch).
    static func randomFrame(cols: Int, rows: Int, _ random: inout SeededRandom) -> Frame {
        var frame = Frame(cols: cols, rows: rows)
        var style = styles[0]
        for row in 0..<rows {
            for col in 0..<cols {
                if random.below(4) == 0 { style = styles[random.below(styles.count)] }
                frame[col, row] = Cell(glyph: glyphs[random.below(glyphs.count)], style: style)
            }
        }
        return frame
    }

    /// `frame` moved by `columns` and `rows` cells, with what came in from `fill`.
    static func moved(_ frame: Frame, columns: Int, rows: Int, fill: Frame) -> Frame {
        var out = fill
        for r in 0..<frame.rows {
            for c in 0..<frame.cols where frame.contains(col: c - columns, row: r - rows) {
                out[c, r] = frame[c - columns, r - rows]
            }
        }
        return out
    }

    @Test(arguments: [
        (ColorMode.ansi256, false), (.ansi16, false), (.ansi8, false), (.monochrome, false), (.ansi256, true),
    ])
    func everyFrameIsShownWhateverTheMovesBefore(mode: ColorMode, erase: Bool) {
        var random = SeededRandom(state: 42)
        let cols = 23
        let rows = 9
        var painter = TerminalPainter(cols: cols, rows: rows, abilities: Self.abilities(mode, erase: erase))
        var terminal = ModelTerminal(cols: cols, rows: rows)
        var frame = Frame(cols: cols, rows: rows)
        for step in 0..<300 {
            let fill = Self.randomFrame(cols: cols, rows: rows, &random)
            // Mostly what a pan gives; sometimes a hint that does not match the frame (still shown
            // right, at the cost of bytes), a new picture or a full repaint.
            let columns = random.below(2) == 0 ? random.below(9) - 4 : 0
            let down = columns == 0 ? random.below(7) - 3 : 0
            var hinted = (columns, down)
            switch random.below(10) {
            case 0: frame = fill
            case 1: hinted = (random.below(5) - 2, 0)
            default: frame = Self.moved(frame, columns: columns, rows: down, fill: fill)
            }
            let band = 0..<(rows - 1 - random.below(2))  // the map's rows: sometimes one status row below
            if hinted.0 != 0 { painter.moveColumns(by: hinted.0, rows: band) }
            if hinted.1 != 0 { painter.moveRows(by: hinted.1, within: band) }
            terminal.feed(painter.paint(frame, fullRepaint: random.below(25) == 0))
            #expect(terminal.errors.isEmpty, "step \(step): \(terminal.errors)")
            let wrong = terminal.firstDifference(frame, mode: mode)
            #expect(wrong == nil, "step \(step): \(String(describing: wrong))")
            #expect(terminal.penIsPlain, "step \(step): attributes left set")
            #expect(terminal.unwantedScrolls == 0)
            if wrong != nil || !terminal.errors.isEmpty { return }
        }
    }

    /// A painter and a terminal of `frame`'s size that show it.
    static func showing(_ frame: Frame) -> (TerminalPainter, ModelTerminal) {
        var painter = TerminalPainter(cols: frame.cols, rows: frame.rows, abilities: abilities())
        var terminal = ModelTerminal(cols: frame.cols, rows: frame.rows)
        terminal.feed(painter.paint(frame))
        return (painter, terminal)
    }

    @Test func theSameFrameAgainSendsNothing() {
        var random = SeededRandom(state: 7)
        let frame = Self.randomFrame(cols: 30, rows: 10, &random)
        var (painter, terminal) = Self.showing(frame)
        #expect(terminal.firstDifference(frame, mode: .ansi256) == nil)
        #expect(painter.paint(frame) == [])
    }

    @Test func aPanSendsTheMoveAndTheColumnsThatCameIn() {
        var random = SeededRandom(state: 9)
        var frame = Frame(cols: 40, rows: 12)
        for row in 0..<12 {
            for col in 0..<40 { frame[col, row] = Cell(glyph: Self.glyphs[3 + random.below(4)]) }
        }
        var (painter, terminal) = Self.showing(frame)
        var band = Frame(cols: 40, rows: 12)
        for row in 0..<12 { for col in 0..<40 { band[col, row] = Cell(glyph: "x") } }
        let panned = Self.moved(frame, columns: -5, rows: 0, fill: band)
        painter.moveColumns(by: -5, rows: 0..<12)
        let bytes = painter.paint(panned)
        terminal.feed(bytes)
        #expect(terminal.firstDifference(panned, mode: .ansi256) == nil)
        // Each row: CUP, DCH 5, and later the 5 new cells; nothing of the 35 that moved.
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.components(separatedBy: "\u{1B}[5P").count - 1 == 12)
        #expect(text.filter { $0 == "x" }.count == 5 * 12)
        #expect(text.unicodeScalars.filter { (0x2800...0x28FF).contains($0.value) }.isEmpty)
    }

    @Test func scrollingMovesLinesInsideTheMapOnly() {
        var random = SeededRandom(state: 3)
        let frame = Self.randomFrame(cols: 20, rows: 8, &random)
        var (painter, terminal) = Self.showing(frame)
        var next = Self.moved(frame, columns: 0, rows: 2, fill: Self.randomFrame(cols: 20, rows: 8, &random))
        for col in 0..<20 { next[col, 7] = frame[col, 7] }  // the status row stays
        painter.moveRows(by: 2, within: 0..<7)
        let bytes = painter.paint(next)
        terminal.feed(bytes)
        #expect(terminal.firstDifference(next, mode: .ansi256) == nil)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("\u{1B}[1;7r\u{1B}[1;1H\u{1B}M\u{1B}M\u{1B}[1;8r"))
    }

    @Test func colourChangesSayOnlyWhatChanged() {
        var frame = Frame(cols: 6, rows: 1)
        frame[0, 0] = Cell(glyph: "a", style: CellStyle(foreground: PaletteColor(179)))
        frame[1, 0] = Cell(glyph: "b", style: CellStyle(foreground: PaletteColor(179), background: PaletteColor(17)))
        frame[2, 0] = Cell(
            glyph: "c", style: CellStyle(foreground: PaletteColor(3), background: PaletteColor(17), bold: true))
        frame[3, 0] = Cell(glyph: "d", style: CellStyle(foreground: PaletteColor(12)))
        var painter = TerminalPainter(cols: 6, rows: 1, abilities: Self.abilities())
        let text = String(decoding: painter.paint(frame), as: UTF8.self)
        // Bold going off takes a reset; the end leaves no attributes.
        #expect(text == "\u{1B}[1;1H\u{1B}[38;5;179ma\u{1B}[48;5;17mb\u{1B}[1;33mc\u{1B}[0;94md\u{1B}[0m")
        var blue = Frame(cols: 1, rows: 1)
        blue[0, 0] = Cell(glyph: "d", style: CellStyle(foreground: PaletteColor(12)))
        // With 16 colours the bright ones are 90–97; an 8-colour terminal (TERM=xterm, the Linux
        // console) shows them as bold.
        var sixteen = TerminalPainter(cols: 1, rows: 1, abilities: Self.abilities(.ansi16))
        let bright = String(decoding: sixteen.paint(blue), as: UTF8.self)
        #expect(bright.contains("\u{1B}[94md"), "bright blue as 94 with 16 colours: \(bright)")
        var eight = TerminalPainter(cols: 1, rows: 1, abilities: Self.abilities(.ansi8))
        let bold = String(decoding: eight.paint(blue), as: UTF8.self)
        #expect(bold.contains("\u{1B}[1;34md"), "bright blue as bold blue with 8 colours: \(bold)")
    }

    @Test func runsOfBlanksAreErased() {
        var frame = Frame(cols: 30, rows: 2)
        let sea = CellStyle(background: PaletteColor(17))
        for col in 0..<30 { frame[col, 0] = Cell(glyph: col == 0 ? "x" : " ", style: sea) }
        for col in 0..<30 { frame[col, 1] = Cell(glyph: col == 20 ? "y" : " ", style: col < 12 ? sea : .plain) }
        for backgroundErase in [true, false] {
            var painter = TerminalPainter(
                cols: 30, rows: 2, abilities: Self.abilities(erase: true, backgroundErase: backgroundErase))
            var terminal = ModelTerminal(cols: 30, rows: 2)
            let bytes = painter.paint(frame, fullRepaint: true)
            terminal.feed(bytes)
            #expect(terminal.firstDifference(frame, mode: .ansi256) == nil)
            let text = String(decoding: bytes, as: UTF8.self)
            if backgroundErase {
                // The sea: x, then the rest of the line erased; 12 sea blanks erased as characters.
                #expect(text == "\u{1B}[H\u{1B}[2J\u{1B}[48;5;17mx\u{1B}[K\r\n\u{1B}[12X\u{1B}[20C\u{1B}[0my")
            } else {
                // Erasing would leave the default background: the sea is written as spaces.
                #expect(text.contains("x" + String(repeating: " ", count: 29)))
            }
        }
    }

    @Test func withoutUnicodeOrASafeLastCell() {
        var frame = Frame(cols: 3, rows: 2)
        frame[0, 0] = Cell(glyph: "⣿")
        frame[2, 1] = Cell(glyph: "x")
        var ascii = TerminalPainter(cols: 3, rows: 2, abilities: Self.abilities(unicode: false, lastCellSafe: false))
        let text = String(decoding: ascii.paint(frame), as: UTF8.self)
        #expect(text == "\u{1B}[1;1H?")
    }

    @Test func aFullRepaintClearsFirst() {
        var frame = Frame(cols: 4, rows: 2)
        frame[1, 1] = Cell(glyph: "q")
        var painter = TerminalPainter(cols: 4, rows: 2, abilities: Self.abilities())
        _ = painter.paint(frame)
        #expect(
            String(decoding: painter.paint(frame, fullRepaint: true), as: UTF8.self) == "\u{1B}[H\u{1B}[2J\u{1B}[2;2Hq")
    }
}

@Suite("Terminal replies")
struct TerminalRepliesTests {
    typealias Unit = TerminalReplies.Unit

    func units(_ text: String) -> [Unit] { text.unicodeScalars.map { .char($0.value) } }

    /// A device attributes answer is a reply whole, never keys; anything else that starts like one is
    /// given back, Esc first, in order; an Esc alone is a key once the wait for more ends.
    @Test func repliesAreTakenOutAndTheRestIsInput() {
        var r = TerminalReplies()
        var outcomes: [TerminalReplies.Outcome] = []
        for u in units("\u{1B}[?62;22c") { outcomes.append(r.feed(u)) }
        #expect(outcomes.last == .reply(.deviceAttributes) && outcomes.dropLast().allSatisfy { $0 == .pending })
        #expect(!r.isPending)
        #expect(r.feed(.char(0x6A)) == .input([.char(0x6A)]))
        // Esc then a key that is no reply: both come back, in order.
        #expect(r.feed(.char(0x1B)) == .pending)
        #expect(r.feed(.char(0x6B)) == .input(units("\u{1B}k")))
        // A sequence broken in the middle: all of it is input.
        for u in units("\u{1B}[?6") { _ = r.feed(u) }
        #expect(r.feed(.char(0x71)) == .input(units("\u{1B}[?6q")))
        // A decoded key after an Esc.
        _ = r.feed(.char(0x1B))
        #expect(r.feed(.keyCode(260)) == .input([.char(0x1B), .keyCode(260)]))
        // Esc alone.
        _ = r.feed(.char(0x1B))
        #expect(r.isPending && r.timeout() == [.char(0x1B)] && !r.isPending)
        // An answer too long to be one is input.
        var long = TerminalReplies()
        let all = units("\u{1B}[?" + String(repeating: "1;", count: 40) + "c").map { long.feed($0) }
        #expect(!all.contains(.reply(.deviceAttributes)))
        let given: [Unit] = all.flatMap { (o: TerminalReplies.Outcome) -> [Unit] in
            if case .input(let u) = o { return u }
            return []
        }
        #expect(given == units("\u{1B}[?" + String(repeating: "1;", count: 40) + "c"))
    }
}

extension TerminalRepliesTests {
    /// Arrows with modifiers in xterm's form (`ESC [ 1 ; M` then A–D, M = 1 + 1 Shift + 2 Alt + 4 Ctrl)
    /// are one key each; without a modifier, or in another form, they are given back as they came.
    @Test func modifiedArrowsAreKeys() {
        func outcome(_ text: String) -> [TerminalReplies.Outcome] {
            var r = TerminalReplies()
            return units(text).map { r.feed($0) }
        }
        for (text, final) in [
            ("\u{1B}[1;2D", 0x44), ("\u{1B}[1;5C", 0x43), ("\u{1B}[1;3A", 0x41), ("\u{1B}[1;6B", 0x42),
        ] {
            let o = outcome(text)
            #expect(
                o.last == .input([.modifiedArrow(UInt8(final))]) && o.dropLast().allSatisfy { $0 == .pending },
                "\(text.debugDescription)")
        }
        for text in ["\u{1B}[1;1D", "\u{1B}[2D", "\u{1B}[1;2;3D", "\u{1B}[1;99A"] {
            let given = outcome(text).flatMap { (o: TerminalReplies.Outcome) -> [Unit] in
                if case .input(let u) = o { return u }
                return []
            }
            #expect(given == units(text), "\(text.debugDescription) is given back")
        }
        // The device attributes answer still is one.
        #expect(outcome("\u{1B}[?62;22c").last == .reply(.deviceAttributes))
    }

    /// An Esc key with a reply right behind it: the Esc is a key, the reply is a reply.
    @Test func anEscKeyThenAReply() {
        var r = TerminalReplies()
        var outcomes: [TerminalReplies.Outcome] = []
        for u in units("\u{1B}\u{1B}[?62;22c") { outcomes.append(r.feed(u)) }
        #expect(outcomes.contains(.input([.char(0x1B)])))
        #expect(outcomes.last == .reply(.deviceAttributes))
        #expect(!outcomes.contains { if case .input(let u) = $0 { u.count > 1 } else { false } })
    }
}

extension TerminalRepliesTests {
    /// Fed one character at a time (the answer split across reads at every point), an OSC 11 answer
    /// ended by BEL or by ST is one reply with its colour, and nothing of it is input.
    /// kitty's graphics answer (`ESC _ G i=31 ; OK ESC \\`) is a reply, never keys; `saysOK` reads it,
    /// and an error answer says no.
    /// A device attributes answer's attributes are kept: 4 says the terminal draws sixel.
    @Test func deviceAttributesAreKept() {
        for (text, attributes) in [
            ("\u{1B}[?62;4;22c", [62, 4, 22]), ("\u{1B}[?64;1;9;15;21;22c", [64, 1, 9, 15, 21, 22]),
            ("\u{1B}[?1;2c", [1, 2]),
        ] {
            var r = TerminalReplies()
            let outcomes = units(text).map { r.feed($0) }
            #expect(
                outcomes.last == .reply(.deviceAttributes) && r.deviceAttributes == attributes,
                "\(text.debugDescription)")
        }
    }

    @Test func graphicsAnswersAreReplies() {
        for (text, ok) in [
            ("\u{1B}_Gi=31;OK\u{1B}\\", true), ("\u{1B}_Gi=31;EINVAL:Unsupported action\u{1B}\\", false),
        ] {
            var r = TerminalReplies()
            let outcomes = units(text).map { r.feed($0) }
            guard case .reply(.graphics(let answer))? = outcomes.last else {
                Issue.record("\(text.debugDescription): \(String(describing: outcomes.last))")
                continue
            }
            #expect(KittyGraphics.saysOK(answer) == ok && outcomes.dropLast().allSatisfy { $0 == .pending })
        }
        // Alt-_ then keys: input, in order.
        var r = TerminalReplies()
        var typed: [Unit] = []
        for u in units("\u{1B}_ab") { if case .input(let more) = r.feed(u) { typed += more } }
        typed += r.timeout()
        #expect(typed == units("\u{1B}_ab"))
    }

    @Test func backgroundColourAnswersAreReplies() {
        let cases: [(String, TerminalColor)] = [
            ("\u{1B}]11;rgb:ffff/ffff/ffff\u{07}", TerminalColor(red: 1, green: 1, blue: 1)),
            (
                "\u{1B}]11;rgb:2020/2020/2020\u{1B}\\",
                TerminalColor(red: 0x2020 / 65535.0, green: 0x2020 / 65535.0, blue: 0x2020 / 65535.0)
            ),
            ("\u{1B}]11;rgb:f/8/0\u{07}", TerminalColor(red: 1, green: 8 / 15.0, blue: 0)),
            ("\u{1B}]11;rgb:ff/80/00\u{07}", TerminalColor(red: 1, green: 128 / 255.0, blue: 0)),
            ("\u{1B}]11;rgba:fff/000/000/fff\u{1B}\\", TerminalColor(red: 1, green: 0, blue: 0)),
        ]
        for (text, colour) in cases {
            var r = TerminalReplies()
            let outcomes = units(text).map { r.feed($0) }
            #expect(outcomes.last == .reply(.backgroundColor(colour)), "\(text.debugDescription)")
            #expect(outcomes.dropLast().allSatisfy { $0 == .pending } && !r.isPending, "\(text.debugDescription)")
        }
        // Another command's answer, or a colour not in rgb: form, is no key either.
        for text in [
            "\u{1B}]10;rgb:0/0/0\u{07}", "\u{1B}]11;#ffffff\u{07}", "\u{1B}]11;rgb:fffff/0/0\u{07}",
            "\u{1B}]11;rgb:+f/0/0\u{07}",
        ] {
            var r = TerminalReplies()
            #expect(units(text).map { r.feed($0) }.last == .reply(.otherCommand), "\(text.debugDescription)")
        }
    }

    /// An answer that comes late, between keys and before a device attributes answer, leaves the keys
    /// as they were typed: `]11;rgb:…` never types r, g, b.
    @Test func aLateAnswerIsNotTyped() {
        var r = TerminalReplies()
        var given: [Unit] = []
        var replies: [TerminalReplies.Reply] = []
        for u in units("j\u{1B}]11;rgb:0000/0000/0000\u{07}k\u{1B}[?62;22cl") {
            switch r.feed(u) {
            case .input(let i): given += i
            case .reply(let reply): replies.append(reply)
            case .pending: break
            }
        }
        #expect(given == units("jkl"))
        #expect(replies == [.backgroundColor(TerminalColor(red: 0, green: 0, blue: 0)), .deviceAttributes])
    }

    /// Alt-] (Esc then `]`) and what follows a moment later are keys: the wait for the rest ends, or a
    /// character no answer has (a control character, an Esc not ending it) gives everything back.
    @Test func altBracketIsAKey() {
        var r = TerminalReplies()
        #expect(r.feed(.char(0x1B)) == .pending && r.feed(.char(0x5D)) == .pending)
        #expect(r.timeout() == units("\u{1B}]"))
        for text in ["\u{1B}]1\u{0D}", "\u{1B}]1\u{1B}x"] {
            var s = TerminalReplies()
            let outcomes = units(text).map { s.feed($0) }
            let given = outcomes.flatMap { (o: TerminalReplies.Outcome) -> [Unit] in
                if case .input(let u) = o { return u }
                return []
            }
            #expect(given + s.timeout() == units(text), "\(text.debugDescription)")
        }
        // Alt-] with answers close behind it: the key is given back, the answers are still answers.
        for (text, reply) in [
            ("\u{1B}]\u{1B}[?62;22c", TerminalReplies.Reply.deviceAttributes),
            ("\u{1B}]x\u{1B}]11;rgb:0/0/0\u{07}", .backgroundColor(TerminalColor(red: 0, green: 0, blue: 0))),
        ] {
            var s = TerminalReplies()
            let outcomes = units(text).map { s.feed($0) }
            let given = outcomes.flatMap { (o: TerminalReplies.Outcome) -> [Unit] in
                if case .input(let u) = o { return u }
                return []
            }
            #expect(outcomes.last == .reply(reply), "\(text.debugDescription)")
            #expect(given == units(text.hasPrefix("\u{1B}]x") ? "\u{1B}]x" : "\u{1B}]"), "\(text.debugDescription)")
        }
    }

    /// The luma rule: white, tmux's `white` (c0c0c0) and a light yellow are light; black, 2020 grey and
    /// xterm's blue are dark.
    @Test func lightAndDarkBackgrounds() {
        #expect(TerminalColor(red: 1, green: 1, blue: 1).isLight)
        #expect(TerminalColor(red: 0.75, green: 0.75, blue: 0.75).isLight)
        #expect(TerminalColor(red: 1, green: 1, blue: 0.8).isLight)
        #expect(!TerminalColor(red: 0, green: 0, blue: 0).isLight)
        #expect(!TerminalColor(red: 0x20 / 255.0, green: 0x20 / 255.0, blue: 0x20 / 255.0).isLight)
        #expect(!TerminalColor(red: 0, green: 0, blue: 0.93).isLight)
    }
}
