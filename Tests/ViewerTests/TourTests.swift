import GeoCore
import MapData
import Support
import TestSupport
import Testing

@testable import MapRender
@testable import Viewer

@Suite("Tours")
struct TourTests {
    static let three = "# three steps\n+\t2\tzoom in\n\n-\t1\tzoom out\nz5<Enter>\t3\tlevel five\n"

    @Test func aTourFileIsParsedStepByStep() throws {
        let tour = try Tour.parse(Self.three).get()
        #expect(
            tour.steps.map(\.keys) == [
                [.key(.char("+"))], [.key(.char("-"))], [.key(.char("z")), .key(.char("5")), .key(.enter)],
            ])
        #expect(tour.steps.map(\.seconds) == [2, 1, 3])
        #expect(tour.steps.map(\.caption) == ["zoom in", "zoom out", "level five"])
        #expect(try Tour.parse("+\t1\r\n").get().steps == [TourStep(keys: [.key(.char("+"))], seconds: 1, caption: "")])
    }

    @Test(arguments: [
        ("+\t1\tok\nno tab here\n", "line 2: expected KEYS<TAB>SECONDS<TAB>CAPTION, found no tab"),
        ("+\tsoon\tcaption\n", "line 1: seconds 'soon' must be a number from 0 to 3600"),
        ("+\t-1\tcaption\n", "line 1: seconds '-1' must be a number from 0 to 3600"),
        ("#c\n<Nope>\t1\tcaption\n", "line 2: keys: unknown key or command name <Nope>"),
        ("", "no steps: write KEYS<TAB>SECONDS<TAB>CAPTION lines"),
        ("+\t0\tx\n", "every step lasts 0 seconds: a tour needs time to be seen"),
    ])
    func aBadTourFileNamesItsLine(text: String, message: String) {
        switch Tour.parse(text) {
        case .success: Issue.record("accepted \(text)")
        case .failure(let e): #expect(e.description == message)
        }
    }

    /// What a message quotes of a tour file is short, and printed with its control characters visible
    /// (the fuzzer found an ESC from a tour file reaching the terminal through the error line).
    @Test func aMessageQuotesAShortVisibleExcerpt() {
        let long = String(repeating: "9x", count: 400)
        guard case .failure(let e) = Tour.parse("+\t\(long)\tcaption\n") else {
            Issue.record("accepted")
            return
        }
        #expect(e.description == "line 1: seconds '\(String(long.prefix(32)))…' must be a number from 0 to 3600")
        guard case .failure(let esc) = Tour.parse("+\t\u{1B}[2J\tc\n") else {
            Issue.record("accepted")
            return
        }
        #expect(SafeText.forLine(esc.description) == "line 1: seconds '\\u{1b}[2J' must be a number from 0 to 3600")
        #expect(
            SafeText.forLine("a\tb\u{7F}\u{9B}c") == "a\\u{9}b\\u{7f}\\u{9b}c"
                && SafeText.forLine("plain ⣿") == "plain ⣿")
    }

    @Test func theBuiltInTourParsesAndItsCaptionsFitEightyColumns() {
        let tour = Tour.builtin
        #expect(tour.steps.count >= 10)
        for step in tour.steps { #expect(step.caption.count <= 80, "\(step.caption)") }
    }

    @Test func thePlayerGivesStepsAsTheirTimesCome() throws {
        var player = TourPlayer(try Tour.parse(Self.three).get())
        #expect(player.advance(0).map(\.caption) == ["zoom in"])
        #expect(player.advance(1.9).isEmpty && abs((player.secondsToNext ?? 0) - 0.1) < 1e-9)
        #expect(player.advance(0.2).map(\.caption) == ["zoom out"])
        #expect(player.advance(1).map(\.caption) == ["level five"])
        #expect(!player.isFinished && player.advance(3).isEmpty && player.isFinished && player.secondsToNext == nil)
        var looping = TourPlayer(try Tour.parse(Self.three).get(), loops: true)
        _ = looping.advance(0)
        // A clock that jumped a minute plays one round at most.
        #expect(looping.advance(60).count == 3 && !looping.isFinished)
    }

    /// The event loop with a clock that moves 0.1 s a reading: the tour's steps come at their times, a
    /// key pauses it (and does nothing else), `t` resumes it.
    @Test func theLoopPlaysAKeyPausesAndTResumes() throws {
        var state = try ViewerState(cols: 80, rows: 24, center: Coordinate(latitude: 0, longitude: 0), zoom: 3)
        state.animationsEnabled = false
        let screen = FakeScreen(
            Array(repeating: nil, count: 12) + [.key(.char("l"))] + Array(repeating: nil, count: 5) + [.key(.char("t"))]
                + Array(repeating: nil, count: 60))
        var clock = 0.0
        var seen: [String] = []
        var zooms: [Double] = []
        EventLoop.run(
            &state, sources: nil, screen: screen,
            now: {
                clock += 0.1
                return clock
            },
            tour: TourPlayer(try Tour.parse(Self.three).get()))
        for frame in screen.presented {
            let message = frame.line(23).trimmedOfWhitespace
            if seen.last != message { seen.append(message) }
            if let z = frame.line(22).split(separator: "│").first(where: { $0.contains("zoom") }) {
                zooms.append(Double(z.replacing("zoom", with: "").trimmedOfWhitespace) ?? -1)
            }
        }
        // In this order, each once: the key paused the tour, `t` resumed it where it was.
        let order = ["zoom in", "tour paused", "tour resumed", "zoom out", "level five", "tour over"].map { word in
            seen.firstIndex { $0.hasPrefix(word) } ?? -1
        }
        #expect(!order.contains(-1) && order == order.sorted(), "\(seen)")
        // The pausing `l` did not pan.
        #expect(state.view.center.longitude == 0 && state.view.zoom == 5 && state.tour == .off)
        #expect(zooms.contains(3) && zooms.contains { abs($0 - 4.32) < 0.01 })
    }

    /// A kiosk's tour starts after a quiet spell, loops, and is not input: the idle timeout still ends the
    /// session.
    @Test func aKioskTourStartsWhenIdleLoopsAndTheIdleTimeoutStillEndsIt() throws {
        var state = try ViewerState(cols: 80, rows: 24, center: Coordinate(latitude: 0, longitude: 0), zoom: 3)
        state.animationsEnabled = false
        let screen = FakeScreen(Array(repeating: nil, count: 400))
        var clock = 0.0
        let ending = EventLoop.run(
            &state, sources: nil, screen: screen,
            now: {
                clock += 0.05
                return clock
            }, idleTimeout: 30,
            tour: TourPlayer(try Tour.parse(Self.three).get()), tourAfter: 5)
        #expect(ending == .quit && state.message.hasPrefix("idle for"))
        let messages = screen.presented.map { $0.line(23).trimmedOfWhitespace }
        #expect(!(messages.first ?? "").hasPrefix("zoom in"), "nothing plays before the quiet spell")
        #expect(messages.filter { $0.hasPrefix("zoom in") }.count >= 1)
        // Looped: "zoom in" came back after "level five".
        let firstLevel = try #require(messages.firstIndex { $0.hasPrefix("level five") })
        #expect(messages[firstLevel...].contains { $0.hasPrefix("zoom in") })
        #expect(clock < 40, "the session ended at the idle timeout, not later")
    }
}
