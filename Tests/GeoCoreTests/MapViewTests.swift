import Foundation
import TestSupport
import Testing

@testable import GeoCore

@Suite("The map-view model")
struct MapViewTests {
    let f = GeoFixtures.shared

    func view(_ lat: Double, _ lon: Double, _ zoom: Double, _ cols: Int, _ rows: Int) throws -> MapView {
        try MapView(
            center: Coordinate(latitude: lat, longitude: lon), zoom: zoom, size: ViewSize(cols: cols, rows: rows))
    }

    @Test func spansAndBoundsMatchReference() throws {
        for c in f.spans {
            let v = try view(c.lat, c.lon, c.zoom, c.cols, c.rows)
            let b = v.bounds
            let s = v.region.span
            let label = "\(c.lat),\(c.lon) z\(c.zoom) \(c.cols)x\(c.rows)"
            #expect(abs(b.north - c.north) < 1e-9, "north \(label)")
            #expect(abs(b.south - c.south) < 1e-9, "south \(label)")
            #expect(abs(b.west - c.west) < 1e-9, "west \(label)")
            #expect(abs(b.east - c.east) < 1e-9, "east \(label)")
            #expect(abs(s.latitudeDelta - c.latitudeDelta) < 1e-9, "Δlat \(label)")
            #expect(abs(s.longitudeDelta - c.longitudeDelta) < 1e-9, "Δlon \(label)")
        }
    }

    @Test func worldAtZoomZeroIsWiderThan360WhenTheViewIs() throws {
        let v = try view(0, 0, 0, 200, 30)  // 400 dots > 256
        #expect(v.region.span.longitudeDelta == 562.5)
    }

    @Test func setCenterZoomLevelIsExact() throws {
        var v = try view(0, 0, 0, 120, 40)
        let gt = Coordinate(latitude: 33.777328, longitude: -84.397348)
        let outcome = try v.setCenter(gt, zoomLevel: 14)
        #expect(v.zoom == 14)
        #expect(v.center == gt)
        #expect(!outcome.wasClamped)
        try v.setCenter(Coordinate(latitude: 89, longitude: 190), zoomLevel: 3.25)
        #expect(v.zoom == 3.25)
        #expect(v.center.latitude == WebMercator.maxLatitude)
        #expect(abs(v.center.longitude - -170) < 1e-12)
        let clamped = try v.setCenter(gt, zoomLevel: 31)
        #expect(clamped.wasClamped && v.zoom == 28)
    }

    @Test(arguments: [-1.0, -0.0001, .nan, .infinity, -.infinity])
    func badZoomIsAnErrorAndLeavesTheView(zoom: Double) throws {
        var v = try view(10, 20, 5, 100, 30)
        let before = v
        #expect(throws: GeoError.self) { try v.setCenter(Coordinate(latitude: 0, longitude: 0), zoomLevel: zoom) }
        #expect(v == before)
    }

    @Test(arguments: [(91.0, 0.0), (-90.5, 0), (.nan, 0), (0, .nan), (.infinity, 0), (0, -.infinity)])
    func badCoordinateIsAnError(lat: Double, lon: Double) throws {
        var v = try view(10, 20, 5, 100, 30)
        #expect(throws: GeoError.self) { try v.setCenter(Coordinate(latitude: lat, longitude: lon), zoomLevel: 3) }
        #expect(throws: GeoError.self) { try v.setCenter(Coordinate(latitude: lat, longitude: lon)) }
        #expect(v.center.latitude == 10 && v.zoom == 5)
    }

    @Test(arguments: [(0, 0), (0, 10), (10, 0), (-1, 5), (5, -3)])
    func badSizeIsAnError(cols: Int, rows: Int) {
        #expect(throws: GeoError.invalidViewSize(cols: cols, rows: rows)) { try ViewSize(cols: cols, rows: rows) }
    }

    @Test func badSpanIsAnError() throws {
        var v = try view(0, 0, 3, 100, 30)
        for (a, b) in [(-1.0, 1.0), (1, .nan), (.infinity, 1), (0, 0)] {
            let r = CoordinateRegion(center: v.center, span: CoordinateSpan(latitudeDelta: a, longitudeDelta: b))
            #expect(throws: GeoError.self) { try v.setRegion(r) }
        }
        #expect(v.zoom == 3)
    }

    @Test func setRegionOfOwnRegionContainsIt() throws {
        // A region is symmetric in degrees around its center, a view is symmetric in Mercator: refitting
        // a view's own region keeps the zoom on the equator and otherwise zooms out just enough to hold it.
        for c in f.spans where c.longitudeDelta < 360 && abs(c.lat) < 84 {
            var v = try view(c.lat, c.lon, c.zoom, c.cols, c.rows)
            let z = v.zoom
            let region = v.region
            try v.setRegion(region)
            if c.lat == 0 {
                #expect(abs(v.zoom - z) < 1e-9, "equator z\(c.zoom)")
            } else {
                #expect(v.zoom <= z + 1e-9 && v.zoom > z - 0.05, "\(c.lat),\(c.lon) z\(c.zoom)")
            }
            #expect(v.bounds.north >= min(WebMercator.maxLatitude, c.lat + region.span.latitudeDelta / 2) - 1e-9)
            #expect(v.bounds.south <= max(-WebMercator.maxLatitude, c.lat - region.span.latitudeDelta / 2) + 1e-9)
        }
    }

