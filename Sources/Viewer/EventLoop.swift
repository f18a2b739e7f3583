import MapData
import MapRender
import Raster
import Synchronization

/// What the event loop needs from a terminal; `TerminalUI` implements it (ncurses and
/// `TerminalPainter`), tests with a fake.
public protocol Screen: AnyObject {
    /// Columns and rows now.
    var size: (cols: Int, rows: Int) { get }
    /// What the terminal shows of styles (decided once, by `ColorMode.choose`).
    var colorMode: ColorMode { get }
    /// Shows a frame; `fullRepaint` redraws every cell (Ctrl-L); `shift` says how the map moved since
    /// the frame before, so that the terminal can move what it shows instead of redrawing it.
    func present(_ frame: Frame, fullRepaint: Bool, shift: ScreenShift?)
    /// The next event, waiting at most `timeoutMilliseconds` (0: only what is already there); nil when
    /// none came: the time is up, the inbox woke the wait, or what came was the terminal's reply.
    func nextEvent(timeoutMilliseconds: Int) -> InputEvent?
    /// True when the program was asked to end from outside (SIGTERM, SIGHUP, SIGINT).
    func stopRequested() -> Bool
    /// Asks the terminal to answer once it has shown everything sent before (a Primary Device Attributes
    /// query, answered in order after the frame); false when this screen cannot ask.
    func askWhenShown() -> Bool
    /// How many answers to `askWhenShown` came since the last call (they come with the input and are
    /// taken out of it: never a key).
    func takeShownAnswers() -> Int
    /// Shows a screen: its frame as `present` does (a screen that keeps what the map drew takes it).
    func present(_ screenful: Screenful, fullRepaint: Bool, shift: ScreenShift?)
    /// Puts `text` on the clipboard of the terminal the person sits at (a screen without one ignores it).
    func copyToClipboard(_ text: String)
    /// Takes the mouse's reports, or leaves the mouse to the terminal (a screen without one ignores it).
    func captureMouse(_ on: Bool)
    /// Restores the terminal, stops until continued (`fg`), and takes the terminal again, blank: the
    /// next frame is drawn whole (a screen without a terminal ignores it).
    func suspend()
    /// True when the input has run out for good (a script's): the terminal's never does.
    var inputEnded: Bool { get }
    /// False for a screen that shows only the last frame (`render`): nothing is drawn, and no tile is
    /// loaded, for the views the input passes through.
    var showsEveryFrame: Bool { get }
}

extension Screen {
    public func askWhenShown() -> Bool { false }
    public func copyToClipboard(_ text: String) {}
    public func captureMouse(_ on: Bool) {}
    public func suspend() {}
    public func takeShownAnswers() -> Int { 0 }
    public func present(_ screenful: Screenful, fullRepaint: Bool, shift: ScreenShift?) {
        present(screenful.frame, fullRepaint: fullRepaint, shift: shift)
    }
    public var inputEnded: Bool { false }
    public var showsEveryFrame: Bool { true }
}

/// Events that come from elsewhere than the terminal (tiles arriving from the loading thread), kept
/// until the loop takes them; `wake` is called at each (the terminal's screen writes to its self-pipe,
/// so that its wait for a key ends at once).
public final class EventInbox: Sendable {
    private let events = Mutex<[InputEvent]>([])
    private let wake: @Sendable () -> Void

    /// An empty inbox that calls `wake` when an event is left.
    public init(wake: @escaping @Sendable () -> Void = {}) { self.wake = wake }

    /// Leaves an event for the loop (from any thread).
    public func post(_ event: InputEvent) {
        events.withLock { $0.append(event) }
        wake()
    }

    /// The events left so far, oldest first.
    public func take() -> [InputEvent] {
        events.withLock { e in
            defer { e = [] }
            return e
        }
    }

    /// True when an event is waiting.
    public var isEmpty: Bool { events.withLock { $0.isEmpty } }
}

