import GeoCore
import TestSupport
import Testing

@testable import MapRender
@testable import Viewer

/// What a pan sends to a terminal that moves the picture by the shift hint (the fake screen does what
/// `CursesScreen` and its `TerminalPainter` do), against a repaint of every cell.
@Suite("What a pan sends")
struct PanCostTests {
    /// Europe at zoom 5, 120×40 with colour (38 map rows): the frame before and after `key`.
    func pan(_ key: Key) throws -> FakeScreen {
        var state = try ViewerState(cols: 120, rows: 40, center: Coordinate(latitude: 48, longitude: 10), zoom: 5)
        state.animationsEnabled = false
        let screen = FakeScreen([.key(key), nil], cols: 120, rows: 40, mode: .ansi256)
        EventLoop.run(&state, sources: bundledSources, screen: screen, now: { 0 })
        return screen
    }

    @Test(arguments: [
        (Key.char("h"), 30, 0), (Key.char("l"), -30, 0), (Key.char("k"), 0, 10), (Key.char("j"), 0, -10),
        (Key.left, 30, 0), (Key.right, -30, 0), (Key.up, 0, 10), (Key.down, 0, -10),
    ])
    func aQuarterPanSendsAFractionOfTheScreen(key: Key, columns: Int, rows: Int) throws {
        let screen = try pan(key)
        #expect(screen.presented.count == 2)
        #expect(screen.shifts[1] == ScreenShift(columns: columns, rows: rows, mapRows: 0..<38))
        // Shift, then the cells that differ: the terminal shows the new frame.
        let shown = try #require(screen.shown)
        let frame = try #require(screen.presented.last)
        for i in frame.cells.indices { #expect(shown.cells[i].looksLike(frame.cells[i])) }
        // The first present sends every cell; a pan sends what came in (its land and sea tints), the
        // labels that moved and the status rows: the band that came in (1,140 or 1,200 cells) and
        // 83–140 more here. Moved the wrong way it would send the whole band and most of the rest.
        #expect(screen.cellsSent[0] == 120 * 40)
        let band = abs(columns) * 38 + abs(rows) * 120
        #expect(screen.cellsSent[1] < band + 120 * 40 / 20, "\(key): \(screen.cellsSent[1]) cells")
    }
}
