import GeoCore

/// Constants of the map data format; `assets/FORMAT.md` describes the layout byte by byte.
public enum MapAssetFormat {
    /// The first 8 bytes of every file.
    public static let magic: [UInt8] = Array("TMAPDAT\u{0}".utf8)
    /// The version this code writes and reads.
    public static let version: UInt16 = 1
    /// Size of the fixed header.
    public static let headerSize = 48
    /// Byte offsets of the header's fields (the header table of `assets/FORMAT.md`); each is a u32
    /// but the version and header size (u16).
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
        /// Where the city section starts.
        public static let cityOffset = 36
        /// Length of the city section.
        public static let cityLength = 40
        /// CRC-32 of the header before this field, the level table, the chunk index and the city section.
        public static let checksum = 44
    }
    /// Size of one level-table entry.
    public static let levelEntrySize = 16
    /// Size of one chunk-index entry.
    public static let chunkEntrySize = 36
    /// Degrees per stored unit: 1e-5° ≈ 1.1 m.
    public static let quantum = 1e-5
    /// Stored units per degree.
    public static let unitsPerDegree = 100_000.0
    /// Most points in one polyline piece (longer lines are split, sharing their end points).
    public static let maxPiecePoints = 256
    /// Most points in one chunk.
    public static let maxChunkPoints = 4096
    /// Largest counts a reader accepts (guards against absurd values in damaged files).
    static let maxLevels = 64
    static let maxChunks = 1 << 22
    static let maxCities = 1 << 22
}

/// The class of a line on the map.
public enum MapLayer: UInt8, CaseIterable, Sendable, Comparable {
    case coastline = 0
    case lake = 1
    case border = 2

    /// Layers sort as their raw values.
    public static func < (a: MapLayer, b: MapLayer) -> Bool { a.rawValue < b.rawValue }
}

/// A line at full resolution, as read from a source, before encoding.
public struct SourcePolyline: Equatable, Sendable {
    /// Its layer.
    public var layer: MapLayer
    /// Its points in degrees.
    public var points: [Coordinate]

    /// A line of a layer.
    public init(layer: MapLayer, points: [Coordinate]) {
        self.layer = layer
        self.points = points
    }
}

/// A populated place of the gazetteer.
public struct City: Equatable, Sendable {
    /// The place's name (UTF-8).
    public var name: String
    /// Where it is.
    public var coordinate: Coordinate
    /// ISO 3166 alpha-2 country code.
    public var countryCode: String
    /// Inhabitants.
    public var population: Int

    /// A place.
    public init(name: String, coordinate: Coordinate, countryCode: String, population: Int) {
        self.name = name
        self.coordinate = coordinate
        self.countryCode = countryCode
        self.population = population
    }
}
