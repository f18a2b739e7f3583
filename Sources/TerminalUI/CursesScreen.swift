import CNcursesw
import CTerminal
import FoundationEssentials
import Glibc
import Raster
import Support
import Synchronization
import SystemSupport
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
    /// Device attributes answers still to come for the question asked at the start (not `askWhenShown`'s).
    private var startAnswersDue = 0
    /// Device attributes questions sent and not answered yet (the start's and `askWhenShown`'s).
    private var questionsOutstanding = 0
    /// The background colour the terminal reported when asked at the start (nil: not asked, or no answer).
    public private(set) var background: TerminalColor?
    /// How the terminal draws pictures (it answered the start's questions, or `--graphics` said so):
    /// the imagery is then a picture under the text. Nil: half blocks.
    public private(set) var pictures: PictureProtocol?
    /// What the terminal holds of the imagery's picture: kitty's images and placements, or sixel's
    /// chunks and the frame whose text stands on them.
    private var kitty = Screenful.kittyPlacements()
    private var sixel = SixelChunks()
    private var lastFrame: Frame?
    /// Set when the terminal lost its pictures other than by a full repaint (a stop and `fg`).
    private var picturesLost = false
    /// The terminal's replies taken out of its input, and what the filter gave back as input.
    private var replies = TerminalReplies()
    private var queued: [TerminalReplies.Unit] = []
    /// The codes curses gives arrows with Ctrl or Alt held, where the terminfo entry lists them
    /// (xterm's `kLFT3`…`kDN7`; Shift-arrows have codes of their own).
    private var modifiedArrowCodes: [Int32: Key] = [:]
    /// A self-pipe: events from other threads (tiles arriving) write to it, so that a wait for a key
    /// ends at once.
    private let wake: WakePipe

    /// The recording's file, while recording.
    private var castFile: Int32 = -1
    /// True while the mouse's reports are taken (`captureMouse`).
    private var mouseCaptured = true

    /// Sets up the terminal: locale, checks, raw keys, no echo, hidden cursor, mouse, colours; with
    /// `recordPath`, everything sent to the terminal is also written there as an asciicast v2 recording;
    /// with `askBackground`, the terminal is asked its background colour (`background`); `graphics` is
    /// `--graphics` (`auto` asks the terminal whether it draws kitty's pictures, `kitty` takes it that
    /// it does; nil or `none`: half blocks).
    public init(
        colorOption: String?, environment: [String: String], recordPath: String? = nil, askBackground: Bool = false,
        graphics: String? = nil
    ) throws(TerminalError) {
        setlocale(LC_ALL, "")
        let term = try Self.terminalType(environment)
        unicode = termmap_locale_is_utf8() != 0
        let cast = try recordPath.map { path throws(TerminalError) in
            try Self.startRecording(path, environment: environment)
        }
        castFile = cast ?? -1
        let (s, pipe) = try Self.openScreen(term: term, castFile: castFile)
        screen = s
        wake = pipe
        termmap_record_watch_resize()
        termmap_install_signal_handlers()
        termmap_set_curses_active(1)
        modifiedArrowCodes = Self.takeKeys()
        colorMode = ColorMode.choose(
            option: colorOption, noColor: environment["NO_COLOR"].map { !$0.isEmpty } ?? false, isTerminal: true,
            terminalColors: Int(termmap_terminal_colors()), colorTerm: environment["COLORTERM"])
        // ncurses clears the screen (and enters the alternate one) at its first refresh: done here, so
        // that the painter starts from a blank screen, and the later reads of keys refresh nothing.
        termmap_refresh_cleared()
        let win = termmap_stdscr()
        painter = TerminalPainter(
            cols: Int(getmaxx(win)), rows: Int(getmaxy(win)),
            abilities: Self.abilities(colorMode: colorMode, unicode: unicode))
        var cell = (width: Int32(0), height: Int32(0))
        termmap_cell_pixels(&cell.width, &cell.height)
        // Sixel draws pixel for pixel: without the cell's size in pixels it cannot cover the map.
        let sixelCell =
            cell.width >= 2 && cell.height >= 2 ? PictureCell(width: Int(cell.width), height: Int(cell.height)) : nil
        pictures = graphics == "kitty" ? .kitty : graphics == "sixel" ? sixelCell.map { .sixel($0) } : nil
        if askBackground || graphics == "auto" {
            let answers = askTerminal(
                background: askBackground, graphics: graphics == "auto", waitingAtMost: Self.backgroundWait)
            background = answers.0
            if graphics == "auto" {
                pictures = answers.kitty ? .kitty : answers.sixel ? sixelCell.map { .sixel($0) } : nil
            }
            // A terminal that shows a question it does not know: cleared again.
            termmap_refresh_cleared()
            painter.cleared(cols: Int(getmaxx(win)), rows: Int(getmaxy(win)))
        }
        Self.buttonEventTracking(true)
    }

    /// The terminal type to open, once standard input and output are a terminal and TERM names one.
    private static func terminalType(_ environment: [String: String]) throws(TerminalError) -> String {
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
        return term
    }

    /// Opens ncurses on the terminal and the self-pipe; on a failure what was opened is closed (the
    /// recording too) and one line says why.
    private static func openScreen(term: String, castFile: Int32) throws(TerminalError) -> (OpaquePointer, WakePipe) {
        func failure(_ description: String, screen: OpaquePointer?) -> TerminalError {
            if let screen {
                endwin()
                delscreen(screen)
            }
            if castFile >= 0 {
                termmap_record_stop()
                Glibc.close(castFile)
            }
            return TerminalError(description: description)
        }
        // newterm (unlike initscr) returns NULL for an unknown terminal instead of exiting.
        guard let s = termmap_newterm(term) else {
            throw failure(
                "unknown terminal type '\(term)': set TERM (e.g. xterm-256color) or use 'termmap render'", screen: nil)
        }
        set_term(s)
        // Frames are drawn in ECMA-48 (see TerminalPainter): a terminal that moves its cursor otherwise
        // is refused before anything is sent to it.
        guard termmap_cursor_addressing_is_ansi() != 0 else {
            throw failure(
                "terminal type '\(term)' does not move the cursor as ANSI terminals do: set TERM (e.g. "
                    + "xterm-256color) or use 'termmap render'", screen: s)
        }
        guard let pipe = WakePipe() else { throw failure("cannot make a pipe: \(systemErrorReason())", screen: s) }
        return (s, pipe)
    }

    /// Raw keys, no echo, the keypad, a short Esc delay, a hidden cursor and the mouse; the codes ncurses
    /// gives the arrows with a modifier held (kLFT3…kDN7), which the viewer takes as one key each.
    private static func takeKeys() -> [Int32: Key] {
        raw()
        noecho()
        nonl()
        keypad(termmap_stdscr(), true)
        var codes: [Int32: Key] = [:]
        for (cap, key) in [
            ("kLFT", Key.modifiedLeft), ("kRIT", .modifiedRight), ("kUP", .modifiedUp), ("kDN", .modifiedDown),
        ] {
            for modifier in 3...7 {
                let code = termmap_key_code("\(cap)\(modifier)")
                if code > 0 { codes[code] = key }
            }
        }
        set_escdelay(25)
        curs_set(0)
        mousemask(termmap_mouse_mask(), nil)
        mouseinterval(0)
        return codes
    }

    /// What terminfo says the terminal can do, for the painter.
    private static func abilities(colorMode: ColorMode, unicode: Bool) -> TerminalPainter.Abilities {
        TerminalPainter.Abilities(
            colorMode: colorMode, unicode: unicode,
            scrollRegion: termmap_has_string("csr") != 0 && termmap_has_string("ri") != 0,
            insertDelete: termmap_has_string("ich") != 0 && termmap_has_string("dch") != 0,
            lastCellSafe: termmap_has_flag("xenl") != 0 || termmap_has_flag("am") == 0,
            eraseCharacters: termmap_has_string("ech") != 0, eraseLine: termmap_has_string("el") != 0,
            backgroundErase: termmap_has_flag("bce") != 0)
    }

    /// How long the start waits for a terminal that answers neither question (one that answers device
    /// attributes ends the wait as soon as its answer arrives: one round trip over SSH).
    static let backgroundWait = 1.0

    /// Asks for the background colour (OSC 11, xterm's ctlseqs "Operating System Commands": `ESC ] 11 ; ?`)
    /// and right behind it for device attributes (`ESC [ c`): a terminal answers in order, so its
    /// device attributes answer says that no colour is coming, at once (the way terminal-colorsaurus
    /// asks). Keys typed meanwhile are kept for `nextEvent`; answers that come after the wait are taken
    /// out of the keys there.
    private func askTerminal(background: Bool, graphics: Bool, waitingAtMost seconds: Double) -> (
        TerminalColor?, kitty: Bool, sixel: Bool
    ) {
        // To the terminal itself: a recording shows frames, not questions.
        let query =
            (background ? Array("\u{1B}]11;?\u{07}".utf8) : []) + (graphics ? KittyGraphics.query : [])
            + Array("\u{1B}[c".utf8)
        query.withUnsafeBufferPointer { termmap_write_terminal($0.baseAddress, $0.count) }
        questionsOutstanding += 1
        let deadline = monotonicSeconds() + seconds
        var color: TerminalColor?
        var kitty = false
        var typed: [TerminalReplies.Unit] = []
        defer { queued += typed }
        while case let left = deadline - monotonicSeconds(), left > 0 {
            switch read(waiting: replies.isPending ? 30 : max(1, Int(left * 1000))) {
            case .unit(let unit):
                switch replies.feed(unit) {
                case .reply(.deviceAttributes):
                    questionsOutstanding -= 1
                    // Attribute 4: sixel graphics (VT340; xterm's ctlseqs, "Primary DA").
                    return (color, kitty, replies.deviceAttributes.contains(4))
                case .reply(.backgroundColor(let c)): color = c
                case .reply(.graphics(let answer)): kitty = kitty || KittyGraphics.saysOK(answer)
                case .reply(.otherCommand), .pending: continue
                case .input(let units): typed += units
                }
            case .nothing where replies.isPending: typed += replies.timeout()
            case .nothing, .woken: continue
            }
        }
        startAnswersDue += 1
        return (color, kitty, false)
    }

    /// Button-event tracking (xterm's mode 1002): motion is reported while a button is held, so that a
    /// drag moves the map as it goes, and not otherwise (mode 1003, which curses turns on for
    /// `REPORT_MOUSE_POSITION`, reports every move of an idle pointer too: bytes over SSH for nothing).
    /// xterm's terminfo says nothing of either mode: the sequences are sent here.
    private static func buttonEventTracking(_ on: Bool) {
        let text = on ? "\u{1B}[?1003l\u{1B}[?1002h" : "\u{1B}[?1002l\u{1B}[?1003l"
        let bytes = Array(text.utf8)
        bytes.withUnsafeBufferPointer { termmap_write_stdout($0.baseAddress, $0.count) }
    }

    deinit { close() }

    /// Leaves curses: cursor visible, echo on, alternate screen left. Safe to call twice.
    public func close() {
        guard !closed else { return }
        closed = true
        // No attributes, and the cursor where ncurses last left it (home), which endwin moves from.
        let bytes = painter.finish()
        bytes.withUnsafeBufferPointer { termmap_write_stdout($0.baseAddress, $0.count) }
        Self.buttonEventTracking(false)
        curs_set(1)
        termmap_set_curses_active(0)
        endwin()
        if let s = screen { delscreen(s) }
        screen = nil
        stopRecording()
        wake.close()
    }

    /// An inbox whose events wake this screen's wait for a key (from any thread).
    public func makeInbox() -> EventInbox {
        let pipe = wake
        return EventInbox { pipe.poke() }
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

    /// OSC 52 (xterm's "Manipulate Selection Data"): the terminal puts the base64 text on its
    /// clipboard. It travels with the rest of the output, so it crosses SSH; tmux takes it with
    /// `set-clipboard on`.
    public func captureMouse(_ on: Bool) {
        // A mask of nothing makes curses send the terminal's mouse-off sequence.
        mousemask(on ? termmap_mouse_mask() : 0, nil)
        Self.buttonEventTracking(on)
        mouseCaptured = on
    }

    /// True when a stop (Ctrl-Z) can be continued by a shell (see `termmap_job_control`).
    public var hasJobControl: Bool { termmap_job_control() != 0 }

    /// Ctrl-Z: the terminal restored as at the end (attributes, mouse modes, cursor, the normal screen),
    /// the process group stopped; on `fg`, the alternate screen, the mouse modes and the cursor taken
    /// again, the screen cleared, and the painter's copy of it blank, so that the next frame is whole.
    /// Answers and keys half read before the stop are dropped.
    public func suspend() {
        guard !closed else { return }
        // The shell's screen, then the map's again: what the terminal held of the pictures is gone.
        picturesLost = true
        // Answers on their way would reach the shell (its prompt would show `[?62;22c`): waited for, a
        // moment at most.
        let deadline = monotonicSeconds() + Self.answersBeforeStop
        while questionsOutstanding > 0, case let left = deadline - monotonicSeconds(), left > 0 {
            switch read(waiting: replies.isPending ? 30 : max(1, Int(left * 1000))) {
            case .unit(let unit):
                if case .reply(.deviceAttributes) = replies.feed(unit) { questionsOutstanding -= 1 }
            case .nothing where replies.isPending: _ = replies.timeout()
            case .nothing, .woken: continue
            }
        }
        let bytes = painter.finish()
        bytes.withUnsafeBufferPointer { termmap_write_stdout($0.baseAddress, $0.count) }
        if mouseCaptured {
            Self.buttonEventTracking(false)
            mousemask(0, nil)
        }
        curs_set(1)
        termmap_set_curses_active(0)
        endwin()
        termmap_stop_self()
        termmap_set_curses_active(1)
        // The terminal may have changed size meanwhile (SIGWINCH went to the stopped process).
        var cols: Int32 = 0
        var rows: Int32 = 0
        termmap_terminal_size(&cols, &rows)
        if cols > 0, rows > 0, (cols, rows) != (getmaxx(termmap_stdscr()), getmaxy(termmap_stdscr())) {
            resize_term(rows, cols)
        }
        // The first refresh after endwin puts the terminal back in the program's modes.
        termmap_refresh_cleared()
        curs_set(0)
        if mouseCaptured {
            mousemask(termmap_mouse_mask(), nil)
            Self.buttonEventTracking(true)
        }
        painter.cleared(cols: size.cols, rows: size.rows)
        replies = TerminalReplies()
        queued = []
        shownAnswers = 0
        startAnswersDue = 0
        questionsOutstanding = 0
    }

    /// How long a stop waits for the answers to questions already sent.
    static let answersBeforeStop = 0.5

    public func copyToClipboard(_ text: String) {
        let bytes = Array(("\u{1B}]52;c;" + Base64.encode(text.utf8) + "\u{07}").utf8)
        bytes.withUnsafeBufferPointer { termmap_write_stdout($0.baseAddress, $0.count) }
    }

    public func stopRequested() -> Bool { termmap_take_signal() != 0 || termmap_stdin_hung_up() != 0 }

    // MARK: Output

    /// Frames go out through the painter, not through ncurses' own screen update: it compares each
    /// frame with the one shown and sends only what changed, with the moves of a pan made by the
    /// terminal (a zoom frame cost about 6 M instructions in ncurses, about 0.3 M this way). ncurses
    /// keeps the input, the terminal modes, terminfo and the alternate screen.
    private var painter: TerminalPainter

    public func present(_ frame: Frame, fullRepaint: Bool, shift: ScreenShift?) {
        guard !closed else { return }
        // After a resize ncurses means to clear the screen at its next refresh, which would wipe a
        // frame drawn before it: let it clear now, and start from the blank screen.
        let now = size
        if is_wintouched(termmap_stdscr()) || now != (painter.cols, painter.rows) {
            termmap_refresh_cleared()
            painter.cleared(cols: now.cols, rows: now.rows)
        }
        if !fullRepaint, let shift { shift.move(&painter) }
        // The frame in one write: fewer packets over SSH.
        let bytes = painter.paint(frame, fullRepaint: fullRepaint)
        bytes.withUnsafeBufferPointer { termmap_write_stdout($0.baseAddress, $0.count) }
    }

    public var pictureCell: PictureCell? {
        switch pictures {
        case .kitty: .dots
        case .sixel(let cell): cell
        case nil: nil
        }
    }

    /// A screen: its frame, then, where the terminal draws pictures, what the picture needs. kitty:
    /// the chunks the terminal lacks and the placements that moved. Sixel: the chunks whose cells show
    /// something else now, then the text that stands on them again. Nothing when nothing changed. A
    /// cleared screen (Ctrl-L, a new size) has lost its pictures: they are sent again.
    public func present(_ screenful: Screenful, fullRepaint: Bool, shift: ScreenShift?) {
        let size = (painter.cols, painter.rows)
        let previous = lastFrame
        present(screenful.frame, fullRepaint: fullRepaint, shift: shift)
        guard let pictures, !closed else { return }
        let lost = picturesLost || fullRepaint || size != (painter.cols, painter.rows)
        picturesLost = false
        var bytes: [UInt8] = []
        switch pictures {
        case .kitty:
            if lost { bytes = kitty.forget() }
            bytes += screenful.pictureCommands(&kitty)
        case .sixel:
            bytes = presentSixel(screenful, lost: lost, previous: lost ? nil : previous)
        }
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeBufferPointer { termmap_write_stdout($0.baseAddress, $0.count) }
        painter.forgetCursor()
    }

    /// Sixel's part of a screen: the chunks to send, then the text over them written again.
    private func presentSixel(_ screenful: Screenful, lost: Bool, previous: Frame?) -> [UInt8] {
        let frame = screenful.frame
        defer { lastFrame = screenful.picture == nil ? nil : frame }
        if lost { sixel.forget() }
        guard screenful.picture != nil else {
            // The picture's pixels stay on the screen until written over: the whole screen, once.
            guard previous != nil else { return [] }
            sixel.forget()
            painter.forgetCells()
            return painter.paint(frame)
        }
        // Cells whose text went away: the space written there cut a hole in the picture.
        var holes: [(col: Int, row: Int)] = []
        if let previous, previous.cols == frame.cols, previous.rows == frame.rows {
            for row in 0..<screenful.pictureRows {
                for col in 0..<frame.cols
                where TerminalPainter.isBare(frame[col, row]) && !TerminalPainter.isBare(previous[col, row]) {
                    holes.append((col, row))
                }
            }
        }
        let update = sixel.update(screenful.picture, cols: frame.cols, rows: screenful.pictureRows, holes: holes)
        guard !update.bytes.isEmpty || !update.vacated.isEmpty else { return [] }
        // Sixel leaves a clear pixel as it was: the cells a chunk is sent to, and those no chunk shows
        // any more, are written blank first (text writes over a picture), then the chunks, then the text.
        for a in update.areas + update.vacated {
            painter.forgetCells(col: a.col, row: a.row, cols: a.cols, rows: a.rows)
        }
        let cleared = painter.paint(frame)
        for a in update.areas {
            painter.pictureWritten(col: a.col, row: a.row, cols: a.cols, rows: a.rows, under: frame)
        }
        return cleared + update.bytes + painter.paint(frame)
    }

    // MARK: Pacing

    /// Sends Primary Device Attributes (`ESC [ c`) after the frame just written: every
    /// terminal answers it (`ESC [ ? … c`), in order, once it has processed what came before. The cursor
    /// position report would do as well, but ncurses takes its answer for a function key (`ESC[1;6R` is
    /// F39 to xterm-256color's terminfo).
    public func askWhenShown() -> Bool {
        guard !closed else { return false }
        // `present` has written the frame in one write: this comes after it.
        let query: [UInt8] = [0x1B, 0x5B, 0x63]
        guard query.withUnsafeBytes({ write(STDOUT_FILENO, $0.baseAddress, $0.count) }) == query.count else {
            return false
        }
        questionsOutstanding += 1
        return true
    }

    public func takeShownAnswers() -> Int {
        defer { shownAnswers = 0 }
        return shownAnswers
    }

    // MARK: Input

    public func nextEvent(timeoutMilliseconds: Int) -> InputEvent? {
        guard !closed else { return nil }
        termmap_record_sync_size()
        var wait = timeoutMilliseconds
        while true {
            // `kill -TSTP` from outside: as Ctrl-Z.
            if termmap_take_stop_request() != 0 { return .command(.suspend) }
            // What the reply filter gave back as input comes first.
            if !queued.isEmpty {
                if let event = event(queued.removeFirst()) { return event }
                continue
            }
            let unit: TerminalReplies.Unit
            switch read(waiting: wait) {
            case .unit(let u): unit = u
            case .woken where replies.isPending:
                // Another thread's event: it waits in the inbox while the reply's rest comes.
                continue
            case .woken, .nothing:
                // Nothing came in time: what is held since an Esc was a key (Esc alone).
                guard replies.isPending else { return nil }
                queued = replies.timeout()
                continue
            }
            switch replies.feed(unit) {
            case .pending:
                // A reply comes in one write, and ncurses has already waited ESCDELAY after the Esc; a
                // little more for a link that split it.
                wait = 30
            case .reply(.deviceAttributes) where startAnswersDue > 0:
                // The start's question answered after its wait: not a frame shown.
                startAnswersDue -= 1
                questionsOutstanding = max(0, questionsOutstanding - 1)
                return nil
            case .reply(.deviceAttributes):
                // An answer to `askWhenShown` (or a late one) is not a key: nothing came this time.
                shownAnswers += 1
                questionsOutstanding = max(0, questionsOutstanding - 1)
                return nil
            case .reply(.backgroundColor), .reply(.otherCommand), .reply(.graphics):
                // The start's answers after its wait, or another answer: not keys.
                return nil
            case .input(let units):
                queued = units
                // A unit the filter still holds waits its time for the rest of a reply.
                wait = replies.isPending ? 30 : 0
            }
        }
    }

    /// What a read brought: a unit of input, nothing in the time given, or a byte on the inbox's pipe.
    private enum Read {
        case unit(TerminalReplies.Unit)
        case nothing, woken
    }

    /// The next unit the terminal sent, waiting at most `milliseconds` for the terminal or the inbox's
    /// pipe.
    private func read(waiting milliseconds: Int) -> Read {
        let win = termmap_stdscr()
        var ch: wint_t = 0
        // What ncurses holds or the terminal has sent already, without waiting.
        wtimeout(win, 0)
        var kind = wget_wch(win, &ch)
        if kind == ERR, milliseconds > 0 {
            var fds = [
                pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wake.readEnd, events: Int16(POLLIN), revents: 0),
            ]
            let n = poll(&fds, 2, Int32(min(milliseconds, Int(Int32.max))))
            if n > 0, fds[1].revents & Int16(POLLIN) != 0 {
                wake.drain()
                return .woken
            }
            // Input, a signal (a resize: ncurses has a KEY_RESIZE ready) or the time is up: look again.
            wtimeout(win, 0)
            kind = wget_wch(win, &ch)
        }
        guard kind != ERR else { return .nothing }
        return .unit(kind == KEY_CODE_YES ? .keyCode(Int32(ch)) : .char(UInt32(ch)))
    }

    /// The viewer's event of a unit of input, or nil for one that means nothing to it.
    private func event(_ unit: TerminalReplies.Unit) -> InputEvent? {
        switch unit {
        case .keyCode(let code):
            switch code {
            case KEY_SLEFT: return .key(.modifiedLeft)
            case KEY_SRIGHT: return .key(.modifiedRight)
            case KEY_SR: return .key(.modifiedUp)  // "scroll reverse": Shift-↑ in xterm's terminfo
            case KEY_SF: return .key(.modifiedDown)
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
                guard getmouse(&m) == OK else { return nil }
                let col = Int(m.x)
                let row = Int(m.y)
                if termmap_is_wheel_up(m.bstate) != 0 { return .mouse(.wheelUp(col: col, row: row)) }
                if termmap_is_wheel_down(m.bstate) != 0 { return .mouse(.wheelDown(col: col, row: row)) }
                let report: PointerGestures.Report? =
                    termmap_is_press(m.bstate) != 0
                    ? .press
                    : termmap_is_release(m.bstate) != 0 ? .release : termmap_is_motion(m.bstate) != 0 ? .motion : nil
                guard let report else { return nil }
                return gestures.next(report, col: col, row: row).map { .mouse($0) }
            default:
                // Ctrl- and Alt-arrows a terminfo entry lists (`kLFT5`…) decode to codes of their own.
                return modifiedArrowCodes[code].map { .key($0) }
            }
        case .modifiedArrow(let final):
            return .key(
                final == 0x41
                    ? .modifiedUp : final == 0x42 ? .modifiedDown : final == 0x43 ? .modifiedRight : .modifiedLeft)
        case .char(let ch):
            switch ch {
            case 3: return .key(.ctrlC)
            case 9: return .key(.tab)
            case 12: return .key(.ctrlL)
            case 26: return .key(.ctrlZ)
            case 10, 13: return .key(.enter)
            case 27: return .key(.escape)
            case 8, 127: return .key(.backspace)
            default:
                guard ch >= 32, let scalar = Unicode.Scalar(ch) else { return nil }
                return .key(.char(Character(scalar)))
            }
        }
    }
}

