import GeoCore
import Raster
import TestSupport
import Testing

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
