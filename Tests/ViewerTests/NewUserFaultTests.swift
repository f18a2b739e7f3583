import Foundation
import GeoCore
import MapData
import MapFormats
import Raster
import TestSupport
import Testing

@testable import MapRender
@testable import Viewer

/// The faults a new user hit (the cartography and interaction issue, section 3), one test each: every
/// test here fails without its fix.
@Suite("Faults a new user hit")
struct NewUserFaultTests {
    func state(_ keys: String, cols: Int = 100, rows: Int = 30, zoom: Double = 5) throws -> ViewerState {
        try scripted(cols: cols, rows: rows, lat: 48.8584, lon: 2.2945, zoom: zoom, keys: keys)
    }

    /// 1. A key that closes the help does nothing else: `+` does not zoom, `q` does not quit.
    @Test func aKeyThatClosesTheHelpDoesNothingElse() throws {
        var s = try state("?")
        let view = s.view
        #expect(s.update(.key(.char("+"))).isEmpty)
        #expect(!s.showHelp && s.view == view)
        s.update(.key(.char("?")))
        #expect(s.update(.key(.char("q"))).isEmpty, "q closed the help and quit")
        #expect(!s.showHelp)
        #expect(s.update(.key(.char("q"))) == [.quit])
    }

    /// 7 (help). At 80×24 the help does not fit at once: it says so and Space shows the rest, `q quit`
    /// included; at 100×40 it fits on one page.
    @Test func theHelpSaysWhenMoreFollows() throws {
        var s = try state("?", cols: 80, rows: 24)
        let pages = s.helpLayout.pages
        #expect(pages == 3, "the help's lines wrapped at word boundaries to 74 columns")
        let first = Renderer.render(s, sources: nil, options: RenderOptions(mode: .plain)).text
        #expect(first.contains("page 1 of \(pages)") && first.contains("Space: more"))
        #expect(!first.contains("Ctrl-C"), "the quit line is on the last page")
        var later: [String] = []
        for _ in 1..<pages {
            s.update(.key(.char(" ")))
            later.append(Renderer.render(s, sources: nil, options: RenderOptions(mode: .plain)).text)
        }
        #expect(s.showHelp)
        #expect(later.last?.contains("page \(pages) of \(pages)") == true)
        #expect(later.contains { $0.contains(/Ctrl-C +quit/) })
        s.update(.key(.char(" ")))
        #expect(!s.showHelp)
        let big = Renderer.render(
            try state("?", cols: 100, rows: 45), sources: nil, options: RenderOptions(mode: .plain))
        #expect(
            big.text.contains("any key closes") && big.text.contains(/Ctrl-C +quit/) && !big.text.contains("page 1"))
    }

    /// 6. Undo says what it undid.
    @Test func undoSaysWhatItUndid() throws {
        let panned = try state("lu")
        #expect(panned.message.hasPrefix("undo pan: back to 48.85840°N 2.29450°E"), "\(panned.message)")
        let zoomed = try state("+u")
        #expect(zoomed.message.hasPrefix("undo zoom in: back to zoom 5.00 (from"), "\(zoomed.message)")
        #expect(try state("z9<Enter>u").message.hasPrefix("undo zoom level: back to zoom 5.00 (from 9.00)"))
    }

    /// 11. The help and the messages speak of what a key does, not of the project's sources.
    @Test func theHelpSpeaksTheUsersWords() throws {
        for line in Keymap.standard.helpLines { #expect(!line.contains("seed"), "\(line)") }
        #expect(!(try state("z31<Enter>")).message.contains("seed"))
    }

    /// The labels of a state as `Renderer.render` places them (over the features it draws first).
    func labelsAsRendered(_ s: ViewerState, _ sources: MapSources, ascii: Bool) throws -> LabelEngine {
        MapRenderer.drawn(view: s.displayedView, sources: sources, ascii: ascii).labels
    }

    func statusLine(_ s: ViewerState) -> String {
        let f = Renderer.render(s, sources: bundledCitySources, options: RenderOptions(mode: .plain))
        return f.line(f.rows - 2)
    }

    /// 7. At 80×24 the status drops whole fields from the least important (the radius always shows);
    /// below 30 columns only zoom and radius remain, abbreviated at 20.
    @Test func theStatusLineDropsWholeFieldsByRank() throws {
        let wide = try scripted(cols: 160, rows: 24, lat: 60.16878, lon: 24.94164, zoom: 14, circle: 2000)
        let allFields = statusLine(wide).replacingOccurrences(of: "© OpenStreetMap contributors", with: "")
            .components(separatedBy: " │ ").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(allFields.count >= 6, "\(allFields)")
        // The size differs with the window: it must be whole, `<n> <unit> × <n> <unit>`.
        let size = /^[0-9.]+ (km|m|cm|mm) × [0-9.]+ (km|m|cm|mm)$/
        for cols in [100, 80, 60, 40] {
            let s = try scripted(cols: cols, rows: 24, lat: 60.16878, lon: 24.94164, zoom: 14, circle: 2000)
            let line = statusLine(s)
            #expect(line.contains("zoom 14.00") && line.contains("circle 2.00 km"), "\(cols): \(line)")
            var shown = line.components(separatedBy: " │ ").map { $0.trimmingCharacters(in: .whitespaces) }
            // The credit sits at the end, apart.
            if let last = shown.last, last.hasSuffix("© OSM") {
                shown[shown.count - 1] = last.replacingOccurrences(of: "© OSM", with: "").trimmingCharacters(
                    in: .whitespaces)
                if shown[shown.count - 1].isEmpty { shown.removeLast() }
            }
            for field in shown {
                #expect(allFields.contains(field) || field.wholeMatch(of: size) != nil, "\(cols): '\(field)' was cut")
            }
        }
        let narrow = try scripted(cols: 25, rows: 24, lat: 60.16878, lon: 24.94164, zoom: 14, circle: 2000)
        // "zoom 14.00 │ circle 2.00 km" is 27 columns: at 25 the abbreviated form.
        #expect(statusLine(narrow).trimmingCharacters(in: .whitespaces) == "z14.00 r2.00km")
        let n29 = try scripted(cols: 29, rows: 24, lat: 60.16878, lon: 24.94164, zoom: 14, circle: 2000)
        #expect(statusLine(n29).trimmingCharacters(in: .whitespaces) == "zoom 14.00 │ circle 2.00 km")
        let tiny = try scripted(cols: 20, rows: 24, lat: 60.16878, lon: 24.94164, zoom: 14, circle: 2000)
        #expect(statusLine(tiny).trimmingCharacters(in: .whitespaces) == "z14.00 r2.00km")
    }

    /// 8. Centimetres and millimetres below a metre.
    @Test func smallLengthsInCentimetresAndMillimetres() throws {
        #expect(Formatting.distance(0.155) == "15.5 cm")
        #expect(Formatting.distance(0.0889) == "8.89 cm")
        #expect(Formatting.distance(0.005) == "5.00 mm")
        #expect(Formatting.distance(2.5) == "3 m")
        let deep = statusLine(try scripted(cols: 100, rows: 30, lat: 48.8584, lon: 2.2945, zoom: 28))
        #expect(deep.contains(" cm × ") && deep.contains(" mm │"), "\(deep)")
        #expect(!deep.contains("0.0"), "\(deep)")
    }

    /// 9. The status gives the view's size along the center's parallel and meridian: a wider window is
    /// never reported narrower, and at the equator the width is the arc 2πa·(view width / world width).
    @Test func theStatusSizeGrowsWithTheWindow() throws {
        func width(_ s: ViewerState) -> Double { s.view.extentMeters().longitudinal }
        var last = 0.0
        for cols in [40, 80, 120, 160, 200] {
            let w = width(try scripted(cols: cols, rows: 24, lat: 0, lon: 0, zoom: 0))
            #expect(w > last)
            last = w
        }
        let world = try scripted(cols: 160, rows: 48, lat: 0, lon: 0, zoom: 0)
        // 320 dots of a 256-dot world: 1.25 × WGS84's equator, 40,075,016.686 m.
        #expect(abs(width(world) - 1.25 * 40_075_016.686) < 0.01)
        #expect(statusLine(world).contains("50094 km × "))
        // After + the status shows the new view's own size.
        var s = world
        s.update(.key(.char("+")))
        let m = s.view.extentMeters()
        #expect(
            statusLine(s).contains("\(Formatting.distance(m.longitudinal)) × \(Formatting.distance(m.latitudinal))"))
        // The zoom message gives the widths the status line gives, before and after.
        #expect(
            s.message.contains(
                "\(Formatting.distance(world.view.extentMeters().longitudinal)) → "
                    + "\(Formatting.distance(m.longitudinal)) wide"), "\(s.message)")
    }

    /// 5. `g` accepts what people type and whatever termmap prints: decimals with hemisphere letters
    /// (the status line's form), spaces before the letter, degrees–minutes–seconds with marks or spaces.
    @Test(arguments: [
        ("48.85840°N 2.29450°E", 48.8584, 2.2945),
        ("40.7128° N, 74.0060° W", 40.7128, -74.006),
        ("48°51′30″N 2°17′40″E", 48 + 51 / 60.0 + 30 / 3600.0, 2 + 17 / 60.0 + 40 / 3600.0),
        ("48 51 30 N 2 17 40 E", 48 + 51 / 60.0 + 30 / 3600.0, 2 + 17 / 60.0 + 40 / 3600.0),
        ("48°51'30\"N 2°17'40\"E", 48 + 51 / 60.0 + 30 / 3600.0, 2 + 17 / 60.0 + 40 / 3600.0),
        ("33.8688° S, 151.2093° E", -33.8688, 151.2093),
        ("2.29 E, 48.85 N", 48.85, 2.29),
        ("-33.86 151.2", -33.86, 151.2),
        ("48.8584, 2.2945", 48.8584, 2.2945),
    ])
    func goToReadsEveryWayOfWritingACoordinate(text: String, lat: Double, lon: Double) throws {
        let s = try state("g" + text.replacingOccurrences(of: "<", with: "<lt>") + "<Enter>")
        #expect(!s.messageIsError, "\(text): \(s.message)")
        #expect(abs(s.view.center.latitude - lat) < 1e-9 && abs(s.view.center.longitude - lon) < 1e-9, "\(text)")
    }

    /// 5. Whatever the status line and the grid print, `g` reads back (within the printed precision);
    /// what is not a coordinate is still refused.
    @Test func whatTermmapPrintsParsesBack() {
        var r = SeededRandom(state: 14)
        for _ in 0..<500 {
            let c = Coordinate(latitude: -85 + 170 * r.unit(), longitude: -180 + 360 * r.unit())
            guard case .success(let back) = InputParsing.coordinate(CoordinateFormat.hemispheres(c, decimals: 5)) else {
                Issue.record("status form of \(c) refused")
                continue
            }
            #expect(abs(back.latitude - c.latitude) <= 5e-6 && abs(back.longitude - c.longitude) <= 5e-6)
            let grid =
                Graticule.label(c.latitude, spacing: 1 / 3600.0, positive: "N", negative: "S") + " "
                + Graticule.label(c.longitude, spacing: 1 / 3600.0, positive: "E", negative: "W")
            guard case .success(let g) = InputParsing.coordinate(grid) else {
                Issue.record("grid form '\(grid)' refused")
                continue
            }
            #expect(abs(g.latitude - c.latitude) <= 1 / 3600.0 && abs(g.longitude - c.longitude) <= 1 / 3600.0)
        }
        for bad in [
            "91,0", "1,2,3", "nan,0", "0,inf", "0x10,0", "abc", "", "48 N 2 N", "-48 S 2 E", "48 61 0 N 2 E", "1e5,0",
        ] {
            if case .success = InputParsing.coordinate(bad) { Issue.record("'\(bad)' accepted") }
        }
    }

    /// 4. A search result frames the place, whatever the zoom was: from zoom 28, `/Helsinki` shows the
    /// city, and a bigger city is shown from farther out.
    @Test func aSearchResultFramesThePlace() throws {
        func search(_ name: String, from zoom: Double) throws -> ViewerState {
            var s = try scripted(cols: 120, rows: 40, lat: 0, lon: 0, zoom: zoom)
            for k in "/" + name { s.update(.key(.char(k)), places: bundledCitySources) }
            s.update(.key(.enter), places: bundledCitySources)
            return s
        }
        let deep = try search("Helsinki", from: 28)
        let shallow = try search("Helsinki", from: 2)
        #expect(deep.view.zoom == shallow.view.zoom)
        #expect(deep.view.zoom > 9 && deep.view.zoom < 13, "\(deep.view.zoom)")
        let m = deep.view.extentMeters()
        #expect(m.longitudinal > 5_000 && m.latitudinal > 5_000, "a city, not a street: \(m)")
        #expect(try search("Tokyo", from: 28).view.zoom < deep.view.zoom)
    }

    /// 12. In ASCII a city's marker is one character, wherever its dot fell in its cell.
    @Test func asciiMarksEveryCityTheSameWay() throws {
        let s = try scripted(cols: 120, rows: 40, lat: 35.68, lon: 139.7, zoom: 7, ascii: true)
        let f = Renderer.render(s, sources: bundledSources, options: RenderOptions(mode: .plain))
        let engine = try labelsAsRendered(s, bundledSources, ascii: true)
        #expect(engine.markers.count >= 5)
        for m in engine.markers { #expect(f[m.col, m.row].glyph == "*", "marker at \(m.col),\(m.row)") }
    }

    /// 3. Without colour the shade's stipple never lands in a label or beside it: every label reads whole
    /// (`Frankfurt am Main`, not `Frankfurt am·Main`).
    @Test func theShadeNeverBreaksALabel() throws {
        // A small circle far from Frankfurt: Frankfurt lies in the shade.
        var s = try scripted(cols: 160, rows: 48, lat: 50.11, lon: 8.68, zoom: 7, circle: 5000)
        s.circle = CircleOverlay(
            circle: try GeodesicCircle(center: Coordinate(latitude: 52.5, longitude: 13.4), radiusMeters: 5000),
            ratio: CircleFit.defaultRatio)
        let f = Renderer.render(s, sources: bundledSources, options: RenderOptions(mode: .plain))
        let engine = try labelsAsRendered(s, bundledSources, ascii: false)
        #expect(engine.labels.contains { $0.text == "Frankfurt am Main" })
        #expect(f.text.contains("░"), "the shade is drawn")
        for label in engine.labels {
            let line = Array(f.line(label.row).unicodeScalars)
            let shown = String(
                String.UnicodeScalarView(line[label.col..<(label.col + label.text.unicodeScalars.count)]))
            #expect(shown == label.text, "'\(label.text)' reads '\(shown)'")
            for c in [label.col - 1, label.col + label.text.count] where c >= 0 && c < 160 {
                #expect(line[c] != "░", "stipple beside '\(label.text)'")
            }
        }
    }

    /// 2. No glyph is ever drawn in its own background colour: lakes under the circle's shade in 16
    /// colours (Balaton, Lake Geneva), and any view with colour.
    @Test(arguments: [ColorMode.ansi16, .ansi256])
    func noGlyphInItsOwnBackground(mode: ColorMode) throws {
        var r = SeededRandom(state: 2)
        var views = [(46.85, 17.75, 8.0), (46.45, 6.55, 9.0)]
        for _ in 0..<20 { views.append((-60 + 120 * r.unit(), -180 + 360 * r.unit(), 2 + 10 * r.unit())) }
        var shaded = 0
        for (lat, lon, zoom) in views {
            var s = try scripted(cols: 120, rows: 40, lat: lat, lon: lon, zoom: zoom)
            // A small circle off to one side: most of the view is shaded.
            s.circle = CircleOverlay(
                circle: try GeodesicCircle(center: s.view.coordinate(col: 5, row: 5), radiusMeters: 100),
                ratio: CircleFit.defaultRatio)
            let f = Renderer.render(s, sources: bundledCitySources, options: RenderOptions(mode: mode))
            for cell in f.cells where cell.glyph != " " {
                if cell.style.background != nil { shaded += 1 }
                #expect(
                    cell.style.foreground == nil || cell.style.foreground != cell.style.background,
                    "\(cell.glyph) in its own colour at \(lat), \(lon) z\(zoom)")
            }
        }
        #expect(shaded > 1000)
    }

    /// 10. A click is made from a press and its release (ncurses, asked for clicks, held the release
    /// back, and the animation the press started stopped on screen until the next key); motion with the
    /// button down drags the map.
    @Test func pointerGesturesMakeClicksAndDrags() throws {
        var g = PointerGestures()
        #expect(g.next(.press, col: 10, row: 5) == nil)
        #expect(g.next(.release, col: 10, row: 5) == .click(col: 10, row: 5))
        #expect(g.next(.release, col: 10, row: 5) == nil, "a release without a press")
        #expect(g.next(.press, col: 10, row: 5) == nil)
        #expect(g.next(.motion, col: 13, row: 5) == .drag(dx: 3, dy: 0))
        #expect(g.next(.motion, col: 13, row: 5) == nil)
        #expect(g.next(.motion, col: 12, row: 7) == .drag(dx: -1, dy: 2))
        #expect(g.next(.release, col: 12, row: 7) == nil, "a drag ends without a click")
        #expect(g.next(.motion, col: 20, row: 7) == nil, "motion without the button")
        #expect(g.next(.press, col: 1, row: 1) == nil)
        #expect(g.next(.release, col: 4, row: 1) == .drag(dx: 3, dy: 0), "no motion reports: a drag to the release")

        // The map follows the pointer, and a whole drag is one undo step.
        var s = try state("")
        let start = s.view
        let point = s.view.coordinate(col: 30, row: 10)
        s.update(.mouse(.drag(dx: 4, dy: 0)))
        s.update(.mouse(.drag(dx: 3, dy: 2)))
        let moved = s.view.coordinate(col: 37, row: 12)
        #expect(abs(moved.latitude - point.latitude) < 1e-9 && abs(moved.longitude - point.longitude) < 1e-9)
        s.update(.key(.char("u")))
        #expect(s.view == start)
    }

    /// 1 (small scale). On the world and continents, the ten most populous places in view (after
    /// dropping any within 3 cells of a more populous one) are nearly all labelled: at least 7.
    @Test(arguments: [
        (0.0, 0.0, 0.0, 160, 48), (0, 0, 0, 200, 60), (50, 10, 2, 160, 48), (35, 105, 2, 160, 48),
        (10, -70, 1.5, 160, 48), (5, 20, 3, 160, 48),
    ])
    func theLargestPlacesAreLabelledOnSmallScales(lat: Double, lon: Double, zoom: Double, cols: Int, rows: Int) throws {
        let s = try scripted(cols: cols, rows: rows, lat: lat, lon: lon, zoom: zoom)
        let engine = try labelsAsRendered(s, bundledSources, ascii: false)
        let t = s.view.transform
        var inView: [(name: String, pop: Int, col: Int, row: Int)] = []
        for (c, point) in try projectedCities(bundledSources) {
            let x = t.nearestDotX(point.x)
            let y = t.dotY(point.y)
            guard x >= 0, y >= 0, x < s.view.size.widthDots, y < s.view.size.heightDots else { continue }
            inView.append((c.name, c.population, Int(x) / 2, Int(y) / 4))
        }
        inView.sort { $0.pop > $1.pop }
        var top: [(name: String, pop: Int, col: Int, row: Int)] = []
        for p in inView where top.count < 10 {
            if top.contains(where: { abs($0.col - p.col) <= 3 && abs($0.row - p.row) <= 3 }) { continue }
            top.append(p)
        }
        let labelled = top.filter { p in engine.labels.contains { $0.text == p.name } }
        #expect(
            labelled.count >= 7,
            "\(labelled.count) of \(top.map(\.name)): missing \(top.filter { p in !labelled.contains { $0.name == p.name } }.map(\.name))"
        )
    }

    /// 2 (looks). Without colour each line keeps a look of its own: coasts solid, lake shores in short
    /// dashes, borders in long ones (the Adriatic coast and the Slovenian border no longer look the
    /// same), and the shade's stipple is a glyph neither the grid nor an area uses.
    @Test func linesAndTheShadeHaveLooksWithoutColour() throws {
        func pattern(_ c: FeatureClass) -> String {
            var canvas = BrailleCanvas(cols: 12, rows: 1)
            let row = StyleTable.row(.feature(c))
            canvas.line(0, 1, 23, 1, ink: 1, every: row?.dotEvery ?? 1, on: row?.dashOn ?? 1, phase: 0)
            return String(
                (0..<24).map { x in canvas.pattern(col: x / 2, row: 0) & (x % 2 == 0 ? 0x02 : 0x10) != 0 ? "█" : " " })
        }
        #expect(pattern(.coastline) == String(repeating: "█", count: 24))
        #expect(pattern(.border) == String(repeating: "████  ", count: 4))
        #expect(pattern(.lake) == String(repeating: "██ ", count: 8))
        var s = try scripted(cols: 100, rows: 30, lat: 45.6, lon: 13.8, zoom: 7)
        s.circle = CircleOverlay(
            circle: try GeodesicCircle(center: Coordinate(latitude: 45.6, longitude: 13.8), radiusMeters: 20_000),
            ratio: CircleFit.defaultRatio)
        let f = Renderer.render(s, sources: bundledSources, options: RenderOptions(mode: .plain))
        #expect(f.text.contains("░"))
        let grid = Renderer.render(
            try scripted(cols: 100, rows: 30, lat: 45.6, lon: 13.8, zoom: 7), sources: nil,
            options: RenderOptions(mode: .plain))
        #expect(!grid.text.contains("░"))
    }
}
