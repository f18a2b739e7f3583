import Foundation
import TestSupport
import Testing

@testable import GeoCore

@Suite("Web Mercator against pyproj and mercantile")
struct ProjectionTests {
    let f = GeoFixtures.shared

    @Test func maxLatitudeMatchesReference() {
        #expect(abs(WebMercator.maxLatitude - f.maxLatitude) < 1e-12)
        #expect(abs(WebMercator.maxLatitude - 85.0511287798) < 1e-9)
        // The literal is the formula's double, bit for bit.
        #expect(WebMercator.maxLatitude == atan(sinh(Double.pi)) * 180 / .pi)
    }

    @Test func forwardMatchesPyproj() {
        for c in f.projection {
            let m = WebMercator.projectMeters(Coordinate(latitude: c.lat, longitude: c.lon))
            #expect(abs(m.x - c.x) < 1e-6, "x at \(c.lat),\(c.lon)")
            #expect(abs(m.y - c.y) < 1e-6, "y at \(c.lat),\(c.lon)")
            #expect(abs(m.x - c.mercantileX) < 1e-6)
            #expect(abs(m.y - c.mercantileY) < 1e-6)
        }
    }

    @Test func tilesMatchMercantile() {
        for c in f.projection {
            let p = WebMercator.project(Coordinate(latitude: c.lat, longitude: c.lon))
            for (zoomText, tile) in c.tiles {
                let n = exp2(Double(zoomText) ?? -1)
                let x = min(Int((p.x * n).rounded(.down)), Int(n) - 1)
                let y = min(Int((p.y * n).rounded(.down)), Int(n) - 1)
                #expect([x, y] == tile, "tile z\(zoomText) at \(c.lat),\(c.lon)")
            }
        }
    }

    @Test func inverseMatchesPyproj() {
        for c in f.inverseProjection {
            let g = WebMercator.unprojectMeters(x: c.x, y: c.y)
            #expect(abs(g.latitude - c.lat) < 1e-9)
            #expect(abs(g.longitude - c.lon) < 1e-9)
        }
    }

    @Test func metersPerDotMatchesProjScaleFactor() {
        for c in f.metersPerDot {
            let m = WebMercator.metersPerDot(latitude: c.lat, zoom: c.zoom)
            #expect(abs(m - c.metersPerDot) <= 1e-9 * c.metersPerDot, "\(c.lat) z\(c.zoom)")
        }
        #expect(WebMercator.metersPerDot(latitude: 0, zoom: 0) == 156_543.03392804097)
    }

    @Test func unitSquareLiterals() {
        // MapLibre's convention: (0, 0) is the middle of the unit square.
        #expect(WebMercator.project(Coordinate(latitude: 0, longitude: 0)) == MercatorPoint(x: 0.5, y: 0.5))
        let top = WebMercator.project(Coordinate(latitude: 90, longitude: -180))
        #expect(top.x == 0)
        #expect(abs(top.y) < 1e-15)
    }

    @Test(arguments: [-85.0, -60.25, -1e-7, 0, 12.5, 33.777328, 70, 85.05])
    func roundTrip(latitude: Double) {
        for lon in stride(from: -180.0, to: 180, by: 7.3) {
            let c = Coordinate(latitude: latitude, longitude: lon)
            let back = WebMercator.unproject(WebMercator.project(c))
            #expect(abs(back.latitude - latitude) < 1e-9)
            #expect(abs(back.longitude - lon) < 1e-9)
        }
    }

    @Test(arguments: [
        (-180.0, -180.0), (180, -180), (179.999, 179.999), (540, -180), (-181, 179), (725, 5), (-1e6, 80),
    ])
    func wrapLongitude(input: Double, expected: Double) {
        #expect(abs(WebMercator.wrapLongitude(input) - expected) < 1e-9)
    }

    @Test func clampsLatitude() {
        #expect(WebMercator.clampLatitude(90) == WebMercator.maxLatitude)
        #expect(WebMercator.clampLatitude(-89) == -WebMercator.maxLatitude)
        #expect(WebMercator.clampLatitude(12) == 12)
    }
}
