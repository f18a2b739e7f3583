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
    case unknown = 0
    case point = 1
    case lineString = 2
    case polygon = 3
}

/// One feature of a vector tile: its type, its parts (points, lines or rings) in tile units with y
/// down, and its properties.
public struct MVTFeature: Sendable {
    public var type: MVTGeometryType
    public var parts: [[(x: Int64, y: Int64)]]
    public var properties: [String: MVTValue]
}

/// One layer of a vector tile.
public struct MVTLayer: Sendable {
    public var name: String
    /// Tile units across the tile (usually 4096).
    public var extent: Int
    public var features: [MVTFeature]
    /// Features left out because their geometry's commands are malformed (the rest of the tile stands).
    public var skipped = 0
}

/// A layer's shared tables as the visitor sees them: its name, extent, keys and values.
public struct MVTLayerTables: Sendable {
    public var name: String
    public var extent: Int
    public var keys: [String]
    public var values: [MVTValue]
    /// Key → its index (for looking up a few properties without a dictionary per feature).
    public var keyIndex: [String: Int]
}

/// One feature as the visitor sees it: its type, its tags (key and value indices, checked against the
/// layer's tables) and its geometry commands, decoded on demand.
public struct MVTRawFeature {
    public var type: MVTGeometryType
    /// Its id (field 1), when the tile gives one.
    public var id: UInt64?
    let tags: [UInt32]
    let geometry: [UInt32]

    /// The value of property `key` of this feature in `layer`.
    public func value(_ key: String, in layer: MVTLayerTables) -> MVTValue? {
        guard let k = layer.keyIndex[key] else { return nil }
        var i = 0
        while i + 1 < tags.count {
            if tags[i] == UInt32(k) { return layer.values[Int(tags[i + 1])] }
            i += 2
        }
        return nil
    }

    /// Every property in the tile's order (a key given twice: its last value), for what-is-here answers.
    public func orderedProperties(in layer: MVTLayerTables) -> [(key: String, value: MVTValue)] {
        var out: [(key: String, value: MVTValue)] = []
        var i = 0
        while i + 1 < tags.count {
            let key = layer.keys[Int(tags[i])]
            let value = layer.values[Int(tags[i + 1])]
            if let j = out.firstIndex(where: { $0.key == key }) {
                out[j].value = value
            } else {
                out.append((key, value))
            }
            i += 2
        }
        return out
    }

    /// Every property (a dictionary: for tests and tools, not the drawing path).
    public func properties(in layer: MVTLayerTables) -> [String: MVTValue] {
        var out: [String: MVTValue] = [:]
        var i = 0
        while i + 1 < tags.count {
            out[layer.keys[Int(tags[i])]] = layer.values[Int(tags[i + 1])]
            i += 2
        }
        return out
    }

    /// Its parts (points, lines or rings) in tile units, y down; nil when the commands are malformed.
    public func parts(points: inout Int) -> [[(x: Int64, y: Int64)]]? {
        MVTDecoder.decodeGeometry(geometry, type: type, points: &points)
    }
}

/// Decodes Mapbox Vector Tiles 2.1 (github.com/mapbox/vector-tile-spec) by hand: layers (3) of
/// name (1), features (2), keys (3), values (4), extent (5); features of tags (2, key and value index
/// pairs), type (3) and geometry (4), a stream of commands MoveTo (1), LineTo (2) and ClosePath (7)
/// with zigzag-coded deltas. A malformed tile gives nil, a malformed feature's geometry nil (the
/// feature is skipped), never a trap.
public enum MVTDecoder {
    /// Most points a tile may hold (a guard against a forged command count).
    static let maxPoints = 4_000_000

    /// Visits the features of the layers `wanted` accepts (other layers are not decoded past their
    /// name): for each, the layer's tables and the raw feature. False when the tile (or a visited
    /// layer) is not a valid vector tile.
    public static func visit(
        _ bytes: UnsafeRawBufferPointer, wanted: (String) -> Bool, layer: (MVTLayerTables) -> Void = { _ in },
        _ body: (MVTLayerTables, MVTRawFeature) -> Void
    ) -> Bool {
        var r = ProtobufReader(bytes)
        while let (field, wire) = r.field() {
            if field == 3, wire == 2 {
                guard let l = r.lengthDelimited(), visitLayer(l, wanted: wanted, layer, body) else { return false }
            } else if !r.skip(wire) {
                return false
            }
        }
        return r.atEnd
    }

