import GeoCore
import MapData

/// The map data the viewer draws from: the bundled world, an optional finer import, and places.
public final class MapSources: CitySearching {
    /// Natural Earth lines and the gazetteer.
    public let world: MapAsset
    /// GSHHG shorelines imported by the user, when present.
    public let highResolution: MapAsset?
    /// Below this many metres per dot the imported shorelines replace the bundled ones.
    public static let highResolutionBelowMetersPerDot = 150.0

    private var projected: (cities: [City], x: [Double], y: [Double])?
    private var labels: [Bool: [String]] = [:]

    /// Sources from loaded files.
    public init(world: MapAsset, highResolution: MapAsset? = nil) {
        self.world = world
        self.highResolution = highResolution
    }

    /// Places, largest first, with their Mercator positions (computed once).
    func placesProjected() throws(MapDataError) -> (cities: [City], x: [Double], y: [Double]) {
        if let p = projected { return p }
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
        projected = (cities, xs, ys)
        return (cities, xs, ys)
    }

    /// Place names as the glyph mode shows them, in `placesProjected` order (computed once per mode).
    func labelTexts(ascii: Bool) throws(MapDataError) -> [String] {
        if let l = labels[ascii] { return l }
        let names = try placesProjected().cities.map { TextStyle.display($0.name, ascii: ascii) }
        labels[ascii] = names
        return names
    }

    /// The largest place whose name starts with `prefix`.
    public func firstCity(matching prefix: String) -> City? {
        (try? world.searchCities(prefix, limit: 1))?.first
    }
}
