import GeoCore
import Testing

@testable import Viewer

/// Frame pacing as a value: the questions asked, the answers, a slow link, a burst's hold.
@Suite("Frame pacing")
struct FramePacerTests {
    /// A pacer that drew at 0 s and asked the terminal, which answered after `delay`.
    static func answered(after delay: Double) -> FramePacer {
        var p = FramePacer(now: 0)
        p.drew(at: 0) { true }
        p.answered(1, at: delay)
        return p
    }

    @Test func aFrameAsksAndWaitsForTheAnswerOnceTheTerminalAnswers() {
        var p = Self.answered(after: 0.01)
        #expect(p.terminalAnswers == true && p.askedAt == nil)
        p.drew(at: 1) { true }
        #expect(p.askedAt == 1)
        // Asked and known to answer: the next frame waits, animating or not.
        #expect(p.holds(at: 1.2, lastInput: 1.1, animating: false))
        p.answered(1, at: 1.25)
        #expect(!p.holds(at: 1.3, lastInput: 1.1, animating: false))
        #expect(abs(p.answerDelay - 0.25) < 1e-9)
    }

    @Test func aTerminalThatCannotAskIsNeverWaitedFor() {
        var p = FramePacer(now: 0)
        var asked = 0
        p.drew(at: 0) {
            asked += 1
            return false
        }
        #expect(p.terminalAnswers == false)
        p.drew(at: 1) {
            asked += 1
            return true
        }
        #expect(asked == 1 && p.askedAt == nil)
        #expect(!p.holds(at: 1.05, lastInput: 0.5, animating: false))
    }

    @Test func aTerminalThatNeverAnswersIsAskedNoMoreAfterTheTimeout() {
        var p = FramePacer(now: 0)
        p.drew(at: 0) { true }
        p.answered(0, at: FramePacer.shownAnswerTimeout - 0.01)
        #expect(p.askedAt == 0)
        p.answered(0, at: FramePacer.shownAnswerTimeout)
        #expect(p.askedAt == nil && p.terminalAnswers == false)
    }

    @Test func anAnimationFrameWaitsForItsTimeAndJumpsOverASlowLink() {
        let fast = Self.answered(after: 0.01)
        // 33 ms a frame: 10 ms after the last one is too early, 40 ms is not.
        #expect(fast.holds(at: 0.01, lastInput: 0, animating: true))
        #expect(!fast.holds(at: 0.04, lastInput: 0, animating: true))
        #expect(fast.wait(at: 0.01, lastInput: 0, animating: true, idle: 250) == 23)
        #expect(fast.wait(at: 0.01, lastInput: 0, animating: false, idle: 250) == 250)
        let slow = Self.answered(after: ViewAnimation.duration + 0.01)
        #expect(slow.animationJumps && !fast.animationJumps)
    }

    @Test func keysWhileAFrameIsOnItsWayHoldTheNextFrameForTheBurstsEnd() {
        var p = FramePacer(now: 0)
        p.drew(at: 0) { true }
        p.keyArrived(at: 0.05, previous: 0)
        p.keyArrived(at: 0.10, previous: 0.05)
        // The answer took longer than a burst's pause: the next frame is held until the keys pause.
        p.answered(1, at: 0.2)
        #expect(p.holds(at: 0.21, lastInput: 0.10, animating: false))
        // Quiet is 1.5 × the last gap, at least `burstQuiet`: 0.15 s after the last key.
        #expect(!p.holds(at: 0.26, lastInput: 0.10, animating: false))
        // (Rounded up to whole milliseconds: 0.25 − 0.21 s may come out a hair over 40 ms.)
        #expect((40...41).contains(p.wait(at: 0.21, lastInput: 0.10, animating: false, idle: 250)))
        // Never longer than `burstHoldLimit` in all, however the keys keep coming.
        #expect(!p.holds(at: 0.2 + FramePacer.burstHoldLimit, lastInput: 0.5, animating: false))
    }

    @Test func aFastLinkHoldsNoBurst() {
        var p = FramePacer(now: 0)
        p.drew(at: 0) { true }
        p.keyArrived(at: 0.01, previous: 0)
        p.keyArrived(at: 0.02, previous: 0.01)
        p.answered(1, at: 0.03)
        #expect(!p.holds(at: 0.04, lastInput: 0.02, animating: false))
    }

    @Test func resumingForgetsTheQuestion() {
        var p = FramePacer(now: 0)
        p.drew(at: 0) { true }
        p.resume()
        #expect(p.askedAt == nil)
        #expect(!p.holds(at: 0.01, lastInput: 0, animating: false))
    }
}

/// A script's end as a policy: when its input ran out and it has been idle long enough.
@Suite("Script end")
struct ScriptEndTests {
    @Test func aScriptEndsOnceIdleForItsTimeAfterTheInputRanOut() throws {
        var end = ScriptEnd(endWhenIdle: 0.5, tourAfterInput: nil, endsWithTour: false)
        let state = try ViewerState(cols: 80, rows: 24, center: Coordinate(latitude: 0, longitude: 0), zoom: 3)
        #expect(!end.isIdle(at: 1, state: state, drawnAt: 0, frameOwed: false, inboxEmpty: true, tourPlays: false))
        end.inputEnded(at: 1)
        end.inputEnded(at: 5)  // the first time counts
        #expect(end.inputEndedAt == 1)
        #expect(!end.isIdle(at: 1.4, state: state, drawnAt: 0, frameOwed: false, inboxEmpty: true, tourPlays: false))
        #expect(end.isIdle(at: 1.5, state: state, drawnAt: 0, frameOwed: false, inboxEmpty: true, tourPlays: false))
        #expect(!end.isIdle(at: 1.5, state: state, drawnAt: 0, frameOwed: true, inboxEmpty: true, tourPlays: false))
        #expect(!end.isIdle(at: 1.5, state: state, drawnAt: 0, frameOwed: false, inboxEmpty: false, tourPlays: false))
        #expect(!end.isIdle(at: 1.5, state: state, drawnAt: 0, frameOwed: false, inboxEmpty: true, tourPlays: true))
        #expect((300...301).contains(end.wait(at: 1.2, drawnAt: 0, tourWaits: false) ?? 0))
    }

    @Test func aWaitingTourStartsItsTimeAfterTheInputRanOut() {
        var end = ScriptEnd(endWhenIdle: nil, tourAfterInput: 2, endsWithTour: true)
        #expect(end.isScripted && end.wait(at: 0, drawnAt: 0, tourWaits: true) == nil)
        end.inputEnded(at: 1)
        #expect(!end.tourStarts(at: 2.9) && end.tourStarts(at: 3))
        #expect(end.wait(at: 2, drawnAt: 0, tourWaits: true) == 1000)
        #expect(!end.tourIsOver(animating: false) { 0 })
        end.tourOver = 4
        #expect(end.tourIsOver(animating: false) { 4 })
        #expect(!end.tourIsOver(animating: true) { 5 } && end.tourIsOver(animating: true) { 14.5 })
    }
}
