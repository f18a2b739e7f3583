import GeoCore
import MapData
import Synchronization

/// What `/` found: a place or a street, where it is, and how close to look.
public struct SearchHit: Equatable, Sendable {
    /// The name found.
    public var name: String
    /// Where it is, as a list of matches says it: `Portland, Oregon, US`, `Mannerheimintie, street`.
    public var label: String = ""
    /// Where to go.
    public var coordinate: Coordinate
    /// Said after the label in the message: `pop. 558457` (or nothing).
    public var detail: String
    /// How far around it to show: the view is fitted to a circle of this radius (a city's from its
    /// population, a suburb's, a street's).
    public var radiusMeters: Double

    /// The radius a city of `population` is framed with: a disc at 5,000 people a km² (a city's built-up
    /// core), from 700 m to 30 km.
    public static func cityRadius(population: Int) -> Double {
        let km2 = Double(max(0, population)) / 5000
        return min(30_000, max(700, (km2 / .pi).squareRoot() * 1000))
    }

    /// The radius suburbs, neighbourhoods and streets are framed with.
    public static let suburbRadius = 800.0, neighbourhoodRadius = 300.0, streetRadius = 60.0
}

/// Finds places by name (the gazetteer and the street names behind `/`).
public protocol PlaceSearching {
    /// Up to `limit` places and streets for what was typed, best first (`PlaceSearch` says how they rank).
    func matches(_ query: String, limit: Int) -> [SearchHit]
}

extension PlaceSearching {
    /// The best match, if any.
    public func search(_ query: String) -> SearchHit? { matches(query, limit: 1).first }
}

/// The map data the viewer draws from (MapData's `FeatureSources`: the bundled world, finer
/// shorelines, imported and bundled cities), with what the viewer derives from it once: places in
/// Mercator and their names as shown. Safe to share between threads (its caches are behind a lock).
public final class MapSources: PlaceSearching, Sendable {
    /// Every source and the choice of which is drawn where.
    public let features: FeatureSources

    /// Places ready to label: where each is in the unit square.
    struct ProjectedPlaces: Sendable {
        var cities: [City]
        /// Each place's index in the base's places (-1 for the street-level sources' suburbs).
        var baseIndex: [Int]
        var x: [Double]
        var y: [Double]
    }

    /// A grid of the places, so that a view looks only at the places near it (made on the first view that
    /// is small enough to use it; the world view never needs it).
    struct PlaceGrid: Sendable {
        /// Place indices (ascending: largest first) in each of `size × size` cells of the square.
        var cells: [[Int32]]
        static let size = 64

        init(_ places: ProjectedPlaces) {
            let n = Self.size
            var cells = [[Int32]](repeating: [], count: n * n)
            for i in places.cities.indices {
                let gx = min(n - 1, max(0, Int(places.x[i] * Double(n))))
                let gy = min(n - 1, max(0, Int(places.y[i] * Double(n))))
                cells[gy * n + gx].append(Int32(i))
            }
            self.cells = cells
        }

        /// Whether a box is small enough for the grid to pay.
        static func pays(minX: Double, maxX: Double, minY: Double, maxY: Double) -> Bool {
            maxX - minX < 0.5 && maxY - minY < 0.5
        }

        /// The places whose grid cells meet the unit-square box (x may pass 0 or 1: the world repeats),
        /// largest first.
        func near(minX: Double, maxX: Double, minY: Double, maxY: Double) -> [Int] {
            let n = Double(Self.size)
            let x0 = Int((minX * n).rounded(.down))
            let x1 = Int((maxX * n).rounded(.down))
            let y0 = max(0, Int((minY * n).rounded(.down)))
            let y1 = min(Self.size - 1, Int((maxY * n).rounded(.down)))
            guard y0 <= y1, x0 <= x1 else { return [] }
            var out: [Int] = []
            for gy in y0...y1 {
                for gx in x0...x1 {
                    let wrapped = ((gx % Self.size) + Self.size) % Self.size
                    for i in cells[gy * Self.size + wrapped] { out.append(Int(i)) }
                }
            }
            out.sort()
            return out
        }
    }

    /// The place grid (made once).
    func placeGrid() throws(MapDataError) -> PlaceGrid {
        if let g = cache.withLock({ $0.grid }) { return g }
        let grid = PlaceGrid(try placesProjected())
        cache.withLock { $0.grid = grid }
        return grid
    }

    private struct Cache {
        var projected: ProjectedPlaces?
        var grid: PlaceGrid?
        var search: PlaceSearch?
        /// Small-scale views' places (`topPlaces`), by integer zoom.
        var tiers: [Int: ProjectedPlaces] = [:]
        /// Display texts made so far, per glyph mode (only for places a view has tried to label).
        var labels: [Bool: [Int: String]] = [:]
    }
    private let cache = Mutex(Cache())

    /// Sources from loaded files.
    public init(features: FeatureSources) { self.features = features }

    /// Sources from the world file, an optional shoreline file and street-level files (finest first).
    public convenience init(world: MapAsset, highResolution: MapAsset? = nil, details: [MapAsset] = []) {
        self.init(features: FeatureSources(base: world, shorelines: highResolution, details: details))
    }

    /// How the tile sources' tiles stand: loading and failed in their last views, and a counter that
    /// moves when tiles arrive.
    public var tileStatus: TileLoadStatus {
        var total = TileLoadStatus()
        for source in features.details {
            let s = source.loadStatus
            total.loading += s.loading
            total.failed += s.failed
            total.generation += s.generation
        }
        return total
    }

