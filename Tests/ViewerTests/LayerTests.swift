import Foundation
import GeoCore
import MapData
import MapFormats
import Raster
import Testing

@testable import MapRender
@testable import Viewer

/// A layer of the test's own: one dot at a coordinate, named as its feature.
struct OnePointLayer: MapLayer, Equatable {
    var coordinate: Coordinate

    func draw(into c: inout LayerContext) {
        let p = c.transform.dot(WebMercator.project(coordinate))
        let feature = PickedFeature(
            className: "test point", name: "here", reference: FeatureReference(source: nil, feature: .own(7)))
        c.drawing(feature) { canvas in
            canvas.set(x: BrailleCanvas.dot(p.x), y: BrailleCanvas.dot(p.y), ink: StyleTable.ink(.overlay(0)))
        }
    }
}

@Suite("Layers and what a render can be asked")
struct LayerTests {
    /// A layer added from outside the renderer (here, the test) is drawn in its cell and answers for
    /// it in the pick buffer; the cells around it still answer with the map beneath.
    @Test(arguments: [(0.0, 0.0, 3.0), (60.1699, 24.9384, 16.0)])
    func aLayerFromOutsideIsDrawnAndPicked(lat: Double, lon: Double, zoom: Double) throws {
        var s = try scripted(cols: 80, rows: 26, lat: lat, lon: lon, zoom: zoom)
        let before = try #require(
            Renderer.draw(s, sources: bundledCitySources, options: RenderOptions(mode: .ansi256)).map)
        // A cell near the center that no label covers (a label is written over dots).
        func covered(_ col: Int, _ row: Int) -> Bool {
            before.labels.contains { label in
                label.row == row && col >= label.col - 1 && col <= label.col + label.text.count
            }
        }
        var cells: [(col: Int, row: Int)] = []
        for r in 2..<22 { for c in 2..<78 where !covered(c, r) { cells.append((c, r)) } }
        cells.sort { abs($0.col - 40) + abs($0.row - 12) < abs($1.col - 40) + abs($1.row - 12) }
        let (col, row) = try #require(cells.first)
        // The point a quarter of a dot into that cell.
        let point = s.view.coordinate(at: DotPoint(x: Double(col * 2) + 0.25, y: Double(row * 4) + 0.25))
        s.layers.layers.append(OnePointLayer(coordinate: point))
        let screen = Renderer.draw(s, sources: bundledCitySources, options: RenderOptions(mode: .ansi256))
        let map = try #require(screen.map)
        let cell = screen.frame[col, row]
        #expect(cell.glyph.value & 0x2801 == 0x2801, "the dot at the cell's top left is not set: \(cell.glyph)")
        #expect(cell.style.foreground == StyleTable.style(.overlay(0), mode: .ansi256).foreground)
        let picked = map.pick.feature(col: col, row: row)
        #expect(picked?.className == "test point" && picked?.name == "here")
        #expect(picked?.reference == FeatureReference(source: nil, feature: .own(7)))
        // Without the layer, the same cell answered with the map; the cells around it still do.
        #expect(before.pick.feature(col: col, row: row)?.className != "test point")
        for (dc, dr) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
            #expect(map.pick.feature(col: col + dc, row: row + dr) == before.pick.feature(col: col + dc, row: row + dr))
        }
    }

    /// The pick agrees with the picture: every cell whose dots a map feature drew answers with a
    /// feature of the class whose colour the cell has (so a pick shifted by a cell, or naming the
    /// wrong feature, fails), over the world, a coast, the city and its streets.
    @Test(arguments: [
        (0.0, 0.0, 0.0), (50.0, 10.0, 4.0), (62.5, 6.5, 7.0), (60.1699, 24.9384, 12.0), (60.1699, 24.9384, 14.0),
        (60.1699, 24.9384, 16.0), (60.16878, 24.94164, 18.0),
    ])
    func thePickAgreesWithThePicture(lat: Double, lon: Double, zoom: Double) throws {
        let s = try scripted(cols: 120, rows: 40, lat: lat, lon: lon, zoom: zoom)
        let screen = Renderer.draw(s, sources: bundledCitySources, options: RenderOptions(mode: .ansi256))
        let map = try #require(screen.map)
        // Each colour of a drawn feature, and the classes (in words) that have it.
        var classesOfColour: [PaletteColor: Set<String>] = [:]
        for c in FeatureClass.allCases {
            guard let fg = StyleTable.style(.feature(c), mode: .ansi256).foreground else { continue }
            classesOfColour[fg, default: []].insert(StyleTable.className(c))
        }
        classesOfColour[StyleTable.style(.city, mode: .ansi256).foreground ?? PaletteColor(0), default: []].formUnion([
            "city", "capital",
        ])
        var checked = 0
        for row in 0..<38 {
            for col in 0..<120 {
                let cell = screen.frame[col, row]
                guard (0x2801...0x28FF).contains(cell.glyph.value), let fg = cell.style.foreground,
                    let classes = classesOfColour[fg]
                else { continue }
                let picked = map.pick.feature(col: col, row: row)
                #expect(
                    classes.contains(picked?.className ?? "none"),
                    "\(col),\(row): \(classes) drawn, \(picked?.className ?? "none") picked")
                checked += 1
            }
        }
        #expect(checked > 100, "\(checked) cells checked")
    }

    /// Labels, the grid and the circle's shade are not features: under a street's name the pick gives
    /// the street or what is beneath it, never the label; a shaded cell answers as it does unshaded.
    @Test func labelsAndTheShadeAreNotFeatures() throws {
        let plain = try scripted(cols: 120, rows: 40, lat: 60.1699, lon: 24.9384, zoom: 16)
        let shaded = try scripted(cols: 120, rows: 40, lat: 60.1699, lon: 24.9384, zoom: 16, circle: 100)
        let a = try #require(
            Renderer.draw(plain, sources: bundledCitySources, options: RenderOptions(mode: .ansi256)).map)
        let b = try #require(
            Renderer.draw(shaded, sources: bundledCitySources, options: RenderOptions(mode: .ansi256)).map)
        #expect(a.pick.allFeatures == b.pick.allFeatures)
        let street = try #require(a.labels.first { $0.feature?.className.hasSuffix("road") == true })
        #expect(street.feature?.name == street.text)
        for k in 0..<street.text.count {
            #expect(a.pick.feature(col: street.col + k, row: street.row)?.className != "label")
        }
    }

    /// At zoom 0 the world answers land and water, and `render --pick`'s text has a letter a cell and a
    /// legend naming them in words.
    @Test func thePickOfTheWorldIsLandAndWater() throws {
        let s = try scripted(cols: 80, rows: 26, lat: 0, lon: 0, zoom: 0)
        let map = try #require(Renderer.draw(s, sources: bundledSources, options: RenderOptions(mode: .plain)).map)
        let classes = Set(map.pick.allFeatures.compactMap { $0?.className })
        #expect(classes.isSuperset(of: ["land", "water", "coastline"]), "\(classes)")
        let lines = map.pick.text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.prefix(24).allSatisfy { $0.count == 80 })
        #expect(lines[24].isEmpty)
        let legend = lines.dropFirst(25).map { $0.split(separator: "\t").map(String.init) }
        #expect(legend.allSatisfy { $0.count == 2 && $0[0].count == 1 })
        #expect(Set(legend.map { $0[1] }) == classes)
        // The Mercator edge's rows hold no sea.
        #expect(map.pick.feature(col: 40, row: 0) == nil || map.pick.feature(col: 40, row: 0)?.className != "water")
    }

    /// The render says each source's state: the tile source's lacking tiles are `loading` with their
    /// count, then `ok` once they are in, and a source out of view says so; credits are typed.
    @Test func sourcesSayTheirState() throws {
        let sources = try TileRenderingTests.sources("helsinki-omt.pmtiles")
        let s = try TileRenderingTests.state(lat: 60.1690, lon: 24.9420, zoom: 15)
        let first = try #require(Renderer.draw(s, sources: sources, options: RenderOptions(mode: .plain)).map)
        #expect(first.sources.map(\.name) == ["tiles", "Natural Earth"])
        #expect(first.sources[0].kind == .tiles && first.sources[0].status.state == .loading)
        #expect(
            first.sources[0].status.loading == first.missing.flatMap(\.tiles).count
                && first.sources[0].status.loading > 0)
        let loaded = try #require(Renderer.drawLoaded(s, sources: sources, options: RenderOptions(mode: .plain)).map)
        let status = loaded.sources[0].status
        #expect(status == SourceStatus(cached: status.cached) && status.cached > 0 && loaded.missing.isEmpty)
        #expect(
            loaded.credits.contains(Credit(attribution: "© OpenMapTiles © OpenStreetMap contributors"))
                || loaded.credits.contains(.openStreetMap))
        let json =
            try JSONSerialization.jsonObject(with: Data(try StateJSON.encode(s, map: first).utf8)) as? [String: Any]
        let listed = try #require(json?["sources"] as? [[String: Any]])
        #expect(listed.map { $0["status"] as? String } == ["loading", "ok"])
        #expect(listed.map { $0["kind"] as? String } == ["tiles", "import"])
        #expect(listed[1]["credit"] as? String == Credit.naturalEarth.text)
        // Far from the tiles' coverage the tileset is not asked.
        let far = try TileRenderingTests.state(lat: 10, lon: 10, zoom: 15)
        let away = try #require(Renderer.draw(far, sources: sources, options: RenderOptions(mode: .plain)).map)
        #expect(!away.sources[0].inView && away.sources[1].inView)
    }

    /// The base layers place their labels in order of importance: the grid's, then places', then
    /// streets' (a street's name never takes the room a place's would have had).
    @Test(arguments: [
        (60.1699, 24.9384, 13.0), (60.1699, 24.9384, 14.0), (60.1699, 24.9384, 15.0), (60.1720, 24.9470, 14.5),
    ])
    func labelsArePlacedGridThenPlacesThenStreets(lat: Double, lon: Double, zoom: Double) throws {
        let s = try scripted(cols: 120, rows: 40, lat: lat, lon: lon, zoom: zoom)
        let map = try #require(Renderer.draw(s, sources: bundledCitySources, options: RenderOptions(mode: .plain)).map)
        func rank(_ role: StyleRole) -> Int {
            switch role {
            case .gridLabel: return 0
            case .cityLabel, .capitalLabel, .placeLabel: return 1
            default: return 2
            }
        }
        let ranks = map.placed.map { rank($0.role) }
        #expect(ranks.contains(1) && ranks.contains(2), "zoom \(zoom): \(ranks)")
        #expect(ranks == ranks.sorted(), "zoom \(zoom): \(ranks)")
    }
}
