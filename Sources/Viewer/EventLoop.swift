import MapData
import MapRender
import Raster
import Synchronization

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
    /// Milliseconds between frames while animating (`FramePacer.animationFrameMilliseconds`).
    public static let animationFrameMilliseconds = FramePacer.animationFrameMilliseconds
    /// How long to wait for input when nothing moves (the idle timeout is checked at this rate).
    public static let idleMilliseconds = 250
    /// How long to wait for the terminal to say it has shown a frame (`FramePacer.shownAnswerTimeout`).
    public static let shownAnswerTimeout = FramePacer.shownAnswerTimeout

    /// Runs until an update asks to quit or the screen asks to stop; after `idleTimeout` seconds
    /// without input the loop sends `.idleTimeout`. `now` is the clock in seconds. Frames are paced by
    /// the terminal (`FramePacer`).
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
    /// out and nothing has changed, moved or been loading for that long (`ScriptEnd`).
    @discardableResult
    public static func run(
        _ state: inout ViewerState, sources: MapSources?, screen: Screen, now: @escaping () -> Double,
        idleTimeout: Double? = nil, tour: TourPlayer? = nil, tourAfter: Double? = nil, tourAfterInput: Double? = nil,
        endsWithTour: Bool = false, endWhenIdle: Double? = nil,
        loader: TileLoading? = nil, preparer: DetailPreparing? = nil, inbox: EventInbox? = nil,
        afterFirstFrame: () -> Void = {},
        changeBookmarks: @escaping (BookmarkChange) -> Void = { _ in },
        recordTrack: @escaping (Bool) -> Void = { _ in }
    ) -> LoopEnding {
        let runtime = LoopRuntime(
            state: state, sources: sources, screen: screen, now: now,
            performer: EffectPerformer(
                screen: screen, loader: loader, preparer: preparer, changeBookmarks: changeBookmarks,
                recordTrack: recordTrack),
            inbox: inbox, makesDetailAtOnce: preparer == nil, idleTimeout: idleTimeout,
            tour: LoopTour(player: tour, after: tourAfter, waitsForInputEnd: tourAfterInput != nil),
            script: ScriptEnd(endWhenIdle: endWhenIdle, tourAfterInput: tourAfterInput, endsWithTour: endsWithTour))
        defer { state = runtime.state }
        return runtime.run(afterFirstFrame: afterFirstFrame)
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
