import GeoCore
import MapData
import MapRender
import Testing

@testable import Viewer

/// A render does no I/O: once the program has loaded a view's tiles, drawing it (the `i` panel open,
/// its features' ids and properties shown) reads nothing from the archive.
@Suite("Render reads nothing")
struct RenderReadsNothingTests {
    @Test func drawingWithTheInfoPanelOpenReadsNoTile() throws {
        let archive = FakeArchive(counting: try TileArchives.open(TileRenderingTests.path("helsinki-omt.pmtiles")))
        let source = TileSource(archive: archive, label: "tiles")
        let sources = MapSources(features: FeatureSources(base: TileRenderingTests.bundledWorld, details: [source]))
        // A tile feature mapbox-vector-tile decodes there (Tools/ fixture of what-is-here).
        let c = try #require(WhatIsHereTests.fixture.tiles.first)
        var s = try WhatIsHereTests.state(lat: c.lat, lon: c.lon, zoom: 16)
        let options = RenderOptions(mode: .plain)
        // The program loads the view's tiles (the panel closed: nothing asked of their features yet) …
        s.update(.command(.whatIsHere))
        #expect(!s.showInfo)
        _ = Renderer.drawLoaded(s, sources: sources, options: options)
        // … and the panel opens on them.
        s.update(.command(.whatIsHere))
        let loads = archive.fetched
        #expect(loads > 0)
        for _ in 0..<3 {
            let drawn = Renderer.draw(s, sources: sources, options: options)
            // The panel lists the tile feature's layer, id and properties.
            let features = drawn.info?.features ?? []
            #expect(features.contains { $0.identity?.layer == c.layer && $0.identity?.id == c.id })
            #expect(drawn.frame.text.contains(c.layer))
            s.update(.key(.down))
        }
        #expect(archive.fetched == loads, "the draw read \(archive.fetched - loads) tiles")
    }
}