    /// Places of every source, cities before suburbs, each kind largest first, with their Mercator
    /// positions (computed once).
    func placesProjected() throws(MapDataError) -> ProjectedPlaces {
        if let p = cache.withLock({ $0.projected }) { return p }
        // The base's cities come largest first already; the street-level sources' suburbs and neighbourhoods
        // follow them, each kind largest first (a stable sort keeps the files' order among equals).
        var extra: [City] = []
        for source in features.details { extra += try source.places().filter { !$0.kind.isCity } }
        extra = extra.enumerated().sorted {
            ($0.element.kind.rawValue, -$0.element.population, $0.offset)
                < ($1.element.kind.rawValue, -$1.element.population, $1.offset)
        }.map(\.element)
        let projected = Self.ranked(try features.base.places(), then: extra)
        cache.withLock { $0.projected = projected }
        return projected
    }

    /// The gazetteer `base` by rank (a stable sort: equals keep the file's order), then `extra` as given,
    /// projected. Indices are sorted, not places: a place is several strings, and moving 34,006 of
    /// them about cost a third of a whole `termmap render`.
    static func ranked(_ base: [City], then extra: [City] = []) -> ProjectedPlaces {
        let ranks = base.map(rank)
        let order = base.indices.sorted { (-ranks[$0], $0) < (-ranks[$1], $1) }
        let cities = order.map { base[$0] } + extra
        let points = cities.map { WebMercator.project($0.coordinate) }
        return ProjectedPlaces(
            cities: cities, baseIndex: order + extra.map { _ in -1 }, x: points.map(\.x), y: points.map(\.y))
    }

    /// A place's name as the glyph mode shows it, made when first asked for and kept.
    func labelText(_ index: Int, of places: ProjectedPlaces, ascii: Bool) -> String {
        if let t = cache.withLock({ $0.labels[ascii]?[index] }) { return t }
        let text = Transliteration.screenText(places.cities[index].name, ascii: ascii)
        cache.withLock { $0.labels[ascii, default: [:]][index] = text }
        return text
    }

    /// The places a view at zoom `tier` … `tier` + 1 (below 7) may name, ranked and projected: the
    /// world's places of at least two-thirds of the next zoom's floor (a capital ranks half again its
    /// population), decoded without the rest. Those ranked at or above that floor are, in the same
    /// order, the first places of `placesProjected()`, so an index means the same place in both.
    func topPlaces(tier: Int, floor: Int) throws(MapDataError) -> ProjectedPlaces {
        if let p = cache.withLock({ $0.projected }) { return p }
        if let p = cache.withLock({ $0.tiers[tier] }) { return p }
        let top = Self.ranked(try features.base.places(populationAtLeast: floor * 2 / 3))
        cache.withLock { $0.tiers[tier] = top }
        return top
    }

    /// How places rank for labels: by population, a country's capital counted half again (so it wins
    /// over a city of its size, not over a much larger one).
    static func rank(_ c: City) -> Int { c.kind == .capital ? c.population * 3 / 2 : c.population }

    public func matches(_ query: String, limit: Int) -> [SearchHit] {
        guard let index = try? searchIndex(), let places = try? placesProjected() else { return [] }
        let found = index.matches(query, limit: limit)
        var hits = found.map { i in Self.hit(places.cities[i], region: index.regions[i]) }
        guard hits.count < limit else { return hits }
        // Then streets of the street-level sources, names starting with what was typed.
        let key = PlaceSearch.key(query)
        guard !key.isEmpty else { return hits }
        for source in features.details {
            guard let names = try? source.namedFeatures() else { continue }
            for street in names where PlaceSearch.key(street.name).hasPrefix(key) {
                guard !hits.contains(where: { $0.name == street.name }) else { continue }
                hits.append(
                    SearchHit(
                        name: street.name, label: street.name + ", street", coordinate: street.coordinate,
                        detail: "", radiusMeters: SearchHit.streetRadius))
                if hits.count >= limit { return hits }
            }
        }
        return hits
    }

    /// A place as a search result: framed by its kind and size, labelled with region and country.
    static func hit(_ city: City, region: String) -> SearchHit {
        let radius: Double
        switch city.kind {
        case .city, .capital: radius = SearchHit.cityRadius(population: city.population)
        case .suburb: radius = SearchHit.suburbRadius
        default: radius = SearchHit.neighbourhoodRadius
        }
        let detail = city.kind.isCity ? "pop. \(city.population)" : ""
        let label = ([city.name, region, city.kind.isCity ? city.countryCode : "\(city.kind)"].filter { !$0.isEmpty })
            .joined(separator: ", ")
        return SearchHit(name: city.name, label: label, coordinate: city.coordinate, detail: detail, radiusMeters: radius)
    }

    /// The search keys of every place (made on the first search).
    func searchIndex() throws(MapDataError) -> PlaceSearch {
        if let s = cache.withLock({ $0.search }) { return s }
        let places = try placesProjected()
        let names = try features.base.placeNames()
        let extras = places.baseIndex.map { $0 >= 0 && $0 < names.count ? names[$0] : PlaceNames() }
        let index = PlaceSearch(names: places.cities.map(\.name), extras: extras)
        cache.withLock { $0.search = index }
        return index
    }
}
