import Foundation
import GeoCore
import MapData
import MapFormats
import Raster
import TestSupport
import Testing

@testable import MapRender
@testable import Viewer

@Suite("Event loop")
struct EventLoopTests {
    /// An 80×24 viewer on the world at zoom 3.
    func start(animations: Bool = false) throws -> ViewerState {
        var state = try ViewerState(cols: 80, rows: 24, center: Coordinate(latitude: 0, longitude: 0), zoom: 3)
        state.animationsEnabled = animations
        return state
    }

    /// Runs the loop on `screen` with a clock that advances `tick` seconds at each reading.
    @discardableResult
    func run(_ state: inout ViewerState, _ screen: FakeScreen, tick: Double, idleTimeout: Double? = nil) -> LoopEnding {
        var clock = 0.0
        return EventLoop.run(
            &state, sources: nil, screen: screen,
            now: {
                clock += tick
                return clock
            }, idleTimeout: idleTimeout)
    }

    /// A key that arrives 1 ms or 249 ms after the loop's last idle wake-up starts its animation at
    /// its first frame: the time the loop slept before the key is not counted as animation (it once
    /// was, and the first frame drawn was up to the animation's last).
    @Test(arguments: [0.001, 0.249])
    func animationsStartAtTheirFirstFrame(delay: Double) throws {
        var state = try start(animations: true)
        let screen = FakeScreen([nil, .key(.char("+")), nil])
        // The clock: 0 at the start, 0.25 at the idle wake-up, then `delay` later when the key comes.
        EventLoop.run(
            &state, sources: nil, screen: screen,
            now: { screen.events.count == 3 ? 0 : screen.events.count == 2 ? 0.25 : 0.25 + delay })
        // The frame drawn for "+": the zoom its status line shows is within one frame period of the start
        // (the zoom goes 3.00 → 4.32 over 250 ms; a frame is 33 ms).
        let status = try #require(screen.presented.count >= 2 ? screen.presented[1].line(22) : nil)
        let shown = try #require(
            status.split(separator: "│").first { $0.contains("zoom") }.flatMap {
                Double($0.replacingOccurrences(of: "zoom", with: "").trimmingCharacters(in: .whitespaces))
            })
        let oneFrame = (4.3219 - 3) * Double(EventLoop.animationFrameMilliseconds) / 1000 / ViewAnimation.duration
        #expect(shown >= 3 && shown <= 3 + oneFrame, "\(status)")
    }

    /// The frames an animated `+` (then `more`) presents when the terminal answers "shown" after
    /// `answers`, over a clock of 11 ms a reading (about a frame period a loop turn); the zoom reached
    /// is the same however the terminal answers.
    func zoomFrames(_ answers: FakeScreen.Answers, then more: [InputEvent?] = []) throws -> FakeScreen {
        func play(_ answers: FakeScreen.Answers) throws -> (FakeScreen, Double) {
            var state = try start(animations: true)
            let screen = FakeScreen([.key(.char("+"))] + Array(repeating: nil, count: 30) + more)
            screen.answers = answers
            run(&state, screen, tick: 0.011)
            return (screen, state.view.zoom)
        }
        let (screen, zoom) = try play(answers)
        #expect(zoom == (try play(.cannotAsk)).1 && zoom != 3)
        return screen
    }

    func zoomShown(_ frame: Frame) -> String? {
        frame.line(22).split(separator: "│").first { $0.contains("zoom") }.map { $0.trimmedOfWhitespace }
    }

    /// Frames wait for the terminal to have shown the last one: a fast terminal gets every frame, a
    /// slow link fewer (never more than one question out), one that never answers the first and the
    /// last frame only (until the wait times out); each ends on the zoom the animation reached.
    @Test func animationFramesArePacedByTheTerminal() throws {
        let unpaced = try zoomFrames(.cannotAsk)
        let fast = try zoomFrames(.afterReads(1))
        let slow = try zoomFrames(.afterReads(4))
        let silent = try zoomFrames(.never)
        let counts = [unpaced, fast, slow, silent].map(\.presented.count)
        #expect(unpaced.questions == 0 && fast.questions > 0 && slow.questions > 0)
        #expect(counts[1] == counts[0] && counts[0] >= 7, "a fast terminal sees every frame: \(counts)")
        #expect(counts[2] < counts[1] && counts[2] >= 3, "a slow link sees fewer: \(counts)")
        #expect(counts[3] == 2, "the first frame and the last: \(counts)")
        #expect(fast.mostOutstanding == 1 && slow.mostOutstanding == 1)
        for screen in [unpaced, fast, slow, silent] {
            #expect(screen.presented.last.flatMap(zoomShown) == "zoom 4.32")
        }
    }

    /// Once an answer has taken longer than an animation lasts, an animation shows its last frame only.
    @Test func overALinkSlowerThanAnAnimationAnimationsJump() throws {
        func zoom(_ answers: FakeScreen.Answers) throws -> FakeScreen {
            var state = try start(animations: true)
            // The first frame's question is answered before "+".
            let screen = FakeScreen(
                Array(repeating: nil, count: 40) + [.key(.char("+"))] + Array(repeating: nil, count: 60))
            screen.answers = answers
            run(&state, screen, tick: 0.011)
            return screen
        }
        let slow = try zoom(.afterReads(30))  // about 330 ms
        let quick = try zoom(.afterReads(10))  // about 110 ms: paced, but animated
        #expect(slow.presented.count == 2, "the first frame and the zoom's last: \(slow.presented.count)")
        #expect(quick.presented.count > 2)
        #expect(
            slow.presented.last.flatMap(zoomShown) == "zoom 4.32"
                && quick.presented.last.flatMap(zoomShown) == "zoom 4.32")
    }

    /// The first frame's answer is timed from the end of the work done after it (loading PROJ): a
    /// second of that on a loaded machine is not a slow link, and the first zoom still animates.
    @Test func workAfterTheFirstFrameIsNotTheLinksTime() throws {
        var state = try start(animations: true)
        let screen = FakeScreen(
            Array(repeating: nil, count: 10) + [.key(.char("+"))] + Array(repeating: nil, count: 60))
        screen.answers = .afterReads(1)
        var clock = 0.0
        EventLoop.run(
            &state, sources: nil, screen: screen,
            now: {
                clock += 0.011
                return clock
            }, afterFirstFrame: { clock += 1.0 })
        #expect(screen.presented.count > 3, "the zoom animated: \(screen.presented.count) frames")
        #expect(screen.presented.last.flatMap(zoomShown) == "zoom 4.32")
    }

    /// Keys' frames wait too once the terminal is known to answer: over a slow link a run of pans is
    /// drawn in fewer frames, the last one the last pan's; a terminal that never answers gets them all.
    @Test func keyFramesWaitForATerminalThatAnswers() throws {
        func pans(_ answers: FakeScreen.Answers) throws -> (FakeScreen, ViewerState) {
            var state = try start()
            let screen = FakeScreen(
                [nil, nil] + Array(repeating: [InputEvent?.some(.key(.char("l"))), nil], count: 6).flatMap { $0 } + [
                    nil, nil, nil, nil,
                ])
            screen.answers = answers
            run(&state, screen, tick: 0.011)
            return (screen, state)
        }
        let (slow, slowState) = try pans(.afterReads(5))
        let (silent, silentState) = try pans(.never)
        let (unpaced, unpacedState) = try pans(.cannotAsk)
        #expect(unpaced.presented.count == 7 && silent.presented.count == 7, "the first frame and six pans")
        #expect(slow.presented.count < 7 && slow.presented.count >= 2, "\(slow.presented.count) frames")
        #expect(
            slowState.view.center == unpacedState.view.center && silentState.view.center == unpacedState.view.center)
        #expect(slow.presented.last?.text == unpaced.presented.last?.text, "the last frame is the last pan's")
        #expect(slow.mostOutstanding == 1)
    }

    /// A terminal that never answers stops being asked after `shownAnswerTimeout`: the next animation is
    /// drawn whole.
    @Test func aTerminalThatNeverAnswersIsAskedNoMore() throws {
        // One clock reading (11 ms) a loop turn: past the timeout.
        let wait = [InputEvent?](repeating: nil, count: Int(EventLoop.shownAnswerTimeout / 0.011) + 10)
        let then = wait + [.key(.char("-"))] + Array(repeating: nil, count: 30)
        let silent = try zoomFrames(.never, then: then)
        let unpaced = try zoomFrames(.cannotAsk, then: then)
        let firstAnimation = try zoomFrames(.cannotAsk).presented.count - 1
        #expect(silent.questions == 1)
        // The first animation lost its middle frames (all but the last); the second none.
        #expect(unpaced.presented.count - silent.presented.count == firstAnimation - 1)
    }

    @Test func idleTimeoutsDrawNothingAndKeysDraw() throws {
        var state = try start()
        let screen = FakeScreen([nil, nil, nil, .key(.char("+")), nil, nil])
        let ending = run(&state, screen, tick: 0.25)
        // The first frame, then one for "+"; the four timeouts and the final "q" draw nothing.
        #expect(screen.presented.count == 2)
        #expect(ending == .quit)
        #expect(state.view.zoom > 3)
    }

    @Test func aBurstOfKeysIsDrawnOnce() throws {
        var state = try start()
        let screen = FakeScreen([.key(.char("+")), .key(.char("+")), .key(.char("l")), nil])
        run(&state, screen, tick: 0.01)
        #expect(screen.presented.count == 2)
        #expect(state.history.count == 3)
    }

    @Test func idleTimeoutQuits() throws {
        var state = try start(animations: true)
        let screen = FakeScreen(Array(repeating: nil, count: 100))
        #expect(run(&state, screen, tick: 1, idleTimeout: 10) == .quit)
        #expect(state.message.hasPrefix("idle"))
        #expect(screen.events.count > 80)
    }

    @Test func ctrlLRepaintsOnceAndQuitEndsTheLoop() throws {
        var state = try start()
        let screen = FakeScreen([.key(.ctrlL), nil, .key(.char("l")), nil, .key(.char("q")), .key(.char("+"))])
        #expect(run(&state, screen, tick: 0.01) == .quit)
        #expect(screen.fullRepaints == [false, true, false])
        // The "+" after "q" was never read.
        #expect(screen.events == [.key(.char("+"))])
    }

    @Test func aPanIsPresentedAsAShiftAndAZoomIsNot() throws {
        var state = try start()
        let screen = FakeScreen([.key(.char("l")), nil, .key(.char("+")), nil])
        run(&state, screen, tick: 0.01)
        // The first frame has nothing before it; "l" moved the map 20 columns left; "+" redraws.
        #expect(screen.shifts == [nil, ScreenShift(columns: -20, rows: 0, mapRows: 0..<22), nil])
    }
}