    /// The layers of a tile (already inflated), or nil when it is not a valid vector tile. A feature
    /// whose geometry is malformed is skipped and counted in its layer's `skipped`, as vector-tile-js
    /// and mapbox-vector-tile read such tiles (a real Berlin z14 tile has one such building of 975).
    public static func decode(_ bytes: UnsafeRawBufferPointer) -> [MVTLayer]? {
        var layers: [MVTLayer] = []
        var points = 0
        let valid = visit(
            bytes, wanted: { _ in true },
            layer: { layers.append(MVTLayer(name: $0.name, extent: $0.extent, features: [])) },
            { tables, feature in
                guard let parts = feature.parts(points: &points) else {
                    layers[layers.count - 1].skipped += 1
                    return
                }
                layers[layers.count - 1].features.append(
                    MVTFeature(type: feature.type, parts: parts, properties: feature.properties(in: tables)))
            })
        return valid ? layers : nil
    }

    /// The layers of a tile given as an array.
    public static func decode(_ bytes: [UInt8]) -> [MVTLayer]? {
        bytes.withUnsafeBytes { decode($0) }
    }

    static func visitLayer(
        _ bytes: UnsafeRawBufferPointer, wanted: (String) -> Bool, _ start: (MVTLayerTables) -> Void,
        _ body: (MVTLayerTables, MVTRawFeature) -> Void
    ) -> Bool {
        var r = ProtobufReader(bytes)
        var tables = MVTLayerTables(name: "", extent: 4096, keys: [], values: [], keyIndex: [:])
        var raw: [UnsafeRawBufferPointer] = []
        // The name comes first in every writer's output: a layer not wanted is passed over from there.
        while let (field, wire) = r.field() {
            switch (field, wire) {
            case (1, 2):
                guard let s = r.lengthDelimited() else { return false }
                tables.name = String(decoding: s, as: UTF8.self)
                if !wanted(tables.name) { return true }
            case (2, 2):
                guard let f = r.lengthDelimited() else { return false }
                raw.append(f)
            case (3, 2):
                guard let s = r.lengthDelimited() else { return false }
                tables.keys.append(String(decoding: s, as: UTF8.self))
            case (4, 2):
                guard let v = r.lengthDelimited(), let value = decodeValue(v) else { return false }
                tables.values.append(value)
            case (5, 0):
                guard let e = r.varint(), e >= 1, e <= 1 << 20 else { return false }
                tables.extent = Int(e)
            default:
                guard r.skip(wire) else { return false }
            }
        }
        guard r.atEnd else { return false }
        for (i, k) in tables.keys.enumerated() where tables.keyIndex[k] == nil { tables.keyIndex[k] = i }
        start(tables)
        for f in raw {
            guard let feature = decodeFeature(f, keyCount: tables.keys.count, valueCount: tables.values.count) else {
                return false
            }
            body(tables, feature)
        }
        return true
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

    /// Feature: id (1), tags (2), type (3), geometry (4); tags checked against the layer's tables.
    static func decodeFeature(_ bytes: UnsafeRawBufferPointer, keyCount: Int, valueCount: Int) -> MVTRawFeature? {
        var r = ProtobufReader(bytes)
        var tags: [UInt32] = []
        var type = MVTGeometryType.unknown
        var geometry: [UInt32] = []
        var id: UInt64?
        while let (field, wire) = r.field() {
            switch (field, wire) {
            case (1, 0):
                guard let v = r.varint() else { return nil }
                id = v
            case (2, 2):
                guard let p = r.lengthDelimited(), let all = ProtobufReader.packed(p, { $0 }) else { return nil }
                // An odd count leaves a key without a value: that one is dropped, the feature kept
                // (mvt-fixtures 005 calls it recoverable).
                let t = all.prefix(all.count / 2 * 2)
                var i = 0
                while i < t.count {
                    guard t[i] < UInt64(keyCount), t[i + 1] < UInt64(valueCount) else { return nil }
                    i += 2
                }
                tags = t.map { UInt32($0) }
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
        guard r.atEnd else { return nil }
        return MVTRawFeature(type: type, id: id, tags: tags, geometry: geometry)
    }

    /// The command stream: each command integer is (count << 3 | id); MoveTo starts a part, LineTo
    /// extends it, ClosePath closes a ring (its first point is repeated at its end here). Coordinates
    /// are kept in 64 bits: a delta is at most 2³¹ and a tile at most `maxPoints` points, so they never
    /// overflow, and points past the 32-bit range (mvt-fixtures 049, 050: valid) are left for clipping
    /// to hide. Nil when the commands are malformed: the feature is skipped, not the tile.
    static func decodeGeometry(_ g: [UInt32], type: MVTGeometryType, points: inout Int) -> [[(x: Int64, y: Int64)]]? {
        var parts: [[(x: Int64, y: Int64)]] = []
        var current: [(x: Int64, y: Int64)] = []
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
                    // A MoveTo starts a part (for points: each point is a part of its own).
                    if id == 1 && (k == 0 || type == .point) {
                        if !current.isEmpty { parts.append(current) }
                        current = []
                    } else if id == 2 && current.isEmpty {
                        return nil  // a LineTo with nothing to extend
                    }
                    current.append((x, y))
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
