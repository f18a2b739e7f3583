import CProj

#if canImport(Glibc)
    import Glibc
#endif

/// Geodesics on the WGS84 ellipsoid through PROJ's implementation of Karney (2013),
/// "Algorithms for geodesics", J. Geodesy 87, 43–55. Results match GeographicLib. PROJ is loaded on
/// the first call; where it cannot be, results are NaN (`Geodesic.isAvailable` says so), and the zoom
/// buttons fall back to their fixed step.
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

    /// True when PROJ's geodesics could be loaded (loading them on first use).
    public static var isAvailable: Bool { ProjLibrary.loaded != nil }

    /// Distance in metres along the shortest geodesic (what `CLLocation.distance(from:)` measures).
    public static func distance(_ a: Coordinate, _ b: Coordinate) -> Double {
        inverse(a, b).distance
    }

    /// Distance and azimuths between two points.
    public static func inverse(_ a: Coordinate, _ b: Coordinate) -> Inverse {
        var s12 = 0.0
        var azi1 = 0.0
        var azi2 = 0.0
        guard let proj = ProjLibrary.loaded else {
            return Inverse(distance: .nan, initialAzimuth: .nan, finalAzimuth: .nan)
        }
        withUnsafePointer(to: proj.wgs84) { g in
            proj.inverse(g, a.latitude, a.longitude, b.latitude, b.longitude, &s12, &azi1, &azi2)
        }
        return Inverse(distance: s12, initialAzimuth: azi1, finalAzimuth: azi2)
    }

    /// The point reached from `start` after `distance` metres along azimuth `bearing` (degrees).
    public static func destination(from start: Coordinate, bearing: Double, distance: Double) -> Coordinate {
        var lat = 0.0
        var lon = 0.0
        var azi2 = 0.0
        guard let proj = ProjLibrary.loaded else { return Coordinate(latitude: .nan, longitude: .nan) }
        withUnsafePointer(to: proj.wgs84) { g in
            proj.direct(g, start.latitude, start.longitude, bearing, distance, &lat, &lon, &azi2)
        }
        return Coordinate(latitude: lat, longitude: lon)
    }
}

extension Geodesic {
    /// The area (its absolute value: PROJ's is signed by the ring's direction) and perimeter of the
    /// geodesic polygon through `ring` (not closed: the last vertex joins the first), PROJ's
    /// `geod_polygonarea` (Karney 2013 §6); NaN where PROJ could not be loaded.
    public static func polygonArea(_ ring: [Coordinate]) -> (area: Double, perimeter: Double) {
        guard let proj = ProjLibrary.loaded, let f = proj.polygonArea, ring.count <= Int(Int32.max) else {
            return (.nan, .nan)
        }
        var lats = ring.map(\.latitude)
        var lons = ring.map(\.longitude)
        var area = 0.0
        var perimeter = 0.0
        withUnsafePointer(to: proj.wgs84) { g in f(g, &lats, &lons, Int32(ring.count), &area, &perimeter) }
        return (abs(area), perimeter)
    }
}

/// A geodesic ruler: its vertices, each leg's length and initial bearing, the total, and once closed
/// onto its first vertex the polygon's area and perimeter.
public struct Ruler: Equatable, Sendable {
    /// The vertices, in order (a closed ruler's last leg returns to the first).
    public private(set) var vertices: [Coordinate]
    /// True once closed onto the first vertex.
    public private(set) var closed = false

    /// A ruler starting at `start`.
    public init(start: Coordinate) { vertices = [start] }

    /// One leg: metres along the geodesic and the initial bearing, degrees clockwise from north in [0, 360).
    public struct Leg: Equatable, Sendable {
        public var meters: Double
        public var bearing: Double
    }

    /// Adds `c` as the next vertex (nothing when it is the last one).
    public mutating func add(_ c: Coordinate) {
        guard !closed, c != vertices.last else { return }
        vertices.append(c)
    }

    /// Closes the ruler onto its first vertex (a polygon needs three).
    public mutating func close() {
        if vertices.count >= 3 { closed = true }
    }

    /// Takes back the last vertex (or the closing leg); false when only the start is left.
    public mutating func removeLast() -> Bool {
        if closed {
            closed = false
            return true
        }
        guard vertices.count > 1 else { return false }
        vertices.removeLast()
        return true
    }

    /// The legs, the closing one included.
    public var legs: [Leg] {
        let ends = closed ? vertices + [vertices[0]] : vertices
        return zip(ends, ends.dropFirst()).map { a, b in
            let inv = Geodesic.inverse(a, b)
            let bearing = inv.initialAzimuth < 0 ? inv.initialAzimuth + 360 : inv.initialAzimuth
            return Leg(meters: inv.distance, bearing: bearing == 360 ? 0 : bearing)
        }
    }

    /// The legs' total length in metres.
    public var totalMeters: Double { legs.reduce(0) { $0 + $1.meters } }

    /// A closed ruler's area in square metres and perimeter in metres; nil while open.
    public var polygon: (area: Double, perimeter: Double)? { closed ? Geodesic.polygonArea(vertices) : nil }
}

/// PROJ's geodesic functions, loaded on first use: linked, libproj would load 40 more shared libraries
/// (curl, sqlite, tiff, ssl…) into every run, about 14 ms and 9 MB, and a plain view needs no geodesic.
enum ProjLibrary {
    typealias InverseFunction =
        @convention(c) (
            UnsafePointer<geod_geodesic>?, Double, Double, Double, Double, UnsafeMutablePointer<Double>?,
            UnsafeMutablePointer<Double>?, UnsafeMutablePointer<Double>?
        ) -> Void
    typealias DirectFunction = InverseFunction
    typealias InitFunction = @convention(c) (UnsafeMutablePointer<geod_geodesic>?, Double, Double) -> Void
    typealias PolygonAreaFunction =
        @convention(c) (
            UnsafePointer<geod_geodesic>?, UnsafeMutablePointer<Double>?, UnsafeMutablePointer<Double>?, Int32,
            UnsafeMutablePointer<Double>?, UnsafeMutablePointer<Double>?
        ) -> Void

    /// The loaded functions and the WGS84 ellipsoid they were initialised for.
    struct API: @unchecked Sendable {
        let inverse: InverseFunction
        let direct: DirectFunction
        let polygonArea: PolygonAreaFunction?
        let wgs84: geod_geodesic
    }

    /// The library's names on Debian and others (its soname moves with PROJ's major version).
    static let names = ["libproj.so.25", "libproj.so"] + (15...40).filter { $0 != 25 }.map { "libproj.so.\($0)" }

    /// The functions, or nil when no PROJ library could be loaded.
    static let loaded: API? = {
        for name in names {
            guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else { continue }
            guard let i = dlsym(handle, "geod_init"), let inv = dlsym(handle, "geod_inverse"),
                let dir = dlsym(handle, "geod_direct")
            else { continue }
            var g = geod_geodesic()
            unsafeBitCast(i, to: InitFunction.self)(&g, WGS84.semiMajorAxis, WGS84.flattening)
            return API(
                inverse: unsafeBitCast(inv, to: InverseFunction.self),
                direct: unsafeBitCast(dir, to: DirectFunction.self),
                polygonArea: dlsym(handle, "geod_polygonarea").map { unsafeBitCast($0, to: PolygonAreaFunction.self) },
                wgs84: g)
        }
        return nil
    }()
}
