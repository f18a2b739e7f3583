import Foundation
import TestSupport
import Testing

@testable import MapData
@testable import MapFormats

/// Everything a PBF file holds, as the reader hands it over.
struct CollectingHandler: OSMHandler {
    var header: OSMHeader?
    var nodes: [Int64: OSMNode] = [:]
    var ways: [Int64: OSMWay] = [:]
    var relations: [Int64: OSMRelation] = [:]
    var nodeCount = 0, wayCount = 0, relationCount = 0
    mutating func header(_ h: OSMHeader) { header = h }
    mutating func node(_ n: OSMNode) {
        nodes[n.id] = n
        nodeCount += 1
    }
    mutating func way(_ w: OSMWay) {
        ways[w.id] = w
        wayCount += 1
    }
    mutating func relation(_ r: OSMRelation) {
        relations[r.id] = r
        relationCount += 1
    }
}

/// The fixtures of `Tools/make_osm_fixtures.py`: what pyosmium (libosmium) reads from each file.
enum OSMFixtures {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Fixtures/osm")

    struct Reference: Decodable {
        struct Node: Decodable {
            var id: Int64
            var x: Int64
            var y: Int64
            var tags: [String: String]
        }
        struct Way: Decodable {
            var id: Int64
            var refs: [Int64]
            var tags: [String: String]
            var locations: [[Int64]]?
        }
        struct Relation: Decodable {
            var id: Int64
            var tags: [String: String]
            var members: [[Member]]
        }
        enum Member: Decodable {
            case text(String)
            case number(Int64)
            init(from decoder: Decoder) throws {
                let c = try decoder.singleValueContainer()
                if let n = try? c.decode(Int64.self) {
                    self = .number(n)
                } else {
                    self = .text(try c.decode(String.self))
                }
            }
        }
        struct Road: Decodable {
            var id: Int64
            var highway: String
            var points: [[Int64]?]
        }
        var nodes: Int
        var ways: Int
        var relations: Int
        var taggedNodes: Int
        var box: [Int64]?
        var sampleNodes: [Node]
        var sampleWays: [Way]
        var sampleRelations: [Relation]
        var carRoads: [Road]?
    }

    static let files: [String: Reference] = {
        struct Root: Decodable { var files: [String: Reference] }
        do {
            let data = try Data(contentsOf: folder.appendingPathComponent("reference.json"))
            return try JSONDecoder().decode(Root.self, from: data).files
        } catch {
            preconditionFailure("reference.json: \(error)")
        }
    }()

    static func bytes(_ name: String) -> [UInt8] {
        (try? [UInt8](Data(contentsOf: folder.appendingPathComponent(name)))) ?? []
    }
}

@Suite("OSM PBF reader against pyosmium")
struct PBFReaderTests {
    @Test(arguments: [
        "town-dense-zlib.osm.pbf", "town-plain-raw.osm.pbf", "town-locations.osm.pbf", "town-missing-nodes.osm.pbf",
        "Helsinki.osm.pbf",
    ])
    func readsWhatPyosmiumReads(file: String) throws {
        let reference = try #require(OSMFixtures.files[file])
        var h = CollectingHandler()
        try PBFReader.read(OSMFixtures.bytes(file), name: file, into: &h)
        #expect(h.nodeCount == reference.nodes && h.wayCount == reference.ways)
        #expect(h.relationCount == reference.relations)
        #expect(h.nodes.values.filter { !$0.tags.isEmpty }.count == reference.taggedNodes)
        if let box = reference.box, let b = h.header?.bbox {
            // The header box in nanodegrees; pyosmium gives 1e-7°.
            #expect([b.left / 100, b.bottom / 100, b.right / 100, b.top / 100] == box)
        }
        for n in reference.sampleNodes {
            let node = try #require(h.nodes[n.id], "node \(n.id)")
            #expect(node.longitude / 100 == n.x && node.latitude / 100 == n.y, "node \(n.id)")
            #expect(node.longitude % 100 == 0 && node.latitude % 100 == 0)
            #expect(node.tags == n.tags, "node \(n.id)")
        }
        for w in reference.sampleWays {
            let way = try #require(h.ways[w.id], "way \(w.id)")
            #expect(way.refs == w.refs && way.tags == w.tags, "way \(w.id)")
            if let locations = w.locations {
                #expect(zip(way.longitudes, way.latitudes).map { [$0 / 100, $1 / 100] } == locations, "way \(w.id)")
            }
        }
        for r in reference.sampleRelations {
            let relation = try #require(h.relations[r.id], "relation \(r.id)")
            #expect(relation.tags == r.tags)
            let expected: [(String, Int64, String)] = r.members.compactMap {
                guard $0.count == 3, case .text(let t) = $0[0], case .number(let ref) = $0[1],
                    case .text(let role) = $0[2]
                else { return nil }
                return (t, ref, role)
            }
            #expect(relation.members.count == expected.count)
            for (m, e) in zip(relation.members, expected) {
                #expect(["n", "w", "r"][m.type.rawValue] == e.0 && m.ref == e.1 && m.role == e.2, "relation \(r.id)")
            }
        }
    }

