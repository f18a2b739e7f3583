import GeoCore
import Glibc
import MapData
import MapFormats
import Raster
import Support
import Synchronization

/// What `/` found: a place or a street, where it is, and how close to look.
public struct SearchHit: Equatable, Sendable {
    /// The name found.
    public var name: String
    /// Where it is, as a list of matches says it: `Portland, Oregon, US`, `Mannerheimintie, street`,
    /// `Kauppatori, square`.
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

    /// How far it is from the view's centre (geodesic), when the search was asked from a view.
    public var distanceMeters: Double?
}

/// Where a search is asked from: the view's centre and how far around it counts as near (its half
/// diagonal), so that what is on screen comes first among equally good matches.
public struct SearchVicinity: Sendable {
    public var center: Coordinate
    public var radiusMeters: Double

    /// A view's vicinity.
    public init(center: Coordinate, radiusMeters: Double) {
        self.center = center
        self.radiusMeters = radiusMeters
    }
}

/// Finds places by name (the gazetteer and the street names behind `/`).
public protocol PlaceSearching {
    /// Up to `limit` places and streets for what was typed, best first: by how well the name matches
    /// (whole, start, a word's start, anywhere, a typo away), then those near `vicinity` (nearest
    /// first), then the rest as places rank (largest first); each with its distance from the vicinity.
    func matches(_ query: String, limit: Int, near vicinity: SearchVicinity?) -> [SearchHit]
    /// The name of the place nearest `c` within `meters`, if any (a bookmark's proposed name).
    func nearestName(to c: Coordinate, within meters: Double) -> String?
}

extension PlaceSearching {
    /// Up to `limit` matches asked from nowhere in particular.
    public func matches(_ query: String, limit: Int) -> [SearchHit] { matches(query, limit: limit, near: nil) }

    /// The best match, if any (from `vicinity` when given).
    public func search(_ query: String, near vicinity: SearchVicinity? = nil) -> SearchHit? {
        matches(query, limit: 1, near: vicinity).first
    }

    /// The name of the place nearest `c` within `meters`, if any (a bookmark's proposed name).
    public func nearestName(to c: Coordinate, within meters: Double) -> String? { nil }
}

/// The map data the viewer draws from (MapData's `FeatureSources`: the bundled world, finer
/// shorelines, imported and bundled cities), with what the viewer derives from it once: places in
/// Mercator and their names as shown. Safe to share between threads (its caches are behind a lock).
public final class MapSources: PlaceSearching, Sendable {
    /// Every source and the choice of which is drawn where.
    public let features: FeatureSources

    private struct Cache {
        var table: PlaceTable?
        /// The places' grid, made for the `gridFromView`th view that looks for places near it.
        var grid = IndexOnUse<PlaceGrid>(after: MapSources.gridFromView)
        /// The search keys, and the place id of each of their entries (they are in rank order).
        var search: (index: PlaceSearch, ids: [Int])?
        /// Small-scale views' places (`topPlaces`), by integer zoom.
        var tiers: [Int: RankedPlaces] = [:]
        /// Display texts made so far by place id, per glyph mode (only for places a view has tried to label).
        var labels: [Bool: [Int: String]] = [:]
        /// Per street-level source (by its place in `features.details`), its named features with their
        /// search keys, made on the first search.
        var streets: [Int: [(key: [UInt8], place: NamedPlace)]] = [:]
        /// The imagery's last picture, by what it was made from (the view, the cell, the tiles at hand):
        /// a screen drawn again with nothing of that changed (a panel opened, a key's message) reuses it.
        var picture: (key: Int, picture: MapPicture, missing: [TileID])?
    }
    private let cache = Mutex(Cache())

    /// False to have small-scale views choose from all places rather than their tier's few (so tests can
    /// show that both name the same).
    let usesTiers: Bool

    /// The raster tileset drawn under the map, if the run has one (issue 47).
    public let imagery: ImagerySource?
    /// The elevation tiles heights are read from, if the run has some (issue 48).
    public let terrain: TerrainSource?

