import Foundation

/// The reference values written by `Tools/make_fixtures.py` (pyproj, GeographicLib, mercantile).
public struct GeoFixtures: Decodable, Sendable {
    public struct Projection: Decodable, Sendable {
        public let lat, lon, x, y, mercantileX, mercantileY: Double
        public let tiles: [String: [Int]]
    }
    public struct InverseProjection: Decodable, Sendable { public let x, y, lat, lon: Double }
    public struct MetersPerDot: Decodable, Sendable { public let lat, zoom, metersPerDot: Double }
    public struct Span: Decodable, Sendable {
        public let lat, lon, zoom: Double
        public let cols, rows: Int
        public let north, south, west, east, latitudeDelta, longitudeDelta: Double
    }
    public struct GeodesicInverse: Decodable, Sendable {
        public let lat1, lon1, lat2, lon2, distance, azi1, azi2: Double
    }
    public struct GeodesicDirect: Decodable, Sendable { public let lat1, lon1, azi1, distance, lat2, lon2: Double }
    public struct RegionFromMeters: Decodable, Sendable {
        public let lat, latitudinalMeters, longitudinalMeters, latitudeDelta, longitudeDelta: Double
    }
    public struct ZoomButton: Decodable, Sendable {
        public let lat, lon, zoom: Double
        public let cols, rows: Int
        public let direction: String
        public let latitudinalMetersBefore, longitudinalMetersBefore, zoomAfter: Double
        public let fallback: Bool
    }
    public struct Circle: Decodable, Sendable {
        public let lat, lon, radius: Double
        public let ring: [[Double]]
        public let containsNorthPole, containsSouthPole: Bool
        public let fitZoom: [String: Double]
    }
    public struct SeedScreenCircle: Decodable, Sendable {
        public let lat, lon, radius, zoom, northDistance, southDistance: Double
    }

    public let maxLatitude: Double
    public let projection: [Projection]
    public let inverseProjection: [InverseProjection]
    public let metersPerDot: [MetersPerDot]
    public let spans: [Span]
    public let geodesicInverse: [GeodesicInverse]
    public let geodesicDirect: [GeodesicDirect]
    public let regionFromMeters: [RegionFromMeters]
    public let zoomButton: [ZoomButton]
    public let circles: [Circle]
    public let seedScreenCircle: SeedScreenCircle

    /// Loaded once from `Tests/GeoCoreTests/Fixtures/geocore.json`.
    public static let shared: GeoFixtures = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Tests/GeoCoreTests/Fixtures/geocore.json")
        do {
            return try JSONDecoder().decode(GeoFixtures.self, from: Data(contentsOf: url))
        } catch {
            preconditionFailure("cannot read \(url.path): \(error) — run Tools/make_fixtures.py")
        }
    }()
}
