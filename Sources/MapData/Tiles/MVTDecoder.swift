/// A value of a vector tile's feature property.
public enum MVTValue: Equatable, Sendable {
    case string(String)
    case double(Double)
    case int(Int64)
    case bool(Bool)

    /// The value as a number, if it is one (tile writers store small integers as ints, floats or doubles).
    public var number: Double? {
        switch self {
        case .double(let d): return d
        case .int(let i): return Double(i)
        default: return nil
        }
    }

    /// The value as text (numbers written plainly).
    public var text: String {
        switch self {
        case .string(let s): return s
        case .double(let d): return String(d)
        case .int(let i): return String(i)
        case .bool(let b): return b ? "true" : "false"
        }
    }
}

/// What a vector tile feature is.
public enum MVTGeometryType: Int, Sendable {
    case unknown = 0, point = 1, lineString = 2, polygon = 3
}

/// One feature of a vector tile: its type, its parts (points, lines or rings) in tile units with y
/// down, and its properties.
public struct MVTFeature: Sendable {
    public var type: MVTGeometryType
    public var parts: [[(x: Int32, y: Int32)]]
    public var properties: [String: MVTValue]
}

/// One layer of a vector tile.
public struct MVTLayer: Sendable {
    public var name: String
    /// Tile units across the tile (usually 4096).
    public var extent: Int
    public var features: [MVTFeature]
}

/// Decodes Mapbox Vector Tiles 2.1 (github.com/mapbox/vector-tile-spec) by hand: layers (3) of
/// name (1), features (2), keys (3), values (4), extent (5); features of tags (2, key and value index
/// pairs), type (3) and geometry (4), a stream of commands MoveTo (1), LineTo (2) and ClosePath (7)
/// with zigzag-coded deltas. A malformed tile gives nil, never a trap.
public enum MVTDecoder {
    /// Most points a tile may hold (a guard against a forged command count).
    static let maxPoints = 4_000_000

    /// The layers of a tile (already inflated), or nil when it is not a valid vector tile.
    public static func decode(_ bytes: UnsafeRawBufferPointer) -> [MVTLayer]? {
        var r = ProtobufReader(bytes)
        var layers: [MVTLayer] = []
        var points = 0
        while let (field, wire) = r.field() {
            if field == 3, wire == 2 {
                guard let l = r.lengthDelimited(), let layer = decodeLayer(l, points: &points) else { return nil }
                layers.append(layer)
            } else if !r.skip(wire) {
                return nil
            }
        }
        return r.atEnd ? layers : nil
    }

    /// The layers of a tile given as an array.
    public static func decode(_ bytes: [UInt8]) -> [MVTLayer]? {
        bytes.withUnsafeBytes { decode($0) }
    }

    static func decodeLayer(_ bytes: UnsafeRawBufferPointer, points: inout Int) -> MVTLayer? {
        var r = ProtobufReader(bytes)
        var name = ""
        var extent = 4096
        var keys: [String] = []
        var values: [MVTValue] = []
        var raw: [UnsafeRawBufferPointer] = []
        while let (field, wire) = r.field() {
            switch (field, wire) {
            case (1, 2):
                guard let s = r.lengthDelimited() else { return nil }
                name = String(decoding: s, as: UTF8.self)
            case (2, 2):
                guard let f = r.lengthDelimited() else { return nil }
                raw.append(f)
            case (3, 2):
                guard let s = r.lengthDelimited() else { return nil }
                keys.append(String(decoding: s, as: UTF8.self))
            case (4, 2):
                guard let v = r.lengthDelimited(), let value = decodeValue(v) else { return nil }
                values.append(value)
            case (5, 0):
                guard let e = r.varint(), e >= 1, e <= 1 << 20 else { return nil }
                extent = Int(e)
            default:
                guard r.skip(wire) else { return nil }
            }
        }
        guard r.atEnd else { return nil }
        var features: [MVTFeature] = []
        features.reserveCapacity(raw.count)
        for f in raw {
            guard let feature = decodeFeature(f, keys: keys, values: values, points: &points) else { return nil }
            features.append(feature)
        }
        return MVTLayer(name: name, extent: extent, features: features)
    }

