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
        guard let proj = ProjLibrary.loaded else { return Inverse(distance: .nan, initialAzimuth: .nan, finalAzimuth: .nan) }
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

/// PROJ's geodesic functions, loaded on first use: linked, libproj would load 40 more shared libraries
/// (curl, sqlite, tiff, ssl…) into every run, about 14 ms and 9 MB, and a plain view needs no geodesic.
enum ProjLibrary {
    typealias InverseFunction = @convention(c) (
        UnsafePointer<geod_geodesic>?, Double, Double, Double, Double, UnsafeMutablePointer<Double>?,
        UnsafeMutablePointer<Double>?, UnsafeMutablePointer<Double>?
    ) -> Void
    typealias DirectFunction = InverseFunction
    typealias InitFunction = @convention(c) (UnsafeMutablePointer<geod_geodesic>?, Double, Double) -> Void

    /// The loaded functions and the WGS84 ellipsoid they were initialised for.
    struct API: @unchecked Sendable {
        let inverse: InverseFunction
        let direct: DirectFunction
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
                inverse: unsafeBitCast(inv, to: InverseFunction.self), direct: unsafeBitCast(dir, to: DirectFunction.self),
                wgs84: g)
        }
        return nil
    }()
}
