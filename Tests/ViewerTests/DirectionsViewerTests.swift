import Foundation
import GeoCore
import MapFormats
import MapRender
import Raster
import Testing

@testable import Viewer

/// `d`, Tab, `D`, Esc and `r` in the viewer over the demo city (issue 46).
@Suite("Directions in the viewer")
struct DirectionsViewerTests {
    static let station = Coordinate(latitude: 60.1699, longitude: 24.9384)
    static let market = Coordinate(latitude: 60.1675, longitude: 24.9525)

    /// A viewer at the station at zoom 15 over the demo city, after `keys`.
    static func state(_ keys: [InputEvent]) throws -> ViewerState {
        var s = try ViewerState(cols: 100, rows: 30, center: station, zoom: 15)
        s.animationsEnabled = false
        for k in keys { s.update(k, places: bundledCitySources) }
        return s
    }

    static func goTo(_ c: Coordinate) -> [InputEvent] {
        [.key(.char("g"))] + "\(c.latitude),\(c.longitude)".map { .key(.char($0)) } + [.key(.enter)]
    }

    @Test func dThenDRoutesAndTabCyclesTheProfile() throws {
        var s = try Self.state([.key(.char("d"))] + Self.goTo(Self.market) + [.key(.char("d"))])
        let foot = try #require(s.directions.route)
        #expect(foot.profile == .foot && foot.meters > 800 && foot.meters < 1200)
        #expect(s.message.hasPrefix("on foot · \(Directions.distance(foot.meters)) · "))
        #expect(foot.steps.last?.instruction == "arrive" && foot.steps.count >= 3)
        // The route is drawn (seen from between its ends): cells of the route's look, none under a name,
        // and the pick says `route` with a step's words.
        for e in Self.goTo(Coordinate(latitude: 60.1687, longitude: 24.9455)) {
            s.update(e, places: bundledCitySources)
        }
        let frame = screen(s, mode: .ansi256)
        let routeStyle = StyleTable.style(.route, mode: .ansi256, theme: s.theme)
        let cells = (0..<frame.rows).flatMap { r in (0..<frame.cols).map { frame[$0, r] } }
        #expect(cells.filter { $0.style.foreground == routeStyle.foreground }.count >= 60)
        let map = try #require(Renderer.draw(s, sources: bundledCitySources, options: RenderOptions(mode: .plain)).map)
        let picked = (0..<s.view.size.rows).flatMap { r in
            (0..<s.view.size.cols).flatMap { map.pick.features(atCol: $0, row: r) }
        }
        #expect(picked.contains { $0.className == "route" && $0.name?.contains("onto") == true })
        s.update(.key(.tab), places: bundledCitySources)
        #expect(s.directions.route?.profile == .bike && s.message.hasPrefix("by bike · "))
        s.update(.key(.tab), places: bundledCitySources)
        #expect(s.directions.route?.profile == .car && s.message.hasPrefix("by car · "))
        // JSON carries the route with termmap route's fields.
        let json = try StateJSON.encode(s)
        #expect(json.contains("\"route\":{\"geometry\":[[") && json.contains("\"profile\":\"car\""))
    }

    @Test func stepsPanelChoosesAndCentresAndEscClears() throws {
        var s = try Self.state([.key(.char("d"))] + Self.goTo(Self.market) + [.key(.char("d")), .key(.char("D"))])
        #expect(s.directions.showsSteps)
        let text = Renderer.render(s, sources: bundledCitySources, options: RenderOptions(mode: .plain)).text
        #expect(text.contains("turn right onto Mannerheimintie"), "\(text)")
        s.update(.key(.down), places: bundledCitySources)
        s.update(.key(.enter), places: bundledCitySources)
        let second = try #require(s.directions.route?.steps[1])
        #expect(Geodesic.distance(s.view.center, second.at) < 1)
        s.update(.key(.escape), places: bundledCitySources)
        #expect(!s.directions.showsSteps && s.directions.route != nil)
        s.update(.key(.escape), places: bundledCitySources)
        #expect(s.directions.route == nil && s.message == "route cleared")
        #expect(s.layers.first(RouteLayer.self) == nil)
    }

    @Test func reachShadesWhatIsFartherAndRSetsTheMinutes() throws {
        var s = try Self.state([.key(.char("D"))])
        #expect(s.directions.reach?.minutes == 15 && s.message.hasPrefix("on foot within 15 min: "))
        let wide = screen(s, mode: .ansi256)
        s.update(.key(.char("r")), places: bundledCitySources)
        #expect(s.prompt?.kind == .reachMinutes)
        for c in "2" { s.update(.key(.char(c)), places: bundledCitySources) }
        s.update(.key(.enter), places: bundledCitySources)
        #expect(s.directions.reach?.minutes == 2)
        let narrow = screen(s, mode: .ansi256)
        // Fewer cells are clear within 2 minutes than within 15.
        let shade = StyleTable.shade(mode: .ansi256, theme: s.theme)
        let shadeLand = StyleTable.shade(mode: .ansi256, theme: s.theme, overLand: true)
        func shaded(_ f: Frame) -> Int {
            var n = 0
            for r in 0..<(f.rows - 2) {
                for col in 0..<f.cols {
                    let bg = f[col, r].style.background
                    if bg == shade || bg == shadeLand { n += 1 }
                }
            }
            return n
        }
        #expect(shaded(narrow) > shaded(wide) + 200, "\(shaded(narrow)) vs \(shaded(wide))")
        #expect(
            try StateJSON.encode(s).contains(
                "\"reach\":{\"lat\":60.1699,\"lon\":24.9384,\"minutes\":2,\"profile\":\"foot\"}"))
    }

    @Test func noNetworkSaysHowToGetOne() throws {
        var s = try ViewerState(cols: 100, rows: 30, center: Coordinate(latitude: 48.8584, longitude: 2.2945), zoom: 15)
        s.update(.key(.char("d")), places: bundledCitySources)
        s.update(.key(.char("d")), places: bundledCitySources)
        #expect(s.messageIsError && s.message.hasPrefix("no route: the start 48.8584,2.2945 is outside every import"))
        var world = try ViewerState(cols: 100, rows: 30, center: Self.station, zoom: 15)
        world.update(.key(.char("d")), places: bundledSources)
        world.update(.key(.char("d")), places: bundledSources)
        #expect(world.message.contains("termmap data import-osm"), "\(world.message)")
    }
}
