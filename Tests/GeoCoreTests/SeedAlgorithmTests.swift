import Foundation
import TestSupport
import Testing

@testable import GeoCore

@Suite("Seed 000: setCenter(_:zoomLevel:)")
struct SeedZoomLevelTests {
    @Test(arguments: [0, 1, 5, 10, 14, 18])
    func seedZoomIsStandardZoomPlusOne(zoom: UInt) throws {
        // The seed's world is 512·2^z pixels wide: its zoom z shows what the standard shows at z + 1.
        let size = try ViewSize(cols: 120, rows: 40)
        let center = Coordinate(latitude: 33.777328, longitude: -84.397348)
        let seed = SeedZoomLevelCategory.coordinateSpan(
            width: size.widthDots, height: size.heightDots, center: center, zoomLevel: zoom)
        let standardNext = try MapView(center: center, zoom: Double(zoom) + 1, size: size).region.span
        let standardSame = try MapView(center: center, zoom: Double(zoom), size: size).region.span
        // Within the seed's rounding to zoom-20 pixels.
        let pixel = 360 / (2 * SeedZoomLevelCategory.mercatorOffset)
        #expect(abs(seed.longitudeDelta - standardNext.longitudeDelta) <= 2 * pixel)
        #expect(abs(seed.latitudeDelta - standardNext.latitudeDelta) <= 2 * pixel + 1e-9 * standardNext.latitudeDelta)
        #expect(abs(seed.longitudeDelta * 2 - standardSame.longitudeDelta) <= 4 * pixel)
    }

    @Test func seedRoundingMakesTheSpanZeroAtHighZoom() throws {
        // At zoom 28 a 2-dot-wide view is 2·2^-8 seed pixels: round() collapses it.
        let span = SeedZoomLevelCategory.coordinateSpan(
            width: 2, height: 4, center: Coordinate(latitude: 10, longitude: 10), zoomLevel: 28)
        #expect(span.longitudeDelta == 0)
        #expect(span.latitudeDelta == 0)
    }

    @Test func seedPixelSpaceRoundTrips() {
        let x = SeedZoomLevelCategory.longitudeToPixelSpaceX(-84.397348)
        #expect(abs(SeedZoomLevelCategory.pixelSpaceXToLongitude(x) - -84.397348) < 1e-5)
        let y = SeedZoomLevelCategory.latitudeToPixelSpaceY(33.777328)
        #expect(abs(SeedZoomLevelCategory.pixelSpaceYToLatitude(y) - 33.777328) < 1e-5)
        #expect(SeedZoomLevelCategory.longitudeToPixelSpaceX(0) == SeedZoomLevelCategory.mercatorOffset)
    }
}

@Suite("Seed 004: zoom buttons")
struct ZoomButtonTests {
    let f = GeoFixtures.shared

    @Test func stepsMatchTheReferenceTable() throws {
        for c in f.zoomButton {
            var v = try MapView(
                center: Coordinate(latitude: c.lat, longitude: c.lon), zoom: c.zoom,
                size: ViewSize(cols: c.cols, rows: c.rows))
            let m = v.regionMeters()
            let label = "\(c.direction) at \(c.lat),\(c.lon) z\(c.zoom) \(c.cols)x\(c.rows)"
            #expect(abs(m.latitudinal - c.latitudinalMetersBefore) <= 1e-6, "lat metres \(label)")
            #expect(abs(m.longitudinal - c.longitudinalMetersBefore) <= 1e-6, "lon metres \(label)")
            let step = v.zoomButton(c.direction == "in" ? .zoomIn : .zoomOut)
            #expect(abs(step.zoomAfter - c.zoomAfter) < 1e-9, "zoom after \(label)")
            #expect(step.usedFallback == c.fallback, "fallback \(label)")
            #expect(step.zoomBefore == c.zoom)
            #expect(v.zoom == step.zoomAfter)
        }
        #expect(f.zoomButton.contains { $0.fallback }, "the table must exercise the fallback")
    }

    @Test func inNeverZoomsOutAndOutNeverZoomsIn() throws {
        for cols in [20, 128, 200, 400] {
            for z in stride(from: 0.0, through: 28, by: 0.7) {
                var a = try MapView(
                    center: Coordinate(latitude: 12, longitude: 34), zoom: z, size: ViewSize(cols: cols, rows: 24))
                var b = a
                #expect(a.zoomButton(.zoomIn).zoomAfter >= z)
                #expect(b.zoomButton(.zoomOut).zoomAfter <= z)
            }
        }
    }

