import MapData
import Raster

/// Which feature a source's drawing refers to: `source` is its place in the render's sources
/// (`FeatureSources.all`; nil for a layer's own features), `feature` the feature there.
public struct FeatureReference: Hashable, Sendable {
    /// The source, in `FeatureSources.all` order; nil for a layer's own features.
    public var source: Int?
    /// The feature within it.
    public var feature: FeatureID

    /// A reference.
    public init(source: Int?, feature: FeatureID) {
        self.source = source
        self.feature = feature
    }
}

/// A feature within its source.
public enum FeatureID: Hashable, Sendable {
    /// Feature `index` of the chunk at `chunk` (its offset in a map data file).
    case chunk(Int, index: Int)
    /// Feature `index` of a vector tile's chunk of class `chunk` (a `FeatureClass` raw value).
    case tile(TileID, chunk: Int, index: Int)
    /// Place `id` of the gazetteer.
    case place(Int)
    /// The land or the sea where nothing else is drawn: the tint, not a feature of the data.
    case tint
    /// Feature `id` of a layer's own data (a user's file, a test's point).
    case own(Int)
}

/// What a cell's topmost feature is, in words.
public struct PickedFeature: Equatable, Sendable {
    /// Its class in words (`primary road`, `water`, `city`; `file NAME` for a user's file).
    public var className: String
    /// Its name, when it has one.
    public var name: String?
    /// Which feature it is.
    public var reference: FeatureReference

    /// A feature.
    public init(className: String, name: String? = nil, reference: FeatureReference) {
        self.className = className
        self.name = name
        self.reference = reference
    }
}

/// The features behind a view's cells while they are drawn: each drawing names its feature with a
/// tag (the canvas keeps the tag of each cell's highest ink, the fills the tag of each cell's area),
/// and tags become `PickedFeature`s only when asked, so that drawing costs a store per dot, not a
/// record per feature.
public struct PickBuffer {
    let cols: Int
    let rows: Int
    /// Features registered whole (places, a layer's own); tag n is entry n − 1.
    var features: [PickedFeature] = []
    /// The chunks the base map drew, each with its source and the feature tags' resolution.
    var chunks: [ChunkHit] = []
    var chunkSources: [Int] = []
    /// Per cell, the tag of the area filling it (0: none).
    var fillTags: [UInt64]

    init(cols: Int, rows: Int) {
        self.cols = cols
        self.rows = rows
        fillTags = [UInt64](repeating: 0, count: max(0, cols * rows))
    }

    /// A tag for a feature given whole.
    mutating func register(_ feature: PickedFeature) -> UInt64 {
        features.append(feature)
        return UInt64(features.count)
    }

    /// The tags of a chunk's features start here: `chunkTag(base, feature)`.
    mutating func register(chunk: ChunkHit, source: Int) -> Int {
        chunks.append(chunk)
        chunkSources.append(source)
        return chunks.count - 1
    }

    /// The tag of feature `feature` of registered chunk `chunk` (the high bit tells chunk tags apart).
    @inline(__always)
    static func chunkTag(_ chunk: Int, _ feature: Int) -> UInt64 { 1 << 63 | UInt64(chunk) << 32 | UInt64(feature) }
}

/// Which feature each map cell shows, asked of a finished render (MapLibre's `queryRenderedFeatures`
/// from the index the renderer filled): the topmost line or marker drawn there, else the area
/// filling it, else the land or sea tint; labels, the grid, the circle and its shade are not features,
/// and their cells answer with what lies beneath.
public struct Pick {
    /// Map columns and rows.
    public let cols: Int
    public let rows: Int
    let lineTags: [UInt64]
    let buffer: PickBuffer
    /// Per cell, the tint's feature where nothing else is (nil: no tint).
    let tints: [PickedFeature?]
    let sources: MapSources?

    /// The feature under a map cell, or nil.
    public func feature(col: Int, row: Int) -> PickedFeature? {
        guard col >= 0, row >= 0, col < cols, row < rows else { return nil }
        let i = row * cols + col
        let tag = lineTags[i] != 0 ? lineTags[i] : buffer.fillTags[i]
        guard tag != 0 else { return tints[i] }
        return resolve(tag)
    }

    /// What a tag names.
    func resolve(_ tag: UInt64) -> PickedFeature? {
        guard tag & (1 << 63) != 0 else {
            let i = Int(tag) - 1
            return buffer.features.indices.contains(i) ? buffer.features[i] : nil
        }
        let c = Int(tag >> 32 & 0x7FFF_FFFF)
        let f = Int(tag & 0xFFFF_FFFF)
        guard buffer.chunks.indices.contains(c) else { return nil }
        let hit = buffer.chunks[c]
        let chunk = hit.chunk
        let source = buffer.chunkSources[c]
        let featureClass = chunk.info.featureClass
        let id: FeatureID =
            hit.tile.flatMap { TileID(unitSquare: $0) }.map { .tile($0, chunk: Int(featureClass.rawValue), index: f) }
            ?? .chunk(chunk.info.offset, index: f)
        let nameIndex = chunk.nameIndex.indices.contains(f) ? chunk.nameIndex[f] : -1
        let all = sources?.features.all ?? []
        let name = nameIndex >= 0 && all.indices.contains(source) ? all[source].featureName(nameIndex) : nil
        return PickedFeature(
            className: StyleTable.className(featureClass), name: name,
            reference: FeatureReference(source: source, feature: id))
    }

    /// Every cell's feature, row by row (for `render --pick`).
    public var allFeatures: [PickedFeature?] {
        var out: [PickedFeature?] = []
        out.reserveCapacity(cols * rows)
        for row in 0..<rows { for col in 0..<cols { out.append(feature(col: col, row: row)) } }
        return out
    }
}

extension Pick {
    /// The pick as text (`render --pick`): one letter a map cell for the class of its feature (`.` for
    /// none), row by row; an empty line; then `LETTER<TAB>CLASS` for each letter used. Letters are given
    /// in the order classes first appear, each the class's initial where it is free.
    public var text: String {
        var letters: [String: Character] = [:]
        var legend: [(Character, String)] = []
        var used = Set<Character>(["."])
        let pool = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        func letter(_ name: String) -> Character {
            if let l = letters[name] { return l }
            let initial = name.first.map { String($0).lowercased() }.flatMap(\.first)
            let choices = [initial, initial.map { Character(String($0).uppercased()) }].compactMap { $0 }
            let l = choices.first { !used.contains($0) && pool.contains($0) } ?? pool.first { !used.contains($0) } ?? "?"
            used.insert(l)
            letters[name] = l
            legend.append((l, name))
            return l
        }
        var lines: [String] = []
        let all = allFeatures
        for row in 0..<rows {
            lines.append(String(all[(row * cols)..<((row + 1) * cols)].map { $0.map { letter($0.className) } ?? "." }))
        }
        return (lines + [""] + legend.map { "\($0.0)\t\($0.1)" }).joined(separator: "\n")
    }
}