/// Why the event loop ended.
public enum LoopEnding: Equatable, Sendable {
    /// An update returned `Effect.quit` (`q`, Ctrl-C, the idle timeout).
    case quit
    /// The screen reported a stop request (a signal, the terminal hung up).
    case stopRequested
}

/// The interactive loop: read events, update the state, carry out its effects, present the newest frame.
public enum EventLoop {
    /// Milliseconds between frames while animating (30 per second: each zoom frame changes every cell,
    /// which over a slow SSH link is what costs).
    public static let animationFrameMilliseconds = 33
    /// How long to wait for input when nothing moves (the idle timeout is checked at this rate).
    public static let idleMilliseconds = 250
    /// How long to wait for the terminal to say it has shown an animation frame before animating without
    /// asking (a terminal that never answers); an answer that comes later turns asking back on.
    public static let shownAnswerTimeout = 3.0
    /// On a link where a frame takes longer than `burstQuiet` to be shown, keys that came while one was
    /// on its way are taken for a burst still being typed: the next frame waits until no key has come
    /// for one and a half of the burst's last gap between keys (`burstQuiet`…`burstHoldLimit`; at most
    /// `burstHoldLimit` in all), so that it shows the burst's end rather than its middle (drawing the
    /// middle would cost a whole frame's time on such a link).
    public static let burstQuiet = 0.15
    public static let burstHoldLimit = 0.35

