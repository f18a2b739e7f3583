import GeoCore
import MapFormats

/// Where a source's data comes from: bundled with termmap, imported by the user, vector tiles, or
/// the user's own file.
public enum SourceKind: String, Sendable, Encodable {
    case bundled, `import`, tiles, file, imagery, terrain
}

/// How detailed a source's data is at a zoom: a level of a map data file, or a tile zoom.
public enum SourceDetail: Equatable, Sendable {
    /// Level `level` (0-based) of `of` levels.
    case level(Int, of: Int)
    /// Tiles of this zoom.
    case tileZoom(Int)
}

/// What a source has for a view: the chunks it holds for it, and for a tileset the tiles it lacks
/// (nearest the view's centre first) and those that could not be read.
public struct SourceView: Sendable {
    /// Its chunks in view.
    public var hits: [ChunkHit]
    /// Tiles of the view not loaded yet.
    public var missing: [TileID]
    /// Tiles of the view that could not be read.
    public var failed: Int
    /// Tiles of the view that could not be read for want of a network (the cached ones are drawn).
    public var offline = 0
    /// Features of the view's tiles left out for a malformed geometry.
    public var skipped: Int
    /// Tiles of the view at hand (offline: the cached ones drawn).
    public var cached = 0
    /// When some of the view's tiles failed, the boxes of the others: the source claims only these, so
    /// that a coarser source still draws where a tile could not be had. Nil: the whole coverage.
    public var claims: [CoordinateBounds]?

    /// A view's chunks.
    public init(
        hits: [ChunkHit], missing: [TileID] = [], failed: Int = 0, skipped: Int = 0, claims: [CoordinateBounds]? = nil
    ) {
        self.hits = hits
        self.missing = missing
        self.failed = failed
        self.skipped = skipped
        self.claims = claims
    }
}

/// Where features come from: a map data file, a vector tileset or the user's own file. It says what it
/// is, what it covers, from which zoom it is drawn, how detailed it is at a zoom and how it is credited
/// (what the sources list, the credits line and `render --json` say of every source alike).
public protocol FeatureSource: AnyObject, Sendable {
    /// A short name for the status line (`NE10m`, `GSHHG`, `OSM helsinki`, `walks.gpx`).
    var label: String { get }
    /// Where its data comes from.
    var kind: SourceKind { get }
    /// The area its data covers.
    var coverage: CoordinateBounds { get }
    /// The lowest zoom it is drawn at.
    var minZoom: Double { get }
    /// Its attribution as the file or tileset states it, if it does.
    var attribution: String? { get }
    /// What its lines and areas must be credited with.
    var credits: [Credit] { get }
    /// The detail it draws at `zoom`.
    func detail(atZoom zoom: Double) -> SourceDetail
}

/// A source of the map's own classes in chunks (a map data file or a vector tileset): `FeatureSources`
/// chooses which of them draws a class where, and asks it for the chunks of a view; it never loads
/// anything for a view by itself (a tileset says which tiles it lacks, and the program loads them).
public protocol ChunkSource: FeatureSource {
    /// The classes it holds.
    var classes: Set<FeatureClass> { get }
    /// What its places must be credited with.
    var placeCredits: [Credit] { get }
    /// The chunks of `classes` that meet `bounds`, at the level of detail for `zoom`.
    func chunks(in bounds: CoordinateBounds, zoom: Double, classes: Set<FeatureClass>) throws(MapDataError)
        -> SourceView
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
    /// How many places `places()` gives (without decoding them).
    var placeCount: Int { get }
    /// True when it draws the shore itself within its coverage, so that coarser coastlines and lake
    /// shores stay out of it: street-level data (OpenStreetMap has coastline ways and water areas).
    var claimsShorelines: Bool { get }
    /// What it knows of feature `feature` of a chunk it gave (its object, its properties), nil when
    /// nothing beyond the class and name.
    func identity(of hit: ChunkHit, feature: Int) -> FeatureIdentity?
}

extension ChunkSource {
    public func placeNames() throws(MapDataError) -> [PlaceNames] { try places().map { _ in PlaceNames() } }
    public func placePoints() throws(MapDataError) -> PlacePoints { PlacePoints(try places()) }
    public func placePoints(populationAtLeast population: Int) throws(MapDataError) -> PlacePoints {
        PlacePoints(Array(try places().prefix { $0.population >= population }))
    }
    public func placeName(_ index: Int) -> String? {
        guard let places = try? places(), places.indices.contains(index) else { return nil }
        return places[index].name
    }
    public var placeCredits: [Credit] { credits }
    public var placeCount: Int { (try? places().count) ?? 0 }
    public var claimsShorelines: Bool { classes.contains { $0.isRoad || ($0.isArea && !$0.isFillOnly) } }
    public func identity(of hit: ChunkHit, feature: Int) -> FeatureIdentity? {
        FeatureIdentity(chunk: hit.chunk, feature: feature)
    }
}

