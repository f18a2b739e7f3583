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

    /// `lat, lon` in degrees, for messages and debugging (the status line has its own form).
    public var description: String { "\(latitude), \(longitude)" }
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
