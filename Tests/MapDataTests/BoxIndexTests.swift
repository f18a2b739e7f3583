import GeoCore
import TestSupport
import Testing

@testable import MapData
@testable import MapFormats

/// The grid index over boxes (a level's chunks, a file's features): whatever the boxes and the query, every box that
/// meets the query is among the candidates, each once, in order.
struct BoxIndexTests {
    /// A chunk with a box and nothing else.
    static func chunk(_ minX: Int32, _ minY: Int32, _ maxX: Int32, _ maxY: Int32) -> ChunkInfo {
        ChunkInfo(
            featureClass: .coastline, kind: .lines, level: 0, minX: minX, minY: minY, maxX: maxX, maxY: maxY,
            offset: 0, length: 0, featureCount: 0, checksum: 0)
    }

    static func meets(_ c: ChunkInfo, _ b: BoxIndex.Box) -> Bool {
        Int64(c.minX) <= b.maxX && Int64(c.maxX) >= b.minX && Int64(c.minY) <= b.maxY && Int64(c.maxY) >= b.minY
    }

    @Test func candidatesHoldEveryChunkThatMeetsTheQuery() {
        var random = SeededRandom(state: 17)
        for round in 0..<60 {
            // Small boxes, some huge ones (listed nowhere, tested always), points, negative coordinates; a
            // level that starts after other levels' chunks.
            let first = random.below(5)
            var chunks = (0..<first).map { _ in Self.chunk(0, 0, 1, 1) }
            let span = Int32(1 + random.below(round % 2 == 0 ? 1000 : 36_000_000))
            for _ in 0..<(1 + random.below(400)) {
                let x = Int32(random.below(Int(2 * span))) - span
                let y = Int32(random.below(Int(span))) - span / 2
                let size = random.below(10) == 0 ? span : Int32(random.below(Int(span / 20) + 1))
                chunks.append(Self.chunk(x, y, x + size, y + Int32(random.below(Int(size) + 1))))
            }
            let range = first..<chunks.count
            let index = BoxIndex(chunks: chunks, range: range)
            for _ in 0..<20 {
                let boxes = (0..<(1 + random.below(3))).map { _ in
                    let x = Int64(random.below(Int(3 * span))) - Int64(span) * 3 / 2
                    let y = Int64(random.below(Int(2 * span))) - Int64(span)
                    let w = Int64(random.below(Int(span)))
                    return BoxIndex.Box(minX: x, minY: y, maxX: x + w, maxY: y + w / 2)
                }
                let found = index.candidates(boxes)
                let meeting = range.filter { i in boxes.contains { Self.meets(chunks[i], $0) } }
                #expect(Set(meeting).isSubset(of: Set(found)), "round \(round)")
                #expect(found == found.sorted() && Set(found).count == found.count)
                #expect(found.allSatisfy { range.contains($0) })
            }
        }
    }

    @Test func aQueryOutsideTheGridFindsOnlyTheWideBoxes() {
        var chunks = (0..<10).map { i in Self.chunk(Int32(i) * 100, 0, Int32(i) * 100 + 50, 50) }
        chunks.append(Self.chunk(0, 0, 1_000_000, 1_000_000))  // over more than 64 cells: tested always
        let index = BoxIndex(chunks: chunks, range: 0..<chunks.count)
        #expect(index.candidates([BoxIndex.Box(minX: -5000, minY: -5000, maxX: -4000, maxY: -4000)]) == [10])
        #expect(index.candidates([BoxIndex.Box(minX: 210, minY: 10, maxX: 220, maxY: 20)]).contains(2))
        #expect(!index.candidates([BoxIndex.Box(minX: 210, minY: 10, maxX: 220, maxY: 20)]).contains(5))
    }

    /// The bundled world's finest level: the grid's answer (from a level's `gridFromQuery`th query on)
    /// equals testing every chunk (its first queries), for views all over the world.
    @Test func theGridAnswersAsTestingEveryChunkDoes() throws {
        let indexed = try MapAsset(path: bundledWorldPath)
        let finest = indexed.levels.count - 1
        for _ in 1..<MapAsset.gridFromQuery {
            _ = try indexed.query(bounds: CoordinateBounds(north: 1, south: 0, west: 0, east: 1), level: finest)
        }
        #expect(!indexed.hasGrid(level: finest))
        _ = try indexed.query(bounds: CoordinateBounds(north: 1, south: 0, west: 0, east: 1), level: finest)
        #expect(indexed.hasGrid(level: finest))
        var random = SeededRandom(state: 5)
        for _ in 0..<40 {
            let west = random.unit() * 400 - 220
            let south = random.unit() * 160 - 80
            let view = CoordinateBounds(
                north: min(85, south + random.unit() * 8), south: south, west: west, east: west + random.unit() * 12)
            let fresh = try MapAsset(path: bundledWorldPath)
            let expected = try fresh.query(bounds: view, level: finest).map { "\($0.chunk.info.offset) \($0.shift)" }
            let got = try indexed.query(bounds: view, level: finest).map { "\($0.chunk.info.offset) \($0.shift)" }
            #expect(got == expected, "\(view)")
        }
    }

    /// A user's file in one city (all of it within one 64th of the world, where a fixed grid put every
    /// feature in one square): a street-sized view's candidates are the features near it, in the file's
    /// order, and hold every feature that meets it.
    @Test func aCitysFileIsIndexedByItsOwnFeatures() throws {
        var random = SeededRandom(state: 44)
        var features: [String] = []
        for _ in 0..<2000 {
            let (lon, lat) = (
                24.9 + Double(random.below(10_000)) / 100_000, 60.15 + Double(random.below(5000)) / 100_000
            )
            features.append(
                #"{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[\#(lon),\#(lat)]}}"#)
        }
        // A long line across the city: listed nowhere, found by every query.
        features.append(
            #"{"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[[24.9,60.15],[25.0,60.2]]}}"#
        )
        let text = #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}"
        let layer = try UserDataReader.read(Array(text.utf8), format: .geojson, file: "city.geojson")
        let index = BoxIndex(features: layer)
        for _ in 0..<50 {
            let c = WebMercator.project(
                Coordinate(
                    latitude: 60.15 + Double(random.below(5000)) / 100_000,
                    longitude: 24.9 + Double(random.below(10_000)) / 100_000))
            let half = 200 / WebMercator.worldSize(zoom: 16)  // a view 400 dots (200 cells) wide at zoom 16
            var found: [Int] = []
            index.features(minX: c.x - half, minY: c.y - half, maxX: c.x + half, maxY: c.y + half) { found.append($0) }
            let meeting = (0..<layer.count).filter { f in
                let (x0, y0, x1, y1) = layer.box(f)
                return x0 <= c.x + half && x1 >= c.x - half && y0 <= c.y + half && y1 >= c.y - half
            }
            #expect(Set(meeting).isSubset(of: Set(found)))
            #expect(found == found.sorted() && Set(found).count == found.count)
            #expect(found.contains(layer.count - 1))
            #expect(found.count < layer.count / 10, "a street's view looks at \(found.count) of \(layer.count)")
        }
    }
}
