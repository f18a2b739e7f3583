import Foundation
import TestSupport
import Testing

@testable import MapData
@testable import MapFormats

/// The MVT decoder against PyPI's `mapbox-vector-tile` on every tile of the fixtures: per layer its
/// extent and feature count, and the first features' type, geometry and properties.
@Suite struct MVTDecoderTests {
    /// A reference geometry (GeoJSON-shaped, y down) as a flat list of parts.
    static func parts(_ type: String, _ coordinates: Any) -> [[[Int]]] {
        func point(_ p: Any) -> [Int] { (p as? [Any] ?? []).map { ($0 as? NSNumber)?.intValue ?? Int.min } }
        func line(_ l: Any) -> [[Int]] { (l as? [Any] ?? []).map(point) }
        switch type {
        case "Point": return [[point(coordinates)]]
        case "MultiPoint": return (coordinates as? [Any] ?? []).map { [point($0)] }
        case "LineString": return [line(coordinates)]
        case "MultiLineString", "Polygon": return (coordinates as? [Any] ?? []).map(line)
        case "MultiPolygon": return (coordinates as? [Any] ?? []).flatMap { ($0 as? [Any] ?? []).map(line) }
        default: return []
        }
    }

    static func same(_ value: MVTValue?, _ reference: Any) -> Bool {
        let number =
            (reference as? Double) ?? (reference as? Int).map(Double.init) ?? (reference as? NSNumber)?.doubleValue
        switch value {
        case .string(let s)?: return s == reference as? String
        case .bool(let b)?: return b == reference as? Bool
        // Foundation's JSON parser may round the last digit of a long decimal: within 1e-12 relative.
        case .double(let d)?: return number.map { abs(d - $0) <= 1e-12 * abs($0) } ?? false
        case .int(let i)?: return Double(i) == number
        case nil: return false
        }
    }

    @Test(arguments: ["helsinki-omt.pmtiles", "helsinki-protomaps.pmtiles"])
    func everyTileMatchesTheReferenceDecoder(_ file: String) throws {
        let archive = try TileFixtures.archive(file)
        var features = 0
        for entry in TileFixtures.tiles(file) {
            let id = TileFixtures.tileID(entry)
            let bytes = try #require(try archive.tiles([id])[id]?.get())
            let layers = try #require(MVTDecoder.decode(bytes), "\(id)")
            let reference = try #require(entry["mvt"] as? [String: [String: Any]])
            #expect(Set(layers.map(\.name)) == Set(reference.keys), "\(id)")
            for layer in layers {
                let r = try #require(reference[layer.name])
                #expect(layer.extent == r["extent"] as? Int)
                #expect(layer.features.count == r["features"] as? Int, "\(id) \(layer.name)")
                features += layer.features.count
                for (ours, theirs) in zip(layer.features, r["sample"] as? [[String: Any]] ?? []) {
                    let type = theirs["type"] as? String ?? ""
                    let expected = Self.parts(type, theirs["coordinates"] ?? [])
                    #expect(ours.parts.map { $0.map { [Int($0.x), Int($0.y)] } } == expected, "\(id) \(layer.name)")
                    let kind: [String: MVTGeometryType] = [
                        "Point": .point, "MultiPoint": .point, "LineString": .lineString,
                        "MultiLineString": .lineString, "Polygon": .polygon, "MultiPolygon": .polygon,
                    ]
                    #expect(ours.type == kind[type])
                    let props = theirs["properties"] as? [String: Any] ?? [:]
                    #expect(Set(ours.properties.keys) == Set(props.keys))
                    for (k, v) in props { #expect(Self.same(ours.properties[k], v), "\(k)") }
                }
            }
        }
        #expect(features > 1000)
    }

    /// A hand-made tile (the spec's example 4.3.5: a polygon from MoveTo(3,6) LineTo(8,12) LineTo(20,34)
    /// ClosePath) in a layer with one string property.
    @Test func specPolygonExample() throws {
        let tile = Self.oneFeature(
            layer: "water", tags: [0, 0], type: 3, geometry: [9, 6, 12, 18, 10, 12, 24, 44, 15], keys: ["class"],
            values: ["lake"])
        let layers = try #require(MVTDecoder.decode(tile))
        let f = try #require(layers.first?.features.first)
        #expect(f.type == .polygon)
        #expect(f.parts.map { $0.map { [$0.x, $0.y] } } == [[[3, 6], [8, 12], [20, 34], [3, 6]]])
        #expect(f.properties["class"] == .string("lake"))
    }

    /// One feature of `type` with `geometry` in a layer of extent 4096, then a valid line.
    /// A tile of one layer holding one feature, its tags written as given (so that they may be wrong),
    /// with string values.
    static func oneFeature(
        layer name: String, tags: [UInt64], type: UInt64, geometry: [UInt64], keys: [String], values: [String]
    ) -> [UInt8] {
        var layer = ProtoBuilder()
        layer.string(1, name)
        var feature = ProtoBuilder()
        feature.packed(2, tags)
        feature.varint(3, type)
        feature.packed(4, geometry)
        layer.message(2, feature)
        for k in keys { layer.string(3, k) }
        for v in values {
            var value = ProtoBuilder()
            value.string(1, v)
            layer.message(4, value)
        }
        layer.varint(5, 4096)
        layer.varint(15, 2)
        var tile = ProtoBuilder()
        tile.message(3, layer)
        return tile.bytes
    }

    static func tile(type: UInt64, geometry: [UInt64]) -> [UInt8] {
        ProtoBuilder.tile(layer: "x", features: [(type, geometry, [:]), (2, [9, 2, 2, 10, 4, 4], [:])])
    }

    /// mvt-fixtures 020: a multipoint is one MoveTo of count 2, each point a part of its own.
    @Test func multipointIsAPartAPoint() throws {
        let layers = try #require(
            MVTDecoder.decode(ProtoBuilder.tile(layer: "x", features: [(1, [17, 10, 14, 3, 9], [:])])))
        let f = try #require(layers.first?.features.first)
        #expect(f.type == .point)
        #expect(f.parts.map { $0.map { [$0.x, $0.y] } } == [[[5, 7]], [[3, 2]]])
    }