    @Test func locationsOnWaysAreOnlyInTheFileThatHasThem() throws {
        for (file, has) in [("town-locations.osm.pbf", true), ("town-dense-zlib.osm.pbf", false)] {
            var h = CollectingHandler()
            try PBFReader.read(OSMFixtures.bytes(file), name: file, into: &h)
            #expect(h.ways.values.allSatisfy { ($0.latitudes.count == $0.refs.count) == has }, "\(file)")
            #expect(h.header?.optionalFeatures.contains("LocationsOnWays") == has)
        }
    }

    @Test(arguments: [
        ([UInt8](), "not an OSM PBF file (too short)"),
        (Array("<?xml version='1.0'?><osm></osm>".utf8), "not an OSM PBF file (no blob header at the start)"),
        ([0, 0, 0, 4, 1, 2, 3, 4], "not an OSM PBF file (malformed first blob header)"),
    ])
    func foreignBytesAreOneClearLine(bytes: [UInt8], message: String) {
        var h = CollectingHandler()
        #expect(throws: MapDataError(file: "x.osm.pbf", .badInput(message))) {
            try PBFReader.read(bytes, name: "x.osm.pbf", into: &h)
        }
    }

    /// Cut inside each blob (in its length, its header, its data) and 600 seeded byte changes: a typed error
    /// or a valid read, never a trap. A cut exactly between blobs leaves a shorter valid file.
    @Test func damagedFilesGiveTypedErrors() throws {
        let original = OSMFixtures.bytes("town-dense-zlib.osm.pbf")
        var inside: [Int] = []
        var between: [Int] = []
        var offset = 0
        while offset + 4 <= original.count {
            let headerLength = (0..<4).reduce(0) { $0 << 8 | Int(original[offset + $1]) }
            let header = Array(original[(offset + 4)..<(offset + 4 + headerLength)])
            let size = header.withUnsafeBytes { PBFReader.blobHeader($0)?.dataSize } ?? 0
            inside += [offset + 2, offset + 4, offset + 4 + headerLength / 2, offset + 4 + headerLength + size / 2]
            offset += 4 + headerLength + size
            between.append(offset)
        }
        #expect(offset == original.count && between.count >= 2)
        for cut in inside where cut > 0 {
            var h = CollectingHandler()
            #expect(throws: MapDataError.self, "cut at \(cut)") {
                try PBFReader.read(Array(original.prefix(cut)), name: "cut.osm.pbf", into: &h)
            }
        }
        for cut in between.dropLast() {
            var h = CollectingHandler()
            try PBFReader.read(Array(original.prefix(cut)), name: "cut.osm.pbf", into: &h)
            #expect(h.nodeCount + h.wayCount + h.relationCount < 44)
        }
        var r = SeededRandom(state: 12)
        var errors = 0
        for _ in 0..<600 {
            var bytes = original
            for _ in 0..<(1 + r.below(4)) { bytes[r.below(bytes.count)] ^= UInt8(1 + r.below(255)) }
            var h = CollectingHandler()
            do {
                try PBFReader.read(bytes, name: "flipped.osm.pbf", into: &h)
            } catch {
                #expect(error.file == "flipped.osm.pbf" && !error.description.contains("\n"))
                errors += 1
            }
        }
        #expect(errors > 300)
    }
}