extension MapAsset: ChunkSource {
    public var label: String { Self.label(metadata: metadata, name: name) }

    /// A file's label: its metadata's, or for files written before labels were recorded its name's.
    static func label(metadata: [String: String], name: String) -> String {
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

    /// The credit its metadata states; files that state none are the bundled world (Natural Earth)
    /// and a GSHHG import, known by their labels.
    static func credits(attribution: String?, label: String) -> [Credit] {
        if let a = attribution { return [Credit(attribution: a)] }
        switch label {
        case "NE10m": return [.naturalEarth]
        case "GSHHG": return [.gshhg]
        default: return []
        }
    }

    /// The bundled world's places are GeoNames' gazetteer; an import's are of its own data.
    public var placeCredits: [Credit] { label == "NE10m" ? [.geoNames] : credits }

    public var placeCount: Int { cityCount }

    public func chunks(in bounds: CoordinateBounds, zoom: Double, classes: Set<FeatureClass>) throws(MapDataError)
        -> SourceView
    {
        SourceView(hits: try query(bounds: bounds, level: level(forZoom: zoom), classes: classes), claims: claimedBoxes)
    }

    /// `coverage` without the boxes of `unclaimed` (`west,south,east,north` joined by `;`), as
    /// rectangles; nil without any (read once, when the file is opened).
    static func claimedBoxes(unclaimed: String?, coverage: CoordinateBounds) -> [CoordinateBounds]? {
        guard let text = unclaimed else { return nil }
        var boxes = [coverage]
        for item in text.split(separator: ";") {
            let v = item.split(separator: ",").compactMap { Double($0) }
            guard v.count == 4 else { continue }
            let hole = CoordinateBounds(north: v[3], south: v[1], west: v[0], east: v[2])
            boxes = boxes.flatMap { Self.subtract(hole, from: $0) }
        }
        return boxes
    }

    /// `box` without `hole`: up to four rectangles (the parts north, south, west and east of it).
    static func subtract(_ hole: CoordinateBounds, from box: CoordinateBounds) -> [CoordinateBounds] {
        guard hole.north > box.south, hole.south < box.north, hole.east > box.west, hole.west < box.east else {
            return [box]
        }
        var out: [CoordinateBounds] = []
        if hole.north < box.north {
            out.append(CoordinateBounds(north: box.north, south: hole.north, west: box.west, east: box.east))
        }
        if hole.south > box.south {
            out.append(CoordinateBounds(north: hole.south, south: box.south, west: box.west, east: box.east))
        }
        let top = min(box.north, hole.north)
        let bottom = max(box.south, hole.south)
        if hole.west > box.west {
            out.append(CoordinateBounds(north: top, south: bottom, west: box.west, east: hole.west))
        }
        if hole.east < box.east {
            out.append(CoordinateBounds(north: top, south: bottom, west: hole.east, east: box.east))
        }
        return out
    }

    public func detail(atZoom zoom: Double) -> SourceDetail { .level(level(forZoom: zoom), of: levels.count) }

    public func places() throws(MapDataError) -> [City] { try cities() }

    public func namedFeatures() throws(MapDataError) -> [NamedPlace] { try names() }

    public func featureName(_ index: Int32) -> String? { name(at: index) }
}

/// The chunks one source gives for a view (and the tiles it lacks), and the boxes where a finer source
/// already draws a class (its lines are not drawn there, so no street or shoreline is drawn twice).
public struct SourceHits: Sendable {
    /// The source.
    public let source: any ChunkSource
    /// Its place in `FeatureSources.all`.
    public let index: Int
    /// Its chunks in view, and what it lacks.
    public let view: SourceView
    /// Its chunks in view.
    public var hits: [ChunkHit] { view.hits }
    /// Per class, the boxes where finer sources draw it.
    public let excluded: [FeatureClass: [CoordinateBounds]]
}

/// Every source of a run, finest first, and the one choice of which is drawn where: for each class,
/// the first active source whose coverage meets the view draws it there, and coarser sources leave its
/// coverage box alone. Street-level sources also take the shoreline classes (coastline, lake, the world's
/// land and lake tints and its rivers) within their box: where OpenStreetMap data covers the view it replaces the coarser shoreline.
public final class FeatureSources: Sendable {
    /// Sources drawn from their zoom on, finest (and the user's own) first: imports, tiles, bundled cities.
    public let details: [any ChunkSource]
    /// The optional finer shorelines (GSHHG), drawn below `shorelineMetersPerDot`.
    public let shorelines: (any ChunkSource)?
    /// The world-wide base (Natural Earth): lines, borders and the gazetteer.
    public let base: any ChunkSource
    /// Below this many metres per dot the finer shorelines replace the base's.
    public static let shorelineMetersPerDot = 150.0