/// `--theme auto`: the terminal's answer first, then COLORFGBG (read as vim reads it), then dark.
@Suite("Theme auto")
struct ThemeAutoTests {
    @Test func answerThenColorFGBGThenDark() {
        let white = TerminalColor(red: 1, green: 1, blue: 1)
        let black = TerminalColor(red: 0, green: 0, blue: 0)
        #expect(Theme.auto(background: white, colorFGBG: "15;0") == .light)
        #expect(Theme.auto(background: black, colorFGBG: "0;15") == .dark)
        #expect(Theme.auto(background: nil, colorFGBG: "0;15") == .light)
        #expect(Theme.auto(background: nil, colorFGBG: "0;default;7") == .light)
        #expect(Theme.auto(background: nil, colorFGBG: "15;0") == .dark)
        #expect(Theme.auto(background: nil, colorFGBG: "7;8") == .dark)
        #expect(Theme.auto(background: nil, colorFGBG: "0;12") == .light)
        for nothing in [nil, "", "15", "0;default", "0;16", "0;-1", "0;+7", "0; 7"] as [String?] {
            #expect(Theme.auto(background: nil, colorFGBG: nothing) == .dark, "\(nothing ?? "nil")")
        }
    }
}

extension EventLoopTests {
    /// A preparer that keeps what it is asked and makes nothing (a simplification that takes for ever).
    final class HeldPreparer: DetailPreparing, @unchecked Sendable {
        var requests: [DetailRequest] = []
        func request(_ request: DetailRequest) { requests.append(request) }
    }

