import FoundationEssentials
import Glibc

/// A point of the Web Mercator world as a unit square: x east from −180°, y south from the top edge.
/// Same convention as MapLibre's `MercatorCoordinate` (x and y in 0…1 for the world; x may be unwrapped).
public struct MercatorPoint: Equatable, Hashable, Sendable {
    /// 0 at −180°, 1 at +180° (values outside continue the next world copy).
    public var x: Double
    /// 0 at the north Mercator limit, 1 at the south one.
    public var y: Double

    /// A point in unit-square units.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// Spherical ("pseudo") Mercator, EPSG:3857: the projection of Google Maps, Leaflet and OSM tiles.
/// Formulas: IOGP Guidance Note 7-2, method 1024; zoom z makes the world 256·2^z dots wide.
public enum WebMercator {
    /// Radius of the sphere, the WGS84 semi-major axis (EPSG:3857).
    public static let earthRadius = 6_378_137.0
    /// Dots across the world at zoom 0 (one 256-pixel tile).
    public static let tileSize = 256.0
    /// The latitude at which the world becomes square, atan(sinh π)·180/π. A literal (a test holds it equal
    /// to the formula) so that clamping a latitude, once per decoded point, needs no lazy initialisation.
    public static let maxLatitude = 85.05112877980659
    /// The zoom levels the viewer allows (the seed clamps at 28).
    public static let zoomRange: ClosedRange<Double> = 0...28
    /// Metres per dot on the equator at zoom 0: 2π·6378137/256 = 156543.03392804097.
    public static let equatorMetersPerDotAtZoom0 = 2 * Double.pi * earthRadius / tileSize

    /// Latitude limited to the square world.
    @inlinable
    public static func clampLatitude(_ latitude: Double) -> Double {
        min(max(latitude, -maxLatitude), maxLatitude)
    }

    /// Longitude in [-180, 180).
    public static func wrapLongitude(_ longitude: Double) -> Double {
        guard longitude.isFinite else { return longitude }
        if longitude >= -180 && longitude < 180 { return longitude }
        let wrapped = (longitude + 180).truncatingRemainder(dividingBy: 360)
        let shifted = (wrapped < 0 ? wrapped + 360 : wrapped) - 180
        return shifted >= 180 ? shifted - 360 : shifted
    }

    /// The longitude `longitude + k·360` nearest to `reference`.
    public static func unwrap(_ longitude: Double, near reference: Double) -> Double {
        longitude - 360 * ((longitude - reference) / 360).rounded()
    }

    /// Width (and height) of the world in dots at a zoom level: 256·2^z.
    public static func worldSize(zoom: Double) -> Double {
        tileSize * exp2(zoom)
    }

    /// Coordinate → unit square; latitude is clamped to the Mercator limit, longitude kept unwrapped.
    public static func project(_ c: Coordinate) -> MercatorPoint {
        MercatorPoint(x: projectX(longitude: c.longitude), y: projectY(latitude: c.latitude))
    }

    /// Longitude → unit-square x, unwrapped (`project`'s x alone).
    @inlinable
    public static func projectX(longitude: Double) -> Double {
        (longitude + 180) / 360
    }

    /// Latitude → unit-square y, clamped to the Mercator limit (`project`'s y alone).
    @inlinable
    public static func projectY(latitude: Double) -> Double {
        let phi = clampLatitude(latitude) * .pi / 180
        return 0.5 - log(tan(.pi / 4 + phi / 2)) / (2 * .pi)
    }

    /// Unit square → coordinate; any y is allowed (beyond 0…1 the latitude passes the limit towards ±90).
    public static func unproject(_ p: MercatorPoint) -> Coordinate {
        let longitude = p.x * 360 - 180
        let latitude = atan(sinh(.pi * (1 - 2 * p.y))) * 180 / .pi
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    /// Coordinate → EPSG:3857 easting/northing in metres (for comparison with PROJ).
    public static func projectMeters(_ c: Coordinate) -> (x: Double, y: Double) {
        let p = project(c)
        let world = 2 * Double.pi * earthRadius
        return ((p.x - 0.5) * world, (0.5 - p.y) * world)
    }

    /// EPSG:3857 metres → coordinate.
    public static func unprojectMeters(x: Double, y: Double) -> Coordinate {
        let world = 2 * Double.pi * earthRadius
        return unproject(MercatorPoint(x: x / world + 0.5, y: 0.5 - y / world))
    }

    /// Ground metres covered by one dot at a latitude on a world `worldSize` dots wide: the equator's
    /// length over the world's dots, times cos φ (the Mercator scale, Snyder 1987, eq. 7-3: k = sec φ).
    public static func metersPerDot(latitude: Double, worldSize: Double) -> Double {
        2 * Double.pi * earthRadius * cos(clampLatitude(latitude) * .pi / 180) / worldSize
    }

    /// Ground metres covered by one dot at a latitude and zoom: 156543.03392804097·cos φ / 2^z.
    public static func metersPerDot(latitude: Double, zoom: Double) -> Double {
        equatorMetersPerDotAtZoom0 * cos(clampLatitude(latitude) * .pi / 180) / exp2(zoom)
    }
}