    /// Value: string (1), float (2), double (3), int (4), uint (5), sint (6), bool (7).
    static func decodeValue(_ bytes: UnsafeRawBufferPointer) -> MVTValue? {
        var r = ProtobufReader(bytes)
        var value: MVTValue?
        while let (field, wire) = r.field() {
            switch (field, wire) {
            case (1, 2):
                guard let s = r.lengthDelimited() else { return nil }
                value = .string(String(decoding: s, as: UTF8.self))
            case (2, 5):
                guard let b = r.fixed32() else { return nil }
                value = .double(Double(Float(bitPattern: b)))
            case (3, 1):
                guard let b = r.fixed64() else { return nil }
                value = .double(Double(bitPattern: b))
            case (4, 0), (5, 0), (6, 0), (7, 0):
                guard let v = r.varint() else { return nil }
                switch field {
                case 4: value = .int(Int64(bitPattern: v))
                case 5: value = .int(Int64(bitPattern: v))
                case 6: value = .int(ProtobufReader.zigzag(v))
                default: value = .bool(v != 0)
                }
            default:
                guard r.skip(wire) else { return nil }
            }
        }
        return r.atEnd ? value : nil
    }

    /// Feature: id (1), tags (2), type (3), geometry (4).
    static func decodeFeature(
        _ bytes: UnsafeRawBufferPointer, keys: [String], values: [MVTValue], points: inout Int
    ) -> MVTFeature? {
        var r = ProtobufReader(bytes)
        var tags: [UInt64] = []
        var type = MVTGeometryType.unknown
        var geometry: [UInt32] = []
        while let (field, wire) = r.field() {
            switch (field, wire) {
            case (2, 2):
                guard let p = r.lengthDelimited(), let t = ProtobufReader.packed(p, { $0 }) else { return nil }
                tags = t
            case (3, 0):
                guard let v = r.varint() else { return nil }
                type = MVTGeometryType(rawValue: Int(truncatingIfNeeded: v)) ?? .unknown
            case (4, 2):
                guard let p = r.lengthDelimited(), let g = ProtobufReader.packed(p, { UInt32(truncatingIfNeeded: $0) })
                else { return nil }
                geometry = g
            default:
                guard r.skip(wire) else { return nil }
            }
        }
        guard r.atEnd, tags.count % 2 == 0 else { return nil }
        var properties: [String: MVTValue] = [:]
        var i = 0
        while i < tags.count {
            guard tags[i] < UInt64(keys.count), tags[i + 1] < UInt64(values.count) else { return nil }
            properties[keys[Int(tags[i])]] = values[Int(tags[i + 1])]
            i += 2
        }
        guard let parts = decodeGeometry(geometry, type: type, points: &points) else { return nil }
        return MVTFeature(type: type, parts: parts, properties: properties)
    }

    /// The command stream: each command integer is (count << 3 | id); MoveTo starts a part, LineTo
    /// extends it, ClosePath closes a ring (its first point is repeated at its end here).
    static func decodeGeometry(_ g: [UInt32], type: MVTGeometryType, points: inout Int) -> [[(x: Int32, y: Int32)]]? {
        var parts: [[(x: Int32, y: Int32)]] = []
        var current: [(x: Int32, y: Int32)] = []
        var x: Int64 = 0
        var y: Int64 = 0
        var i = 0
        while i < g.count {
            let id = g[i] & 7
            let count = Int(g[i] >> 3)
            i += 1
            switch id {
            case 1, 2:
                guard count >= 1, count <= (g.count - i) / 2 else { return nil }
                points += count
                guard points <= maxPoints else { return nil }
                for k in 0..<count {
                    x += ProtobufReader.zigzag(UInt64(g[i]))
                    y += ProtobufReader.zigzag(UInt64(g[i + 1]))
                    i += 2
                    guard abs(x) < 1 << 30, abs(y) < 1 << 30 else { return nil }
                    // A MoveTo starts a part (for points: each point is a part of its own).
                    if id == 1 && (k == 0 || type == .point) {
                        if !current.isEmpty { parts.append(current) }
                        current = []
                    } else if id == 2 && current.isEmpty {
                        return nil  // a LineTo with nothing to extend
                    }
                    current.append((Int32(x), Int32(y)))
                }
            case 7:
                // Only polygon rings close (spec 4.3.4.4).
                guard count == 1, type == .polygon, let first = current.first else { return nil }
                current.append(first)
            default:
                return nil
            }
        }
        if !current.isEmpty { parts.append(current) }
        return parts
    }
}
