import Foundation
import GeoCore
import MapData
import Raster
import TestSupport
import Testing

@testable import MapRender
@testable import Viewer

/// The short attribution at the bottom right (the cartography issue, section 2) and the start-up hint.
@Suite("Attribution and hint")
struct AttributionTests {
    func lastRow(_ cols: Int, lat: Double = 37.7749, lon: Double = -122.4194, zoom: Double = 8) throws -> String {
        let s = try scripted(cols: cols, rows: 24, lat: lat, lon: lon, zoom: zoom)
        let text = Renderer.render(s, sources: bundledSources, options: RenderOptions(mode: .plain)).text
        return String(text.split(separator: "\n", omittingEmptySubsequences: false)[23])
    }

    /// The world's data and the gazetteer are credited at the bottom right when there is room, and the
    /// hint names search (`/`) and go to (`g`).
    @Test func creditsAtTheBottomRight() throws {
        let row = try lastRow(100)
        #expect(row.hasPrefix("? help  / find a place  g go to  q quit"), "\(row)")
        #expect(row.hasSuffix("© Natural Earth · GeoNames"), "\(row)")
        #expect(row.count == 100)
    }

    /// Where the hint leaves no room, nothing is cut: the attribution is left out whole.
    @Test func leftOutWholeWhenNarrow() throws {
        let row = try lastRow(60)
        #expect(!row.contains("©") && !row.contains("Natural"), "\(row)")
    }

    /// Over the open sea at street level no place is named and no land drawn: nothing to credit.
    @Test func onlyWhatIsShown() throws {
        let row = try lastRow(100, lat: -40, lon: -130, zoom: 14)
        #expect(!row.contains("GeoNames"), "\(row)")
    }
}
