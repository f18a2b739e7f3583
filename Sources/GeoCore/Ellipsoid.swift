import Foundation

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
