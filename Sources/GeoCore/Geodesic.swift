import CProj

/// Geodesics on the WGS84 ellipsoid through PROJ's implementation of Karney (2013),
/// "Algorithms for geodesics", J. Geodesy 87, 43–55. Results match GeographicLib.
public enum Geodesic {
    /// The solution of the inverse problem between two points.
    public struct Inverse: Equatable, Sendable {
        /// Length of the shortest path in metres.
        public var distance: Double
        /// Azimuth at the first point, degrees clockwise from north.
        public var initialAzimuth: Double
        /// Azimuth at the second point, degrees clockwise from north.
        public var finalAzimuth: Double
    }

    // A value type holding only numbers (Sendable): initialised once, read by every call.
    private static let wgs84: geod_geodesic = {
        var g = geod_geodesic()
        geod_init(&g, WGS84.semiMajorAxis, WGS84.flattening)
        return g
    }()

    /// Distance in metres along the shortest geodesic (what `CLLocation.distance(from:)` measures).
    public static func distance(_ a: Coordinate, _ b: Coordinate) -> Double {
        inverse(a, b).distance
    }

    /// Distance and azimuths between two points.
    public static func inverse(_ a: Coordinate, _ b: Coordinate) -> Inverse {
        var s12 = 0.0
        var azi1 = 0.0
        var azi2 = 0.0
        withUnsafePointer(to: wgs84) { g in
            geod_inverse(g, a.latitude, a.longitude, b.latitude, b.longitude, &s12, &azi1, &azi2)
        }
        return Inverse(distance: s12, initialAzimuth: azi1, finalAzimuth: azi2)
    }

    /// The point reached from `start` after `distance` metres along azimuth `bearing` (degrees).
    public static func destination(from start: Coordinate, bearing: Double, distance: Double) -> Coordinate {
        var lat = 0.0
        var lon = 0.0
        var azi2 = 0.0
        withUnsafePointer(to: wgs84) { g in
            geod_direct(g, start.latitude, start.longitude, bearing, distance, &lat, &lon, &azi2)
        }
        return Coordinate(latitude: lat, longitude: lon)
    }
}
