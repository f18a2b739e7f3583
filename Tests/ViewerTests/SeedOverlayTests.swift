import GeoCore
import Glibc
import Raster
import Testing

@testable import MapRender
@testable import Viewer

/// `v`: the seeds' own picture, dashed over ours: seed 002 A's screen-round circle and seed 002 B's
/// width-only fit box.
@Suite("The seed overlay")
struct SeedOverlayTests {
    /// The cells drawn in the overlay's colour, by row.
    static func overlayCells(_ state: ViewerState) -> [[Int]] {
        let frame = Renderer.render(state, sources: nil, options: RenderOptions(mode: .ansi256))
        let color = StyleTable.style(.seedOverlay, mode: .ansi256).foreground
        let outline = StyleTable.style(.circleOutline, mode: .ansi256).foreground
        #expect(color != nil && color != outline)
        return (0..<state.view.size.rows).map { row in
            (0..<frame.cols).filter { frame[$0, row].style.foreground == color && frame[$0, row].glyph != " " }
        }
    }

    static func keys(_ state: inout ViewerState, _ text: String) {
        for k in text { state.update(.key(k == "\n" ? .enter : .char(k))) }
    }

    @Test func theSeedsCircleIsRoundOnScreenAndShiftedSouthOfOurs() throws {
        // 1,000 km at 60°N: the seed's ring reaches 874 km north and 1,143 km south, so its top and bottom
        // rows are both south of the geodesic circle's.
        var state = try ViewerState(cols: 100, rows: 36, center: Coordinate(latitude: 60, longitude: -160), zoom: 2)
        state.animationsEnabled = false
        Self.keys(&state, "r1000km\n")
        #expect(Self.overlayCells(state).joined().isEmpty, "off until v")
        Self.keys(&state, "v")
        #expect(state.showSeedOverlay)
        let frame = Renderer.render(state, sources: nil, options: RenderOptions(mode: .plain))
        #expect(frame.text.contains("seed overlay"))
        let rows = Self.overlayCells(state)
        let seedTop = try #require(rows.firstIndex { !$0.isEmpty })
        let seedBottom = try #require(rows.lastIndex { !$0.isEmpty })
        // The geodesic circle's rows, from its ring.
        let ys = try GeodesicCircle(center: Coordinate(latitude: 60, longitude: -160), radiusMeters: 1e6).ring()
            .map { state.view.dotPoint(for: $0).y / 4 }
        let top = Int(ys.min() ?? 0)
        let bottom = Int(ys.max() ?? 0)
        #expect(seedTop > top && seedBottom > bottom, "seed \(seedTop)…\(seedBottom), geodesic \(top)…\(bottom)")
        // Round on screen: as many dots wide as high.
        let c = state.view.dotPoint(for: Coordinate(latitude: 60, longitude: -160))
        let r = 1e6 / WebMercator.metersPerDot(latitude: 60, zoom: state.view.zoom)
        #expect(abs(Double(seedTop) - ((c.y - r) / 4).rounded(.down)) <= 1)
        #expect(abs(Double(seedBottom) - ((c.y + r) / 4).rounded(.down)) <= 1)
        Self.keys(&state, "v")
        #expect(Self.overlayCells(state).joined().isEmpty && !state.showSeedOverlay)
    }

    @Test func afterAFitTheSeedsBoxCropsTheCircle() throws {
        var state = try ViewerState(cols: 120, rows: 32, center: Coordinate(latitude: 60, longitude: -160), zoom: 3)
        state.animationsEnabled = false
        Self.keys(&state, "r1000km\nfv")
        let fit = try #require(state.lastAction?.fit)
        #expect(fit.seedCroppedRows > 0)
        // The seed's box: the view's size at its zoom, around its center; in a landscape view its top and
        // bottom edges cut through the circle that our fit shows whole.
        let scale = exp2(state.view.zoom - fit.seedZoom)
        let center = state.view.dotPoint(for: fit.seedCenter)
        let topRow = Int(((center.y - state.view.size.heightDots / 2 * scale) / 4).rounded(.down))
        let bottomRow = Int(((center.y + state.view.size.heightDots / 2 * scale) / 4).rounded(.down))
        #expect(topRow > 0 && bottomRow < state.view.size.rows - 1)
        let rows = Self.overlayCells(state)
        let mid = state.view.size.cols / 2
        for row in [topRow, bottomRow] {
            let dashes = rows[row].filter { abs($0 - mid) <= 10 }.count
            #expect(dashes >= 5, "row \(row): \(rows[row])")
        }
        // Rows of the geodesic circle lie beyond the box: what the seed would crop.
        let ys = try GeodesicCircle(center: Coordinate(latitude: 60, longitude: -160), radiusMeters: 1e6).ring()
            .map { state.view.dotPoint(for: $0).y / 4 }
        #expect(Int(ys.min() ?? 0) < topRow && Int(ys.max() ?? 0) > bottomRow)
    }
}