    /// The sources of a run.
    public init(base: any ChunkSource, shorelines: (any ChunkSource)? = nil, details: [any ChunkSource] = []) {
        self.base = base
        self.shorelines = shorelines
        self.details = details
        all = details + (shorelines.map { [$0] } ?? []) + [base]
    }

    /// Every source, finest first.
    public let all: [any ChunkSource]

    /// Lets go of tiles' failures whose wait is over (on the clock their waits were set by), so that
    /// the next view asks for them again: the program does this before drawing; a view reads no clock.
    public func expireFailures() {
        for case let tiles as TileSource in all { tiles.expireFailures() }
    }

    /// The classes a source takes over from coarser ones within its coverage: its own, and the
    /// shorelines when it draws the shore itself.
    static func claims(_ source: any ChunkSource) -> Set<FeatureClass> {
        let tints: Set<FeatureClass> = [.land, .lakeWater, .sea]
        guard source.claimsShorelines else { return source.classes.subtracting(tints) }
        // The world's land and lake tints give way only to a source with land of its own (the import's
        // box, a tileset's tiles once it has sea): without it they show through.
        let shore = source.classes.union([.coastline, .lake, .worldRiver])
        return source.classes.contains(.land) ? shore.union(tints) : shore.subtracting(tints)
    }

    /// What to draw for a view, finest source first.
    public func query(bounds: CoordinateBounds, zoom: Double, metersPerDot: Double) throws(MapDataError)
        -> [SourceHits]
    {
        var active: [(source: any ChunkSource, index: Int)] = details.enumerated().filter {
            zoom >= $0.element.minZoom && Self.meets($0.element.coverage, bounds)
        }.map { ($0.element, $0.offset) }
        if let shorelines, metersPerDot < Self.shorelineMetersPerDot { active.append((shorelines, details.count)) }
        active.append((base, all.count - 1))
        var claimed: [FeatureClass: [CoordinateBounds]] = [:]
        var out: [SourceHits] = []
        for (source, index) in active {
            var classes: Set<FeatureClass> = []
            var excluded: [FeatureClass: [CoordinateBounds]] = [:]
            for c in source.classes {
                let boxes = claimed[c] ?? []
                // A finer source covering the whole view draws this class everywhere in it.
                guard !boxes.contains(where: { Self.contains($0, bounds) }) else { continue }
                classes.insert(c)
                if !boxes.isEmpty { excluded[c] = boxes }
            }
            var claimBoxes = [source.coverage]
            if !classes.isEmpty {
                let view = try source.chunks(in: bounds, zoom: zoom, classes: classes)
                out.append(SourceHits(source: source, index: index, view: view, excluded: excluded))
                if let boxes = view.claims { claimBoxes = boxes }
            }
            // The base covers the world but claims nothing from sources after it (there are none). Claims
            // are read after the source's chunks: a tileset knows whether it has the sea once it has tiles.
            for c in Self.claims(source) { claimed[c, default: []] += claimBoxes }
        }
        return out
    }

    /// True when two boxes meet (longitudes compared in every world copy).
    public static func meets(_ a: CoordinateBounds, _ b: CoordinateBounds) -> Bool {
        guard a.north >= b.south, a.south <= b.north else { return false }
        if a.east - a.west >= 360 || b.east - b.west >= 360 { return true }
        guard a.west <= a.east, b.west <= b.east else { return false }
        return WorldCopies.meeting(a.west...a.east, b.west...b.east) != nil
    }

    /// True when `outer` holds all of `inner` (in one of its world copies).
    public static func contains(_ outer: CoordinateBounds, _ inner: CoordinateBounds) -> Bool {
        guard outer.north >= inner.north, outer.south <= inner.south, outer.west <= outer.east, inner.west <= inner.east
        else { return false }
        return WorldCopies.contains(outer.west...outer.east, inner.west...inner.east)
    }
}
