import GeoCore

/// Where features come from: a map data file (and later vector tiles). It says what it covers, from
/// which zoom it is drawn, what it holds, and gives the chunks of a view.
public protocol FeatureSource: AnyObject, Sendable {
    /// A short name for the status line (`NE10m`, `GSHHG`, `OSM helsinki`).
    var label: String { get }
    /// The area its data covers.
    var coverage: CoordinateBounds { get }
    /// The lowest zoom it is drawn at.
    var minZoom: Double { get }
    /// The classes it holds.
    var classes: Set<FeatureClass> { get }
    /// What its data must be credited with on screen, if anything.
    var attribution: String? { get }
    /// The chunks of `classes` that meet `bounds`, at the level of detail for `zoom`.
    func chunks(in bounds: CoordinateBounds, zoom: Double, classes: Set<FeatureClass>) throws(MapDataError)
        -> [ChunkHit]
    /// `L3/6`: the level used at `zoom` of how many.
    func levelLabel(zoom: Double) -> String
    /// Its places (cities, suburbs).
    func places() throws(MapDataError) -> [City]
    /// Each place's region and other names, in the order of `places()`.
    func placeNames() throws(MapDataError) -> [PlaceNames]
    /// Its places without their names, in the order of `places()`.
    func placePoints() throws(MapDataError) -> PlacePoints
    /// The first of its places without their names, up to the first of fewer than `population` people
    /// (all places of at least that many when they are stored largest first, as map data files are).
    func placePoints(populationAtLeast population: Int) throws(MapDataError) -> PlacePoints
    /// The name of place `index` of `placePoints()`.
    func placeName(_ index: Int) -> String?
    /// Its named features (streets), for search.
    func namedFeatures() throws(MapDataError) -> [NamedPlace]
    /// The name of a feature of one of its chunks.
    func featureName(_ index: Int32) -> String?
    /// How its tiles of the last view stand (map data files have nothing to load).
    var loadStatus: TileLoadStatus { get }
    /// True when it draws the shore itself within its coverage, so that coarser coastlines and lake
    /// shores stay out of it: street-level data (OpenStreetMap has coastline ways and water areas).
    var claimsShorelines: Bool { get }
}

extension FeatureSource {
    public var loadStatus: TileLoadStatus { TileLoadStatus() }
    public func placeNames() throws(MapDataError) -> [PlaceNames] { try places().map { _ in PlaceNames() } }
    public func placePoints() throws(MapDataError) -> PlacePoints { PlacePoints(try places()) }
    public func placePoints(populationAtLeast population: Int) throws(MapDataError) -> PlacePoints {
        PlacePoints(Array(try places().prefix { $0.population >= population }))
    }
    public func placeName(_ index: Int) -> String? {
        guard let places = try? places(), places.indices.contains(index) else { return nil }
        return places[index].name
    }
    /// The short name its data is credited with at the screen's bottom right (`Natural Earth`, `GSHHG`),
    /// for data whose licence does not ask for more (what must be credited is `attribution`).
    public var creditName: String? {
        if label.hasPrefix("NE") { return "Natural Earth" }
        if label == "GSHHG" { return "GSHHG" }
        return nil
    }
    public var claimsShorelines: Bool { classes.contains { $0.isRoad || ($0.isArea && !$0.isFillOnly) } }
}

extension MapAsset: FeatureSource {
    public var label: String {
        if let l = metadata["label"] { return l }
        // Files written before labels were recorded: the bundled world and the GSHHG import.
        let file = name.split(separator: "/").last.map(String.init) ?? name
        switch file {
        case DataLocator.worldFileName: return "NE10m"
        case DataLocator.highResolutionFileName: return "GSHHG"
        default: return file.hasSuffix(".tmap") ? String(file.dropLast(5)) : file
        }
    }

    public var minZoom: Double { version == 1 ? 0 : levels.first?.minZoom ?? 0 }

    public var attribution: String? { metadata["attribution"] }

    public func chunks(in bounds: CoordinateBounds, zoom: Double, classes: Set<FeatureClass>) throws(MapDataError)
        -> [ChunkHit]
    {
        try query(bounds: bounds, level: level(forZoom: zoom), classes: classes)
    }

    public func levelLabel(zoom: Double) -> String { "L\(level(forZoom: zoom) + 1)/\(levels.count)" }

    public func places() throws(MapDataError) -> [City] { try cities() }


    public func namedFeatures() throws(MapDataError) -> [NamedPlace] { try names() }

    public func featureName(_ index: Int32) -> String? { name(at: index) }
}

