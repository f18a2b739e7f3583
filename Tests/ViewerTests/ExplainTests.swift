import Foundation
import GeoCore
import TestSupport
import Testing

@testable import MapRender
@testable import Viewer

/// `e` and `render --json`'s `lastAction.explain`: the numbers a zoom button computed, checked against
/// the reference table of zoom-button steps (GeographicLib's geodesics, through the fixture generator).
@Suite("Explaining a zoom step")
struct ExplainTests {
    static let steps = GeoFixtures.shared.zoomButton

    @Test func everyStepOfTheReferenceTableIsExplained() throws {
        #expect(Self.steps.count >= 30)
        for c in Self.steps {
            var state = try ViewerState(
                cols: c.cols, rows: c.rows + ViewerState.statusRows,
                center: Coordinate(latitude: c.lat, longitude: c.lon), zoom: c.zoom)
            state.update(.key(.char(c.direction == "in" ? "+" : "-")))
            let json = try #require(
                try JSONSerialization.jsonObject(with: Data(StateJSON.encode(state).utf8)) as? [String: Any])
            let action = try #require(json["lastAction"] as? [String: Any])
            let e = try #require(action["explain"] as? [String: Any])
            let label = "\(c.direction) at \(c.lat),\(c.lon) z\(c.zoom) \(c.cols)x\(c.rows)"
            #expect(
                Set(e.keys) == [
                    "factor", "latitudinalMeters", "longitudinalMeters", "newLatitudinalMeters",
                    "newLongitudinalMeters",
                    "latitudeDelta", "longitudeDelta", "zoomX", "zoomY",
                ])
            func n(_ key: String) -> Double { (e[key] as? Double) ?? .nan }
            let factor = c.direction == "in" ? 0.4 : 3
            #expect(n("factor") == factor)
            #expect(abs(n("latitudinalMeters") - c.latitudinalMetersBefore) <= 1e-6, "\(label)")
            #expect(abs(n("longitudinalMeters") - c.longitudinalMetersBefore) <= 1e-6, "\(label)")
            #expect(abs(n("newLatitudinalMeters") - factor * c.latitudinalMetersBefore) <= 1e-6, "\(label)")
            #expect(abs(n("newLongitudinalMeters") - factor * c.longitudinalMetersBefore) <= 1e-6, "\(label)")
            #expect(abs((action["zoomAfter"] as? Double ?? .nan) - c.zoomAfter) < 1e-9, "\(label)")
            if !c.fallback && c.zoomAfter > 0 && c.zoomAfter < 28 {
                // regionThatFits takes the smaller zoom: the step's zoom (unclamped within 0…28).
                #expect(abs(min(n("zoomX"), n("zoomY")) - c.zoomAfter) < 1e-9, "\(label)")
            }
            // The region rebuilt from the metres: its height in metres along the meridian is the one asked.
            let meridian =
                WGS84.meridianDistance(latitude: c.lat + n("latitudeDelta") / 2)
                - WGS84.meridianDistance(latitude: c.lat - n("latitudeDelta") / 2)
            if n("latitudeDelta") < 10 {
                #expect(abs(meridian - factor * c.latitudinalMetersBefore) < 1e-3 * meridian, "\(label)")
            }
        }
    }

    @Test func thePanelShowsTheStepAndAnyKeyClosesItDoingNothingElse() throws {
        var state = try ViewerState(
            cols: 80, rows: 24, center: Coordinate(latitude: 33.777328, longitude: -84.397348), zoom: 14)
        state.update(.key(.char("e")))
        #expect(
            Renderer.render(state, sources: nil, options: RenderOptions(mode: .plain)).text.contains(
                "nothing to explain yet"))
        state.update(.key(.char("+")))
        #expect(!state.showExplain && state.view.zoom == 14, "the key that closed the panel did nothing else")
        state.update(.key(.char("+")))
        state.update(.key(.char("e")))
        let text = Renderer.render(state, sources: nil, options: RenderOptions(mode: .plain)).text
        for part in [
            "zoom in ×0.4", "edge midpoints", "region from metres", "regionThatFits: zoomX 15.32", "zoom 14.00 → 15.32",
        ] {
            #expect(text.contains(part), "\(part)")
        }
        // At 80 columns every line fits the box whole.
        #expect(!text.contains("…") && text.split(separator: "\n").allSatisfy { $0.count <= 80 })
        let zoom = state.view.zoom
        state.update(.key(.char("-")))
        #expect(!state.showExplain && state.view.zoom == zoom)
        #expect(try StateJSON.encode(state).contains("\"explain\":null") == false)
    }

    /// The region from metres names the radii of curvature it used, and a fallback says why it was used.
    @Test func thePanelNamesTheRadiiAndWhyAFallbackWasUsed() throws {
        var state = try ViewerState(
            cols: 80, rows: 24, center: Coordinate(latitude: 33.777328, longitude: -84.397348), zoom: 14)
        for k in "+e" { state.update(.key(.char(k))) }
        var text = Renderer.render(state, sources: nil, options: RenderOptions(mode: .plain)).text
        // WGS84 at 33.78°: M = a(1 − e²)/(1 − e² sin²φ)^1.5, N = a/(1 − e² sin²φ)^0.5.
        #expect(text.contains("M(φ) 6355.2 km, N(φ) 6384.7 km at φ 33.78°"))
        let fallback = try #require(
            GeoFixtures.shared.zoomButton.first { $0.fallback && $0.longitudinalMetersBefore == 0 })
        state = try ViewerState(
            cols: fallback.cols, rows: fallback.rows + ViewerState.statusRows,
            center: Coordinate(latitude: fallback.lat, longitude: fallback.lon), zoom: fallback.zoom)
        for k in (fallback.direction == "in" ? "+e" : "-e") { state.update(.key(.char(k))) }
        text = Renderer.render(state, sources: nil, options: RenderOptions(mode: .plain)).text
        #expect(text.contains("6 fallback, the east–west chord is 0 m"), "\(text)")
    }

    /// `z`: the standard span (360° × width / (256 · 2^z) on the Mercator world), beside seed 000's, which
    /// shows one whole level closer; at 28 the category's round() makes its span zero.
    @Test(arguments: [0.0, 3.7, 14, 20, 28])
    func aZoomLevelIsExplainedBesideTheSeedsCategory(level: Double) throws {
        var state = try ViewerState(
            cols: 90, rows: 24, center: Coordinate(latitude: 33.777328, longitude: -84.397348), zoom: 2)
        for k in "z" + CoordinateFormat.fixed(level, 1) { state.update(.key(.char(k))) }
        state.update(.key(.enter))
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(StateJSON.encode(state).utf8)) as? [String: Any])
        let e = try #require((json["lastAction"] as? [String: Any])?["explain"] as? [String: Any])
        #expect(Set(e.keys) == ["requested", "standardLongitudeDelta", "seedLongitudeDelta", "seedEquivalentZoom"])
        #expect(e["requested"] as? Double == level)
        let standard = try #require(e["standardLongitudeDelta"] as? Double)
        let expected = 90.0 * 2 * 360 / (256 * exp2(level))
        #expect(abs(standard - expected) <= 1e-12 * expected)
        state.update(.key(.char("e")))
        let text = Renderer.render(state, sources: nil, options: RenderOptions(mode: .plain)).text
        if level < 28 {
            let seedZoom = try #require(e["seedEquivalentZoom"] as? Double)
            #expect(abs(seedZoom - (level.rounded(.down) + 1)) < 1e-6, "the category shows web zoom z + 1")
            #expect(text.contains("one level closer"))
        } else {
            #expect(e["seedLongitudeDelta"] as? Double == 0 && e["seedEquivalentZoom"] is NSNull)
            #expect(text.contains("round() makes that span zero"))
        }
    }

    /// `f`: the zoom chosen is the reference fit (pyproj/GeographicLib through the fixture generator) for
    /// every circle and size of the table, the smaller of zoomX and zoomY; the seed's width-only fit is
    /// beside it, and in a landscape view it crops rows of the circle that the corrected fit keeps.
    @Test func aFitIsExplainedBesideTheSeedsWidthOnlyFit() throws {
        var checked = 0
        for c in GeoFixtures.shared.circles where !c.containsNorthPole && !c.containsSouthPole {
            for (sizeText, expected) in c.fitZoom {
                let parts = sizeText.split(separator: "x").compactMap { Int($0) }
                var state = try ViewerState(
                    cols: parts[0], rows: parts[1] + ViewerState.statusRows,
                    center: Coordinate(latitude: c.lat, longitude: c.lon), zoom: 3)
                for k in "r\(Int(c.radius))" { state.update(.key(.char(k))) }
                state.update(.key(.enter))
                state.update(.key(.char("f")))
                let json = try #require(
                    try JSONSerialization.jsonObject(with: Data(StateJSON.encode(state).utf8)) as? [String: Any])
                let action = try #require(json["lastAction"] as? [String: Any])
                let e = try #require(action["explain"] as? [String: Any])
                #expect(Set(e.keys) == ["ratio", "zoomX", "zoomY", "limitedBy", "seedZoom", "seedCroppedRows"])
                let zoomX = try #require(e["zoomX"] as? Double)
                let zoomY = try #require(e["zoomY"] as? Double)
                let label = "\(c.lat),\(c.lon) r\(c.radius) \(sizeText)"
                #expect(abs((action["zoomAfter"] as? Double ?? .nan) - expected) < 1e-9, "\(label)")
                if expected > 0 && expected < 28 { #expect(abs(min(zoomX, zoomY) - expected) < 1e-9, "\(label)") }
                #expect(e["limitedBy"] as? String == (zoomX <= zoomY ? "width" : "height"))
                #expect(e["ratio"] as? Double == CircleFit.defaultRatio)
                checked += 1
            }
        }
        #expect(checked >= 12)
        // 1,000 km at 60°N in a landscape 120×30: the height decides, and the seed's width-only fit crops.
        var state = try ViewerState(cols: 120, rows: 30, center: Coordinate(latitude: 60, longitude: 10), zoom: 3)
        for k in "r1000km" { state.update(.key(.char(k))) }
        state.update(.key(.enter))
        state.update(.key(.char("f")))
        let fit = try #require(state.lastAction?.fit)
        #expect(fit.limitedBy == "height" && fit.seedCroppedRows > 0 && fit.seedZoom > state.view.zoom)
        state.update(.key(.char("e")))
        let text = Renderer.render(state, sources: nil, options: RenderOptions(mode: .plain)).text
        #expect(text.contains("limited by the height") && text.contains("crops \(fit.seedCroppedRows) rows"))
        // The limiting side takes the ratio of the view exactly, the other less.
        #expect(abs(fit.ringRows - fit.ratio * Double(fit.viewRows)) < 1e-6, "\(fit.ringRows)")
        #expect(fit.ringCols < fit.ratio * Double(fit.viewCols) && fit.zoom == state.view.zoom)
        #expect(
            text.contains("the ring spans \(CoordinateFormat.fixed(fit.ringCols, 1)) × 23.3 cells of the 120 × 28 view")
        )
    }

    /// `c` and `r`: the seed's screen-space circle reaches 874 km north and 1,143 km south for 1,000 km at
    /// 60°N (GeographicLib, through the fixture generator), the geodesic circle 1,000 km every way.
    @Test func aCircleIsExplainedBesideTheSeedsScreenCircle() throws {
        let s = GeoFixtures.shared.seedScreenCircle
        for keys in ["r1000km\n", "c"] {
            var state = try ViewerState(
                cols: 100, rows: 30, center: Coordinate(latitude: s.lat, longitude: s.lon), zoom: s.zoom)
            state.radiusMeters = s.radius
            for k in keys { state.update(.key(k == "\n" ? .enter : .char(k))) }
            let json = try #require(
                try JSONSerialization.jsonObject(with: Data(StateJSON.encode(state).utf8)) as? [String: Any])
            let action = try #require(json["lastAction"] as? [String: Any])
            #expect(action["name"] as? String == "circle")
            let e = try #require(action["explain"] as? [String: Any])
            #expect(Set(e.keys) == ["radiusMeters", "seedNorthMeters", "seedSouthMeters"])
            #expect(e["radiusMeters"] as? Double == s.radius)
            #expect(abs((e["seedNorthMeters"] as? Double ?? .nan) - s.northDistance) < 1e-3, "\(keys)")
            #expect(abs((e["seedSouthMeters"] as? Double ?? .nan) - s.southDistance) < 1e-3, "\(keys)")
            let geodesic = try #require(state.lastAction?.circle?.geodesic)
            for r in [geodesic.north, geodesic.south, geodesic.east, geodesic.west] {
                #expect(abs(r - s.radius) < 1e-6)
            }
            state.update(.key(.char("e")))
            let text = Renderer.render(state, sources: nil, options: RenderOptions(mode: .plain)).text
            #expect(text.contains("geodesic circle:    1000 km / 1000 km / 1000 km / 1000 km"))
            #expect(text.contains("seed screen circle: 874 km / 1143 km /"))
        }
    }

    @Test func actionsWithoutNumbersHaveNoExplanation() throws {
        var state = try ViewerState(cols: 80, rows: 24, center: Coordinate(latitude: 0, longitude: 0), zoom: 3)
        state.update(.key(.char("l")))
        #expect(try StateJSON.encode(state).contains("\"explain\":null"))
    }
}
