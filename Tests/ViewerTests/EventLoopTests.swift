import GeoCore
import Raster
import Testing

@testable import Viewer

/// A screen in memory: scripted events (nil = a timeout) and a count of frames presented.
final class FakeScreen: Screen {
    var events: [InputEvent?]
    var presented: [Frame] = []
    var shifts: [ScreenShift?] = []
    init(_ events: [InputEvent?]) { self.events = events }
    var size: (cols: Int, rows: Int) { (80, 24) }
    var showsColor: Bool { false }
    func present(_ frame: Frame, fullRepaint: Bool, shift: ScreenShift?) {
        presented.append(frame)
        shifts.append(shift)
    }
    func nextEvent(timeoutMilliseconds: Int) -> InputEvent? {
        // A zero timeout only takes what is already waiting: a scripted timeout is not consumed by it.
        guard let first = events.first else { return .key(.char("q")) }
        if first == nil && timeoutMilliseconds == 0 { return nil }
        events.removeFirst()
        return first
    }
    func stopRequested() -> Bool { false }
}

@Suite("Event loop")
struct EventLoopTests {
    @Test func idleTimeoutsDrawNothingAndKeysDraw() throws {
        var state = try ViewerState(cols: 80, rows: 24, center: Coordinate(latitude: 0, longitude: 0), zoom: 3)
        state.animationsEnabled = false
        let screen = FakeScreen([nil, nil, nil, .key(.char("+")), nil, nil])
        var clock = 0.0
        EventLoop.run(
            &state, sources: nil, screen: screen,
            now: {
                clock += 0.25
                return clock
            })
        // The first frame, then one for "+"; the four timeouts and the final "q" draw nothing.
        #expect(screen.presented.count == 2)
        #expect(state.quitRequested)
        #expect(state.view.zoom > 3)
    }

    @Test func aBurstOfKeysIsDrawnOnce() throws {
        var state = try ViewerState(cols: 80, rows: 24, center: Coordinate(latitude: 0, longitude: 0), zoom: 3)
        state.animationsEnabled = false
        let screen = FakeScreen([.key(.char("+")), .key(.char("+")), .key(.char("l")), nil])
        var clock = 0.0
        EventLoop.run(
            &state, sources: nil, screen: screen,
            now: {
                clock += 0.01
                return clock
            })
        #expect(screen.presented.count == 2)
        #expect(state.history.count == 3)
    }

    @Test func idleTimeoutQuits() throws {
        var state = try ViewerState(cols: 80, rows: 24, center: Coordinate(latitude: 0, longitude: 0), zoom: 3)
        let screen = FakeScreen(Array(repeating: nil, count: 100))
        var clock = 0.0
        EventLoop.run(
            &state, sources: nil, screen: screen,
            now: {
                clock += 1
                return clock
            }, idleTimeout: 10)
        #expect(state.quitRequested)
        #expect(state.message.hasPrefix("idle"))
        #expect(screen.events.count > 80)
    }

    @Test func aPanIsPresentedAsAShiftAndAZoomIsNot() throws {
        var state = try ViewerState(cols: 80, rows: 24, center: Coordinate(latitude: 0, longitude: 0), zoom: 3)
        state.animationsEnabled = false
        let screen = FakeScreen([.key(.char("l")), nil, .key(.char("+")), nil])
        var clock = 0.0
        EventLoop.run(
            &state, sources: nil, screen: screen,
            now: {
                clock += 0.01
                return clock
            })
        // The first frame has nothing before it; "l" moved the map 20 columns left; "+" redraws.
        #expect(screen.shifts == [nil, ScreenShift(columns: -20, rows: 0, mapRows: 0..<22), nil])
    }
}
