import Foundation
import GeoCore
import TestSupport
import Testing

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
            #expect(Set(e.keys) == [
                "factor", "latitudinalMeters", "longitudinalMeters", "newLatitudinalMeters", "newLongitudinalMeters",
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
            let meridian = WGS84.meridianDistance(latitude: c.lat + n("latitudeDelta") / 2)
                - WGS84.meridianDistance(latitude: c.lat - n("latitudeDelta") / 2)
            if n("latitudeDelta") < 10 {
                #expect(abs(meridian - factor * c.latitudinalMetersBefore) < 1e-3 * meridian, "\(label)")
            }
        }
    }

    @Test func thePanelShowsTheStepAndAnyKeyClosesItDoingNothingElse() throws {
        var state = try ViewerState(cols: 80, rows: 24, center: Coordinate(latitude: 33.777328, longitude: -84.397348), zoom: 14)
        state.update(.key(.char("e")))
        #expect(Renderer.render(state, sources: nil, options: RenderOptions(mode: .plain)).text.contains("nothing to explain yet"))
        state.update(.key(.char("+")))
        #expect(!state.showExplain && state.view.zoom == 14, "the key that closed the panel did nothing else")
        state.update(.key(.char("+")))
        state.update(.key(.char("e")))
        let text = Renderer.render(state, sources: nil, options: RenderOptions(mode: .plain)).text
        for part in ["zoom in ×0.4", "edge midpoints", "region from metres", "regionThatFits: zoomX 15.32", "zoom 14.00 → 15.32"] {
            #expect(text.contains(part), "\(part)")
        }
        // At 80 columns every line fits the box whole.
        #expect(!text.contains("…") && text.split(separator: "\n").allSatisfy { $0.count <= 80 })
        let zoom = state.view.zoom
        state.update(.key(.char("-")))
        #expect(!state.showExplain && state.view.zoom == zoom)
        #expect(try StateJSON.encode(state).contains("\"explain\":null") == false)
    }

    @Test func actionsWithoutNumbersHaveNoExplanation() throws {
        var state = try ViewerState(cols: 80, rows: 24, center: Coordinate(latitude: 0, longitude: 0), zoom: 3)
        state.update(.key(.char("l")))
        #expect(try StateJSON.encode(state).contains("\"explain\":null"))
    }
}
