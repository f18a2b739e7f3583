import MapData
import MapRender

/// A tour as the loop plays it: the player, when it starts on its own, and its clock.
struct LoopTour {
    var player: TourPlayer?
    /// Start (and loop) after this many seconds without input.
    let after: Double?
    /// The tour has not started yet: it waits for idle time or for a script's input to run out.
    var waits: Bool
    /// The time its steps are counted from (time stopped does not count).
    var clock = 0.0

    init(player: TourPlayer?, after: Double?, waitsForInputEnd: Bool) {
        var player = player
        if after != nil { player?.loops = true }
        self.player = player
        self.after = after
        waits = player != nil && (after != nil || waitsForInputEnd)
    }
}

/// One run of the event loop: the state, the screen, what paces frames and what ends a script, each turn
/// a short method. `EventLoop.run` makes one and hands the state back when it ends.
final class LoopRuntime {
    private(set) var state: ViewerState
    private let sources: MapSources?
    private let screen: Screen
    private let now: () -> Double
    private let performer: EffectPerformer
    private let inbox: EventInbox?
    private let makesDetailAtOnce: Bool
    private let idleTimeout: Double?
    private var tour: LoopTour
    private var script: ScriptEnd
    private var pacer: FramePacer
    /// The clock read once a turn, and when the last input came.
    private var lastFrame: Double
    private var lastInput: Double
    /// The state last drawn (nil: the screen is blank), and whether a frame is owed.
    private var drawn: ViewerState?
    private var skipped = false
    private var quit = false
    private var repaint = false

    init(
        state: ViewerState, sources: MapSources?, screen: Screen, now: @escaping () -> Double,
        performer: EffectPerformer, inbox: EventInbox?, makesDetailAtOnce: Bool, idleTimeout: Double?,
        tour: LoopTour, script: ScriptEnd
    ) {
        self.state = state
        self.sources = sources
        self.screen = screen
        self.now = now
        self.performer = performer
        self.inbox = inbox
        self.makesDetailAtOnce = makesDetailAtOnce
        self.idleTimeout = idleTimeout
        self.tour = tour
        self.script = script
        let start = now()
        lastFrame = start
        lastInput = start
        pacer = FramePacer(now: start)
        self.tour.clock = start
        if let player = tour.player, !tour.waits {
            self.state.tour = .playing(step: 1, steps: player.tour.steps.count)
        }
    }

    /// Runs to the end: the first frame, then a turn at a time until quit, a stop or a script's end.
    func run(afterFirstFrame: () -> Void) -> LoopEnding {
        followScreenSize()
        if mayDraw() { draw() } else { skipped = true }
        afterFirstFrame()
        // The first frame's answer is timed from here: what `afterFirstFrame` took (PROJ's libraries,
        // 12 ms here, far more on a loaded machine) is this program's time, not the link's, and would
        // otherwise make the first animation jump to its end as if the link were slow.
        if pacer.askedAt != nil { pacer.restartAnswerClock(at: now()) }
        while !quit {
            if screen.stopRequested() { return .stopRequested }
            if script.tourIsOver(animating: state.animation != nil, now: now) || scriptIsIdle() { break }
            turn()
        }
        if script.isScripted { finishScript() }
        return .quit
    }

    /// Applies an event and carries out its effects.
    func apply(_ event: InputEvent) {
        for effect in state.update(event, places: sources) {
            switch performer.perform(effect) {
            case .done: break
            case .quit: quit = true
            case .repaint: repaint = true
            case .resumed: resumed()
            }
        }
    }

    /// One turn: wait for input (or a frame's time), apply it, tick animations and the tour, take what
    /// arrived and the terminal's answers, and draw when a frame is due.
    private func turn() {
        let animating = state.animation != nil || state.timeBar?.playing == true
        var changed = takeInput(waiting: wait(animating: animating)) || animating
        let t = now()
        // An animation a key has just started begins here, not at the last idle wake-up (up to
        // 250 ms ago: ticking that much would show its last frame first).
        if state.animation != nil && animating { apply(.tick(seconds: max(0, t - lastFrame))) }
        // Over a link slower than an animation, an animation is its last frame, shown now.
        if state.animation != nil && pacer.animationJumps { apply(.tick(seconds: ViewAnimation.duration)) }
        if state.timeBar?.playing == true { apply(.clock(seconds: max(0, t - lastFrame))) }
        lastFrame = t
        if tilesArrived() { changed = true }
        if playTour(at: t) { changed = true }
        pacer.answered(screen.takeShownAnswers(), at: t)
        if (changed || skipped) && !quit {
            let holds = pacer.holds(at: t, lastInput: lastInput, animating: state.animation != nil)
            if holds || !mayDraw() { skipped = true } else { draw() }
        }
    }

    /// How long this turn may wait for input (milliseconds). Tiles loading need no earlier wake: their
    /// arrival ends the wait (the inbox wakes the screen).
    private func wait(animating: Bool) -> Int {
        var waiting = pacer.wait(
            at: lastFrame, lastInput: lastInput, animating: animating, idle: EventLoop.idleMilliseconds)
        // A playing tour wakes the loop when its next step is due.
        if case .playing = state.tour, let toNext = tour.player?.secondsToNext {
            waiting = min(waiting, Int((toNext * 1000).rounded(.up)))
        }
        if let scripted = script.wait(at: lastFrame, drawnAt: pacer.drawnAt, tourWaits: tour.waits) {
            waiting = min(waiting, scripted)
        }
        return waiting
    }

