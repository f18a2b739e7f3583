import GeoCore
import Raster
import TestSupport
import Testing

@testable import MapRender
@testable import Viewer

@Suite("Bursts over a slow link")
struct BurstHoldTests {
    func zooms(_ screen: FakeScreen) -> [String] {
        screen.presented.map { frame in
            frame.line(22).split(separator: "│").first { $0.contains("zoom") }.map { $0.trimmedOfWhitespace } ?? "?"
        }
    }

    /// Eight `+` typed 60 ms apart over a link that shows a frame 300 ms after it is sent: the first is
    /// drawn at once; when its answer comes the burst is still being typed, so the next frame waits for
    /// its end (at most 300 ms) and shows it, instead of its middle followed by its end.
    @Test func aBurstTypedWhileAFrameIsOnItsWayIsDrawnAtItsEnd() throws {
        var state = try ViewerState(cols: 80, rows: 24, center: Coordinate(latitude: 0, longitude: 0), zoom: 3)
        state.animationsEnabled = false
        // Zoom 13.58 with no street data earns a hint, which a frame of its own shows: not this test's.
        state.suggestsStreetData = false
        // 20 quiet reads (the first frame is answered: the terminal answers, in 300 ms), then the burst.
        var events: [InputEvent?] = Array(repeating: nil, count: 20) + [.key(.char("+"))]
        for _ in 0..<7 { events += [nil, nil, .key(.char("+"))] }
        events += Array(repeating: nil, count: 60)
        let total = events.count
        let screen = FakeScreen(events)
        screen.answers = .afterReads(15)
        // The clock: 20 ms a read of input.
        EventLoop.run(&state, sources: nil, screen: screen, now: { Double(total - screen.events.count) * 0.02 })
        let shown = zooms(screen)
        #expect(shown == ["zoom 3.00", "zoom 4.32", "zoom 13.58"], "\(shown)")
    }
}
