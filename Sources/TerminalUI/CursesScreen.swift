import CNcursesw
import CTerminal
import Foundation
import Raster
import Viewer

/// Why the terminal could not be used; `description` is one line.
public struct TerminalError: Error, CustomStringConvertible {
    /// The message.
    public var description: String
}

/// The ncursesw screen: the only code that talks to the terminal.
public final class CursesScreen: Screen {
    /// Colour depth in use.
    public let depth: ColorDepth
    /// True when the locale is UTF-8 (braille can be shown).
    public let unicode: Bool
    private var screen: OpaquePointer?
    private var closed = false

    /// Sets up the terminal: locale, checks, raw keys, no echo, hidden cursor, mouse, colours.
    public init(colorOption: String?, environment: [String: String]) throws(TerminalError) {
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
        // newterm (unlike initscr) returns NULL for an unknown terminal instead of exiting.
        guard let s = termmap_newterm(term) else {
            throw TerminalError(
                description: "unknown terminal type '\(term)': set TERM (e.g. xterm-256color) or use 'termmap render'")
        }
        screen = s
        set_term(s)
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
        var chosen = ColorDepth.none
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        if colorOption != "never", !noColor || colorOption != nil, has_colors() {
            start_color()
            use_default_colors()
            chosen = termmap_colors() >= 256 && colorOption != "16" ? .ansi256 : .ansi16
            Self.definePairs(chosen)
        }
        depth = chosen
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
    }

    public var size: (cols: Int, rows: Int) {
        (Int(getmaxx(termmap_stdscr())), Int(getmaxy(termmap_stdscr())))
    }

    public var showsColor: Bool { depth != .none }

    public func stopRequested() -> Bool { termmap_take_signal() != 0 || termmap_stdin_hung_up() != 0 }

    // MARK: Output

    static func pairNumber(_ role: StyleRole, shaded: Bool) -> Int16 {
        Int16(1 + Int(role.rawValue) * 2 + (shaded ? 1 : 0))
    }

    static func definePairs(_ depth: ColorDepth) {
        for role in StyleRole.allCases {
            for shaded in [false, true] {
                let fg: Int16
                let bg: Int16
                switch depth {
                case .ansi256:
                    fg = Int16(Palette.color256(role))
                    bg = shaded ? Int16(Palette.shade256) : -1
                default:
                    fg = Int16(Palette.sgr16(role) % 10)  // 30–37 and 90–97 → 0–7; bright shows as bold
                    bg = shaded ? Int16(Palette.shadeSGR16 % 10) : -1
                }
                init_pair(pairNumber(role, shaded: shaded), fg, bg)
            }
        }
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
        var cell = cchar_t()
        var chars: [wchar_t] = [0, 0]  // one glyph and its terminator, reused for every cell
        // Blanks already on screen take the style they are about to be drawn with, so that ncurses sends
        // nothing for them; not when lines moved up or down, which ncurses finds by comparing whole
        // lines (a line changed in place would no longer match its moved copy).
        let adoptBlanks = !fullRepaint && (shift?.rows ?? 0) == 0
        var styles = [TerminalStyle](repeating: .plain, count: cols)
        var isBlank = [Bool](repeating: false, count: cols)
        for row in 0..<rows {
            for col in 0..<cols {
                (styles[col], isBlank[col]) = style(of: frame[col, row])
            }
            let resolved = BlankStyling.resolve(styles, isBlank: isBlank, look: Self.blankLook)
            for col in 0..<cols {
                let scalar = frame[col, row].glyph.unicodeScalars.first.map { unicode || $0.isASCII ? $0 : "?" } ?? " "
                chars[0] = wchar_t(bitPattern: scalar.value)
                setcchar(&cell, &chars, resolved[col].attr, resolved[col].pair, nil)
                if isBlank[col], adoptBlanks, Self.blankOnScreen(row: row, col: col) == Self.blankLook(resolved[col]) {
                    termmap_curscr_set(Int32(row), Int32(col), &cell)
                }
                // The bottom-right cell cannot be written without scrolling on some terminals: use insert.
                if row == rows - 1 && col == cols - 1 {
                    wmove(win, Int32(row), Int32(col))
                    wins_wch(win, &cell)
                } else {
                    mvwadd_wch(win, Int32(row), Int32(col), &cell)
                }
            }
        }
        wnoutrefresh(win)
        doupdate()
    }

    /// A cell's attributes and colour pair as sent to ncurses.
    struct TerminalStyle: Equatable {
        var attr: attr_t
        var pair: Int16
        /// The terminal's default colours, no attributes.
        static let plain = TerminalStyle(attr: 0, pair: 0)
    }

    /// How a cell is sent, and whether it is a blank whose foreground nobody sees (BlankStyling may
    /// then lend it a neighbour's style). Without colour only the status and help lines are marked.
    func style(of c: Cell) -> (TerminalStyle, isBlank: Bool) {
        guard depth != .none else {
            return (
                c.role == .status || c.role == .help ? TerminalStyle(attr: termmap_a_reverse(), pair: 0) : .plain, false
            )
        }
        let isBlank = c.glyph == " " && c.role == .plain
        if isBlank && !c.shaded { return (.plain, true) }
        let bold = depth == .ansi16 && Palette.sgr16(c.role) >= 90
        return (
            TerminalStyle(attr: bold ? termmap_a_bold() : 0, pair: Self.pairNumber(c.role, shaded: c.shaded)), isBlank
        )
    }

    /// What a blank looks like in a style: the attributes that show on a blank (reverse, underline) and
    /// whether it has the shade's background (`pairNumber` gives shaded pairs even numbers from 2).
    struct BlankLook: Equatable {
        var visibleAttributes: attr_t
        var shaded: Bool
    }

    static func blankLook(_ style: TerminalStyle) -> BlankLook {
        BlankLook(
            visibleAttributes: style.attr & termmap_a_visible_on_blank(), shaded: style.pair > 0 && style.pair % 2 == 0)
    }

    /// How the blank the terminal shows at a cell looks, or nil when the cell is not a blank.
    /// Called for every blank of every frame, so it allocates nothing.
    private static func blankOnScreen(row: Int, col: Int) -> BlankLook? {
        var attr: attr_t = 0
        var pair: Int16 = 0
        guard termmap_curscr_space(Int32(row), Int32(col), &attr, &pair) != 0 else { return nil }
        return blankLook(TerminalStyle(attr: attr, pair: pair))
    }

    // MARK: Input

    public func nextEvent(timeoutMilliseconds: Int) -> InputEvent? {
        guard !closed else { return nil }
        let win = termmap_stdscr()
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
                if termmap_is_click(m.bstate) != 0 { return .mouse(.click(col: col, row: row)) }
                return nextEvent(timeoutMilliseconds: 0)
            default:
                return nextEvent(timeoutMilliseconds: 0)
            }
        }
        switch ch {
        case 3: return .key(.ctrlC)
        case 12: return .key(.ctrlL)
        case 10, 13: return .key(.enter)
        case 27: return .key(.escape)
        case 8, 127: return .key(.backspace)
        default:
            guard ch >= 32, let scalar = Unicode.Scalar(UInt32(ch)) else { return nextEvent(timeoutMilliseconds: 0) }
            return .key(.char(Character(scalar)))
        }
    }
}