    /// Takes an event and everything already waiting behind it (a burst is drawn once), or sends the idle
    /// timeout; true when input came.
    private func takeInput(waiting: Int) -> Bool {
        guard let event = screen.nextEvent(timeoutMilliseconds: waiting) else {
            // An idle timeout with nothing to animate changes nothing on screen: no frame is drawn.
            if let idleTimeout, now() - lastInput >= idleTimeout { apply(.idleTimeout(seconds: idleTimeout)) }
            return false
        }
        apply(event)
        let arrived = now()
        pacer.keyArrived(at: arrived, previous: lastInput)
        lastInput = arrived
        var drained = 0
        while !quit, drained < 1000, let more = screen.nextEvent(timeoutMilliseconds: 0) {
            apply(more)
            drained += 1
        }
        return true
    }

    /// Draws the state and asks for what the frame lacked.
    private func draw() {
        // Tiles that failed and whose wait is over are asked for again by this frame (the draw reads no clock).
        sources?.features.expireFailures()
        sources?.imagery?.expireFailures()
        // A screen that shows only its last frame has the tiles of that frame loaded before it is
        // drawn, not drawn once without them.
        if !screen.showsEveryFrame, performer.loadsTiles, state.isLargeEnough {
            let missing = MapRenderer.missingTiles(
                view: state.displayedView, sources: sources, imagery: state.showImagery)
            if !missing.isEmpty {
                apply(.rendered(missing: missing))
                _ = tilesArrived()
            }
        }
        // With a preparer, what a file's level of detail lacks is made there, away from the keys.
        let screenful = Renderer.draw(
            state, sources: sources,
            options: RenderOptions(
                mode: screen.colorMode, makesDetailAtOnce: makesDetailAtOnce, pictures: screen.pictureCell))
        let shift = drawn.flatMap { ScreenShift.between($0, state) }
        screen.present(screenful, fullRepaint: repaint, shift: shift)
        // What the frame lacked is asked for now; a frame without a map (too small) lacks nothing.
        let map = screenful.map
        let said = state.message
        apply(
            .rendered(
                missing: map?.missing ?? [],
                streetDataEnds: screen.showsEveryFrame && map?.streetDataEnds == true,
                streetDataInView: !screen.showsEveryFrame || map?.streetDataInView != false,
                infoScrollLimit: screenful.infoScrollLimit, detail: map?.missingDetail ?? []))
        repaint = false
        drawn = state
        // What the frame told the state for the message line (a street-data hint) shows in the next.
        skipped = state.message != said
        // Asked at this turn's time (`lastFrame`): the clock is read once a turn.
        pacer.drew(at: lastFrame) { screen.askWhenShown() }
    }

    /// Tiles load elsewhere (in the background, or at once for a script): what has arrived is taken
    /// from the inbox and drawn (the frame itself never waits for one).
    private func tilesArrived() -> Bool {
        let arrivals = inbox?.take() ?? []
        for event in arrivals { apply(event) }
        return !arrivals.isEmpty
    }

    /// A screen that shows only the last frame is drawn once the input has run out and no tour plays.
    private func mayDraw() -> Bool {
        guard !screen.showsEveryFrame else { return true }
        guard screen.inputEnded, !tour.waits else { return false }
        if case .playing = state.tour { return false }
        return true
    }

    /// The state takes the screen's size when it differs (at the start, and after a stop).
    private func followScreenSize() {
        let size = screen.size
        if size.cols != state.terminalCols || size.rows != state.terminalRows {
            apply(.resize(cols: size.cols, rows: size.rows))
        }
    }

    /// Back from a stop: the screen is blank (and knows it: the next frame draws what it shows, not a
    /// move of the last), what was asked of the terminal before is forgotten, and the time stopped is
    /// not idle time.
    private func resumed() {
        drawn = nil
        skipped = true
        pacer.resume()
        lastInput = now()
        tour.clock = lastInput
        followScreenSize()
    }

    /// A script's end: its input ran out, nothing moves or loads, no tour plays, and it has been so for
    /// `endWhenIdle`.
    private func scriptIsIdle() -> Bool {
        guard screen.inputEnded else { return false }
        let t = now()
        script.inputEnded(at: t)
        let tourPlays = tour.waits || !(state.tour == .off || tour.player == nil)
        return script.isIdle(
            at: t, state: state, drawnAt: pacer.drawnAt, frameOwed: skipped, inboxEmpty: inbox?.isEmpty ?? true,
            tourPlays: tourPlays)
    }

    /// Starts a script's waiting tour once its input has run out, and plays the steps due; true when
    /// the state changed.
    private func playTour(at t: Double) -> Bool {
        if tour.waits, script.tourStarts(at: t), let p = tour.player {
            tour.waits = false
            tour.clock = t
            state.tour = .playing(step: 1, steps: p.tour.steps.count)
        }
        // (The player and its clock are two parts of one stored value: each is passed from a copy.)
        var player = tour.player
        var clock = tour.clock
        defer {
            tour.player = player
            tour.clock = clock
        }
        switch EventLoop.playTour(
            &state, &player, since: &clock, now: t, idleFor: t - lastInput, after: tour.after, sources,
            handsOver: !script.endsWithTour)
        {
        case .unchanged: return false
        case .changed: return true
        case .over:
            if script.tourOver == nil { script.tourOver = t }
            return false
        }
    }

    /// A script ends on the screen of the state it ends in (`q` in `render --keys`, a tour's last step),
    /// with the tiles that view lacked: they load at once, a few rounds at most (a cache too small for
    /// the view evicts what it loads).
    private func finishScript() {
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
}
