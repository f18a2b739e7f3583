/// An OpenStreetMap extract in the PBF format written by hand (the OSM wiki's "PBF Format"): one
/// OSMHeader blob and one OSMData blob, both raw (not compressed), with plain nodes and ways. For tests
/// that need tags no XML file can carry (a control character is not XML) or an extract of their own.
public struct PBFBuilder {
    /// A node: its id, where it is, its tags.
    public struct Node {
        public var id: Int64
        public var latitude: Double
        public var longitude: Double
        public var tags: [(String, String)]
        public init(id: Int64, latitude: Double, longitude: Double, tags: [(String, String)] = []) {
            (self.id, self.latitude, self.longitude, self.tags) = (id, latitude, longitude, tags)
        }
    }

    /// A way: its id, its nodes in order, its tags.
    public struct Way {
        public var id: Int64
        public var nodes: [Int64]
        public var tags: [(String, String)]
        public init(id: Int64, nodes: [Int64], tags: [(String, String)]) {
            (self.id, self.nodes, self.tags) = (id, nodes, tags)
        }
    }

    /// A relation: its members as (type 0 node, 1 way, 2 relation; id; role).
    public struct Relation {
        public var id: Int64
        public var members: [(type: UInt64, ref: Int64, role: String)]
        public var tags: [(String, String)]
        public init(id: Int64, members: [(type: UInt64, ref: Int64, role: String)], tags: [(String, String)]) {
            (self.id, self.members, self.tags) = (id, members, tags)
        }
    }
    public var nodes: [Node] = []
    public var ways: [Way] = []
    public var relations: [Relation] = []

    public init(nodes: [Node] = [], ways: [Way] = []) {
        self.nodes = nodes
        self.ways = ways
    }

    /// The file's bytes.
    public func bytes() -> [UInt8] {
        var header = ProtoBuilder()
        header.string(4, "OsmSchema-V0.6")
        header.string(4, "DenseNodes")
        header.string(16, "termmap tests")
        // The string table: index 0 is the empty string (the format's rule).
        var strings = [""]
        var index: [String: Int] = ["": 0]
        func id(_ s: String) -> UInt64 {
            if let i = index[s] { return UInt64(i) }
            strings.append(s)
            index[s] = strings.count - 1
            return UInt64(strings.count - 1)
        }
        func zigzag(_ v: Int64) -> UInt64 { UInt64(bitPattern: (v << 1) ^ (v >> 63)) }
        var group = ProtoBuilder()
        for n in nodes {
            var m = ProtoBuilder()
            m.varint(1, zigzag(n.id))
            m.packed(2, n.tags.map { id($0.0) })
            m.packed(3, n.tags.map { id($0.1) })
            // Nanodegrees at the default granularity of 100.
            m.varint(8, zigzag(Int64((n.latitude * 1e7).rounded())))
            m.varint(9, zigzag(Int64((n.longitude * 1e7).rounded())))
            group.message(1, m)
        }
        for w in ways {
            var m = ProtoBuilder()
            m.varint(1, UInt64(w.id))
            m.packed(2, w.tags.map { id($0.0) })
            m.packed(3, w.tags.map { id($0.1) })
            var last: Int64 = 0
            m.packed(
                8,
                w.nodes.map { ref in
                    defer { last = ref }
                    return zigzag(ref - last)
                })
            group.message(3, m)
        }
        for r in relations {
            var m = ProtoBuilder()
            m.varint(1, UInt64(r.id))
            m.packed(2, r.tags.map { id($0.0) })
            m.packed(3, r.tags.map { id($0.1) })
            m.packed(8, r.members.map { id($0.role) })
            var last: Int64 = 0
            m.packed(
                9,
                r.members.map { member in
                    defer { last = member.ref }
                    return zigzag(member.ref - last)
                })
            m.packed(10, r.members.map(\.type))
            group.message(4, m)
        }
        var table = ProtoBuilder()
        for s in strings { table.string(1, s) }
        var block = ProtoBuilder()
        block.message(1, table)
        block.message(2, group)
        return Self.blob("OSMHeader", header.bytes) + Self.blob("OSMData", block.bytes)
    }

    /// A blob of `type` holding `payload` raw, with its header and the header's length.
    static func blob(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        var blob = ProtoBuilder()
        blob.data(1, payload)
        blob.varint(2, UInt64(payload.count))
        var header = ProtoBuilder()
        header.string(1, type)
        header.varint(3, UInt64(blob.bytes.count))
        let n = UInt32(header.bytes.count)
        return [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + header.bytes
            + blob.bytes
    }
}
