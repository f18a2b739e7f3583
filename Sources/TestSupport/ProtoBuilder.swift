/// A protobuf message written by hand, for test tiles.
public struct ProtoBuilder {
    public init() {}
    public var bytes: [UInt8] = []
    public mutating func key(_ field: Int, _ wire: Int) { raw(UInt64(field << 3 | wire)) }
    public mutating func raw(_ v: UInt64) {
        var v = v
        while v >= 0x80 {
            bytes.append(UInt8(v & 0x7f) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }
    public mutating func varint(_ field: Int, _ v: UInt64) {
        key(field, 0)
        raw(v)
    }
    public mutating func string(_ field: Int, _ s: String) { data(field, Array(s.utf8)) }
    public mutating func data(_ field: Int, _ d: [UInt8]) {
        key(field, 2)
        raw(UInt64(d.count))
        bytes += d
    }
    public mutating func message(_ field: Int, _ m: ProtoBuilder) { data(field, m.bytes) }
    public mutating func packed(_ field: Int, _ values: [UInt64]) {
        var p = ProtoBuilder()
        for v in values { p.raw(v) }
        data(field, p.bytes)
    }
}

extension ProtoBuilder {
    /// A vector tile of one layer whose features are (type, geometry commands, string properties).
    public static func tile(layer: String, features: [(type: UInt64, geometry: [UInt64], properties: [String: String])])
        -> [UInt8]
    {
        var l = ProtoBuilder()
        l.string(1, layer)
        var keys: [String] = []
        var values: [String] = []
        for f in features {
            var m = ProtoBuilder()
            var tags: [UInt64] = []
            for (k, v) in f.properties.sorted(by: { $0.key < $1.key }) {
                if !keys.contains(k) { keys.append(k) }
                if !values.contains(v) { values.append(v) }
                tags += [UInt64(keys.firstIndex(of: k) ?? 0), UInt64(values.firstIndex(of: v) ?? 0)]
            }
            m.packed(2, tags)
            m.varint(3, f.type)
            m.packed(4, f.geometry)
            l.message(2, m)
        }
        for k in keys { l.string(3, k) }
        for v in values {
            var value = ProtoBuilder()
            value.string(1, v)
            l.message(4, value)
        }
        l.varint(5, 4096)
        l.varint(15, 2)
        var t = ProtoBuilder()
        t.message(3, l)
        return t.bytes
    }

    /// MVT geometry commands for one ring or line through `points` (tile units): MoveTo, LineTo, and
    /// ClosePath when `close`.
    public static func commands(_ points: [(Int64, Int64)], close: Bool) -> [UInt64] {
        func zigzag(_ v: Int64) -> UInt64 { UInt64(bitPattern: (v << 1) ^ (v >> 63)) }
        guard let first = points.first else { return [] }
        var out: [UInt64] = [9, zigzag(first.0), zigzag(first.1), UInt64((points.count - 1) << 3 | 2)]
        var last = first
        for p in points.dropFirst() {
            out += [zigzag(p.0 - last.0), zigzag(p.1 - last.1)]
            last = p
        }
        if close { out.append(15) }
        return out
    }
}