    /// Sources from loaded files.
    public convenience init(features: FeatureSources, imagery: ImagerySource? = nil, terrain: TerrainSource? = nil) {
        self.init(features: features, usesTiers: true, imagery: imagery, terrain: terrain)
    }

    init(features: FeatureSources, usesTiers: Bool, imagery: ImagerySource? = nil, terrain: TerrainSource? = nil) {
        self.features = features
        self.usesTiers = usesTiers
        self.imagery = imagery
        self.terrain = terrain
    }

    /// The sources whose tiles the program loads, by a `TileBatch`'s source number: each of
    /// `features.all` (nil where it has no tiles), then the imagery, then the terrain.
    public var loadable: [(any TileLoadable)?] {
        features.all.map { $0 as? TileSource } + [imagery, terrain]
    }

    /// The source number of the terrain's tile batches.
    public var terrainIndex: Int { features.all.count + 1 }

    /// The imagery's picture made for `key`, if it is the last one made.
    func picture(for key: Int) -> (picture: MapPicture, missing: [TileID])? {
        cache.withLock { c in c.picture.flatMap { $0.key == key ? ($0.picture, $0.missing) : nil } }
    }

    /// Keeps the imagery's picture made for `key` (in place of the last).
    func keep(_ picture: MapPicture, missing: [TileID], for key: Int) {
        cache.withLock { $0.picture = (key, picture, missing) }
    }

    /// The source number of the imagery's tile batches.
    public var imageryIndex: Int { features.all.count }

    /// Sources from the world file, an optional shoreline file and street-level files (finest first).
    public convenience init(world: MapAsset, highResolution: MapAsset? = nil, details: [MapAsset] = []) {
        self.init(features: FeatureSources(base: world, shorelines: highResolution, details: details))
    }

    /// Loads tiles a view lacked into their source, in this thread (tests and the benchmark; the
    /// program's loaders load through the sources themselves).
    public func load(_ batch: TileBatch) {
        let all = loadable
        guard all.indices.contains(batch.source), let tiles = all[batch.source] else { return }
        tiles.load(batch.tiles) { _ in true }
    }

    /// Every place of every source (made once; without names).
    func placeTable() throws(MapDataError) -> PlaceTable {
        if let t = cache.withLock({ $0.table }) { return t }
        // The street-level sources' suburbs and neighbourhoods follow the base's places, each kind largest
        // first (a stable sort keeps the files' order among equals).
        var extras: [(city: City, source: Int)] = []
        for (i, source) in features.details.enumerated() {
            extras += try source.places().filter { !$0.kind.isCity }.map { ($0, i) }
        }
        extras = extras.enumerated().sorted {
            ($0.element.city.kind.rawValue, -$0.element.city.population, $0.offset)
                < ($1.element.city.kind.rawValue, -$1.element.city.population, $1.offset)
        }.map(\.element)
        let table = PlaceTable(
            base: try features.base.placePoints(), extras: extras.map(\.city), extraSources: extras.map(\.source))
        cache.withLock { $0.table = table }
        return table
    }

    /// The view near places from which they have a grid. Making it for the world's 34,006 places costs
    /// as many instructions as 14 views that look at every place (4.1 M and 0.3 M): a few views at street
    /// level never pay for it.
    static let gridFromView = 8

    /// The places a view at zoom 7 or closer may name: those in the box (or in the grid cells that meet
    /// it), in the order they are named, projected. The first views look at every place.
    func placesNear(south: Double, north: Double, west: Double, east: Double) throws(MapDataError) -> RankedPlaces {
        let table = try placeTable()
        var (grid, makeNow) = cache.withLock { $0.grid.use() }
        if makeNow {
            let made = PlaceGrid(table)
            cache.withLock { $0.grid.made(made) }
            grid = made
        }
        let ids =
            grid?.near(south: south, north: north, west: west, east: east)
            ?? table.within(south: south, north: north, west: west, east: east)
        return RankedPlaces(ids.sorted(by: table.precedes), of: table)
    }

