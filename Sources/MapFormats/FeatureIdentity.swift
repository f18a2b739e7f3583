/// What a source knows of one of its features beyond its class and name, for what-is-here answers:
/// how its data names it (an OpenStreetMap object, a vector tile feature's id) and the properties the
/// data gives it, in the data's order.
public struct FeatureIdentity: Equatable, Sendable {
    /// How the data names it: `way 23894011` for an import's OpenStreetMap object, the feature id for
    /// a vector tile's (`4242`); nil when the data gives none.
    public var id: String?
    /// The vector tile layer it came from (`transportation`), nil for other sources.
    public var layer: String?
    /// Its properties as the data has them: an import's kept tags, a tile feature's every property.
    public var properties: [FeatureProperty]

    /// An identity.
    public init(id: String? = nil, layer: String? = nil, properties: [FeatureProperty] = []) {
        self.id = id
        self.layer = layer
        self.properties = properties
    }

    /// What an import's feature keeps (format version 5): its OpenStreetMap object and its few tags
    /// (`key=value` lines); nil when it keeps neither (earlier versions, coarser levels, other data).
    public init?(chunk: DecodedChunk, feature f: Int) {
        let osm = chunk.osm.indices.contains(f) ? OSMReference(packed: chunk.osm[f]) : nil
        let tags = chunk.tags.indices.contains(f) ? chunk.tags[f] : ""
        guard osm != nil || !tags.isEmpty else { return nil }
        self.init(
            id: osm.map { "\($0.type.words) \($0.id)" },
            properties: tags.split(separator: "\n").map { line in
                let kv = line.split(separator: "=", maxSplits: 1)
                return FeatureProperty(String(kv[0]), kv.count > 1 ? String(kv[1]) : "")
            })
    }
}

/// One property of a feature: its key and its value as text.
public struct FeatureProperty: Equatable, Sendable {
    public var key: String
    public var value: String

    /// A property.
    public init(_ key: String, _ value: String) {
        self.key = key
        self.value = value
    }
}