    /// mvt-fixtures 049 and 050 (valid in v1 and v2): a line whose coordinates pass the 32-bit range
    /// decodes exactly; clipping hides it.
    @Test func coordinatesPastThirtyTwoBitsDecode() throws {
        let cases: [([UInt64], [[Int64]])] = [
            ([9, 4_294_967_294, 0, 10, 2, 2], [[2_147_483_647, 0], [2_147_483_648, 1]]),
            ([9, 0, 4_294_967_295, 10, 1, 1], [[0, -2_147_483_648], [-1, -2_147_483_649]]),
        ]
        for (geometry, expected) in cases {
            let layers = try #require(MVTDecoder.decode(ProtoBuilder.tile(layer: "x", features: [(2, geometry, [:])])))
            let f = try #require(layers.first?.features.first)
            #expect(f.parts.map { $0.map { [$0.x, $0.y] } } == [expected])
        }
    }

    /// mvt-fixtures 005 (recoverable): a feature's tags have an odd count (a key without its value). The
    /// unpaired key is dropped; the feature and the tile decode.
    @Test func anOddTagCountDropsTheUnpairedKey() throws {
        let tile = Self.oneFeature(
            layer: "hello", tags: [0, 0, 1], type: 1, geometry: [9, 50, 34], keys: ["name", "other"], values: ["world"])
        let layers = try #require(MVTDecoder.decode(tile))
        let f = try #require(layers.first?.features.first)
        #expect(f.properties == ["name": .string("world")])
        #expect(f.parts.map { $0.map { [$0.x, $0.y] } } == [[[25, 17]]])
    }

    /// The geometries mvt-fixtures calls invalid (044 ClosePath first, 045 half a point, 047 and 048
    /// ClosePath counts 2 and 0, 051 a huge count, 052 too few points, 058 a huge LineTo, 061 a line
    /// that closes), and a LineTo before any MoveTo: the feature is skipped and counted, the rest of
    /// the tile decodes.
    static let malformed: [[UInt64]] = [
        [1, 15, 50, 34], [1, 9, 50], [3, 9, 6, 12, 18, 10, 12, 24, 44, 23], [3, 9, 6, 12, 18, 10, 12, 24, 44, 7],
        [1, 4_294_967_289, 10, 10], [1, 17, 10], [2, 9, 0, 0, 4_294_967_290, 6, 10, 6, 18],
        [2, 9, 4, 4, 18, 0, 16, 16, 0, 7], [2, 10, 2, 2],
    ]

    /// (Each case: the geometry type, then its commands.)
    @Test(arguments: malformed)
    func aMalformedGeometryLosesItsFeatureNotTheTile(_ typeAndGeometry: [UInt64]) throws {
        let tile = Self.tile(type: typeAndGeometry[0], geometry: Array(typeAndGeometry.dropFirst()))
        let layers = try #require(MVTDecoder.decode(tile))
        #expect(layers.count == 1)
        #expect(layers.first?.skipped == 1)
        #expect(layers.first?.features.map { $0.parts.map { $0.map { [$0.x, $0.y] } } } == [[[[1, 1], [3, 3]]]])
    }

    @Test func malformedTilesAreNilNotATrap() {
        // A tag index past the values; a bad wire type.
        var bad: [[UInt8]] = []
        var f = ProtoBuilder()
        f.packed(2, [0, 5])
        var l = ProtoBuilder()
        l.message(2, f)
        var t = ProtoBuilder()
        t.message(3, l)
        bad.append(t.bytes)
        bad.append([0x1f])
        for b in bad { #expect(MVTDecoder.decode(b) == nil) }
    }
}
