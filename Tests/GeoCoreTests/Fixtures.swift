import Foundation

/// The reference values written by `Tools/make_fixtures.py` (pyproj, GeographicLib, mercantile).
struct GeoFixtures: Decodable {
    struct Projection: Decodable {
        let lat, lon, x, y, mercantileX, mercantileY: Double
        let tiles: [String: [Int]]
    }
    struct InverseProjection: Decodable { let x, y, lat, lon: Double }
    struct MetersPerDot: Decodable { let lat, zoom, metersPerDot: Double }
    struct Span: Decodable {
        let lat, lon, zoom: Double
        let cols, rows: Int
        let north, south, west, east, latitudeDelta, longitudeDelta: Double
    }
    struct GeodesicInverse: Decodable { let lat1, lon1, lat2, lon2, distance, azi1, azi2: Double }
    struct GeodesicDirect: Decodable { let lat1, lon1, azi1, distance, lat2, lon2: Double }
    struct RegionFromMeters: Decodable {
        let lat, latitudinalMeters, longitudinalMeters, latitudeDelta, longitudeDelta: Double
    }
    struct ZoomButton: Decodable {
        let lat, lon, zoom: Double
        let cols, rows: Int
        let direction: String
        let latitudinalMetersBefore, longitudinalMetersBefore, zoomAfter: Double
        let fallback: Bool
    }
    struct Circle: Decodable {
        let lat, lon, radius: Double
        let ring: [[Double]]
        let containsNorthPole, containsSouthPole: Bool
        let fitZoom: [String: Double]
    }
    struct SeedScreenCircle: Decodable { let lat, lon, radius, zoom, northDistance, southDistance: Double }

    let maxLatitude: Double
    let projection: [Projection]
    let inverseProjection: [InverseProjection]
    let metersPerDot: [MetersPerDot]
    let spans: [Span]
    let geodesicInverse: [GeodesicInverse]
    let geodesicDirect: [GeodesicDirect]
    let regionFromMeters: [RegionFromMeters]
    let zoomButton: [ZoomButton]
    let circles: [Circle]
    let seedScreenCircle: SeedScreenCircle

    /// Loaded once from `Fixtures/geocore.json` beside this file.
    static let shared: GeoFixtures = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/geocore.json")
        do {
            return try JSONDecoder().decode(GeoFixtures.self, from: Data(contentsOf: url))
        } catch {
            preconditionFailure("cannot read \(url.path): \(error) — run Tools/make_fixtures.py")
        }
    }()
}