    /// Runs until an update asks to quit or the screen asks to stop; after `idleTimeout` seconds
    /// without input the loop sends `.idleTimeout`. `now` is the clock in seconds.
    ///
    /// Frames are paced by the terminal: after one is drawn the screen asks the terminal to answer when
    /// it has shown it, and until the answer comes the next frame waits; the one drawn then is the
    /// newest (frames in between are skipped). Over a slow link nothing else would hold frames back:
    /// sshd reads the pty as fast as it can, so a write never blocks while frames queue in its window.
    /// Until the terminal has answered once, only frames in the middle of an animation wait (one that
    /// never answers still shows every key and the end of every animation), and after
    /// `shownAnswerTimeout` without an answer it is asked no more. When an answer took longer than an
    /// animation lasts, an animation jumps to its end at once: on such a link each frame costs more than
    /// the whole animation.
    ///
    /// A `tour` plays at once, or with `tourAfter` once that many seconds pass without input, and then
    /// loops. Its steps are not input: the idle timeout still counts from the last key.
    /// `afterFirstFrame` runs once the first frame is on its way (work the first frame does not need).
    /// Tiles a frame lacks go to `loader`, and levels of detail of the user's files to `preparer`; their
    /// arrivals come back through `inbox` (posted from any thread).
    ///
    /// Scripts (`render`, recordings) run through the same loop with a screen of their own and its
    /// clock: `tourAfterInput` starts the tour that long after the input has run out (its keys first),
    /// `endsWithTour` ends the run when the tour does, and `endWhenIdle` ends it once the input has run
    /// out and nothing has changed, moved or been loading for that long.
    @discardableResult
    public static func run(
        _ state: inout ViewerState, sources: MapSources?, screen: Screen, now: () -> Double,
        idleTimeout: Double? = nil, tour: TourPlayer? = nil, tourAfter: Double? = nil, tourAfterInput: Double? = nil,
        endsWithTour: Bool = false, endWhenIdle: Double? = nil,
        loader: TileLoading? = nil, preparer: DetailPreparing? = nil, inbox: EventInbox? = nil,
        afterFirstFrame: () -> Void = {},
        changeBookmarks: (BookmarkChange) -> Void = { _ in }
    ) -> LoopEnding {
        var lastFrame = now()
        var lastInput = lastFrame
        var player = tour
        if tourAfter != nil { player?.loops = true }
        var tourWaits = tour != nil && (tourAfter != nil || tourAfterInput != nil)
        if let player, !tourWaits { state.tour = .playing(step: 1, steps: player.tour.steps.count) }
        var inputEndedAt: Double?
        // When a script's tour ended (its run ends once the tiles its last view asked for are in).
        var tourOver: Double?
        let scripted = endWhenIdle != nil || endsWithTour
        var tourClock = lastFrame
        var drawn: ViewerState?
        var quit = false
        var repaint = false
        // Pacing: when the question went out (nil: no answer outstanding), whether the terminal answers
        // (nil: not known yet), and whether a frame was skipped while waiting.
        var askedAt: Double?
        var terminalAnswers: Bool?
        var skipped = false
        // How long the last answer took.
        var answerDelay = 0.0
        // When the last frame was drawn: an answer that comes early does not make frames come faster.
        var drawnAt = lastFrame
        // Keys came while a frame was on its way; since when the next frame has waited for the burst's end.
        var keysInFlight = false
        var burstHoldSince: Double?
        // The last gap between two keys, and how long a hold waits for quiet.
        var keyGap = burstQuiet
        var quiet: Double { min(burstHoldLimit, max(burstQuiet, 1.5 * keyGap)) }
        let period = Double(animationFrameMilliseconds) / 1000
        func apply(_ event: InputEvent) {
            for effect in state.update(event, places: sources) {
                switch effect {
                case .quit: quit = true
                case .repaint: repaint = true
                case .load(let batch): loader?.request(batch)
                case .prepare(let request): preparer?.request(request)
                case .copy(let text): screen.copyToClipboard(text)
                case .changeBookmarks(let change): changeBookmarks(change)
                case .captureMouse(let on): screen.captureMouse(on)
                case .suspend:
                    screen.suspend()
                    resumed()
                }
            }
        }
        // The state takes the screen's size when it differs (at the start, and after a stop).
        func followScreenSize() {
            let size = screen.size
            if size.cols != state.terminalCols || size.rows != state.terminalRows {
                apply(.resize(cols: size.cols, rows: size.rows))
            }
        }
        // Back from a stop: the screen is blank (and knows it: the next frame draws what it shows, not a
        // move of the last), what was asked of the terminal before is forgotten, and the time stopped is
        // not idle time.
        func resumed() {
            drawn = nil
            askedAt = nil
            skipped = true
            keysInFlight = false
            burstHoldSince = nil
            lastInput = now()
            tourClock = lastInput
            followScreenSize()
        }
        func draw() {
            // A screen that shows only its last frame has the tiles of that frame loaded before it is
            // drawn, not drawn once without them.
            if !screen.showsEveryFrame, loader != nil, state.isLargeEnough {
                let missing = MapRenderer.missingTiles(view: state.displayedView, sources: sources)
                if !missing.isEmpty {
                    apply(.rendered(missing: missing))
                    _ = tilesArrived()
                }
            }
            // With a preparer, what a file's level of detail lacks is made there, away from the keys.
            let screenful = Renderer.draw(
                state, sources: sources,
                options: RenderOptions(mode: screen.colorMode, makesDetailAtOnce: preparer == nil))
            let shift = drawn.flatMap { ScreenShift.between($0, state) }
            screen.present(screenful, fullRepaint: repaint, shift: shift)
            // What the frame lacked is asked for now; a frame without a map (too small) lacks nothing.
            apply(
                .rendered(
                    missing: screenful.map?.missing ?? [],
                    streetDataEnds: screen.showsEveryFrame && screenful.map?.streetDataEnds == true,
                    streetDataInView: !screen.showsEveryFrame || screenful.map?.streetDataInView != false,
                    infoScrollLimit: screenful.infoScrollLimit, detail: screenful.map?.missingDetail ?? []))
            repaint = false
            drawn = state
            drawnAt = lastFrame
            skipped = false
            keysInFlight = false
            burstHoldSince = nil
            if terminalAnswers != false, askedAt == nil {
                // Asked at this turn's time (`lastFrame`): the clock is read once a turn.
                if screen.askWhenShown() { askedAt = lastFrame } else { terminalAnswers = false }
            }
        }
        // Tiles load elsewhere (in the background, or at once for a script): what has arrived is taken
        // from the inbox and drawn (the frame itself never waits for one).
        func tilesArrived() -> Bool {
            let arrivals = inbox?.take() ?? []
            for event in arrivals { apply(event) }
            return !arrivals.isEmpty
        }
        // A screen that shows only the last frame is drawn once the input has run out and no tour plays.
        func mayDraw() -> Bool {
            guard !screen.showsEveryFrame else { return true }
            guard screen.inputEnded, !tourWaits else { return false }
            if case .playing = state.tour { return false }
            return true
        }
        followScreenSize()
        if mayDraw() { draw() } else { skipped = true }
        afterFirstFrame()
        // The first frame's answer is timed from here: what `afterFirstFrame` took (PROJ's libraries,
        // 12 ms here, far more on a loaded machine) is this program's time, not the link's, and would
        // otherwise make the first animation jump to its end as if the link were slow.
        if askedAt != nil { askedAt = now() }
        while !quit {
            if screen.stopRequested() { return .stopRequested }
            if let over = tourOver, state.animation == nil || now() - over > 10 { break }
            // A script's end: its input ran out, nothing moves or loads, no tour plays, and it has been so
            // for `endWhenIdle`.
            if screen.inputEnded {
                let t = now()
                if inputEndedAt == nil { inputEndedAt = t }
                // (Tiles asked for and never come are waited for 10 s, no more.)
                if let endWhenIdle, state.animation == nil, state.requestedTiles.isEmpty || t - drawnAt > 10, !skipped,
                    inbox?.isEmpty ?? true, !tourWaits, state.tour == .off || player == nil,
                    t - max(drawnAt, inputEndedAt ?? t) >= endWhenIdle
                {
                    break
                }
            }
            let animating = state.animation != nil
            // While animating, wake at the next frame's time (an answer may have woken the loop early).
            // Tiles loading need no earlier wake: their arrival ends the wait (the inbox wakes the screen).
            let sinceDrawn = Int(((lastFrame - drawnAt) * 1000).rounded())
            var waiting =
                animating
                ? min(animationFrameMilliseconds, max(1, animationFrameMilliseconds - sinceDrawn)) : idleMilliseconds
            // A playing tour wakes the loop when its next step is due.
            if case .playing = state.tour, let toNext = player?.secondsToNext {
                waiting = min(waiting, Int((toNext * 1000).rounded(.up)))
            }
            // A frame held for a burst's end is drawn as soon as the keys have paused.
            if let since = burstHoldSince {
                let end = min(lastInput + quiet, since + burstHoldLimit)
                waiting = min(waiting, max(1, Int(((end - lastFrame) * 1000).rounded(.up))))
            }
            // A script wakes when its tour is to start and when it is to end.
            if let ended = inputEndedAt {
                if tourWaits, let after = tourAfterInput {
                    waiting = min(waiting, max(1, Int(((ended + after - lastFrame) * 1000).rounded(.up))))
                }
                if let endWhenIdle {
                    let end = max(drawnAt, ended) + endWhenIdle
                    waiting = min(waiting, max(1, Int(((end - lastFrame) * 1000).rounded(.up))))
                }
            }
            // An idle timeout with nothing to animate changes nothing on screen: no frame is drawn.
            var changed = animating
            if let event = screen.nextEvent(timeoutMilliseconds: waiting) {
                changed = true
                apply(event)
                let arrived = now()
                if askedAt != nil {
                    if keysInFlight { keyGap = arrived - lastInput }
                    keysInFlight = true
                }
                lastInput = arrived
                // Coalesce a burst: apply everything already waiting, then draw once.
                var drained = 0
                while !quit, drained < 1000, let more = screen.nextEvent(timeoutMilliseconds: 0) {
                    apply(more)
                    drained += 1
                }
            } else if let idleTimeout, now() - lastInput >= idleTimeout {
                apply(.idleTimeout(seconds: idleTimeout))
            }
            let t = now()
            // An animation a key has just started begins here, not at the last idle wake-up (up to
            // 250 ms ago: ticking that much would show its last frame first).
            if state.animation != nil && animating {
                apply(.tick(seconds: max(0, t - lastFrame)))
            }
            // Over a link slower than an animation, an animation is its last frame, shown now.
            if state.animation != nil && answerDelay > ViewAnimation.duration {
                apply(.tick(seconds: ViewAnimation.duration))
            }
            lastFrame = t
            if tilesArrived() { changed = true }
            // A script's tour starts once its input has run out (and `tourAfterInput` more).
            if let after = tourAfterInput, tourWaits, let ended = inputEndedAt, t - ended >= after, let p = player {
                tourWaits = false
                tourClock = t
                state.tour = .playing(step: 1, steps: p.tour.steps.count)
            }
            switch playTour(
                &state, &player, since: &tourClock, now: t, idleFor: t - lastInput, after: tourAfter, sources,
                handsOver: !endsWithTour)
            {
            case .unchanged: break
            case .changed: changed = true
            case .over: if tourOver == nil { tourOver = t }
            }
            if screen.takeShownAnswers() > 0 {
                answerDelay = askedAt.map { t - $0 } ?? answerDelay
                askedAt = nil
                terminalAnswers = true
                if keysInFlight && answerDelay > burstQuiet { burstHoldSince = t }
            } else if let asked = askedAt, t - asked >= shownAnswerTimeout {
                askedAt = nil
                terminalAnswers = false
            }
            // A frame waits while the terminal has not shown the last one (in the middle of an animation,
            // or once the terminal is known to answer), and an animation frame for its time.
            let midAnimation = state.animation != nil
            let holdingForBurst = burstHoldSince.map { t - lastInput < quiet && t - $0 < burstHoldLimit } ?? false
            let waitForTerminal =
                holdingForBurst || askedAt != nil && (midAnimation || terminalAnswers == true)
                || midAnimation && (t - drawnAt < period * 0.9 || answerDelay > ViewAnimation.duration)
            if (changed || skipped) && !quit {
                if waitForTerminal || !mayDraw() { skipped = true } else { draw() }
            }
        }
        // A script ends on the screen of the state it ends in (`q` in `render --keys`, a tour's last
        // step), with the tiles that view lacked: they load at once, a few rounds at most (a cache too
        // small for the view evicts what it loads).
        if scripted {
            for _ in 0..<8 {
                if drawn != state || skipped {
                    repaint = false
                    draw()
                }
                let arrivals = inbox?.take() ?? []
                guard !arrivals.isEmpty else { break }
                for event in arrivals { apply(event) }
            }
        }
        return .quit
    }

