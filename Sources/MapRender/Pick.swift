import GeoCore
import MapData
import MapFormats
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
/// and tags become `PickedFeature`s only when asked: drawing a feature costs one number kept, and a
/// dot a number stored.
public struct PickBuffer {
    let cols: Int
    let rows: Int
    /// Features registered whole (places, a layer's own); tag n is entry n − 1.
    var features: [PickedFeature] = []
    /// The chunks the base map drew, with their sources.
    var chunks: [ChunkHit] = []
    var chunkSources: [Int] = []
    /// Per chunk, the boxes (in dots) where finer sources draw its class instead.
    var chunkExclusions: [[DotRect]] = []
    /// The user's files drawn whole (not a level of them), with their class in words: what-is-here
    /// answers look at every feature.
    var ownFiles: [(data: UserLayerData, className: String)] = []
    /// The chunk features drawn: chunk index in the high 32 bits, feature index in the low; tag
    /// `chunkFlag | n` is entry n.
    var chunkFeatures: [UInt64] = []
    /// The user's layers drawn, and their features drawn: layer index in the high 32 bits, feature
    /// index (of the layer's level) in the low; tag `ownFlag | n` is entry n. A million points drawn
    /// cost a million numbers, not a million names.
    var ownLayers: [(data: UserLayerData, feature: [Int]?)] = []
    var ownLayerClasses: [String] = []
    var ownFeatures: [UInt64] = []
    /// Per cell, the tag of the area filling it (0: none).
    var fillTags: [UInt32]

    /// Tags with this bit are chunk features'; with the next, places' (`placeFlag | id`).
    static let chunkFlag: UInt32 = 1 << 31
    static let placeFlag: UInt32 = 1 << 30
    /// Tags with this bit (and neither above) are the user's layers' features (`ownFlag | n`).
    static let ownFlag: UInt32 = 1 << 29

    /// The tag of place `id` of the sources (0 for an id past a billion).
    static func placeTag(_ id: Int) -> UInt32 { id >= 0 && id < Int(placeFlag) ? placeFlag | UInt32(id) : 0 }

    init(cols: Int, rows: Int) {
        self.cols = cols
        self.rows = rows
        fillTags = [UInt32](repeating: 0, count: max(0, cols * rows))
    }

    /// A tag for a feature given whole.
    mutating func register(_ feature: PickedFeature) -> UInt32 {
        guard features.count < Int(Self.ownFlag - 1) else { return 0 }
        features.append(feature)
        return UInt32(truncatingIfNeeded: features.count)
    }

    /// Registers one of the user's layers (or a level of it, whose features stand for the layer's
    /// `feature`), named `className`; its features' tags are `tag(layer:feature:)`.
    mutating func register(layer: UserLayerData, feature: [Int]?, className: String) -> Int {
        ownLayers.append((layer, feature))
        ownLayerClasses.append(className)
        return ownLayers.count - 1
    }

    /// The tag of feature `feature` of registered layer `layer` (0 past half a billion features).
    mutating func tag(layer: Int, feature: Int) -> UInt32 {
        guard ownFeatures.count < Int(Self.ownFlag - 1) else { return 0 }
        ownFeatures.append(UInt64(layer) << 32 | UInt64(feature))
        return Self.ownFlag | UInt32(ownFeatures.count - 1)
    }

    /// Registers a chunk the base map draws; its features' tags are `tag(chunk:feature:)`.
    mutating func register(chunk: ChunkHit, source: Int, excluded: [DotRect] = []) -> Int {
        chunks.append(chunk)
        chunkSources.append(source)
        chunkExclusions.append(excluded)
        return chunks.count - 1
    }

    /// The tag of feature `feature` of registered chunk `chunk` (0 past two billion features).
    mutating func tag(chunk: Int, feature: Int) -> UInt32 {
        guard chunkFeatures.count < Int(Self.chunkFlag - 1) else { return 0 }
        chunkFeatures.append(UInt64(chunk) << 32 | UInt64(feature))
        return Self.chunkFlag | UInt32(chunkFeatures.count - 1)
    }
}

/// Which feature each map cell shows, asked of a finished render (MapLibre's `queryRenderedFeatures`
/// from the index the renderer filled): the topmost line or marker drawn there, else the area
/// filling it, else the land or sea tint; labels, the grid, the circle and its shade are not features,
/// and their cells answer with what lies beneath.
public struct Pick {
    /// Map columns and rows.
    public let cols: Int
    public let rows: Int
    let lineTags: [UInt32]
    let buffer: PickBuffer
    /// The rows of the sea where the world's land is drawn (its cells with no area are sea).
    let seaRows: Range<Int>
    let sources: MapSources?
    /// The view's transform, for asking what lies near a cell.
    let transform: ViewTransform

    /// The feature under a map cell, or nil.
    public func feature(col: Int, row: Int) -> PickedFeature? {
        guard col >= 0, row >= 0, col < cols, row < rows else { return nil }
        let i = row * cols + col
        let tag = lineTags[i] != 0 ? lineTags[i] : buffer.fillTags[i]
        guard tag != 0 else {
            guard seaRows.contains(row) else { return nil }
            return PickedFeature(
                className: StyleTable.className(.lakeWater),
                reference: FeatureReference(source: nil, feature: .tint))
        }
        return resolve(tag)
    }

    /// The area or tint under a map cell, whatever line is drawn over it (land and sea, parks,
    /// buildings), or nil.
    public func area(col: Int, row: Int) -> PickedFeature? {
        guard col >= 0, row >= 0, col < cols, row < rows else { return nil }
        let tag = buffer.fillTags[row * cols + col]
        guard tag != 0 else {
            guard seaRows.contains(row) else { return nil }
            return PickedFeature(
                className: StyleTable.className(.lakeWater), reference: FeatureReference(source: nil, feature: .tint))
        }
        return resolve(tag)
    }

    /// What a tag names.
    func resolve(_ tag: UInt32) -> PickedFeature? {
        guard tag & PickBuffer.chunkFlag != 0 else {
            if tag & PickBuffer.placeFlag != 0 { return sources?.placeFeature(Int(tag & ~PickBuffer.placeFlag)) }
            if tag & PickBuffer.ownFlag != 0 { return resolveOwn(Int(tag & ~PickBuffer.ownFlag)) }
            let i = Int(tag) - 1
            return buffer.features.indices.contains(i) ? buffer.features[i] : nil
        }
        let n = Int(tag & ~PickBuffer.chunkFlag)
        guard buffer.chunkFeatures.indices.contains(n) else { return nil }
        let c = Int(buffer.chunkFeatures[n] >> 32)
        let f = Int(buffer.chunkFeatures[n] & 0xFFFF_FFFF)
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

    /// What entry `n` of the user's layers' features names.
    func resolveOwn(_ n: Int) -> PickedFeature? {
        guard buffer.ownFeatures.indices.contains(n) else { return nil }
        let l = Int(buffer.ownFeatures[n] >> 32)
        let f = Int(buffer.ownFeatures[n] & 0xFFFF_FFFF)
        guard buffer.ownLayers.indices.contains(l), f < buffer.ownLayers[l].data.count else { return nil }
        let level = buffer.ownLayers[l]
        return PickedFeature(
            className: buffer.ownLayerClasses[l], name: level.data.name(of: f),
            reference: FeatureReference(source: nil, feature: .own(level.feature?[f] ?? f)))
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
            let l =
                choices.first { !used.contains($0) && pool.contains($0) } ?? pool.first { !used.contains($0) } ?? "?"
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