/// A pipe that other threads write a byte to, so that a `poll` on its other end wakes: both ends do
/// not block, and are closed once; a write after the close does nothing (the loading thread may finish
/// a batch after the screen has closed).
final class WakePipe: Sendable {
    private let ends: Mutex<(read: Int32, write: Int32)?>
    /// The end to poll (-1 once closed: `poll` ignores it).
    let readEnd: Int32

    /// A new pipe, or nil when the system has none to give.
    init?() {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return nil }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        ends = Mutex((fds[0], fds[1]))
        readEnd = fds[0]
    }

    /// Writes a byte (a full pipe already wakes the poll: the byte may be dropped).
    func poke() {
        ends.withLock { ends in
            guard let write = ends?.write else { return }
            var byte: UInt8 = 1
            _ = Glibc.write(write, &byte, 1)
        }
    }

    /// Reads what the pokes wrote.
    func drain() {
        ends.withLock { ends in
            guard let read = ends?.read else { return }
            var bytes = [UInt8](repeating: 0, count: 64)
            while Glibc.read(read, &bytes, bytes.count) > 0 {}
        }
    }

    /// Closes both ends (once).
    func close() {
        ends.withLock { ends in
            guard let e = ends else { return }
            Glibc.close(e.read)
            Glibc.close(e.write)
            ends = nil
        }
    }
}
