import GeoCore
import MapRender
import Raster

/// How far the map moved between two drawn frames, in whole cells, when it only moved.
///
/// A terminal can move what it already shows (scroll lines, delete or insert characters), which
/// costs a few bytes instead of a redraw. The screen uses this as a hint only: it still compares
/// every cell afterwards, so a wrong hint costs bytes, never a wrong picture.
public struct ScreenShift: Equatable, Sendable {
    /// Columns the map content moved (positive: to the right, as after a pan to the west).
    public var columns: Int
    /// Rows the map content moved (positive: down, as after a pan to the north).
    public var rows: Int
    /// The screen rows that hold the map (the status lines below them stay where they are).
    public var mapRows: Range<Int>

    /// Creates a shift.
    public init(columns: Int, rows: Int, mapRows: Range<Int>) {
        self.columns = columns
        self.rows = rows
        self.mapRows = mapRows
    }

    /// The shift from the frame of `old` to the frame of `new`, or nil when the picture did not just
    /// move by whole cells (zoom or size changed, a layer that stays on the screen such as the help,
    /// an animation running, no movement).
    public static func between(_ old: ViewerState, _ new: ViewerState) -> ScreenShift? {
        guard old.isLargeEnough, new.isLargeEnough, old.terminalCols == new.terminalCols,
            old.terminalRows == new.terminalRows, old.screenLayers.allSatisfy(\.movesWithMap),
            new.screenLayers.allSatisfy(\.movesWithMap)
        else { return nil }
        let before = old.displayedView
        let after = new.displayedView
        guard before.zoom == after.zoom, before.size == after.size else { return nil }
        // Where the old center lies in the new view: the content moved by that much from the middle.
        let moved = after.dotPoint(for: before.center)
        let dx = (moved.x - after.size.widthDots / 2) / Double(ViewSize.dotsPerCellX)
        let dy = (moved.y - after.size.heightDots / 2) / Double(ViewSize.dotsPerCellY)
        let columns = dx.rounded()
        let rows = dy.rounded()
        // Pans move by whole cells; anything else (a latitude stopped at the Mercator limit) is no shift.
        // The tolerance absorbs the projection round trip, which at zoom 28 is a few millionths of a cell.
        guard abs(dx - columns) < 0.01, abs(dy - rows) < 0.01, columns != 0 || rows != 0,
            abs(columns) < Double(after.size.cols), abs(rows) < Double(after.size.rows)
        else { return nil }
        return ScreenShift(columns: Int(columns), rows: Int(rows), mapRows: 0..<after.size.rows)
    }
}

extension ScreenShift {
    /// True when the terminal is asked to move what it shows: a move along one axis (a diagonal one is
    /// drawn, not moved: neither scrolling nor inserting characters moves both ways at once).
    public var isMoved: Bool { rows == 0 || columns == 0 }

    /// Makes the painter move what the terminal shows, when `isMoved`.
    public func move(_ painter: inout TerminalPainter) {
        guard isMoved else { return }
        if rows == 0 {
            painter.moveColumns(by: columns, rows: mapRows)
        } else {
            painter.moveRows(by: rows, within: mapRows)
        }
    }
}