    /// What playing a tour did to the state.
    enum TourTurn { case unchanged, changed, over }

    /// Plays the tour's steps that fell due by `now` (time paused does not count), and starts a looping
    /// tour after `after` seconds without input; at a tour's end, the map is handed over to the user
    /// (`handsOver`) or the tour is `over` (a script's end).
    static func playTour(
        _ state: inout ViewerState, _ player: inout TourPlayer?, since clock: inout Double, now: Double,
        idleFor: Double, after: Double?, _ sources: MapSources?, handsOver: Bool = true
    ) -> TourTurn {
        guard var p = player else { return .unchanged }
        defer {
            player = p
            clock = now
        }
        let steps = p.tour.steps.count
        var started = false
        if let after, idleFor >= after {
            switch state.tour {
            case .playing: break
            case .off, .paused:
                p.restart()
                state.tour = .playing(step: 1, steps: steps)
                started = true
            }
        }
        guard case .playing = state.tour else { return .unchanged }
        let due = p.advance(started ? 0 : now - clock)
        for step in due { state.play(step, places: sources, mode: .playing(step: p.stepShown, steps: steps)) }
        if p.isFinished {
            guard handsOver else { return .over }
            state.tour = .off
            state.message = "tour over: the map is yours (q quits)"
            state.messageIsError = false
            return .changed
        }
        return !due.isEmpty || started ? .changed : .unchanged
    }
}