    @Test func setRegionFollowsTheIssueFormula() throws {
        var v = try view(0, 0, 0, 120, 40)  // 240×160 dots
        let region = CoordinateRegion(
            center: Coordinate(latitude: 40, longitude: -3), span: CoordinateSpan(latitudeDelta: 2, longitudeDelta: 10))
        try v.setRegion(region)
        let zoomX = log2(240 * 360 / (256 * 10.0))
        let yc = WebMercator.project(Coordinate(latitude: 40, longitude: 0)).y
        let yn = WebMercator.project(Coordinate(latitude: 41, longitude: 0)).y
        let ys = WebMercator.project(Coordinate(latitude: 39, longitude: 0)).y
        let zoomY = log2(160 / (2 * max(yc - yn, ys - yc) * 256))
        #expect(abs(v.zoom - min(zoomX, zoomY)) < 1e-12)
        #expect(v.center == Coordinate(latitude: 40, longitude: -3))
        // The view then contains the whole region.
        #expect(v.bounds.north >= 41 - 1e-9 && v.bounds.south <= 39 + 1e-9)
    }

    @Test func dotConversionsRoundTrip() throws {
        let v = try view(33.777328, -84.397348, 14, 120, 40)
        let center = v.dotPoint(for: v.center)
        #expect(abs(center.x - 120) < 1e-9 && abs(center.y - 80) < 1e-9)
        for x in stride(from: 0.0, through: 240, by: 30) {
            for y in stride(from: 0.0, through: 160, by: 40) {
                let back = v.dotPoint(for: v.coordinate(at: DotPoint(x: x, y: y)))
                #expect(abs(back.x - x) < 1e-6 && abs(back.y - y) < 1e-6)
            }
        }
        let corner = v.coordinate(at: DotPoint(x: 0, y: 0))
        #expect(abs(corner.latitude - v.bounds.north) < 1e-12)
        #expect(abs(corner.longitude - v.bounds.west) < 1e-9)
    }

    @Test func dotPointTakesTheNearestWorldCopy() throws {
        let v = try view(-17.7, 179.5, 6, 100, 30)
        let east = v.dotPoint(for: Coordinate(latitude: -17.7, longitude: -179.5))
        #expect(abs(east.x - (100 + 256 * 64.0 / 360)) < 1e-6)
    }

    @Test func panMovesByDots() throws {
        var v = try view(0, 0, 2, 100, 30)
        v.pan(dx: 256, dy: 0)  // a quarter of the 1024-dot world
        #expect(abs(v.center.longitude - 90) < 1e-9)
        v.pan(dx: 512, dy: 0)
        #expect(abs(v.center.longitude - -90) < 1e-9)
        // North as far as it goes: the world's top edge (85.05°) at the screen's, the 120-dot view's
        // centre 60 dots below it, not the pole at the screen's middle over a blank band.
        v.pan(dx: 0, dy: -10_000)
        #expect(abs(v.centerPoint.y - 60.0 / 1024) < 1e-12)
        #expect(abs(v.transform.dotY(0)) < 1e-9)
        let north = v.center
        v.pan(dx: .nan, dy: 1)
        #expect(v.center == north)
        v.pan(dx: 0, dy: 20_000)
        #expect(abs(v.transform.dotY(1) - 120) < 1e-9)
        // A world shorter than the view (zoom 0, 64 rows: 256 dots of 256): it stays within the world.
        var tall = try view(0, 0, 0, 100, 64)
        tall.pan(dx: 0, dy: -10_000)
        #expect(tall.center.latitude == WebMercator.maxLatitude)
    }

    @Test func zoomAroundKeepsThePointUnderTheCursor() throws {
        var v = try view(48.85, 2.35, 11, 120, 40)
        let dot = DotPoint(x: 40, y: 30)
        let before = v.coordinate(at: dot)
        v.setZoom(12.5, around: dot)
        #expect(v.zoom == 12.5)
        let after = v.coordinate(at: dot)
        #expect(abs(after.latitude - before.latitude) < 1e-9)
        #expect(abs(after.longitude - before.longitude) < 1e-9)
    }

    @Test func sweepStateStaysFinite() throws {
        var v = try view(0, 0, 0, 37, 11)
        var r = SeededRandom(state: 42)
        func next() -> Double { r.unit() }
        for i in 0..<3000 {
            switch i % 4 {
            case 0: v.pan(dx: (next() - 0.5) * 1e4, dy: (next() - 0.5) * 1e4)
            case 1: v.setZoom(next() * 40 - 6, around: DotPoint(x: next() * 74, y: next() * 44))
            case 2: v.zoomButton(next() < 0.5 ? .zoomIn : .zoomOut)
            default:
                _ = try? v.setCenter(
                    Coordinate(latitude: next() * 200 - 100, longitude: next() * 1000 - 500), zoomLevel: next() * 30)
            }
            #expect(v.center.latitude.isFinite && abs(v.center.latitude) <= WebMercator.maxLatitude)
            #expect(v.center.longitude >= -180 && v.center.longitude < 180)
            #expect(v.zoom >= 0 && v.zoom <= 28)
        }
    }
}