    /// Keys never wait for a level of detail: while a file's level is being made the frames come without
    /// it (and ask for it), `+` answers in the next frame, and once the level is made (an event from the
    /// preparer's thread) the next frame draws the file.
    @Test func keysAnswerWhileALevelIsMade() throws {
        let text =
            #"{"type":"Feature","properties":{"name":"ring"},"geometry":{"type":"LineString","coordinates":[[-4,-2],[4,-2],[4,2],[-4,2],[-4,-2]]}}"#
        let data = try UserDataReader.read(Array(text.utf8), format: .geojson, file: "ring.geojson")
        let file = UserFile(file: "ring.geojson", format: .geojson, data: data)
        var state = try start()
        state.layers.layers.append(UserDataLayer(file: file, look: 0))
        let request = DetailRequest(file: file, level: 4)
        let screen = FakeScreen([.key(.char("+")), nil, .detailPrepared(request), nil], mode: .ansi256)
        let preparer = HeldPreparer()
        var clock = 0.0
        EventLoop.run(
            &state, sources: nil, screen: screen,
            now: {
                clock += 0.01
                if screen.events.count == 2 { file.prepare(4) }  // made meanwhile, told by the event after
                return clock
            }, preparer: preparer)
        let ink = StyleTable.style(.overlay(0), mode: .ansi256)
        func drawsTheFile(_ f: Frame) -> Bool { f.cells.contains { $0.style == ink && $0.glyph != " " } }
        #expect(screen.presented.count >= 3)
        #expect(
            !drawsTheFile(screen.presented[0]) && !drawsTheFile(screen.presented[1]), "drawn before its level was made")
        #expect(
            screen.presented[1].line(22).contains("zoom 4.32"), "+ answered at once: \(screen.presented[1].line(22))")
        #expect(preparer.requests.contains(DetailRequest(file: file, level: 3)) && preparer.requests.contains(request))
        #expect(drawsTheFile(screen.presented[screen.presented.count - 1]), "the level made is drawn")
    }
}
