import TestSupport
import Testing

@testable import GeoCore

@Suite("Geodesics and metres against GeographicLib")
struct GeodesicTests {
    let f = GeoFixtures.shared

    @Test func inverseMatchesGeographicLib() {
        for c in f.geodesicInverse {
            let r = Geodesic.inverse(
                Coordinate(latitude: c.lat1, longitude: c.lon1), Coordinate(latitude: c.lat2, longitude: c.lon2))
            #expect(abs(r.distance - c.distance) <= 1e-6, "\(c.lat1),\(c.lon1) → \(c.lat2),\(c.lon2)")
            // Azimuths are undefined between exact antipodes and poles; compare where they are.
            if abs(c.lat1) < 90, abs(c.lat2) < 90, c.distance < 2.0e7 {
                #expect(abs(r.initialAzimuth - c.azi1) < 1e-9)
                #expect(abs(r.finalAzimuth - c.azi2) < 1e-9)
            }
        }
    }

    @Test func directMatchesGeographicLib() {
        for c in f.geodesicDirect {
            let p = Geodesic.destination(
                from: Coordinate(latitude: c.lat1, longitude: c.lon1), bearing: c.azi1, distance: c.distance)
            // 1e-6 m of position, expressed as the distance between the two answers.
            let error = Geodesic.distance(p, Coordinate(latitude: c.lat2, longitude: c.lon2))
            #expect(error <= 1e-6, "direct from \(c.lat1),\(c.lon1) az \(c.azi1): off by \(error) m")
        }
    }

    /// The meridian arc in closed form (Helmert's series) equals GeographicLib's geodesic between two
    /// points of one meridian: the quarter meridian, a degree at the equator, and the 34 arcs between
    /// the top and bottom of the zoom-button views (from 84°N to 60°S, 0.1 m to 20,000 km).
    @Test func meridianArcMatchesGeographicLib() throws {
        for c in f.geodesicInverse where c.lon1 == c.lon2 {
            let arc = abs(WGS84.meridianDistance(latitude: c.lat2) - WGS84.meridianDistance(latitude: c.lat1))
            #expect(abs(arc - c.distance) <= 1e-6, "\(c.lat1) → \(c.lat2): \(arc) against \(c.distance)")
        }
        for c in f.zoomButton {
            let r = try MapView(
                center: Coordinate(latitude: c.lat, longitude: c.lon), zoom: c.zoom,
                size: ViewSize(cols: c.cols, rows: c.rows)
            ).region
            let south = max(-90, r.center.latitude - r.span.latitudeDelta / 2)
            let north = min(90, r.center.latitude + r.span.latitudeDelta / 2)
            let arc = WGS84.meridianDistance(latitude: north) - WGS84.meridianDistance(latitude: south)
            #expect(abs(arc - c.latitudinalMetersBefore) <= 1e-6, "\(south) → \(north)")
        }
    }

    @Test func regionFromMetersMatchesReference() {
        for c in f.regionFromMeters {
            let r = CoordinateRegion(
                center: Coordinate(latitude: c.lat, longitude: 0),
                latitudinalMeters: c.latitudinalMeters, longitudinalMeters: c.longitudinalMeters)
            #expect(abs(r.span.latitudeDelta - c.latitudeDelta) <= 1e-12 * max(1, c.latitudeDelta))
            #expect(abs(r.span.longitudeDelta - c.longitudeDelta) <= 1e-12 * max(1, c.longitudeDelta))
        }
    }

    @Test func regionFromMetersMatchesMapKitAtTheEquator() {
        // MapKit's MKCoordinateRegion(center: (0,0), latitudinalMeters:longitudinalMeters:) values, as
        // printed to 9 decimals. MapKit's longitude differs from N·cosφ by 5e-9° (0.6 mm): a tolerance of 1e-8°.
        let one = CoordinateRegion(
            center: Coordinate(latitude: 0, longitude: 0), latitudinalMeters: 1000, longitudinalMeters: 2000)
        #expect(abs(one.span.latitudeDelta - 0.009043695) < 1e-9)
        #expect(abs(one.span.longitudeDelta - 0.017966311) < 1e-8)
    }
}
