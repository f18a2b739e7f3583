import TestSupport
import Testing

@testable import MapRender
@testable import Viewer

/// The hint that lets the terminal move the picture (scroll lines, delete or insert characters)
/// instead of redrawing it, and the rendering that makes a moved picture really equal the old one.
@Suite("Screen shift")
struct ScreenShiftTests {
    /// The Norwegian coast with the center exactly on the 62°30′ graticule parallel: the case where
    /// the projection's rounding used to put that parallel one dot off after a pan.
    func norway(_ keys: String, cols: Int = 120, rows: Int = 40) throws -> ViewerState {
        try scripted(cols: cols, rows: rows, lat: 62.5, lon: 6.5, zoom: 7, keys: keys)
    }

    @Test func pansGiveWholeCellShifts() throws {
        let start = try norway("")
        // 120 columns: a quarter is 30; 40 rows leave 38 for the map: a quarter is 9.5, rounded to 10.
        #expect(ScreenShift.between(start, try norway("l")) == ScreenShift(columns: -30, rows: 0, mapRows: 0..<38))
        #expect(ScreenShift.between(start, try norway("h")) == ScreenShift(columns: 30, rows: 0, mapRows: 0..<38))
        #expect(ScreenShift.between(start, try norway("j")) == ScreenShift(columns: 0, rows: -10, mapRows: 0..<38))
        #expect(ScreenShift.between(start, try norway("k")) == ScreenShift(columns: 0, rows: 10, mapRows: 0..<38))
        #expect(ScreenShift.between(start, try norway("ll")) == ScreenShift(columns: -60, rows: 0, mapRows: 0..<38))
    }

    @Test func noShiftWhenThePictureDidNotJustMove() throws {
        let start = try norway("")
        #expect(ScreenShift.between(start, start) == nil)
        #expect(ScreenShift.between(start, try norway("+")) == nil)  // zoom changed
        #expect(ScreenShift.between(start, try norway("L")) == nil)  // a whole view: nothing stays
        #expect(ScreenShift.between(start, try norway("?")) == nil)  // help covers the map
        var resized = try norway("l")
        resized.update(.resize(cols: 100, rows: 40))
        #expect(ScreenShift.between(start, resized) == nil)
    }

    @Test func shiftAcrossTheAntimeridian() throws {
        let start = try scripted(cols: 100, rows: 30, lat: -17.7, lon: 179.5, zoom: 6)
        let east = try scripted(cols: 100, rows: 30, lat: -17.7, lon: 179.5, zoom: 6, keys: "l")
        #expect(east.view.center.longitude < 0)  // the center crossed 180°
        #expect(ScreenShift.between(start, east) == ScreenShift(columns: -25, rows: 0, mapRows: 0..<28))
    }

    /// After a pan the rows that stay on screen are the old rows moved, glyph for glyph, so the
    /// terminal can move them: graticule dots sit at world positions, and a parallel exactly under
    /// the center stays in its dot row.
    @Test func aPannedPictureIsTheOldPictureMoved() throws {
        let start = screen(try norway("")).text.split(separator: "\n", omittingEmptySubsequences: false)
        let down = screen(try norway("j")).text.split(separator: "\n", omittingEmptySubsequences: false)
        // Row 0 holds the meridian labels, which stay at the top edge.
        for row in 1..<(38 - 10) {
            #expect(down[row] == start[row + 10], "row \(row)")
        }
        // One cell sideways (2 dots): the dotted parallels must keep their dots at world positions.
        let a = try norway("")
        var b = a
        b.view.pan(dx: 2, dy: 0)
        let before = screen(a).text.split(separator: "\n", omittingEmptySubsequences: false)
        let after = screen(b).text.split(separator: "\n", omittingEmptySubsequences: false)
        var parallelRows = 0
        for row in 1..<38 {
            parallelRows += before[row].contains("′N") ? 1 : 0
            // Away from the latitude labels at the left edge and the names cut at the right edge.
            let old = Array(before[row]).dropFirst(20).dropLast(1)
            let new = Array(after[row]).dropFirst(19).dropLast(2)
            #expect(Array(old) == Array(new), "row \(row)")
        }
        #expect(parallelRows == 1)
    }

    /// A diagonal move is drawn, not moved, by the real screen and by the fake one alike: a drag one cell
    /// right and down sends the picture again where it changed, not the picture moved.
    @Test func diagonalShiftsAreDrawn() throws {
        #expect(!ScreenShift(columns: 1, rows: 1, mapRows: 0..<5).isMoved)
        #expect(
            ScreenShift(columns: 0, rows: -3, mapRows: 0..<5).isMoved
                && ScreenShift(columns: 2, rows: 0, mapRows: 0..<5).isMoved)
        let a = try norway("")
        var b = a
        b.update(.mouse(.drag(dx: 1, dy: 1)))
        let shift = try #require(ScreenShift.between(a, b))
        #expect(shift.columns == 1 && shift.rows == 1)
        let screen = FakeScreen([])
        screen.present(
            Renderer.render(a, sources: bundledSources, options: RenderOptions(mode: .plain)), fullRepaint: false,
            shift: nil)
        let frame = Renderer.render(b, sources: bundledSources, options: RenderOptions(mode: .plain))
        screen.present(frame, fullRepaint: false, shift: shift)
        let unmoved = FakeScreen([])
        unmoved.present(
            Renderer.render(a, sources: bundledSources, options: RenderOptions(mode: .plain)), fullRepaint: false,
            shift: nil)
        unmoved.present(frame, fullRepaint: false, shift: nil)
        #expect(screen.cellsSent.last == unmoved.cellsSent.last)
        #expect(screen.shown == frame)
    }
}
