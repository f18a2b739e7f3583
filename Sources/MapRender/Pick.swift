import GeoCore
import MapData
import MapFormats
import Raster
import Support

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
    /// The imagery where nothing else is drawn: its pixels, not a feature.
    case imagery
    /// The contour line at a height, in metres (from the terrain's tiles).
    case contour(meters: Double)
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
    /// Features registered whole (a layer's own points); tag n is entry n − 1.
    var features: [PickedFeature] = []
    /// The sets of features drawn (a source's chunks, the user's files), which tags point into.
    var sets: [PickSet] = []
    /// The features drawn: their set in the high 32 bits, the feature's index there in the low; tag
    /// `setFlag | n` is entry n. A million points drawn cost a million numbers, not a million names.
    var setFeatures: [UInt64] = []
    /// Per cell, the tag of the area filling it (0: none).
    var fillTags: [UInt32]

    /// Tags with this bit are features of a set; with the next, places' (`placeFlag | id`).
    static let setFlag: UInt32 = 1 << 31
    static let placeFlag: UInt32 = 1 << 30

    /// The tag of place `id` of the sources (0 for an id past a billion).
    static func placeTag(_ id: Int) -> UInt32 { id >= 0 && id < Int(placeFlag) ? placeFlag | UInt32(id) : 0 }

    init(cols: Int, rows: Int) {
        self.cols = cols
        self.rows = rows
        fillTags = [UInt32](repeating: 0, count: max(0, cols * rows))
    }

    /// A tag for a feature given whole.
    mutating func register(_ feature: PickedFeature) -> UInt32 {
        guard features.count < Int(Self.placeFlag - 1) else { return 0 }
        features.append(feature)
        return UInt32(truncatingIfNeeded: features.count)
    }

    /// Registers a set of features a layer draws; their tags are `tag(set:feature:)`.
    mutating func register(_ set: PickSet) -> Int {
        sets.append(set)
        return sets.count - 1
    }

    /// The tag of feature `feature` of registered set `set` (0 past two billion features).
    mutating func tag(set: Int, feature: Int) -> UInt32 {
        guard setFeatures.count < Int(Self.setFlag - 1) else { return 0 }
        setFeatures.append(UInt64(set) << 32 | UInt64(feature))
        return Self.setFlag | UInt32(setFeatures.count - 1)
    }
}

/// Features a layer drew, which the pick's tags point into: a chunk of a source, or a user's file at
/// a level of detail.
enum PickSet {
    /// A chunk of source `source` (its place in `FeatureSources.all`), drawn outside `excluded` (the
    /// boxes, in dots, where finer sources draw its class).
    case chunk(ChunkHit, source: Int, excluded: [DotRect])
    /// A user's file at a level of detail: `level`'s features stand for the file's `feature` (nil: the
    /// same features).
    case file(UserFile, level: UserLayerData, feature: [Int]?)

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
    /// The imagery's half-cells (`LayerContext.imagery`; empty: none drawn).
    var imagery: [UInt32] = []

    /// The imagery where a cell shows it (areas and the sea give way to it), or nil.
    func imageryFeature(col: Int, row: Int) -> PickedFeature? {
        let i = row * cols + col
        guard !imagery.isEmpty, imagery[2 * i] | imagery[2 * i + 1] != 0, let sources, let source = sources.imagery
        else { return nil }
        return PickedFeature(
            className: "imagery", name: source.label,
            reference: FeatureReference(source: sources.imageryIndex, feature: .imagery))
    }

    /// The feature under a map cell, or nil.
    public func feature(col: Int, row: Int) -> PickedFeature? {
        guard col >= 0, row >= 0, col < cols, row < rows else { return nil }
        let i = row * cols + col
        if lineTags[i] == 0, let imagery = imageryFeature(col: col, row: row) { return imagery }
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
        if let imagery = imageryFeature(col: col, row: row) { return imagery }
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
        guard tag & PickBuffer.setFlag != 0 else {
            if tag & PickBuffer.placeFlag != 0 { return sources?.placeFeature(Int(tag & ~PickBuffer.placeFlag)) }
            let i = Int(tag) - 1
            return buffer.features.indices.contains(i) ? buffer.features[i] : nil
        }
        let n = Int(tag & ~PickBuffer.setFlag)
        guard buffer.setFeatures.indices.contains(n) else { return nil }
        let s = Int(buffer.setFeatures[n] >> 32)
        let f = Int(buffer.setFeatures[n] & 0xFFFF_FFFF)
        guard buffer.sets.indices.contains(s) else { return nil }
        switch buffer.sets[s] {
        case .chunk(let hit, let source, _):
            let chunk = hit.chunk
            let nameIndex = chunk.nameIndex.indices.contains(f) ? chunk.nameIndex[f] : -1
            let all = sources?.features.all ?? []
            let name = nameIndex >= 0 && all.indices.contains(source) ? all[source].featureName(nameIndex) : nil
            return PickedFeature(
                className: StyleTable.className(chunk.info.featureClass), name: name,
                reference: FeatureReference(source: source, feature: chunkID(hit, f)))
        case .file(let file, let level, let feature):
            guard f < level.count else { return nil }
            return PickedFeature(
                className: file.className, name: level.name(of: f),
                reference: FeatureReference(source: nil, feature: .own(feature?[f] ?? f)))
        }
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
        // A class's words can be a file's name (outside text): made visible here, so that the tab stays one.
        return (lines + [""] + legend.map { "\($0.0)\t\(SafeText.forLine($0.1))" }).joined(separator: "\n")
    }
}
