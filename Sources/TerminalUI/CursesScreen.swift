import CNcursesw
import CTerminal
import FoundationEssentials
import Glibc
import MapData
import Raster
import Viewer

/// Why the terminal could not be used; `description` is one line.
public struct TerminalError: Error, CustomStringConvertible {
    /// The message.
    public var description: String
}

/// The ncursesw screen: the only code that talks to the terminal.
public final class CursesScreen: Screen {
    /// What the terminal shows of styles.
    public let colorMode: ColorMode
    /// True when the locale is UTF-8 (braille can be shown).
    public let unicode: Bool
    private var screen: OpaquePointer?
    private var closed = false
    /// Presses, releases and motion made into clicks and drags.
    private var gestures = PointerGestures()
    /// Answers to `askWhenShown` read since the last `takeShownAnswers`.
    private var shownAnswers = 0

    /// The recording's file, while recording.
    private var castFile: Int32 = -1

    /// Sets up the terminal: locale, checks, raw keys, no echo, hidden cursor, mouse, colours; with
    /// `recordPath`, everything sent to the terminal is also written there as an asciicast v2 recording.
    public init(colorOption: String?, environment: [String: String], recordPath: String? = nil) throws(TerminalError) {
        setlocale(LC_ALL, "")
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw TerminalError(description: "not a terminal: use 'termmap render' to print the screen from a script")
        }
        let term = environment["TERM"] ?? ""
        guard !term.isEmpty else {
            throw TerminalError(
                description: "TERM is not set: set it (e.g. TERM=xterm-256color) or use 'termmap render'")
        }
        guard term != "dumb" else {
            throw TerminalError(description: "TERM=dumb cannot show a map: use a full terminal or 'termmap render'")
        }
        unicode = termmap_locale_is_utf8() != 0
        if let recordPath { castFile = try Self.startRecording(recordPath, environment: environment) }
        // newterm (unlike initscr) returns NULL for an unknown terminal instead of exiting.
        guard let s = termmap_newterm(term) else {
            if castFile >= 0 {
                termmap_record_stop()
                Glibc.close(castFile)
            }
            throw TerminalError(
                description: "unknown terminal type '\(term)': set TERM (e.g. xterm-256color) or use 'termmap render'")
        }
        screen = s
        set_term(s)
        termmap_record_watch_resize()
        termmap_install_signal_handlers()
        raw()
        noecho()
        nonl()
        keypad(termmap_stdscr(), true)
        idlok(termmap_stdscr(), true)
        set_escdelay(25)
        curs_set(0)
        mousemask(termmap_mouse_mask(), nil)
        mouseinterval(0)
        colorMode = ColorMode.choose(
            option: colorOption, noColor: environment["NO_COLOR"].map { !$0.isEmpty } ?? false, isTerminal: true,
            terminalColors: Int(termmap_terminal_colors()))
        if colorMode.hasColor {
            start_color()
            use_default_colors()
        }
    }

    deinit { close() }

    /// Leaves curses: cursor visible, echo on, alternate screen left. Safe to call twice.
    public func close() {
        guard !closed else { return }
        closed = true
        curs_set(1)
        endwin()
        if let s = screen { delscreen(s) }
        screen = nil
        stopRecording()
    }

    /// Opens the recording, writes its header (`timestamp`: now, `env`: TERM and SHELL), and starts
    /// copying what ncurses sends into it; returns its descriptor.
    private static func startRecording(_ path: String, environment: [String: String]) throws(TerminalError) -> Int32 {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw TerminalError(description: "cannot write '\(path)': \(systemErrorReason())")
        }
        var cols: Int32 = 80
        var rows: Int32 = 24
        termmap_terminal_size(&cols, &rows)
        let header = Asciicast.header(
            cols: Int(cols), rows: Int(rows), timestamp: Int(time(nil)), term: environment["TERM"] ?? "",
            shell: environment["SHELL"] ?? "/bin/sh")
        let bytes = Array(header.utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count, termmap_record_start(fd) == 0 else {
            let reason = systemErrorReason()
            Glibc.close(fd)
            throw TerminalError(description: "cannot record to '\(path)': \(reason)")
        }
        return fd
    }

    private func stopRecording() {
        guard castFile >= 0 else { return }
        termmap_record_stop()
        Glibc.close(castFile)
        castFile = -1
    }

    public var size: (cols: Int, rows: Int) {
        (Int(getmaxx(termmap_stdscr())), Int(getmaxy(termmap_stdscr())))
    }

    public func stopRequested() -> Bool { termmap_take_signal() != 0 || termmap_stdin_hung_up() != 0 }

    // MARK: Output

    /// The colour pair of each foreground/background combination met so far (-1: the default colour);
    /// pairs are made on first use, and pair 0 is the terminal's defaults.
    private var pairs: [PairColors: Int16] = [PairColors(foreground: -1, background: -1): 0]
    /// Each pair's background, by pair number (pairs are numbered in the order they are made).
    private var pairBackgrounds: [Int16] = [-1]

    struct PairColors: Hashable {
        var foreground: Int16
        var background: Int16
    }

    /// A colour pair for two colours, made on first use (the defaults when the terminal has no more).
    private func pair(_ colors: PairColors) -> Int16 {
        if let p = pairs[colors] { return p }
        let next = Int16(clamping: pairs.count)
        guard Int(next) < Int(termmap_color_pairs()), init_pair(next, colors.foreground, colors.background) == OK
        else { return 0 }
        pairs[colors] = next
        pairBackgrounds.append(colors.background)
        return next
    }

    public func present(_ frame: Frame, fullRepaint: Bool, shift: ScreenShift?) {
        guard !closed else { return }
        let win = termmap_stdscr()
        if fullRepaint {
            termmap_force_full_repaint()
        } else if let shift, shift.columns != 0, shift.rows == 0 {
            // Lines that moved up or down ncurses finds itself (idlok); columns it cannot move.
            let rows = shift.mapRows.clamped(to: 0..<Int(getmaxy(win)))
            _ = termmap_shift_columns(Int32(rows.lowerBound), Int32(rows.upperBound), Int32(shift.columns))
        }
        let rows = min(frame.rows, Int(getmaxy(win)))
        let cols = min(frame.cols, Int(getmaxx(win)))
        // Blanks already on screen take the style they are about to be drawn with, so that ncurses sends
        // nothing for them; not when lines moved up or down, which ncurses finds by comparing whole
        // lines (a line changed in place would no longer match its moved copy).
        let adoptBlanks = !fullRepaint && (shift?.rows ?? 0) == 0
        var styles = [CellStyle](repeating: .plain, count: cols)
        var isBlank = [Bool](repeating: false, count: cols)
        // A row at a time, into ncurses' window and out of and back into its copy of the screen (one
        // cell more: reading a row ends it with a null cell).
        var line = [cchar_t](repeating: cchar_t(), count: cols + 1)
        var shown = [cchar_t](repeating: cchar_t(), count: cols + 1)
        var lastStyle: CellStyle?
        var lastTerminal = TerminalStyle(attr: 0, pair: 0)
        let cells = frame.cells
        for row in 0..<rows {
            let rowStart = row * frame.cols
            for col in 0..<cols {
                let c = cells[rowStart + col]
                styles[col] = c.style
                isBlank[col] = c.glyph == " "
            }
            // A blank may take a neighbour's style where it looks the same: fewer colour changes sent.
            let resolved = BlankStyling.resolve(styles, isBlank: isBlank, look: \.blankLook)
            if adoptBlanks { termmap_curscr_row(Int32(row), &shown, Int32(cols)) }
            var adopted = false
            for col in 0..<cols {
                let glyph = cells[rowStart + col].glyph
                let scalar: Unicode.Scalar = unicode || glyph.isASCII ? glyph : "?"
                if resolved[col] != lastStyle {
                    lastStyle = resolved[col]
                    lastTerminal = terminalStyle(resolved[col])
                }
                termmap_make_cell(&line[col], wchar_t(bitPattern: scalar.value), lastTerminal.attr, Int32(lastTerminal.pair))
                if isBlank[col], adoptBlanks, blankOnScreen(shown[col]) == blankLook(lastTerminal) {
                    shown[col] = line[col]
                    adopted = true
                }
            }
            // Whole rows never scroll the screen, not even at the bottom-right cell.
            mvwadd_wchnstr(win, Int32(row), 0, line, Int32(cols))
            if adopted { termmap_curscr_set_row(Int32(row), shown, Int32(cols)) }
        }
        wnoutrefresh(win)
        // The frame in one write (fewer packets over SSH), its colour changes made smaller.
        termmap_gather_output()
        doupdate()
        var count = 0
        if let gathered = termmap_take_gathered(&count), count > 0 {
            let frame = SGRCompaction.compact(Array(UnsafeBufferPointer(start: gathered, count: count)))
            frame.withUnsafeBufferPointer { termmap_write_stdout($0.baseAddress, $0.count) }
        }
    }

    /// A cell's attributes and colour pair as sent to ncurses.
    struct TerminalStyle: Equatable {
        var attr: attr_t
        var pair: Int16
    }

    /// A style in ncurses' terms. With 16 colours the bright ones (8–15) are sent as bold 0–7, which
    /// 8-colour terminals need and 16-colour ones show alike.
    func terminalStyle(_ s: CellStyle) -> TerminalStyle {
        var attr: attr_t = 0
        var fg = s.foreground.map { Int16($0.index) } ?? -1
        var bg = s.background.map { Int16($0.index) } ?? -1
        if colorMode == .ansi16 {
            if fg >= 8 {
                fg -= 8
                attr |= termmap_a_bold()
            }
            if bg >= 8 { bg -= 8 }
        }
        if s.bold { attr |= termmap_a_bold() }
        if s.reverse { attr |= termmap_a_reverse() }
        if s.underline { attr |= termmap_a_underline() }
        guard colorMode.hasColor else { return TerminalStyle(attr: attr, pair: 0) }
        return TerminalStyle(attr: attr, pair: pair(PairColors(foreground: fg, background: bg)))
    }

    /// What shows of a style on a blank cell: the attributes that show on a blank (reverse, underline)
    /// and the pair's background.
    struct BlankLook: Equatable {
        var visibleAttributes: attr_t
        var background: Int16
    }

    func blankLook(_ style: TerminalStyle) -> BlankLook {
        BlankLook(
            visibleAttributes: style.attr & termmap_a_visible_on_blank(),
            background: pairBackgrounds.indices.contains(Int(style.pair)) ? pairBackgrounds[Int(style.pair)] : -1)
    }

    /// How a blank on screen looks, or nil when the cell is not a blank. Called for every blank of
    /// every frame, so it allocates nothing.
    private func blankOnScreen(_ cell: cchar_t) -> BlankLook? {
        var attr: attr_t = 0
        var pair: Int32 = 0
        guard withUnsafePointer(to: cell, { termmap_cell_blank($0, &attr, &pair) }) != 0 else { return nil }
        return blankLook(TerminalStyle(attr: attr, pair: Int16(clamping: pair)))
    }

    // MARK: Pacing

    /// Sends Primary Device Attributes (`ESC [ c`) after the frame ncurses has just written: every
    /// terminal answers it (`ESC [ ? … c`), in order, once it has processed what came before. The cursor
    /// position report would do as well, but ncurses takes its answer for a function key (`ESC[1;6R` is
    /// F39 to xterm-256color's terminfo).
    public func askWhenShown() -> Bool {
        guard !closed else { return false }
        // doupdate has written and flushed its output: this comes after it.
        let query: [UInt8] = [0x1B, 0x5B, 0x63]
        return query.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) } == query.count
    }

    public func takeShownAnswers() -> Int {
        defer { shownAnswers = 0 }
        return shownAnswers
    }

    /// After an Esc: the rest of a device attributes answer (`[?` digits and semicolons `c`), taken out of
    /// the input; false, with what was read put back, when the Esc was a key.
    private func takeDeviceAttributesAnswer(_ win: UnsafeMutablePointer<WINDOW>?) -> Bool {
        var read: [(kind: Int32, ch: wint_t)] = []
        // The answer comes in one write, and ncurses has already waited ESCDELAY after the Esc; a little
        // more for a link that split it.
        wtimeout(win, 30)
        func next() -> wint_t? {
            var ch: wint_t = 0
            let kind = wget_wch(win, &ch)
            guard kind != ERR else { return nil }
            read.append((kind, ch))
            return kind == KEY_CODE_YES ? nil : ch
        }
        if next() == 0x5B, next() == 0x3F {
            for _ in 0..<64 {
                guard let ch = next() else { break }
                if ch == 0x63 { return true }
                guard (0x30...0x39).contains(ch) || ch == 0x3B else { break }
            }
        }
        // ncurses returns the last character put back first.
        for (kind, ch) in read.reversed() {
            if kind == KEY_CODE_YES { ungetch(Int32(ch)) } else { unget_wch(wchar_t(bitPattern: ch)) }
        }
        return false
    }

    // MARK: Input

    public func nextEvent(timeoutMilliseconds: Int) -> InputEvent? {
        guard !closed else { return nil }
        let win = termmap_stdscr()
        termmap_record_sync_size()
        wtimeout(win, Int32(timeoutMilliseconds))
        var ch: wint_t = 0
        let kind = wget_wch(win, &ch)
        if kind == ERR { return nil }
        if kind == KEY_CODE_YES {
            switch Int32(ch) {
            case KEY_LEFT: return .key(.left)
            case KEY_RIGHT: return .key(.right)
            case KEY_UP: return .key(.up)
            case KEY_DOWN: return .key(.down)
            case KEY_BACKSPACE: return .key(.backspace)
            case KEY_ENTER: return .key(.enter)
            case KEY_RESIZE:
                let s = size
                return .resize(cols: s.cols, rows: s.rows)
            case KEY_MOUSE:
                var m = MEVENT()
                guard getmouse(&m) == OK else { return nextEvent(timeoutMilliseconds: 0) }
                let col = Int(m.x)
                let row = Int(m.y)
                if termmap_is_wheel_up(m.bstate) != 0 { return .mouse(.wheelUp(col: col, row: row)) }
                if termmap_is_wheel_down(m.bstate) != 0 { return .mouse(.wheelDown(col: col, row: row)) }
                let report: PointerGestures.Report? =
                    termmap_is_press(m.bstate) != 0
                    ? .press
                    : termmap_is_release(m.bstate) != 0 ? .release : termmap_is_motion(m.bstate) != 0 ? .motion : nil
                if let report, let event = gestures.next(report, col: col, row: row) { return .mouse(event) }
                return nextEvent(timeoutMilliseconds: 0)
            default:
                return nextEvent(timeoutMilliseconds: 0)
            }
        }
        switch ch {
        case 3: return .key(.ctrlC)
        case 12: return .key(.ctrlL)
        case 10, 13: return .key(.enter)
        case 27:
            // An answer to `askWhenShown` (or a late one) is not a key: nothing came this time.
            if takeDeviceAttributesAnswer(win) {
                shownAnswers += 1
                return nil
            }
            return .key(.escape)
        case 8, 127: return .key(.backspace)
        default:
            guard ch >= 32, let scalar = Unicode.Scalar(UInt32(ch)) else { return nextEvent(timeoutMilliseconds: 0) }
            return .key(.char(Character(scalar)))
        }
    }
}