    /// The places a view at zoom `tier` … `tier` + 1 (below 7) may name, ranked and projected: the
    /// base's places of at least two-thirds of the next zoom's floor (a capital ranks half again its
    /// population), decoded without the rest. Their ids are the base's, as everywhere.
    func topPlaces(tier: Int, floor: Int) throws(MapDataError) -> RankedPlaces {
        if let p = cache.withLock({ $0.tiers[tier] }) { return p }
        let top: RankedPlaces
        if usesTiers {
            top = RankedPlaces(firstPlaces: try features.base.placePoints(populationAtLeast: floor * 2 / 3))
        } else {
            let table = try placeTable()
            top = RankedPlaces((0..<table.count).sorted(by: table.precedes), of: table)
        }
        cache.withLock { $0.tiers[tier] = top }
        return top
    }

    /// Place `id`'s name as the glyph mode shows it, made when first asked for and kept.
    func labelText(_ id: Int, ascii: Bool) -> String {
        if let t = cache.withLock({ $0.labels[ascii]?[id] }) { return t }
        let text = Transliteration.screenText(placeName(id), ascii: ascii)
        cache.withLock { $0.labels[ascii, default: [:]][id] = text }
        return text
    }

    /// The source of place `id` (its place in `features.all`).
    func placeSource(_ id: Int) -> Int? {
        // The base's places come first (and a view of few places never decodes them all).
        let baseCount = features.base.placeCount
        if id < baseCount { return features.all.count - 1 }
        guard let table = try? placeTable() else { return nil }
        let k = id - baseCount
        return table.extraSources.indices.contains(k) ? table.extraSources[k] : nil
    }

    /// Place `id` as a what-is-here answer: its kind in words, its name, its source.
    func placeFeature(_ id: Int) -> PickedFeature? {
        guard let table = try? placeTable(), id >= 0, id < table.count else { return nil }
        let words: String
        switch table.kind(id) {
        case .city: words = "city"
        case .capital: words = "capital"
        case .suburb: words = "suburb"
        case .neighbourhood: words = "neighbourhood"
        }
        return PickedFeature(
            className: words, name: placeName(id),
            reference: FeatureReference(source: placeSource(id), feature: .place(id)))
    }

    /// The name of place `id` (empty if it has none).
    func placeName(_ id: Int) -> String {
        if let name = features.base.placeName(id) { return name }
        // Past the base's places: a street-level source's (the table holds them).
        guard let table = try? placeTable(), table.extras.indices.contains(id - table.base.count) else { return "" }
        return table.extras[id - table.base.count].name
    }

    /// The nearest of the gazetteer's places (by an equirectangular distance: enough to choose a name).
    public func nearestName(to c: Coordinate, within meters: Double) -> String? {
        guard let cities = try? features.base.places() else { return nil }
        var best: (String, Double)?
        let k = cos(c.latitude * .pi / 180)
        for city in cities {
            var dLon = (city.coordinate.longitude - c.longitude).truncatingRemainder(dividingBy: 360)
            if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
            // 111,320 m a degree of longitude at the equator, 110,574 m a degree of latitude.
            let dx = dLon * k * 111_320
            let dy = (city.coordinate.latitude - c.latitude) * 110_574
            let d = (dx * dx + dy * dy).squareRoot()
            if d <= meters, d < (best?.1 ?? .infinity) { best = (city.name, d) }
        }
        return best?.0
    }

