import Foundation
import GeoCore
import MapData
import Raster
import Testing

@testable import MapRender
@testable import Viewer

/// What `Tools/make_user_data_fixtures.py` says of each file: Python's json and csv modules for the
/// counts, properties and bounds, mercantile's Web Mercator for the cells its features pass through.
struct UserDataExpectation: Decodable, CustomTestStringConvertible {
    struct View: Decodable {
        var lat, lon, zoom: Double
        var cols, rows: Int
        var cells: [[Int]]
    }
    var file: String
    var real: Bool
    var count: Int
    var skipped: Int
    var counts: [String: Int]
    var bounds: [Double]?
    var names: [String?]
    var properties: [[String: String?]]
    var views: [View]
    var testDescription: String { file }

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/userdata")
    /// The real files (never copied into the project), when they are beside it.
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../shared/overlay-samples")
        .standardized
    static let all: [UserDataExpectation] = {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent("expected.json")),
            let list = try? JSONDecoder().decode([UserDataExpectation].self, from: data)
        else { return [] }
        return list
    }()

    var path: String { (real ? Self.samples : Self.folder).appendingPathComponent(file).path }
}

@Suite("The user's own files: read as an independent reader reads them, drawn where their coordinates are")
struct UserDataTests {
    func read(_ path: String) throws -> UserLayerData {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let format = try #require(UserDataReader.format(of: bytes, file: path))
        return try UserDataReader.read(bytes, format: format, file: path)
    }

    @Test("the generator's expectations are there") func expectationsLoad() {
        #expect(UserDataExpectation.all.filter { !$0.real }.count == 6)
    }

    /// Counts by type, features left out, bounds, labels and every property equal Python's json and csv.
    @Test(arguments: UserDataExpectation.all)
    func readsAsPythonReads(_ e: UserDataExpectation) throws {
        guard !e.real || FileManager.default.fileExists(atPath: e.path) else { return }
        let data = try read(e.path)
        #expect(data.count == e.count)
        #expect(data.skipped == e.skipped)
        #expect(Dictionary(uniqueKeysWithValues: data.countsByType.map { ($0.key.name, $0.value) }) == e.counts)
        if let b = e.bounds, let got = data.bounds {
            #expect(abs(got.west - b[0]) < 1e-9 && abs(got.south - b[1]) < 1e-9 && abs(got.east - b[2]) < 1e-9 && abs(got.north - b[3]) < 1e-9)
        }
        #expect(data.names == e.names)
        for f in 0..<min(data.count, e.properties.count) {
            for (key, value) in e.properties[f] {
                #expect(data.property(key, of: f) == value, "feature \(f), property \(key)")
            }
            let extra = data.columns.filter { e.properties[f][$0] == nil && data.property($0, of: f) != nil }
            #expect(extra.isEmpty, "feature \(f) has properties the reference lacks: \(extra)")
        }
    }

    /// The cells with the layer's ink match mercantile's projection of the same points and segments
    /// within one cell: recall and precision at least 0.95, at zooms 0 to 5 and across the antimeridian.
    @Test(arguments: UserDataExpectation.all)
    func drawnWhereTheCoordinatesAre(_ e: UserDataExpectation) throws {
        guard !e.real || FileManager.default.fileExists(atPath: e.path) else { return }
        let file = UserFile(file: e.file, format: .geojson, data: try read(e.path))
        let layer = UserDataLayer(file: file, look: 0)
        for v in e.views {
            let view = try MapView(
                center: Coordinate(latitude: v.lat, longitude: v.lon), zoom: v.zoom, size: try ViewSize(cols: v.cols, rows: v.rows))
            let c = MapRenderer.drawn(view: view, sources: nil, layers: [layer])
            var inked = Set<[Int]>()
            for row in 0..<v.rows {
                for col in 0..<v.cols where c.canvas.ink(col: col, row: row) == StyleTable.ink(.overlay(0)) { inked.insert([col, row]) }
            }
            let expected = Set(v.cells)
            func near(_ cell: [Int], _ set: Set<[Int]>) -> Bool {
                (-1...1).contains { dx in (-1...1).contains { dy in set.contains([cell[0] + dx, cell[1] + dy]) } }
            }
            let recall = expected.isEmpty ? 1 : Double(expected.filter { near($0, inked) }.count) / Double(expected.count)
            let precision = inked.isEmpty ? (expected.isEmpty ? 1 : 0) : Double(inked.filter { near($0, expected) }.count) / Double(inked.count)
            #expect(recall >= 0.95, "\(e.file) at \(v.lat),\(v.lon) z\(v.zoom): recall \(recall) of \(expected.count)")
            #expect(precision >= 0.95, "\(e.file) at \(v.lat),\(v.lon) z\(v.zoom): precision \(precision) of \(inked.count)")
        }
    }
}
