import Foundation
import GeoCore
import MapData
import Raster
import Testing

@testable import MapRender
@testable import Viewer

@Suite("Golden screens")
struct ScreenTests {
    static let gt = (lat: 33.777328, lon: -84.397348)

    @Test func worldAtZoomZero() throws {
        assertSnapshot("world-z0-120x40", screen(try scripted(cols: 120, rows: 40, lat: 0, lon: 0, zoom: 0)).text)
    }

    @Test func georgiaTechAtZoom14() throws {
        let s = try scripted(cols: 100, rows: 30, lat: Self.gt.lat, lon: Self.gt.lon, zoom: 14)
        assertSnapshot("georgia-tech-z14", screen(s).text)
    }

    @Test(arguments: [("+", "plus"), ("++", "plus-plus"), ("-", "minus")])
    func georgiaTechAfterZoomButtons(keys: String, name: String) throws {
        let s = try scripted(cols: 100, rows: 30, lat: Self.gt.lat, lon: Self.gt.lon, zoom: 14, keys: keys)
        assertSnapshot("georgia-tech-z14-\(name)", screen(s).text)
    }

    @Test func sanFranciscoCircle() throws {
        let s = try scripted(cols: 100, rows: 30, lat: 37.7749, lon: -122.4194, zoom: 14, circle: 500)
        assertSnapshot("sf-circle-500m-z14", screen(s).text)
    }

    @Test func thousandKilometresAt60North() throws {
        let s = try scripted(cols: 100, rows: 30, lat: 60, lon: 10, zoom: 3, circle: 1_000_000, keys: "f")
        assertSnapshot("circle-1000km-60N-fit", screen(s).text)
    }

    @Test func fijiAcrossTheAntimeridian() throws {
        let s = try scripted(cols: 100, rows: 30, lat: -17.7, lon: 178.9, zoom: 4, circle: 800_000, keys: "f")
        assertSnapshot("circle-fiji-antimeridian", screen(s).text)
    }

    @Test func northPoleCircle() throws {
        let s = try scripted(cols: 100, rows: 30, lat: 85, lon: 30, zoom: 1, circle: 1_500_000, keys: "f")
        assertSnapshot("circle-north-pole", screen(s).text)
    }

    @Test func asciiMode() throws {
        let s = try scripted(cols: 100, rows: 30, lat: 50, lon: 5, zoom: 4, circle: 300_000, ascii: true)
        let text = screen(s).text
        #expect(text.unicodeScalars.allSatisfy { $0.isASCII })
        assertSnapshot("ascii-europe-z4", text)
    }

    @Test func colourStylesAsALayer() throws {
        let s = try scripted(cols: 100, rows: 30, lat: 37.7749, lon: -122.4194, zoom: 11, circle: 5000)
        let frame = screen(s, mode: .ansi256)
        assertSnapshot("roles-sf-circle-5km", roleMap(frame))
        // With colour the shade is a background only: no stipple glyphs.
        #expect(!frame.text.contains("░"))
        let ansi = AnsiWriter.text(frame, mode: .ansi256)
        #expect(ansi.contains("48;5;17"))  // the shade's navy background
        #expect(ansi.contains("38;5;196"))  // the red outline
    }
}

