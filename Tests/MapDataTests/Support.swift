import Foundation
import GeoCore

@testable import MapData
@testable import MapFormats

/// The repository's bundled data file.
let bundledWorldPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("assets/world.tmap").path

/// Loaded once for the read-only tests.
let bundledWorld: MapAsset = {
    do { return try MapAsset(path: bundledWorldPath) } catch { preconditionFailure("\(error)") }
}()

/// Decodes every chunk and every place: the whole file is read.
func decodeEverything(_ asset: MapAsset) throws(MapDataError) {
    for i in asset.chunks.indices { _ = try asset.chunk(i) }
    _ = try asset.cities()
}

/// Shortest distance in metres from `p` to a polyline, on a local equirectangular plane (fine below ~100 km).
func distance(from p: Coordinate, to line: [Coordinate]) -> Double {
    let k = cos(p.latitude * .pi / 180)
    let m = 111_195.0
    func xy(_ c: Coordinate) -> (Double, Double) {
        ((WebMercator.unwrap(c.longitude, near: p.longitude) - p.longitude) * k * m, (c.latitude - p.latitude) * m)
    }
    var best = Double.infinity
    for (a, b) in zip(line, line.dropFirst()) {
        let (ax, ay) = xy(a)
        let (bx, by) = xy(b)
        let dx = bx - ax
        let dy = by - ay
        let len2 = dx * dx + dy * dy
        let t = len2 == 0 ? 0 : max(0, min(1, -(ax * dx + ay * dy) / len2))
        let qx = ax + t * dx
        let qy = ay + t * dy
        best = min(best, (qx * qx + qy * qy).squareRoot())
    }
    return best
}

/// Distance from `p` to the nearest line of `layer` at the finest level.
func nearest(_ featureClass: FeatureClass, to p: Coordinate, in asset: MapAsset) throws -> Double {
    let b = CoordinateBounds(
        north: p.latitude + 1, south: p.latitude - 1, west: p.longitude - 1.5, east: p.longitude + 1.5)
    var best = Double.infinity
    for hit in try asset.query(bounds: b, level: asset.levels.count - 1, classes: [featureClass]) {
        for i in 0..<hit.chunk.polylineCount {
            best = min(best, distance(from: p, to: hit.chunk.coordinates(ofLine: i)))
        }
    }
    return best
}

/// The viewer's zoom ladder (its style table; MapData's tests cannot import the Viewer): the zoom from
/// which an import keeps each class.
let zoomLadder: @Sendable (FeatureClass) -> Double = { c in
    switch c {
    case .coastline, .lake, .border, .land, .lakeWater, .sea: return 0
    case .stateBorder, .worldRiver: return 4
    case .motorway, .trunk, .primary, .secondary, .rail, .river, .water, .peak: return 11
    case .tertiary, .minorRoad, .park, .wood, .stream, .tram: return 13
    case .serviceRoad, .path, .building: return 15
    case .poi: return 16
    }
}

/// The places of `asset` whose name starts with `prefix`, ignoring case and accents, largest first.
func citiesNamed(in asset: MapAsset, _ prefix: String) throws -> [City] {
    let key = NameFolding.fold(prefix)
    guard !key.isEmpty else { return [] }
    return try asset.cities().filter { NameFolding.fold($0.name).hasPrefix(key) }
}
