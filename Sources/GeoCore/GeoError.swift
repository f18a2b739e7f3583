/// Why a geographic input was refused; `description` is one line for the user.
public enum GeoError: Error, Equatable, Sendable, CustomStringConvertible {
    case nonFiniteCoordinate
    case latitudeOutOfRange(Double)
    case invalidZoom(Double)
    case invalidViewSize(cols: Int, rows: Int)
    case invalidRadius(Double)
    case invalidRatio(Double)
    case invalidSpan(latitudeDelta: Double, longitudeDelta: Double)
    case invalidDistance(Double)

    /// One line that says what was wrong.
    public var description: String {
        switch self {
        case .nonFiniteCoordinate:
            return "coordinate must be finite numbers"
        case .latitudeOutOfRange(let lat):
            return "latitude \(lat) is outside -90…90"
        case .invalidZoom(let z):
            return "zoom level \(z) is not a number from 0 to 28"
        case .invalidViewSize(let cols, let rows):
            return "view size \(cols)x\(rows) must be at least 1x1 cells"
        case .invalidRadius(let r):
            return "radius \(r) m is outside (0, 20000 km]"
        case .invalidRatio(let r):
            return "circle ratio \(r) must be in (0, 1]"
        case .invalidSpan(let dLat, let dLon):
            return "span \(dLat)° × \(dLon)° must be finite and positive"
        case .invalidDistance(let d):
            return "distance \(d) m must be finite and not negative"
        }
    }
}