@Suite("Frame properties")
struct FramePropertyTests {
    @Test func shadeIsOutsideTheCircleAndNotInside() throws {
        let s = try scripted(cols: 100, rows: 30, lat: 37.7749, lon: -122.4194, zoom: 12, circle: 2000)
        let frame = screen(s, mode: .ansi256)
        let shade = StyleTable.shade(mode: .ansi256)
        let view = s.view
        var overLand: [Bool: Bool] = [:]
        for row in 0..<view.size.rows {
            for col in 0..<view.size.cols {
                let d = Geodesic.distance(s.circle?.circle.center ?? view.center, view.coordinate(col: col, row: row))
                // Away from the outline (one cell), shaded ⇔ outside.
                // Outside, the shade: over land a lighter navy than over the sea, so both still show.
                let shades = [shade, StyleTable.shade(mode: .ansi256, overLand: true)]
                if d > 2000 + 2 * 4 * view.metersPerDot { #expect(shades.contains(frame[col, row].style.background)) }
                // Inside, the map's own background: the land's or the sea's tint, never the shade.
                let own: [PaletteColor?] = [
                    StyleTable.fill(.feature(.land), mode: .ansi256), StyleTable.sea(mode: .ansi256),
                ]
                if d < 2000 - 2 * 4 * view.metersPerDot { #expect(own.contains(frame[col, row].style.background)) }
                if d > 2000 + 2 * 4 * view.metersPerDot {
                    overLand[frame[col, row].style.background == shades[1]] = true
                }
            }
        }
        // San Francisco at zoom 12 has both outside the circle: the city's land and the bay.
        #expect(overLand[true] == true && overLand[false] == true)
    }

    @Test func zoomMessageExplainsTheStep() throws {
        let s = try scripted(cols: 100, rows: 30, lat: ScreenTests.gt.lat, lon: ScreenTests.gt.lon, zoom: 14, keys: "+")
        let last = frameLines(screen(s)).last ?? ""
        #expect(last.hasPrefix("zoom in ×0.4: "))
        #expect(last.contains("zoom 14.00 → 15.32"))
        #expect(abs((s.lastAction?.zoomAfter ?? 0) - 14 - log2(2.5)) < 0.01)
    }

    @Test func statusLineHasTheZoomAndScale() throws {
        let s = try scripted(cols: 120, rows: 40, lat: 0, lon: 0, zoom: 0)
        let status = frameLines(screen(s))[38]
        #expect(status.contains("zoom 0.00"))
        #expect(status.contains("0.00000°N 0.00000°E"))
        #expect(status.contains("│ Natural Earth") && !status.contains("L1/6"))
    }

    /// The data is named in words, two tilesets of one name are told apart, and at every width, in
    /// braille and in ASCII (where `©` is `(c)`), a space stays before the credit.
    @Test func statusLineNamesTheDataInWords() throws {
        let tiles = try TileArchives.open(TileRenderingTests.path("helsinki-omt.pmtiles"))
        let city = try MapAsset(path: repositoryRoot.appendingPathComponent("assets/helsinki.tmap").path)
        let sources = MapSources(
            features: FeatureSources(
                base: TileRenderingTests.bundledWorld,
                details: [
                    TileSource(archive: tiles, label: "helsinki-omt"),
                    TileSource(archive: tiles, label: "helsinki-omt"), city,
                ]))
        for ascii in [false, true] {
            for cols in stride(from: 30, through: 200, by: 2) {
                var s = try scripted(cols: cols, rows: 24, lat: 60.1699, lon: 24.9384, zoom: 14)
                if ascii { s.glyphMode = .ascii }
                let status = frameLines(
                    Renderer.drawLoaded(s, sources: sources, options: RenderOptions(mode: .plain)).frame)[22]
                let credit = ascii ? "(c) OSM" : "© OSM"
                if let at = status.range(of: credit)?.lowerBound, at > status.startIndex {
                    #expect(status[status.index(before: at)] == " ", "\(cols) cols: \(status)")
                }
                if cols == 200 {
                    let names = "helsinki-omt · helsinki-omt (2) · OpenStreetMap (helsinki) · Natural Earth"
                    #expect(status.contains(ascii ? "| " + names.replacing("·", with: ".") : "│ " + names), "\(status)")
                }
            }
        }
    }

    @Test func graticuleSpacingIsNeitherCrowdedNorAbsent() throws {
        for zoom in 0...28 {
            let view = try MapView(
                center: Coordinate(latitude: 10, longitude: 20), zoom: Double(zoom), size: ViewSize(cols: 100, rows: 28)
            )
            let s = Graticule.spacing(worldSize: view.worldSize)
            let meridians = Int((view.bounds.east / s).rounded(.down) - (view.bounds.west / s).rounded(.up)) + 1
            #expect(meridians >= 2 && meridians <= 12, "zoom \(zoom): \(meridians) meridians at \(s * 3600)″")
        }
    }

    @Test func graticuleLabels() {
        #expect(Graticule.label(30, spacing: 10, positive: "N", negative: "S") == "30°N")
        #expect(Graticule.label(-12.5, spacing: 0.5, positive: "N", negative: "S") == "12°30′S")
        #expect(Graticule.label(84.4, spacing: 5.0 / 3600, positive: "E", negative: "W") == "84°24′0″E")
        #expect(Graticule.label(0.25 / 3600, spacing: 0.05 / 3600, positive: "E", negative: "W") == "0°0′0.25″E")
        #expect(Graticule.label(-180, spacing: 30, positive: "E", negative: "W") == "180°")
        #expect(Graticule.label(0, spacing: 30, positive: "E", negative: "W") == "0°")
    }

    @Test func beyondTheMercatorLimitIsEmptyWithAVisibleEdge() throws {
        let s = try scripted(cols: 60, rows: 30, lat: 85, lon: 0, zoom: 2)
        let frame = screen(s, mode: .ansi256)
        let lines = frameLines(frame)
        // The top half lies beyond 85.05°N: blank rows, then the dotted edge.
        #expect(lines[0].allSatisfy { $0 == " " })
        let edge = StyleTable.style(.edge, mode: .ansi256)
        #expect((0..<28).contains { row in (0..<60).contains { frame[$0, row].style == edge } })
    }

    @Test func tooSmallSaysSoAndFrameKeepsItsSize() throws {
        for (c, r) in [(1, 1), (19, 6), (20, 5), (3, 40)] {
            let s = try scripted(cols: c, rows: r, lat: 0, lon: 0, zoom: 0)
            let frame = screen(s)
            #expect(frame.cols == c && frame.rows == r)
            #expect(frame.cells.count == c * r)
        }
        let s = try scripted(cols: 19, rows: 6, lat: 0, lon: 0, zoom: 0)
        #expect(screen(s).text.hasPrefix("too small"))
    }

    func frameLines(_ f: Frame) -> [String] { (0..<f.rows).map { f.line($0) } }
}
