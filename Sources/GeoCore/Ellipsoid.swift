import FoundationEssentials
import Glibc

/// The WGS84 ellipsoid and the radii of curvature used to turn metres into degrees.
/// Formulas: any geodesy text, e.g. Torge & Müller, *Geodesy*, §4.1.
public enum WGS84 {
    /// Semi-major axis a in metres.
    public static let semiMajorAxis = 6_378_137.0
    /// Flattening f.
    public static let flattening = 1 / 298.257223563
    /// First eccentricity squared e² = f(2 − f).
    public static let eccentricitySquared = flattening * (2 - flattening)

    /// Meridional radius of curvature M(φ) = a(1−e²)/(1−e² sin²φ)^{3/2}.
    public static func meridionalRadius(latitude: Double) -> Double {
        let s = sin(latitude * .pi / 180)
        let w = 1 - eccentricitySquared * s * s
        return semiMajorAxis * (1 - eccentricitySquared) / (w * w.squareRoot())
    }

    /// Prime-vertical radius of curvature N(φ) = a/√(1−e² sin²φ).
    public static func primeVerticalRadius(latitude: Double) -> Double {
        let s = sin(latitude * .pi / 180)
        return semiMajorAxis / (1 - eccentricitySquared * s * s).squareRoot()
    }

    /// Distance along a meridian from the equator to `latitude` (degrees; negative south), in metres:
    /// Helmert's (1880) series in the third flattening n = f / (2 − f), to n⁴ (Karney 2011, "Transverse
    /// Mercator with an accuracy of a few nanometers", J. Geodesy 85, eq. 14 ff.), within 0.1 mm of the
    /// geodesic (the quarter meridian: 10,001,965.729 m).
    public static func meridianDistance(latitude: Double) -> Double {
        let n = flattening / (2 - flattening)
        let (n2, n3, n4) = (n * n, n * n * n, n * n * n * n)
        let phi = latitude * .pi / 180
        let series =
            (1 + n2 / 4 + n4 / 64) * phi - 1.5 * (n - n3 / 8) * sin(2 * phi) + 15.0 / 16 * (n2 - n4 / 4) * sin(4 * phi)
            - 35.0 / 48 * n3 * sin(6 * phi) + 315.0 / 512 * n4 * sin(8 * phi)
        return semiMajorAxis / (1 + n) * series
    }
}

extension CoordinateRegion {
    /// A region spanning the given metres around a center, as MapKit's
    /// `MKCoordinateRegion(center:latitudinalMeters:longitudinalMeters:)`:
    /// Δlat = latM / (M(φ)·π/180), Δlon = lonM / (N(φ)·cos φ·π/180).
    public init(center: Coordinate, latitudinalMeters: Double, longitudinalMeters: Double) {
        let phi = center.latitude
        let dLat = latitudinalMeters / (WGS84.meridionalRadius(latitude: phi) * .pi / 180)
        let parallelRadius = WGS84.primeVerticalRadius(latitude: phi) * cos(phi * .pi / 180)
        let dLon = longitudinalMeters / (parallelRadius * .pi / 180)
        self.init(center: center, span: CoordinateSpan(latitudeDelta: dLat, longitudeDelta: dLon))
    }

}
