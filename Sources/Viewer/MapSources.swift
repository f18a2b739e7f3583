import GeoCore
import MapData
import Synchronization

/// The map data the viewer draws from: the bundled world, an optional finer import, and places.
/// Safe to share between threads (its caches are behind a lock).
public final class MapSources: CitySearching, Sendable {
    /// Natural Earth lines and the gazetteer.
    public let world: MapAsset
    /// GSHHG shorelines imported by the user, when present.
    public let highResolution: MapAsset?
    /// Below this many metres per dot the imported shorelines replace the bundled ones.
    public static let highResolutionBelowMetersPerDot = 150.0

    private struct Cache {
        var projected: (cities: [City], x: [Double], y: [Double])?
        var labels: [Bool: [String]] = [:]
    }
    private let cache = Mutex(Cache())

    /// Sources from loaded files.
    public init(world: MapAsset, highResolution: MapAsset? = nil) {
        self.world = world
        self.highResolution = highResolution
    }

    /// Places, largest first, with their Mercator positions (computed once).
    func placesProjected() throws(MapDataError) -> (cities: [City], x: [Double], y: [Double]) {
        if let p = cache.withLock({ $0.projected }) { return p }
        let cities = try world.cities()
        var xs: [Double] = []
        var ys: [Double] = []
        xs.reserveCapacity(cities.count)
        ys.reserveCapacity(cities.count)
        for c in cities {
            let p = WebMercator.project(c.coordinate)
            xs.append(p.x)
            ys.append(p.y)
        }
        cache.withLock { $0.projected = (cities, xs, ys) }
        return (cities, xs, ys)
    }

    /// Place names as the glyph mode shows them, in `placesProjected` order (computed once per mode).
    func labelTexts(ascii: Bool) throws(MapDataError) -> [String] {
        if let l = cache.withLock({ $0.labels[ascii] }) { return l }
        let names = try placesProjected().cities.map { Transliteration.screenText($0.name, ascii: ascii) }
        cache.withLock { $0.labels[ascii] = names }
        return names
    }

    /// The largest place whose name starts with `prefix`.
    public func firstCity(matching prefix: String) -> City? {
        (try? world.searchCities(prefix, limit: 1))?.first
    }
}
