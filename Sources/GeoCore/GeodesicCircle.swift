import FoundationEssentials
import Glibc

/// A circle on the WGS84 ellipsoid: every point at `radiusMeters` geodesic distance from the center,
/// the shape Google Maps' `GMSCircle` draws (seed 002 part A).
public struct GeodesicCircle: Equatable, Sendable {
    /// The largest radius accepted, 20 000 km (about half a meridian).
    public static let maximumRadius = 20_000_000.0
    /// The seed's default radius, 500 m.
    public static let defaultRadius = 500.0
    /// Ring points, one per degree of bearing as in the seed.
    public static let ringPointCount = 360

    /// The center (latitude −90…90, longitude wrapped).
    public let center: Coordinate
    /// The radius in metres, in (0, 20 000 km].
    public let radiusMeters: Double
    /// The 360-point ring, computed once: it depends only on center and radius, and is drawn every frame.
    private let defaultRing: [Coordinate]

    /// A circle; the radius must be in (0, 20 000 km] and the center valid.
    public init(center: Coordinate, radiusMeters: Double) throws(GeoError) {
        let c = try center.validated()
        guard radiusMeters.isFinite, radiusMeters > 0, radiusMeters <= Self.maximumRadius else {
            throw .invalidRadius(radiusMeters)
        }
        self.center = c.wrapped
        self.radiusMeters = radiusMeters
        self.defaultRing = Self.computeRing(
            center: c.wrapped, radiusMeters: radiusMeters, pointCount: Self.ringPointCount)
    }

    /// Points at bearings 0°, 1°, … 359° by geodesic destination, longitudes unwrapped so that
    /// consecutive points never jump by ±360 (a ring around a pole gains 360° on the way round).
    public func ring(pointCount: Int = GeodesicCircle.ringPointCount) -> [Coordinate] {
        pointCount == Self.ringPointCount
            ? defaultRing : Self.computeRing(center: center, radiusMeters: radiusMeters, pointCount: pointCount)
    }

    private static func computeRing(center: Coordinate, radiusMeters: Double, pointCount: Int) -> [Coordinate] {
        let n = max(3, pointCount)
        var points: [Coordinate] = []
        points.reserveCapacity(n)
        var previous = center.longitude
        for i in 0..<n {
            let bearing = 360 * Double(i) / Double(n)
            var p = Geodesic.destination(from: center, bearing: bearing, distance: radiusMeters)
            p.longitude = WebMercator.unwrap(p.longitude, near: previous)
            previous = p.longitude
            points.append(p)
        }
        return points
    }

    /// True when the geodesic distance to `coordinate` is at most the radius.
    public func contains(_ coordinate: Coordinate) -> Bool {
        Geodesic.distance(center, coordinate) <= radiusMeters
    }

    /// True when the north pole lies inside.
    public var containsNorthPole: Bool { contains(Coordinate(latitude: 90, longitude: 0)) }
    /// True when the south pole lies inside.
    public var containsSouthPole: Bool { contains(Coordinate(latitude: -90, longitude: 0)) }

    /// True when every point of the Mercator map (|lat| ≤ 85.0511°) is inside: the farthest such point
    /// is the antipode, or, when the antipode is beyond the limit, the limit parallel's point opposite.
    public var coversMercatorWorld: Bool {
        let antipodeLat = -center.latitude
        let farthestLat = min(max(antipodeLat, -WebMercator.maxLatitude), WebMercator.maxLatitude)
        let farthest = Coordinate(latitude: farthestLat, longitude: center.longitude + 180)
        return contains(farthest)
    }
}

/// Seed 002 part A's hole as written: 360 points on a circle in *screen* space around the center,
/// radius `projection.points(forMeters:at:)`, converted back to coordinates. Kept to show how far it is
/// from the geodesic circle (it is round on screen, not on the ground).
public enum SeedScreenCircle {
    /// The seed's ring for a view: x = cx + r·cos a, y = cy + r·sin a (screen y down), a = 0°…359°.
    public static func ring(in view: MapView, center: Coordinate, radiusMeters: Double) -> [Coordinate] {
        let c = view.dotPoint(for: center)
        // points(forMeters:at:) uses the sphere's scale at the center latitude.
        let r = radiusMeters / WebMercator.metersPerDot(latitude: center.latitude, zoom: view.zoom)
        return (0..<360).map { angle in
            let a = Double(angle) * .pi / 180
            return view.coordinate(at: DotPoint(x: c.x + r * cos(a), y: c.y + r * sin(a)))
        }
    }

    /// How far the seed's ring reaches on the ground, north, south, east and west of the center (geodesic
    /// metres to its top, bottom, right and left points). It is round on the Mercator screen, whose scale
    /// grows as cos φ shrinks, so it reaches less far toward the pole: 874 km north and 1,143 km south
    /// for 1,000 km at 60°N. The same at every zoom (the radius in dots scales with the world).
    public static func groundRadii(center: Coordinate, radiusMeters: Double) -> GroundRadii {
        let c = WebMercator.project(center)
        // points(forMeters:at:) in world units: metres over the world's length at the center's parallel.
        let r =
            radiusMeters
            / (2 * Double.pi * WebMercator.earthRadius * cos(WebMercator.clampLatitude(center.latitude) * .pi / 180))
        func reach(_ dx: Double, _ dy: Double) -> Double {
            Geodesic.distance(center, WebMercator.unproject(MercatorPoint(x: c.x + dx, y: c.y + dy)))
        }
        return GroundRadii(north: reach(0, -r), south: reach(0, r), east: reach(r, 0), west: reach(-r, 0))
    }
}

/// A circle's reach on the ground toward the four cardinal directions, in metres.
public struct GroundRadii: Equatable, Sendable {
    public var north, south, east, west: Double

    /// The four reaches.
    public init(north: Double, south: Double, east: Double, west: Double) {
        self.north = north
        self.south = south
        self.east = east
        self.west = west
    }
}

extension GeodesicCircle {
    /// The ring's reach north, south, east and west: geodesic metres from the center to its points at
    /// bearings 0°, 180°, 90° and 270° (the radius itself, measured back).
    public var groundRadii: GroundRadii {
        let ring = ring()
        let n = ring.count
        func reach(_ i: Int) -> Double { Geodesic.distance(center, ring[i % n]) }
        return GroundRadii(north: reach(0), south: reach(n / 2), east: reach(n / 4), west: reach(3 * n / 4))
    }
}
