/// A geographic position in degrees on WGS84 (latitude north, longitude east).
public struct Coordinate: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// Degrees north of the equator, −90…90.
    public var latitude: Double
    /// Degrees east of Greenwich; not necessarily wrapped.
    public var longitude: Double

    /// A coordinate with no validation (see `validated()`).
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Checks that both values are finite and |latitude| ≤ 90.
    public func validated() throws(GeoError) -> Coordinate {
        guard latitude.isFinite, longitude.isFinite else { throw .nonFiniteCoordinate }
        guard abs(latitude) <= 90 else { throw .latitudeOutOfRange(latitude) }
        return self
    }

    /// The same place with longitude in [-180, 180).
    public var wrapped: Coordinate {
        Coordinate(latitude: latitude, longitude: WebMercator.wrapLongitude(longitude))
    }

    /// `lat, lon` with hemisphere letters, for the status line.
    public var description: String {
        CoordinateFormat.hemispheres(self, decimals: 5)
    }
}

/// The extent of a region in degrees, like MapKit's `MKCoordinateSpan`.
public struct CoordinateSpan: Equatable, Hashable, Sendable {
    /// Latitude of the north edge minus latitude of the south edge.
    public var latitudeDelta: Double
    /// East edge minus west edge; exceeds 360 when the view is wider than the world.
    public var longitudeDelta: Double

    /// A span with no validation.
    public init(latitudeDelta: Double, longitudeDelta: Double) {
        self.latitudeDelta = latitudeDelta
        self.longitudeDelta = longitudeDelta
    }
}

/// A center and a span, like MapKit's `MKCoordinateRegion`.
public struct CoordinateRegion: Equatable, Hashable, Sendable {
    /// The region's center.
    public var center: Coordinate
    /// The region's extent in degrees.
    public var span: CoordinateSpan

    /// A region with no validation.
    public init(center: Coordinate, span: CoordinateSpan) {
        self.center = center
        self.span = span
    }
}

/// The edges of a view: west and east are unwrapped (west < east, both near the center's longitude).
public struct CoordinateBounds: Equatable, Hashable, Sendable {
    /// Latitude of the top edge, clamped to the Mercator limit.
    public var north: Double
    /// Latitude of the bottom edge, clamped to the Mercator limit.
    public var south: Double
    /// Longitude of the left edge, unwrapped.
    public var west: Double
    /// Longitude of the right edge, unwrapped.
    public var east: Double

    /// Bounds from four edges.
    public init(north: Double, south: Double, west: Double, east: Double) {
        self.north = north
        self.south = south
        self.west = west
        self.east = east
    }
}

/// Text forms of coordinates for the screen.
public enum CoordinateFormat {
    /// `33.77733°N 84.39735°W`.
    public static func hemispheres(_ c: Coordinate, decimals: Int) -> String {
        let ns = c.latitude < 0 ? "S" : "N"
        let lon = WebMercator.wrapLongitude(c.longitude)
        let ew = lon < 0 ? "W" : "E"
        return "\(fixed(abs(c.latitude), decimals))°\(ns) \(fixed(abs(lon), decimals))°\(ew)"
    }

    /// A number with a fixed count of decimals, without Foundation's locale.
    public static func fixed(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
        var scale = 1.0
        for _ in 0..<max(0, decimals) { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        let negative = value < 0 && scaled != 0
        if scaled >= 9e15 { return (negative ? "-" : "") + String(abs(value)) }
        let whole = UInt64(scaled)
        let unit = UInt64(scale)
        var text = String(whole / unit)
        if decimals > 0 {
            let frac = String(whole % unit)
            text += "." + String(repeating: "0", count: decimals - frac.count) + frac
        }
        return (negative ? "-" : "") + text
    }
}