/// The chunks one source gives for a view, and the boxes where a finer source already draws a class
/// (its lines are not drawn there, so no street or shoreline is drawn twice).
public struct SourceHits: Sendable {
    /// The source.
    public let source: any FeatureSource
    /// Its chunks in view.
    public let hits: [ChunkHit]
    /// Per class, the boxes where finer sources draw it.
    public let excluded: [FeatureClass: [CoordinateBounds]]
}

/// Every source of a run, finest first, and the one choice of which is drawn where: for each class,
/// the first active source whose coverage meets the view draws it there, and coarser sources leave its
/// coverage box alone. Street-level sources also take the shoreline classes (coastline, lake, the world's
/// land and lake tints and its rivers) within their box: where OpenStreetMap data covers the view it replaces the coarser shoreline.
public final class FeatureSources: Sendable {
    /// Sources drawn from their zoom on, finest (and the user's own) first: imports, tiles, bundled cities.
    public let details: [any FeatureSource]
    /// The optional finer shorelines (GSHHG), drawn below `shorelineMetersPerDot`.
    public let shorelines: (any FeatureSource)?
    /// The world-wide base (Natural Earth): lines, borders and the gazetteer.
    public let base: any FeatureSource
    /// Below this many metres per dot the finer shorelines replace the base's.
    public static let shorelineMetersPerDot = 150.0

    /// The sources of a run.
    public init(base: any FeatureSource, shorelines: (any FeatureSource)? = nil, details: [any FeatureSource] = []) {
        self.base = base
        self.shorelines = shorelines
        self.details = details
    }

    /// Every source, finest first.
    public var all: [any FeatureSource] { details + (shorelines.map { [$0] } ?? []) + [base] }

    /// The classes a source takes over from coarser ones within its coverage: its own, and the
    /// shorelines when it draws the shore itself.
    static func claims(_ source: any FeatureSource) -> Set<FeatureClass> {
        source.claimsShorelines ? source.classes.union([.coastline, .lake, .lakeWater, .land, .worldRiver]) : source.classes
    }

    /// What to draw for a view, finest source first.
    public func query(bounds: CoordinateBounds, zoom: Double, metersPerDot: Double) throws(MapDataError)
        -> [SourceHits]
    {
        var active: [any FeatureSource] = details.filter {
            zoom >= $0.minZoom && Self.meets($0.coverage, bounds)
        }
        if let shorelines, metersPerDot < Self.shorelineMetersPerDot { active.append(shorelines) }
        active.append(base)
        var claimed: [FeatureClass: [CoordinateBounds]] = [:]
        var out: [SourceHits] = []
        for source in active {
            var classes: Set<FeatureClass> = []
            var excluded: [FeatureClass: [CoordinateBounds]] = [:]
            for c in source.classes {
                let boxes = claimed[c] ?? []
                // A finer source covering the whole view draws this class everywhere in it.
                guard !boxes.contains(where: { Self.contains($0, bounds) }) else { continue }
                classes.insert(c)
                if !boxes.isEmpty { excluded[c] = boxes }
            }
            if !classes.isEmpty {
                let hits = try source.chunks(in: bounds, zoom: zoom, classes: classes)
                out.append(SourceHits(source: source, hits: hits, excluded: excluded))
            }
            // The base covers the world but claims nothing from sources after it (there are none). Claims
            // are read after the source's chunks: a tileset knows whether it has the sea once it has tiles.
            for c in Self.claims(source) { claimed[c, default: []].append(source.coverage) }
        }
        return out
    }

    /// True when two boxes meet (longitudes compared in every world copy).
    static func meets(_ a: CoordinateBounds, _ b: CoordinateBounds) -> Bool {
        guard a.north >= b.south, a.south <= b.north else { return false }
        if a.east - a.west >= 360 || b.east - b.west >= 360 { return true }
        let shift = 360 * ((b.west - a.west) / 360).rounded(.down)
        for k in -1...1 {
            let west = a.west + shift + 360 * Double(k)
            if west <= b.east && west + (a.east - a.west) >= b.west { return true }
        }
        return false
    }

    /// True when `outer` holds all of `inner` (in one of its world copies).
    static func contains(_ outer: CoordinateBounds, _ inner: CoordinateBounds) -> Bool {
        guard outer.north >= inner.north, outer.south <= inner.south else { return false }
        if outer.east - outer.west >= 360 { return true }
        let shift = 360 * ((inner.west - outer.west) / 360).rounded(.down)
        return outer.west + shift <= inner.west && outer.east + shift >= inner.east
    }
}