    public func matches(_ query: String, limit: Int, near vicinity: SearchVicinity?) -> [SearchHit] {
        guard limit > 0, let (index, ids) = try? searchIndex(), let table = try? placeTable(),
            let cities = try? features.base.places()
        else { return [] }
        // Every rank's best places (enough of each for the ones near the view to be among them), then the
        // streets of the street-level sources, ranked alike.
        var found: [(hit: SearchHit, rank: PlaceSearch.Rank, order: Int)] = index.matches(
            query, perRank: max(limit, Self.candidatesPerRank)
        ).map { i, rank in
            let id = ids[i]
            let hit = Self.hit(
                id < cities.count ? cities[id] : table.extras[id - cities.count], region: index.regions[i])
            return (hit, rank, i)
        }
        let key = Array(PlaceSearch.key(query).utf8)
        guard !key.isEmpty else { return [] }
        var named = Set(found.map(\.hit.name))
        for (i, source) in features.details.enumerated() {
            for (streetKey, street) in streets(of: source, at: i) {
                guard let rank = PlaceSearch.rank(key, [streetKey], ownKeys: 1), named.insert(street.name).inserted
                else { continue }
                let kind = street.kind.words
                let hit = SearchHit(
                    name: street.name, label: street.name + (kind.isEmpty ? "" : ", " + kind),
                    coordinate: street.coordinate, detail: "", radiusMeters: SearchHit.streetRadius)
                found.append((hit, rank, index.keys.count + found.count))
            }
        }
        guard let vicinity else {
            return found.sorted { ($0.rank, $0.order) < ($1.rank, $1.order) }.prefix(limit).map(\.hit)
        }
        let measured = found.map { f in
            var hit = f.hit
            hit.distanceMeters = Geodesic.distance(vicinity.center, hit.coordinate)
            return (hit: hit, rank: f.rank, order: f.order)
        }
        // Within a rank: near the view first, nearest first; then the rest as places rank.
        func order(_ f: (hit: SearchHit, rank: PlaceSearch.Rank, order: Int)) -> (Int, Int, Double, Int) {
            let d = f.hit.distanceMeters ?? .infinity
            return d <= vicinity.radiusMeters ? (f.rank.rawValue, 0, d, f.order) : (f.rank.rawValue, 1, 0, f.order)
        }
        return measured.sorted { order($0) < order($1) }.prefix(limit).map(\.hit)
    }

    /// Places of each rank a search weighs by distance: the largest this many (a rank rarely has more
    /// that are near the view and not among them).
    static let candidatesPerRank = 64

    /// True when no query that extends `query` matches more than it does (matches are prefixes, words,
    /// substrings and one typo from a prefix; a typo counts from 4 letters): a search whose query matches
    /// nothing need not run again as a paste goes on.
    public static func longerQueriesMatchNoMore(than query: String) -> Bool {
        PlaceSearch.key(query).utf8.count >= PlaceSearch.minimumTypoLength
    }

    /// The named features of street-level source `i` with their search keys (made once: a key a name
    /// each keystroke cost a search milliseconds).
    func streets(of source: any ChunkSource, at i: Int) -> [(key: [UInt8], place: NamedPlace)] {
        if let kept = cache.withLock({ $0.streets[i] }) { return kept }
        let made = ((try? source.namedFeatures()) ?? []).map { (key: Array(PlaceSearch.key($0.name).utf8), place: $0) }
        cache.withLock { $0.streets[i] = made }
        return made
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
        return SearchHit(
            name: city.name, label: label, coordinate: city.coordinate, detail: detail, radiusMeters: radius)
    }

    /// The search keys of every place, in rank order, and the place id of each (made on the first search).
    func searchIndex() throws(MapDataError) -> (index: PlaceSearch, ids: [Int]) {
        if let s = cache.withLock({ $0.search }) { return s }
        let table = try placeTable()
        let cities = try features.base.places()
        let names = try features.base.placeNames()
        guard cities.count == table.base.count else { return (PlaceSearch(names: [], extras: []), []) }
        let ids = (0..<table.count).sorted(by: table.precedes)
        let index = PlaceSearch(
            names: ids.map { $0 < cities.count ? cities[$0].name : table.extras[$0 - cities.count].name },
            extras: ids.map { $0 < names.count ? names[$0] : PlaceNames() })
        cache.withLock { $0.search = (index, ids) }
        return (index, ids)
    }
}
