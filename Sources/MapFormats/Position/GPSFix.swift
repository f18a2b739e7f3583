import GeoCore

/// A position from a GPS receiver (issue 49), as gpsd's `TPV` report gives it
/// (gpsd.gitlab.io/gpsd/gpsd_json.html) or NMEA 0183 sentences make it: where, how high, how fast and
/// which way, how sure, and when.
public struct GPSFix: Equatable, Sendable {
    /// Degrees, WGS 84.
    public var latitude: Double
    public var longitude: Double
    /// Metres above mean sea level (gpsd's `altMSL`, else `alt`); nil in a 2D fix.
    public var altitude: Double?
    /// Metres a second over the ground.
    public var speed: Double?
    /// Degrees clockwise from true north.
    public var course: Double?
    /// 2: a 2D fix, 3: a 3D fix (gpsd's `mode`).
    public var mode: Int
    /// The estimated horizontal error, metres (gpsd's `eph`; 95 % confidence).
    public var horizontalError: Double?
    /// When, in ISO 8601 UTC as the receiver says it (`2024-05-01T10:15:00.000Z`).
    public var time: String?

    /// A fix at `latitude`, `longitude`.
    public init(
        latitude: Double, longitude: Double, altitude: Double? = nil, speed: Double? = nil, course: Double? = nil,
        mode: Int = 3, horizontalError: Double? = nil, time: String? = nil
    ) {
        (self.latitude, self.longitude, self.altitude, self.speed) = (latitude, longitude, altitude, speed)
        (self.course, self.mode, self.horizontalError, self.time) = (course, mode, horizontalError, time)
    }

    /// The fix's place.
    public var coordinate: Coordinate { Coordinate(latitude: latitude, longitude: longitude) }

    /// True when the position is a place on Earth (a receiver or a file may say anything).
    var isPlausible: Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
    }
}

/// What a GPS source last said: a fix, or why there is none.
public enum GPSReport: Equatable, Sendable {
    /// A position.
    case fix(GPSFix)
    /// The receiver has no fix (gpsd's `mode` 0 or 1, an RMC of status V, a GGA of quality 0).
    case noFix
    /// Satellites seen and used in the solution (gpsd's `SKY`, NMEA's GGA and GSA).
    case satellites(used: Int, seen: Int)
}
