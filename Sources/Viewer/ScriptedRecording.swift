import MapData
import MapRender
import Raster

/// The screen of a script (`render`, `render --cast`): its input is keys at given times on a clock of
/// its own, which moves only when the event loop waits (swift-nio's embedded loop, for a viewer); a
/// wait ends at once when the inbox has something. What it shows goes to `shown`.
public final class ScriptedScreen: Screen {
    public let size: (cols: Int, rows: Int)
    public let colorMode: ColorMode
    /// The script's clock, in seconds.
    public private(set) var now = 0.0
    /// When the last screen was shown, and the screen.
    public private(set) var lastShownAt = 0.0
    public private(set) var last: Screenful?
    private var script: [(time: Double, event: InputEvent)]
    private let inbox: EventInbox?
    /// False when only the last screen is wanted (`render`).
    public let showsEveryFrame: Bool
    /// A cell's pixels when the imagery is wanted as a picture (`render --graphics kitty|sixel`).
    public var pictureCell: PictureCell?
    private let shown: (Screenful, Bool, ScreenShift?, Double) -> Void

    /// A screen of `cols × rows` in `mode` whose input is `script` (times in seconds, in order); each
    /// screen shown is passed to `shown` with whether it is a full repaint, how the map moved, and the
    /// time.
    public init(
        cols: Int, rows: Int, mode: ColorMode, script: [(time: Double, event: InputEvent)], inbox: EventInbox?,
        everyFrame: Bool = true, shown: @escaping (Screenful, Bool, ScreenShift?, Double) -> Void = { _, _, _, _ in }
    ) {
        showsEveryFrame = everyFrame
        size = (cols, rows)
        colorMode = mode
        self.script = script
        self.inbox = inbox
        self.shown = shown
    }

    public func present(_ frame: Frame, fullRepaint: Bool, shift: ScreenShift?) {
        present(Screenful(frame: frame, map: nil), fullRepaint: fullRepaint, shift: shift)
    }

    public func present(_ screenful: Screenful, fullRepaint: Bool, shift: ScreenShift?) {
        last = screenful
        lastShownAt = now
        shown(screenful, fullRepaint, shift, now)
    }

    public func nextEvent(timeoutMilliseconds: Int) -> InputEvent? {
        // Something left in the inbox (tiles that arrived) wakes the wait at once, as the terminal's
        // self-pipe does.
        if let inbox, !inbox.isEmpty { return nil }
        let until = now + Double(max(0, timeoutMilliseconds)) / 1000
        if let first = script.first, first.time <= until {
            now = max(now, first.time)
            script.removeFirst()
            return first.event
        }
        now = until
        return nil
    }

    public func stopRequested() -> Bool { false }

    public var inputEnded: Bool { script.isEmpty }
}

/// `render` and `render --cast`: the screens a session would show, made without a terminal by the
/// viewer's own event loop over a `ScriptedScreen`. Time is the script's, not the clock's: keys come
/// `keyInterval` apart (all at once without a recording), a tour's steps after their pauses,
/// animation frames at 30 a second, tiles as soon as they are loaded (in this thread); so the same
/// input makes the same file.
public enum ScriptedRecording {
    /// Seconds between scripted keys.
    public static let keyInterval = 0.5
    /// Seconds the last screen stays before the recording ends (after keys; a tour's last step keeps its own).
    public static let hold = 2.0

    /// Plays `keys` (then `tour`) from `start` as the viewer would; `shown` gets each screen. Returns the
    /// state it ends in and its last screen. `spaced`: keys `keyInterval` apart and every screen shown
    /// (a recording's), or all keys at the start and only the last screen drawn (`render`'s: no tile is
    /// loaded for the views the keys and the tour pass through).
    @discardableResult
    public static func play(
        _ start: ViewerState, keys: [Keystroke], tour: Tour?, sources: MapSources?, mode: ColorMode, spaced: Bool,
        pictures: PictureCell? = nil,
        shown: @escaping (Screenful, Bool, ScreenShift?, Double) -> Void = { _, _, _, _ in }
    ) -> (state: ViewerState, screen: ScriptedScreen) {
        var state = start
        let inbox = EventInbox()
        let loader = ImmediateTileLoader(sources: sources?.loadable ?? []) { inbox.post(.tilesArrived($0)) }
        let script = keys.enumerated().map {
            (time: spaced ? Double($0.offset + 1) * keyInterval : 0, event: $0.element.event)
        }
        let screen = ScriptedScreen(
            cols: state.terminalCols, rows: state.terminalRows, mode: mode, script: script, inbox: inbox,
            everyFrame: spaced, shown: shown)
        screen.pictureCell = pictures
        EventLoop.run(
            &state, sources: sources, screen: screen, now: { screen.now }, tour: tour.map { TourPlayer($0) },
            tourAfterInput: keys.isEmpty ? nil : spaced ? keyInterval : 0, endsWithTour: tour != nil,
            endWhenIdle: tour == nil ? 0 : nil, loader: loader, inbox: inbox)
        return (state, screen)
    }

    /// The recording: a header without a timestamp, then each screen as the viewer's painter would send
    /// it to an xterm (a pan moves what the terminal shows). Terminal queries never appear in it.
    public static func cast(
        _ start: ViewerState, keys: [Keystroke], tour: Tour?, sources: MapSources?, mode: ColorMode
    ) -> String {
        var out = Asciicast.header(
            cols: start.terminalCols, rows: start.terminalRows, timestamp: nil,
            term: mode == .ansi256 ? "xterm-256color" : "xterm", shell: "/bin/sh")
        var painter = TerminalPainter(cols: start.terminalCols, rows: start.terminalRows, abilities: .xterm(mode))
        var started = false
        let (_, screen) = play(start, keys: keys, tour: tour, sources: sources, mode: mode, spaced: true) {
            screenful, fullRepaint, shift, time in
            var text = started ? "" : "\u{1B}[?25l"
            if started, !fullRepaint, let shift { shift.move(&painter) }
            let bytes = painter.paint(screenful.frame, fullRepaint: !started || fullRepaint)
            started = true
            guard !bytes.isEmpty else { return }
            text += String(decoding: bytes, as: UTF8.self)
            out += Asciicast.output(at: time, text)
        }
        // After keys the last screen is held; a tour's end is its last step's time.
        return out + Asciicast.output(at: tour == nil ? screen.lastShownAt + hold : screen.now, "")
    }
}
