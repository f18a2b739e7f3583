import GeoCore

/// One entry of the chunk index: what a chunk holds, where its bytes are and what area they cover.
public struct ChunkInfo: Equatable, Sendable {
    /// The class of every feature in the chunk.
    public var featureClass: FeatureClass
    /// Lines or areas.
    public var kind: GeometryKind
    /// Its level of detail (index into `levels`).
    public var level: Int
    /// Bounding box in stored units (see `MapAsset.unitsPerDegree`).
    public var minX: Int32, minY: Int32, maxX: Int32, maxY: Int32
    /// Where its bytes start in the file (unique to the chunk: what-is-here answers name it so).
    public internal(set) var offset: Int
    /// How many bytes it has there.
    public internal(set) var length: Int
    /// Features in the chunk (version 1: lines).
    public internal(set) var featureCount: Int
    /// The CRC-32 of its bytes.
    public internal(set) var checksum: UInt32
    /// Version 5: its features carry their OpenStreetMap object, detail and tags (the finest level's do).
    public var hasExtras = false
    /// Version 5: its payload is deflated (its raw size as a varint, then a zlib stream).
    public var deflated = false

    /// An entry as the index stores it.
    public init(
        featureClass: FeatureClass, kind: GeometryKind, level: Int, minX: Int32, minY: Int32, maxX: Int32,
        maxY: Int32, offset: Int, length: Int, featureCount: Int, checksum: UInt32, hasExtras: Bool = false,
        deflated: Bool = false
    ) {
        (self.featureClass, self.kind, self.level) = (featureClass, kind, level)
        (self.minX, self.minY, self.maxX, self.maxY) = (minX, minY, maxX, maxY)
        (self.offset, self.length, self.featureCount, self.checksum) = (offset, length, featureCount, checksum)
        (self.hasExtras, self.deflated) = (hasExtras, deflated)
    }
}

/// A level of detail: the zooms it serves, its Douglas–Peucker tolerance and its chunks.
public struct DetailLevel: Equatable, Sendable {
    /// Tolerance in degrees (0: every stored point).
    public var toleranceDegrees: Double
    /// The lowest zoom this level is drawn at (up to the next level's).
    public var minZoom: Double
    /// The level's chunks in the index.
    public var chunks: Range<Int>

    /// A level.
    public init(toleranceDegrees: Double, minZoom: Double, chunks: Range<Int>) {
        (self.toleranceDegrees, self.minZoom, self.chunks) = (toleranceDegrees, minZoom, chunks)
    }
}

/// A decoded chunk: its features' parts as stored lon/lat and as Web Mercator unit-square points.
public struct DecodedChunk: Sendable {
    /// The chunk's index entry.
    public let info: ChunkInfo
    /// Stored units per degree of `lon` and `lat`.
    public let unitsPerDegree: Double
    /// Longitudes in stored units, all parts back to back.
    public let lon: [Int32]
    /// Latitudes in stored units.
    public let lat: [Int32]
    /// Mercator x of each point (0…1 for −180…180; unwrapped as stored).
    public let x: [Double]
    /// Mercator y of each point (0 at the north limit; clamped there).
    public let y: [Double]
    /// Start of each part in the point arrays, plus the end: part i is `starts[i]..<starts[i+1]`.
    public let starts: [Int]
    /// Start of each feature in the parts, plus the end: feature f has parts
    /// `featureStarts[f]..<featureStarts[f+1]`.
    public let featureStarts: [Int]
    /// Each feature's entry in the name table, or -1.
    public let nameIndex: [Int32]
    /// Each feature's box in the unit square: minX, minY, maxX, maxY, four values a feature (so a view
    /// can skip the features it does not meet without looking at their points).
    public let featureBoxes: [Double]
    /// Version 5 (empty before, and for tiles): each feature's OpenStreetMap object (`OSMReference.packed`,
    /// 0 for none), its detail (a road's width in decimetres, a point of interest's kind) and its tags.
    public var osm: [UInt64] = []
    public var details: [UInt32] = []
    public var tags: [String] = []
    /// For a tile's chunk: each feature's layer (its place among the layers read) in the high 32 bits
    /// and its place in that layer in the low (`TileSource.noOrigin` for the tile's own land square).
    public var tileFeatures: [UInt64] = []

    /// A chunk of decoded columns.
    public init(
        info: ChunkInfo, unitsPerDegree: Double, lon: [Int32], lat: [Int32], x: [Double], y: [Double], starts: [Int],
        featureStarts: [Int], nameIndex: [Int32], featureBoxes: [Double], osm: [UInt64] = [], details: [UInt32] = [],
        tags: [String] = [], tileFeatures: [UInt64] = []
    ) {
        (self.info, self.unitsPerDegree, self.lon, self.lat, self.x, self.y) = (info, unitsPerDegree, lon, lat, x, y)
        (self.starts, self.featureStarts, self.nameIndex, self.featureBoxes) = (
            starts, featureStarts, nameIndex, featureBoxes
        )
        (self.osm, self.details, self.tags, self.tileFeatures) = (osm, details, tags, tileFeatures)
    }

    /// The detail of feature `f` (0 when the chunk has none).
    public func detail(_ f: Int) -> UInt32 { details.indices.contains(f) ? details[f] : 0 }

    /// Number of parts (lines, or rings of areas).
    public var polylineCount: Int { starts.count - 1 }
    /// Number of features.
    public var featureCount: Int { featureStarts.count - 1 }
    /// Number of points.
    public var pointCount: Int { x.count }

    /// Part i in degrees (exact to the stored resolution; from Mercator for a tile, which stores none).
    public func coordinates(ofLine i: Int) -> [Coordinate] {
        if lon.isEmpty {
            return (starts[i]..<starts[i + 1]).map { WebMercator.unproject(MercatorPoint(x: x[$0], y: y[$0])) }
        }
        return (starts[i]..<starts[i + 1]).map {
            Coordinate(
                latitude: Double(lat[$0]) * (1 / unitsPerDegree), longitude: Double(lon[$0]) * (1 / unitsPerDegree))
        }
    }
}

/// A chunk in view with the multiple of 360° to add to its longitudes to place it next to the view.
public struct ChunkHit: Sendable {
    /// The features.
    public let chunk: DecodedChunk
    /// World copies to shift by (add `shift` to Mercator x, `360·shift` to longitude).
    public let shift: Int
    /// For a vector tile's chunk, the tile's square in the unit square: its features reach past it
    /// into a buffer its neighbours draw, and its areas are cut along the buffer's edge, so it is drawn
    /// inside the square only. Nil for map data files.
    public var tile: (minX: Double, minY: Double, size: Double)?
    /// True when the chunk only names lines drawn from another chunk (OpenMapTiles'
    /// `transportation_name` repeats `transportation` with names): its lines give labels, not ink.
    public var namesOnly = false

    /// A chunk of a map data file.
    public init(chunk: DecodedChunk, shift: Int) {
        self.chunk = chunk
        self.shift = shift
    }

    /// A chunk of a vector tile.
    public init(
        chunk: DecodedChunk, shift: Int, tile: (minX: Double, minY: Double, size: Double), namesOnly: Bool
    ) {
        self.chunk = chunk
        self.shift = shift
        self.tile = tile
        self.namesOnly = namesOnly
    }
}
