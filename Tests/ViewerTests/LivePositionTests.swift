import GeoCore
import MapFormats
import MapRender
import Raster
import Testing

@testable import Viewer

/// The live position in the viewer (issue 49): follow mode's edge rule, a pan ending it, the first
/// fix's view, the marker's direction and its error circle.
struct LivePositionTests {
    static func state(following: Bool = true, zoom: Double = 16) throws -> ViewerState {
        var s = try ViewerState(cols: 100, rows: 32, center: Coordinate(latitude: 60.17, longitude: 24.94), zoom: zoom)
        s.position = LivePosition(source: "test")
        s.position?.following = following
        return s
    }

    /// The position `fx`, `fy` of the way across and down the map from its top left.
    static func fix(_ s: ViewerState, _ fx: Double, _ fy: Double, eph: Double? = nil) -> GPSFix {
        let size = s.view.size
        let c = s.view.coordinate(
            at: DotPoint(x: fx * size.widthDots, y: fy * Double(size.rows * ViewSize.dotsPerCellY)))
        return GPSFix(latitude: c.latitude, longitude: c.longitude, speed: 5, course: 90, horizontalError: eph)
    }

    /// Following, the map stays still while the marker is within the middle (20 % from each edge) and
    /// recentres on it once it comes nearer an edge.
    @Test func followRecentresOnlyNearTheEdge() throws {
        var s = try Self.state()
        s.update(.position(PositionUpdate(fix: Self.fix(s, 0.5, 0.5))))
        let still = s.view.center
        for (fx, fy) in [(0.7, 0.5), (0.25, 0.3), (0.5, 0.75)] {
            s.update(.position(PositionUpdate(fix: Self.fix(s, fx, fy))))
            #expect(s.view.center == still, "moved at \(fx), \(fy)")
        }
        let near = Self.fix(s, 0.85, 0.5)
        s.update(.position(PositionUpdate(fix: near)))
        #expect(
            abs(s.view.center.longitude - near.longitude) < 1e-9 && abs(s.view.center.latitude - near.latitude) < 1e-9)
        let high = Self.fix(s, 0.5, 0.15)
        s.update(.position(PositionUpdate(fix: high)))
        #expect(abs(s.view.center.latitude - high.latitude) < 1e-9)
        // Not following: the marker may leave the screen.
        var free = try Self.state(following: false)
        let before = free.view.center
        free.update(.position(PositionUpdate(fix: Self.fix(free, 1.5, 0.5))))
        #expect(free.view.center == before)
    }

    /// A pan ends following; a zoom does not; F resumes (recentring at once).
    @Test func aPanEndsFollowingAndFResumes() throws {
        var s = try Self.state()
        s.update(.position(PositionUpdate(fix: Self.fix(s, 0.5, 0.5))))
        s.update(.key(.char("+")))
        #expect(s.position?.following == true)
        s.update(.key(.char("l")))
        #expect(s.position?.following == false && s.message.contains("following the position off"))
        s.update(.key(.char("F")))
        #expect(s.position?.following == true)
        let fix = try #require(s.position?.fix)
        #expect(abs(s.view.center.longitude - fix.longitude) < 1e-9)
    }

    /// The first fix of a view of the world opens the map on its street (zoom 16); a status is said once.
    @Test func theFirstFixOpensOnItsStreetAndNewsIsSaidOnce() throws {
        var s = try Self.state(zoom: 2)
        s.update(.position(PositionUpdate(fix: nil, status: "no fix (3 satellites)")))
        #expect(s.message == "GPS: no fix (3 satellites)")
        s.message = ""
        s.update(.position(PositionUpdate(fix: nil, status: "no fix (3 satellites)")))
        #expect(s.message.isEmpty)
        s.update(.position(PositionUpdate(fix: GPSFix(latitude: 61.5, longitude: 23.75))))
        #expect(s.view.zoom == LivePosition.firstZoom && s.view.center.latitude == 61.5)
        #expect(s.message.hasPrefix("GPS: 3D fix at"))
    }

    /// The status line's field: km/h and metres, or mph and feet with `--units imperial`.
    @Test func theStatusLineSaysSpeedAndHeightInTheUnitsAsked() {
        var p = LivePosition(source: "test")
        p.fix = GPSFix(latitude: 60, longitude: 25, altitude: 100, speed: 10, course: 0)
        #expect(Renderer.positionField(p) == "GPS 36 km/h 100 m")
        #expect(Renderer.positionField(p, imperial: true) == "GPS 22 mph 328 ft")
        p.following = true
        p.recording = "t.gpx"
        p.fix?.altitude = nil
        p.fix?.mode = 2
        #expect(Renderer.positionField(p) == "● REC GPS→ 36 km/h 2D")
    }

    /// Course to arrow by octant while moving; a dot when still or without a course.
    @Test func theMarkerPointsAlongTheCourse() {
        let arrows = stride(from: 0.0, to: 360, by: 45).map { PositionLayer.glyph(course: $0, speed: 3, ascii: false) }
        #expect(String(arrows) == "↑↗→↘↓↙←↖")
        #expect(PositionLayer.glyph(course: 22.4, speed: 3, ascii: false) == "↑")
        #expect(PositionLayer.glyph(course: 22.6, speed: 3, ascii: false) == "↗")
        #expect(PositionLayer.glyph(course: -90, speed: 3, ascii: false) == "←")
        #expect(PositionLayer.glyph(course: 90, speed: 0.2, ascii: false) == "◉")
        #expect(PositionLayer.glyph(course: nil, speed: 3, ascii: true) == "@")
    }

    /// The error circle is drawn when eph is over a cell: its dots lie at eph metres from the fix (within
    /// a cell), and none without it.
    @Test func theErrorCircleIsDrawnAtItsRadius() throws {
        var s = try Self.state(following: false, zoom: 17)
        let plain = Renderer.render(s, sources: nil, options: RenderOptions(mode: .plain))
        s.update(.position(PositionUpdate(fix: Self.fix(s, 0.5, 0.5, eph: 60))))
        let circled = Renderer.render(s, sources: nil, options: RenderOptions(mode: .plain))
        let changed = (0..<(32 - 2)).flatMap { row in
            (0..<100).filter { circled[$0, row].glyph != plain[$0, row].glyph }.map { ($0, row) }
        }
        // 60 m at zoom 17 near 60° N is about 64 dots across: a ring of many cells around the centre.
        #expect(changed.count > 40)
        let cellMeters = s.view.metersPerDot
        for (col, row) in changed where (col, row) != (50, 15) {
            let dx = (Double(col) + 0.5 - 50) * 2 * cellMeters
            let dy = (Double(row) + 0.5 - 15) * 4 * cellMeters
            #expect(abs((dx * dx + dy * dy).squareRoot() - 60) < 6 * cellMeters, "cell \(col), \(row)")
        }
    }
}
