/// When a script's run ends (`render`, recordings: a screen whose input runs out) and when its tour
/// starts: a policy of its own, asked by the loop with the times it gives.
struct ScriptEnd {
    /// End once the input has run out and nothing has changed, moved or been loading for this long.
    let endWhenIdle: Double?
    /// Start the tour this long after the input has run out (its keys first).
    let tourAfterInput: Double?
    /// End when the tour does.
    let endsWithTour: Bool
    /// When the input ran out.
    private(set) var inputEndedAt: Double?
    /// When the tour ended (the run ends once the tiles its last view asked for are in).
    var tourOver: Double?

    /// Tiles asked for and never come are waited for this long, no more.
    static let tileWait = 10.0

    /// True for a script's run: it ends on its own, on the screen of the state it ends in.
    var isScripted: Bool { endWhenIdle != nil || endsWithTour }

    /// The input was found run out at `t`.
    mutating func inputEnded(at t: Double) {
        if inputEndedAt == nil { inputEndedAt = t }
    }

    /// True when a script ends at `t`: its input ran out, nothing moves or loads, no tour plays or waits,
    /// no frame is owed, and it has been so for `endWhenIdle`.
    func isIdle(
        at t: Double, state: ViewerState, drawnAt: Double, frameOwed: Bool, inboxEmpty: Bool, tourPlays: Bool
    ) -> Bool {
        guard let endWhenIdle, let ended = inputEndedAt else { return false }
        return state.animation == nil && (state.requestedTiles.isEmpty || t - drawnAt > Self.tileWait)
            && !frameOwed && inboxEmpty && !tourPlays && t - max(drawnAt, ended) >= endWhenIdle
    }

    /// True when the tour has ended and its last animation is over, or it ended long enough ago (the
    /// clock is read only then).
    func tourIsOver(animating: Bool, now: () -> Double) -> Bool {
        guard let over = tourOver else { return false }
        return !animating || now() - over > Self.tileWait
    }

    /// True when a waiting tour starts at `t`.
    func tourStarts(at t: Double) -> Bool {
        guard let after = tourAfterInput, let ended = inputEndedAt else { return false }
        return t - ended >= after
    }

    /// How long (milliseconds) the loop may wait at `t`: until the tour is to start and until the run is
    /// to end; nil when the input has not run out.
    func wait(at t: Double, drawnAt: Double, tourWaits: Bool) -> Int? {
        guard let ended = inputEndedAt else { return nil }
        var waiting = Int.max
        if tourWaits, let after = tourAfterInput {
            waiting = min(waiting, FramePacer.milliseconds(until: ended + after, from: t))
        }
        if let endWhenIdle {
            waiting = min(waiting, FramePacer.milliseconds(until: max(drawnAt, ended) + endWhenIdle, from: t))
        }
        return waiting
    }
}