    @Test func inThenOutIsTimesOnePointTwo() throws {
        // The seed's ×0.4 then ×3 leaves the view 1.2 times larger than before.
        var v = try MapView(
            center: Coordinate(latitude: 33.777328, longitude: -84.397348), zoom: 14,
            size: ViewSize(cols: 120, rows: 40))
        let before = v.regionMeters()
        v.zoomButton(.zoomIn)
        v.zoomButton(.zoomOut)
        let after = v.regionMeters()
        #expect(abs(after.longitudinal / before.longitudinal - 1.2) < 1e-3)
        #expect(abs(v.zoom - (14 - log2(1.2))) < 1e-3)
    }
}

@Suite("Seed 002: the circle and its fit")
struct CircleTests {
    let f = GeoFixtures.shared

    @Test func ringMatchesGeographicLib() throws {
        for c in f.circles {
            let circle = try GeodesicCircle(
                center: Coordinate(latitude: c.lat, longitude: c.lon), radiusMeters: c.radius)
            let ring = circle.ring()
            #expect(ring.count == 360)
            for (p, q) in zip(ring, c.ring) {
                #expect(abs(p.latitude - q[0]) < 1e-9 && abs(p.longitude - q[1]) < 1e-9, "circle \(c.lat),\(c.lon)")
            }
            #expect(circle.containsNorthPole == c.containsNorthPole)
            #expect(circle.containsSouthPole == c.containsSouthPole)
        }
    }

    @Test func ringIsContinuousAcrossTheAntimeridian() throws {
        let fiji = try GeodesicCircle(center: Coordinate(latitude: -17.7, longitude: 178.9), radiusMeters: 800_000)
        let ring = fiji.ring()
        for (a, b) in zip(ring, ring.dropFirst()) { #expect(abs(b.longitude - a.longitude) < 5) }
        #expect(ring.map(\.longitude).max() ?? 0 > 180)
    }

    @Test func poleAndWholeEarth() throws {
        let north = try GeodesicCircle(center: Coordinate(latitude: 85, longitude: 30), radiusMeters: 1_500_000)
        #expect(north.containsNorthPole && !north.containsSouthPole && !north.coversMercatorWorld)
        // A ring around a pole gains a whole turn of longitude.
        let ring = north.ring()
        #expect(abs(abs((ring.last?.longitude ?? 0) - (ring.first?.longitude ?? 0)) - 359) < 2)
        let everything = try GeodesicCircle(center: Coordinate(latitude: 90, longitude: 0), radiusMeters: 20_000_000)
        #expect(everything.coversMercatorWorld)
        let almost = try GeodesicCircle(center: Coordinate(latitude: 0, longitude: 0), radiusMeters: 20_000_000)
        #expect(!almost.coversMercatorWorld)
    }

    @Test(arguments: [0.0, -1, 20_000_000.5, .nan, .infinity])
    func badRadiusIsAnError(radius: Double) {
        #expect(throws: GeoError.self) {
            try GeodesicCircle(center: Coordinate(latitude: 0, longitude: 0), radiusMeters: radius)
        }
    }

