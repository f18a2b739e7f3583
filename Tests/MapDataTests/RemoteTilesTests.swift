import Foundation
import GeoCore
import TestSupport
import Testing

@testable import MapBuilders
@testable import MapData
@testable import MapFormats

/// TileJSON documents, named sources, HTTP freshness, the disk cache and the PMTiles writer.
@Suite struct RemoteTilesTests {
    /// Every field the TileJSON 3.0.0 spec gives is taken as the document says it.
    @Test func tileJSONFieldsAreRead() throws {
        let doc = """
            {"tilejson":"3.0.0","name":"x","tiles":["https://a.example/{z}/{x}/{y}.pbf","https://b.example/{z}/{x}/{y}.pbf"],
             "scheme":"tms","minzoom":2,"maxzoom":13,"bounds":[-10.5,35,30,60.25],
             "attribution":"<a href='https://openmaptiles.org/'>&copy; OpenMapTiles</a> <a href='x'>&copy; OpenStreetMap contributors</a>",
             "vector_layers":[{"id":"transportation","fields":{}},{"id":"water","fields":{}}]}
            """
        let t = try TileJSON.parse(Array(doc.utf8), url: "https://a.example/doc.json")
        #expect(t.templates.count == 2 && t.templates[1].hasPrefix("https://b."))
        #expect(t.tms && t.minZoom == 2 && t.maxZoom == 13 && t.name == "x")
        #expect(t.bounds == CoordinateBounds(north: 60.25, south: 35, west: -10.5, east: 30))
        #expect(t.attribution == "© OpenMapTiles © OpenStreetMap contributors")
        #expect(t.layers == ["transportation", "water"])
        #expect(TileSchema.detect(layers: t.layers) == .openMapTiles)
        // Defaults: xyz, zooms 0 to the spec's 30 (taken as 24 at most), the world.
        let bare = try TileJSON.parse(Array(#"{"tiles":["http://h/{z}/{x}/{y}"]}"#.utf8), url: "u")
        #expect(!bare.tms && bare.minZoom == 0 && bare.maxZoom == 24 && bare.bounds.west == -180)
    }

    @Test(arguments: [
        (#"{"tiles":["ftp://h/{z}/{x}/{y}"]}"#, "is not an http or https URL"),
        (#"{"name":"no tiles"}"#, "without \"tiles\""),
        (#"{"tiles":[3]}"#, "not a list of URL templates"),
        ("[1,2]", "not a JSON object"),
        ("{" + String(repeating: " ", count: 1 << 20) + "}", "more than 1 MB"),
    ])
    func badTileJSONIsOneLine(_ doc: String, _ words: String) {
        #expect {
            _ = try TileJSON.parse(Array(doc.utf8), url: "https://h/doc.json")
        } throws: { error in
            let text = "\(error)"
            return text.contains(words) && text.contains("https://h/doc.json") && !text.contains("\n")
        }
    }

    @Test func detectionIsByFirstBytes() {
        #expect(TileJSON.looksLikeJSON(Array("\u{FEFF} \n{\"tiles\":[]}".utf8)))
        #expect(!TileJSON.looksLikeJSON(Array("PMTiles\u{3}".utf8)))
    }

    /// A name from the table wins over a file of that name, unless the argument has a `/` or an extension.
    @Test func namedSourcesAreNamesOnly() {
        #expect(NamedTileSource.named("openfreemap")?.url == "https://tiles.openfreemap.org/planet")
        #expect(NamedTileSource.named("OpenFreeMap") != nil)
        #expect(NamedTileSource.named("./openfreemap") == nil)
        #expect(NamedTileSource.named("openfreemap.pmtiles") == nil)
        #expect(NamedTileSource.named("elsewhere") == nil)
    }

    /// RFC 9111 §4.2.1's order: no-store/no-cache, max-age, Expires − Date, then a tenth of the age.
    @Test func freshnessFollowsTheHeaders() {
        func r(_ cc: String = "", expires: Int64? = nil, date: Int64? = nil, lastModified: String = "")
            -> HTTPPool.Response
        {
            HTTPPool.Response(
                status: 200, body: [], etag: "", lastModified: lastModified, cacheControl: cc, expires: expires,
                date: date,
                retryAfter: nil, error: "", timedOut: false, tooBig: false, totalSize: nil)
        }
        let now: Int64 = 1_800_000_000
        #expect(r("public, max-age=3600").freshSeconds(now: now) == 3600)
        #expect(r("max-age=\"60\"").freshSeconds(now: now) == 60)
        #expect(r("no-cache, max-age=3600").freshSeconds(now: now) == 0)
        #expect(r(expires: now + 90, date: now - 10).freshSeconds(now: now) == 100)
        #expect(r().freshSeconds(now: now) == 0)
    }

    @Test func hostKeysGroupAHost() {
        #expect(HTTPPool.hostKey("https://Tiles.Example.org:8443/a/{z}?k=1") == "https://tiles.example.org:8443")
        #expect(HTTPPool.hostKey("http://h/x") == "http://h")
    }

    /// What one process kept, another reads; a bound in bytes drops the least recently used first.
    @Test func theDiskCacheKeepsAndBounds() throws {
        let folder = NSTemporaryDirectory() + "termmap-cache-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (a, why) = TileDiskCache.open(source: "https://h/doc.json", folder: folder, limitBytes: 3 << 20)
        let cache = try #require(a, "\(why ?? "")")
        let tile = TileID(z: 14, x: 9327, y: 4742)
        cache.put(
            tile, .init(body: [1, 2, 3], etag: "\"e\"", lastModified: "Mon, 01 Jan 2024 00:00:00 GMT", expires: 100))
        cache.put(TileID(z: 3, x: 1, y: 1), .init(body: nil, expires: 200))
        cache.put(resource: "tilejson", .init(body: Array("{}".utf8), expires: 300))
        cache.close()
        let (b, _) = TileDiskCache.open(source: "https://h/doc.json", folder: folder, limitBytes: 3 << 20)
        let again = try #require(b)
        #expect(
            again.tile(tile)
                == .init(body: [1, 2, 3], etag: "\"e\"", lastModified: "Mon, 01 Jan 2024 00:00:00 GMT", expires: 100))
        #expect(again.tile(TileID(z: 3, x: 1, y: 1))?.body == nil && again.tile(TileID(z: 3, x: 1, y: 1)) != nil)
        #expect(again.tile(TileID(z: 3, x: 0, y: 1)) == nil)
        #expect(again.resource("tilejson")?.expires == 300)
        // 8 MB of tiles against a 3 MB bound: the folder ends within it, the newest tiles kept.
        let blob = [UInt8](repeating: 7, count: 64 << 10)
        for i in 0..<128 { again.put(TileID(z: 10, x: i, y: 0), .init(body: blob, expires: 0)) }
        again.close()
        again.trim()
        #expect(again.folderBytes() <= 3 << 20)
        #expect(again.tile(TileID(z: 10, x: 127, y: 0)) != nil)
        #expect(again.tile(TileID(z: 10, x: 0, y: 0)) == nil)
    }

    /// The bound holds as tiles are written, with no trim asked for: 8 MB of tiles against 1 MB leave at
    /// most 1 MB on disk once the cache is closed, the newest tiles (a view's) kept; a cache opened with
    /// a smaller bound comes within it.
    @Test func theDiskCacheKeepsItsBoundAsItWrites() throws {
        let folder = NSTemporaryDirectory() + "termmap-cache-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (a, why) = TileDiskCache.open(source: "https://h/t/{z}/{x}/{y}.pbf", folder: folder, limitBytes: 1 << 20)
        let cache = try #require(a, "\(why ?? "")")
        let blob = [UInt8](repeating: 7, count: 64 << 10)
        for i in 0..<128 {
            cache.put(TileID(z: 10, x: i, y: 0), .init(body: blob, expires: .max))
            if i % 16 == 15 { usleep(2000) }
        }
        cache.close()
        #expect(cache.folderBytes() <= 1 << 20, "\(cache.folderBytes()) bytes")
        // The last 8 written (half the bound: a view's) are all kept.
        #expect((120..<128).allSatisfy { cache.tile(TileID(z: 10, x: $0, y: 0)) != nil })
        #expect(cache.tile(TileID(z: 10, x: 0, y: 0)) == nil)
        let (b, _) = TileDiskCache.open(source: "https://h/t/{z}/{x}/{y}.pbf", folder: folder, limitBytes: 256 << 10)
        let smaller = try #require(b)
        smaller.close()
        #expect(smaller.folderBytes() <= 256 << 10, "\(smaller.folderBytes()) bytes")
        #expect(smaller.tile(TileID(z: 10, x: 127, y: 0)) != nil)
    }

    /// The writer's archive read by the reader: every tile, equal tiles stored once, runs of equal
    /// consecutive tiles one entry.
    @Test(arguments: [100, 90_000])
    func thePMTilesWriterReadsBack(_ count: Int) throws {
        var tiles: [(TileID, [UInt8])] = []
        var rng = SystemRandomNumberGenerator()
        for id in 0..<UInt64(count) {
            guard let t = TileID(pmtilesID: id) else { continue }
            // Every third tile the same bytes as the tile before (a run), else distinct.
            let bytes: [UInt8] =
                id % 3 == 2
                ? tiles[tiles.count - 1].1
                : [0x1a] + (0..<8).map { _ in UInt8.random(in: 0...255, using: &rng) } + Array("\(id)".utf8)
            tiles.append((t, bytes))
        }
        let path = NSTemporaryDirectory() + "termmap-\(UUID().uuidString).pmtiles"
        defer { unlink(path) }
        let byID = Dictionary(uniqueKeysWithValues: tiles.map { ($0.0.pmtilesID, $0.1) })
        let contents = try PMTilesBuilder.write(
            tiles.map { PMTilesBuilder.Tile(id: $0.0.pmtilesID, length: $0.1.count, hash: PMTilesBuilder.hash($0.1)) },
            to: path,
            description: .init(
                bounds: CoordinateBounds(north: 85, south: -85, west: -180, east: 180), metadata: ["name": .string("t")]
            )
        ) { byID[$0.id] ?? [] }
        let archive = try PMTilesArchive(source: LocalFileSource(path: path))
        let h = archive.header
        #expect(contents == tiles.count - tiles.count / 3)
        #expect(h.addressedTiles == UInt64(tiles.count) && h.tileContents == UInt64(contents))
        #expect(h.tileEntries == UInt64(contents))
        #expect(h.clustered && h.rootLength <= 16_384 - 127)
        let got = archive.storedTiles(tiles.map(\.0)) { _ in true }
        for (t, bytes) in tiles { #expect(got[t] == .success(bytes)) }
        #expect(archive.metadata["name"] == "t")
    }

    /// Entries that do not fit the first 16 KiB go to leaf directories: the root fits, and the leaves
    /// hold every entry in order.
    @Test func leafDirectoriesWhenTheRootWouldNotFit() throws {
        var rng = SystemRandomNumberGenerator()
        var offset: UInt64 = 0
        let entries = (0..<UInt64(60_000)).map { id -> PMTilesEntry in
            offset += UInt64.random(in: 1...5000, using: &rng)
            return PMTilesEntry(
                tileID: id * 3, offset: offset, length: UInt32.random(in: 1...4000, using: &rng), runLength: 1)
        }
        let (root, leaves) = PMTilesBuilder.directories(entries)
        #expect(root.count <= 16_384 - 127 && !leaves.isEmpty)
        let rootEntries = try #require(PMTilesArchive.decodeDirectory(root, compression: 2))
        var back: [PMTilesEntry] = []
        for leaf in rootEntries {
            #expect(leaf.runLength == 0)
            let bytes = Array(leaves[Int(leaf.offset)..<Int(leaf.offset) + Int(leaf.length)])
            back += try #require(PMTilesArchive.decodeDirectory(bytes, compression: 2))
        }
        #expect(back == entries)
    }

    /// How a tile source treats what an archive says: a dropped request leaves the tile missing (asked
    /// for again by the next view), a network failure counts as offline, a server error is asked for
    /// again after its wait, a damaged tile never.
    @Test func failedTilesWaitTheirTurn() throws {
        let tile = TileID(z: 14, x: 9327, y: 4742)
        let box = TileSource.bounds(tile)
        let view = CoordinateBounds(
            north: box.north - 0.001, south: box.south + 0.001, west: box.west + 0.001, east: box.east - 0.001)
        func source(_ answer: Result<[UInt8]?, TileFailure>) -> (TileSource, ScriptedArchive) {
            let archive = ScriptedArchive(answer)
            return (TileSource(archive: archive, label: "t"), archive)
        }
        let (dropped, _) = source(.success([]))
        dropped.load([tile]) { _ in false }
        #expect(!dropped.hasTried(tile))
        #expect(try dropped.chunks(in: view, zoom: 14, classes: [.land]).missing == [tile])

        let (offline, _) = source(.failure(TileFailure("down", retry: .offline)))
        offline.load([tile])
        let seen = try offline.chunks(in: view, zoom: 14, classes: [.land])
        #expect(seen.offline == 1 && seen.failed == 0 && seen.missing.isEmpty && offline.hasTried(tile))

        let (busy, archive) = source(.failure(TileFailure("HTTP 503", retry: .after(1))))
        busy.load([tile])
        #expect(busy.hasTried(tile) && archive.asked == 1)
        #expect(try busy.chunks(in: view, zoom: 14, classes: [.land]).failed == 1)
        usleep(1_100_000)
        #expect(!busy.hasTried(tile))
        // A view changes no tile's standing: the failure stands until the program lets it go.
        #expect(try busy.chunks(in: view, zoom: 14, classes: [.land]).failed == 1)
        busy.expireFailures()
        #expect(try busy.chunks(in: view, zoom: 14, classes: [.land]).missing == [tile])

        let (damaged, _) = source(.failure(TileFailure("bad tile")))
        damaged.load([tile])
        usleep(1_100_000)
        #expect(damaged.hasTried(tile))
    }
}

/// An archive that answers every tile the same way and counts the tiles asked for.
final class ScriptedArchive: TileArchive, @unchecked Sendable {
    let info = TilesetInfo(
        format: "scripted", name: "scripted", minZoom: 14, maxZoom: 14,
        bounds: CoordinateBounds(north: 85, south: -85, west: -180, east: 180), tileCount: nil, attribution: nil,
        layers: [], compression: "none")
    let answer: Result<[UInt8]?, TileFailure>
    private(set) var asked = 0
    init(_ answer: Result<[UInt8]?, TileFailure>) { self.answer = answer }

    func storedTiles(_ ids: [TileID], wanted: @escaping @Sendable (TileID) -> Bool) -> [TileID: Result<
        [UInt8]?, TileFailure
    >] {
        var out: [TileID: Result<[UInt8]?, TileFailure>] = [:]
        for t in ids where wanted(t) {
            asked += 1
            out[t] = answer
        }
        return out
    }
}

extension RemoteTilesTests {
    /// What-is-here's answer for a tile feature is that feature's: its id and properties, read from the
    /// tile's kept bytes, belong to the feature drawn (named as the chunk names it), not to a neighbour.
    @Test func aTileFeaturesIdentityIsItsOwn() throws {
        let tile = TileID(z: 14, x: 9327, y: 4742)
        let names = ["Aleksanterinkatu", "Bulevardi", "Castréninkatu", "Dagmarinkatu"]
        let bytes = ProtoBuilder.tile(
            layer: "roads",
            features: names.enumerated().map { i, name in
                let y = Int64(500 + 800 * i)
                return (
                    2, ProtoBuilder.commands([(100, y), (4000, y + 100)], close: false),
                    ["kind": "minor_road", "name": name]
                )
            })
        let source = TileSource(archive: ScriptedArchive(.success(bytes)), label: "t")
        source.load([tile])
        let box = TileSource.bounds(tile)
        let view = try source.chunks(in: box, zoom: 14, classes: Set(FeatureClass.allCases))
        var seen: [String] = []
        for hit in view.hits where !hit.namesOnly {
            for f in 0..<hit.chunk.featureCount where hit.chunk.nameIndex[f] >= 0 {
                let drawnAs = source.featureName(hit.chunk.nameIndex[f])
                let identity = source.identity(of: hit, feature: f)
                let said = identity?.properties.first { $0.key == "name" }?.value
                #expect(said == drawnAs, "feature \(f) drawn as \(drawnAs ?? "-") but said \(said ?? "-")")
                seen.append(drawnAs ?? "")
            }
        }
        #expect(seen.sorted() == names)
    }
}