    @Test func seedScreenCircleIsNotGeodesic() throws {
        // Seed 002 A draws its hole round on screen: at 60°N with 1000 km its north and south points
        // lie 874 km and 1143 km from the center (GeographicLib), while the geodesic circle is 1000 km everywhere.
        let s = f.seedScreenCircle
        let center = Coordinate(latitude: s.lat, longitude: s.lon)
        let view = try MapView(center: center, zoom: s.zoom, size: ViewSize(cols: 120, rows: 40))
        let ring = SeedScreenCircle.ring(in: view, center: center, radiusMeters: s.radius)
        let north = Geodesic.distance(center, ring[270])  // angle 270°: screen up
        let south = Geodesic.distance(center, ring[90])
        #expect(abs(north - s.northDistance) < 1e-3)
        #expect(abs(south - s.southDistance) < 1e-3)
        #expect(abs(north - 874_000) < 1000 && abs(south - 1_143_000) < 1000)
        // The same reach without a view: the ring's scale does not depend on the zoom.
        let reach = SeedScreenCircle.groundRadii(center: center, radiusMeters: s.radius)
        #expect(abs(reach.north - s.northDistance) < 1e-3 && abs(reach.south - s.southDistance) < 1e-3)
        let geodesic = try GeodesicCircle(center: center, radiusMeters: s.radius).ring()
        for p in geodesic { #expect(abs(Geodesic.distance(center, p) - s.radius) < 1e-6) }
    }

    @Test func fitZoomMatchesReference() throws {
        for c in f.circles {
            let circle = try GeodesicCircle(
                center: Coordinate(latitude: c.lat, longitude: c.lon), radiusMeters: c.radius)
            for (sizeText, expected) in c.fitZoom {
                let parts = sizeText.split(separator: "x").compactMap { Int($0) }
                let size = try ViewSize(cols: parts[0], rows: parts[1])
                let z = try CircleFit.zoom(for: circle, size: size)
                #expect(abs(z - expected) < 1e-9, "fit \(c.lat),\(c.lon) r\(c.radius) in \(sizeText)")
            }
        }
    }

    @Test func fitShowsTheWholeCircleWhereTheSeedCropsIt() throws {
        // Landscape 120×40 cells = 240×160 dots. The seed sizes the box from the width only.
        let center = Coordinate(latitude: 37.7749, longitude: -122.4194)
        let circle = try GeodesicCircle(center: center, radiusMeters: 500)
        var view = try MapView(center: center, zoom: 14, size: ViewSize(cols: 120, rows: 40))
        let seed = SeedCircleFit.camera(
            in: view, center: center, radiusMeters: 500, circleRatio: CircleFit.defaultRatio)
        var seedView = view
        try seedView.setCenter(seed.center, zoomLevel: seed.zoom)
        let seedRing = circle.ring().map { seedView.dotPoint(for: $0) }
        let seedTop = seedRing.map(\.y).min() ?? 0
        #expect(seedTop < 0, "the seed's fit crops the top of the circle (top at \(seedTop) dots)")

        try view.fit(circle)
        let ring = circle.ring().map { view.dotPoint(for: $0) }
        for p in ring {
            #expect(p.x >= 0 && p.x <= 240 && p.y >= 0 && p.y <= 160)
        }
        // And it is tight: the circle reaches ratio × half the height.
        let top = ring.map(\.y).min() ?? 0
        #expect(abs((80 - top) - CircleFit.defaultRatio * 80) < 0.01)
    }

    @Test func fitAroundAPoleFramesFromTheLimitToTheRing() throws {
        let circle = try GeodesicCircle(center: Coordinate(latitude: 85, longitude: 30), radiusMeters: 1_500_000)
        var view = try MapView(
            center: Coordinate(latitude: 0, longitude: 0), zoom: 5, size: ViewSize(cols: 80, rows: 40))
        try view.fit(circle)
        #expect(view.zoom >= 0 && view.zoom <= 28)
        // The top edge of the view is at (or beyond) the Mercator limit and the far side of the ring is on screen.
        #expect(view.bounds.north >= WebMercator.maxLatitude - 1e-9)
        let lowest = circle.ring().map { view.dotPoint(for: $0).y }.max() ?? 0
        #expect(lowest <= view.size.heightDots)
        #expect(view.center.latitude < 85)
    }
}

/// Fits around a pole on a wide view, where the height decides the zoom: the far edge of the ring must
/// end at ratio × half the height from the center, on the side away from the pole.
@Suite("Fit around either pole")
struct PoleFitTests {
    @Test(arguments: [85.0, -85.0])
    func heightDecidesAndTheFarEdgeIsOnScreen(latitude: Double) throws {
        let circle = try GeodesicCircle(center: Coordinate(latitude: latitude, longitude: 30), radiusMeters: 1_500_000)
        #expect(latitude > 0 ? circle.containsNorthPole : circle.containsSouthPole)
        // 400×20 cells = 800×80 dots: the height limits the zoom.
        var view = try MapView(
            center: Coordinate(latitude: 0, longitude: 0), zoom: 5, size: ViewSize(cols: 400, rows: 20))
        try view.fit(circle)
        let ys = circle.ring().map { view.dotPoint(for: $0).y }
        let half = view.size.heightDots / 2
        if latitude > 0 {
            // The far edge is the ring's southernmost point, at the bottom of the box.
            let far = ys.max() ?? 0
            #expect(abs(far - (half + CircleFit.defaultRatio * half)) < 1e-6)
            #expect(view.bounds.north >= WebMercator.maxLatitude - 1e-9)
        } else {
            // The far edge is the ring's northernmost point, at the top of the box.
            let far = ys.min() ?? 0
            #expect(abs(far - (half - CircleFit.defaultRatio * half)) < 1e-6)
            #expect(view.bounds.south <= -WebMercator.maxLatitude + 1e-9)
        }
        #expect(ys.allSatisfy { $0 >= 0 && $0 <= view.size.heightDots })
        #expect(abs(view.center.latitude) < abs(latitude))
    }
}
