import Foundation
import GeoCore
import Raster
import TestSupport
import Testing

@testable import MapData
@testable import MapFormats
@testable import MapRender
@testable import Viewer

/// The tile fixtures of `Tools/make_tile_fixtures.py` drawn by the viewer: against the OpenStreetMap
/// extract they were made from (pyosmium's geometry in the OSM reference), against each other, and
/// the tile-specific behaviour (seams, overzoom, loading, failures, the cache bound).
@Suite("Vector tiles on screen")
struct TileRenderingTests {
    static func path(_ file: String) -> String {
        repositoryRoot.appendingPathComponent("Tests/MapDataTests/Fixtures/tiles/\(file)").path
    }

    /// The world and one tileset (no bundled city: what is drawn at street level comes from the tiles).
    static func sources(_ file: String) throws -> MapSources {
        let tiles = TileSource(archive: try TileArchives.open(path(file)), label: "tiles")
        return MapSources(features: FeatureSources(base: bundledWorld, details: [tiles]))
    }

    /// The screen once its tiles are in, as `render` prints it.
    static func loaded(_ s: ViewerState, sources: MapSources, options: RenderOptions) -> Frame {
        Renderer.drawLoaded(s, sources: sources, options: options).frame
    }

    static let bundledWorld: MapAsset = {
        do {
            return try MapAsset(path: repositoryRoot.appendingPathComponent("assets/world.tmap").path)
        } catch {
            preconditionFailure("\(error)")
        }
    }()

    static func state(_ v: HelsinkiViews.View) throws -> ViewerState {
        try state(lat: v.lat, lon: v.lon, zoom: v.zoom, cols: v.cols, rows: v.rows + 2)
    }

    static func state(lat: Double, lon: Double, zoom: Double, cols: Int = 100, rows: Int = 30) throws -> ViewerState {
        var s = try ViewerState(cols: cols, rows: rows, center: Coordinate(latitude: lat, longitude: lon), zoom: zoom)
        s.animationsEnabled = false
        return s
    }

    static let files = ["helsinki-omt.pmtiles", "helsinki-protomaps.pmtiles"]

    /// Cells that car roads cross (pyosmium, mercantile) show ink within one cell.
    @Test(arguments: files, HelsinkiViews.all.indices)
    func carRoadsAreDrawnWhereTheyAre(file: String, index: Int) throws {
        let v = HelsinkiViews.all[index]
        let f = Self.loaded(try Self.state(v), sources: try Self.sources(file), options: RenderOptions(mode: .plain))
        var shown = 0
        for cell in v.carRoadCells
        where (-1...1).contains(where: { dr in (-1...1).contains { dc in f[cell[0] + dc, cell[1] + dr].glyph != " " } })
        {
            shown += 1
        }
        // The reference has roads in the view (an empty one would pass anything).
        #expect(v.carRoadCells.count > 20, "\(file) view \(index): \(v.carRoadCells.count) road cells")
        #expect(
            Double(shown) >= 0.9 * Double(v.carRoadCells.count),
            "\(file) view \(index): \(shown) of \(v.carRoadCells.count)")
    }

    /// Braille cells of two or more dots drawn from the tiles lie within a cell of an OSM way (or an
    /// area's outline).
    @Test(arguments: files, HelsinkiViews.all.indices)
    func tileInkLiesOnRealWays(file: String, index: Int) throws {
        let v = HelsinkiViews.all[index]
        let f = Self.loaded(try Self.state(v), sources: try Self.sources(file), options: RenderOptions(mode: .ansi256))
        var tileStyles = Set<CellStyle>()
        for c in TileSchema.classes where c != .border {
            tileStyles.insert(StyleTable.style(.feature(c), mode: .ansi256))
        }
        let (drawn, onWays) = cellsOnWays(f, mask: v.nearWays, styles: tileStyles)
        #expect(drawn > 100, "\(file) view \(index): \(drawn) cells")
        #expect(Double(onWays) >= 0.85 * Double(drawn), "\(file) view \(index): \(onWays) of \(drawn) on ways")
    }

    /// The same tileset as `.pmtiles` and `.mbtiles` gives the same screen, cell for cell and style for
    /// style, from the zoom tiles are first drawn at to overzoom.
    @Test(arguments: [11.0, 12.4, 14.0, 15.5, 17.0, 19.0])
    func pmtilesAndMBTilesGiveTheSameScreen(zoom: Double) throws {
        let s = try Self.state(lat: 60.1690, lon: 24.9420, zoom: zoom, cols: 120, rows: 40)
        let a = Self.loaded(
            s, sources: try Self.sources("helsinki-omt.pmtiles"), options: RenderOptions(mode: .ansi256))
        let b = Self.loaded(
            s, sources: try Self.sources("helsinki-omt.mbtiles"), options: RenderOptions(mode: .ansi256))
        #expect(a == b)
        let inked = (0..<38).reduce(0) { n, row in n + (0..<120).filter { a[$0, row].glyph != " " }.count }
        #expect(inked > 200, "zoom \(zoom): \(inked) cells")
    }

    /// The tile zoom: the nearest whole zoom within the tileset's 0–14 (12.4 → 12, 12.6 → 13, 19 → 14),
    /// and the status line names it.
    @Test func tileZoomRoundsWithinTheTileset() throws {
        let source = TileSource(archive: try TileArchives.open(Self.path("helsinki-omt.pmtiles")), label: "t")
        #expect([11.0, 12.4, 12.6, 13.5, 14.49, 19, 28].map(source.tileZoom) == [11, 12, 13, 14, 14, 14, 14])
        let p = TileSource(archive: try TileArchives.open(Self.path("helsinki-protomaps.pmtiles")), label: "p")
        #expect(p.tileZoom(11) == 12 && p.minZoom == 12)
        let f = Renderer.drawLoaded(
            try Self.state(lat: 60.1690, lon: 24.9420, zoom: 19), sources: try Self.sources("helsinki-omt.pmtiles"),
            options: RenderOptions(mode: .plain))
        // The tile zoom is said in `render --json`'s sources, not on the status line.
        #expect(f.map?.sources.first?.detail == .tileZoom(14))
        #expect(f.frame.line(28).contains("│ tiles · Natural Earth") && !f.frame.line(28).contains("z14"))
    }

    /// An area cut at its tile's edge (as tile writers cut what passes the tile's buffer) is filled to
    /// the edge but has no outline along it: two tiles side by side show one park, not two boxes.
    @Test func areasCutAtTileEdgesHaveNoOutlineThere() throws {
        // A park covering the whole of tile 14/9326/4742 and of its east neighbour, cut at the buffer
        // (−64…4160) in one and exactly at the edge (0…4096) in the other.
        let buffered = ProtoBuilder.commands([(-64, -64), (-64, 4160), (4160, 4160), (4160, -64)], close: true)
        let exact = ProtoBuilder.commands([(0, 0), (0, 4096), (4096, 4096), (4096, 0)], close: true)
        let archive = FakeArchive(tiles: [
            TileID(z: 14, x: 9326, y: 4742): ProtoBuilder.tile(layer: "park", features: [(3, buffered, [:])]),
            TileID(z: 14, x: 9327, y: 4742): ProtoBuilder.tile(layer: "park", features: [(3, exact, [:])]),
        ])
        let source = TileSource(archive: archive, label: "fake")
        let sources = MapSources(features: FeatureSources(base: Self.bundledWorld, details: [source]))
        // The view: the two tiles' shared edge in the middle, within both tiles' rows.
        let edge = WebMercator.unproject(MercatorPoint(x: 9327.0 / 16384, y: 4742.5 / 16384))
        let s = try Self.state(lat: edge.latitude, lon: edge.longitude, zoom: 15, cols: 60, rows: 20)
        let f = Self.loaded(s, sources: sources, options: RenderOptions(mode: .ansi256))
        let park = StyleTable.style(.feature(.park), mode: .ansi256)
        var filled = 0
        for row in 0..<18 {
            for col in 0..<60 {
                if let fill = StyleTable.fill(.feature(.park), mode: .ansi256), f[col, row].style.background == fill {
                    filled += 1
                }
                var style = f[col, row].style
                style.background = nil
                #expect(!(style == park && f[col, row].glyph != " "), "park outline at \(col),\(row)")
            }
        }
        #expect(filled >= 60 * 18 - 60, "\(filled) park cells")
    }

    /// A frame never waits for a tile: the first shows the world and `loading 4 tiles`, and asks for
    /// them (an effect); the test decides when they arrive, and the frame after their arrival shows them.
    /// Tiles that fail are counted and the rest is drawn.
    @Test func framesDoNotWaitAndFailuresAreCounted() throws {
        let v = HelsinkiViews.all[1]
        let sources = try Self.sources("helsinki-omt.pmtiles")
        var s = try Self.state(v)
        let first = Renderer.draw(s, sources: sources, options: RenderOptions(mode: .plain))
        let loading = try #require(first.map).tiles.loading
        #expect(loading >= 1)
        #expect(first.frame.line(v.rows).contains("loading \(loading) tile"))
        let effects = s.update(.rendered(missing: first.map?.missing ?? []))
        let requests = effects.compactMap { if case .load(let b) = $0 { b } else { nil } }
        #expect(requests.map(\.tiles.count).reduce(0, +) == loading)
        // Drawn again before they arrive: the same tiles, asked for no more.
        let again = Renderer.draw(s, sources: sources, options: RenderOptions(mode: .plain))
        let more = s.update(.rendered(missing: again.map?.missing ?? []))
        #expect(more.isEmpty)
        #expect(again.frame == first.frame)
        // They arrive.
        for batch in requests {
            sources.load(batch)
            s.update(.tilesArrived(batch))
        }
        #expect(s.requestedTiles.isEmpty)
        let second = Renderer.render(s, sources: sources, options: RenderOptions(mode: .plain))
        #expect(!second.line(v.rows).contains("loading"))
        // Its map is that of a render that loaded everything first; the first frame's was not.
        let complete = Self.loaded(
            s, sources: try Self.sources("helsinki-omt.pmtiles"), options: RenderOptions(mode: .plain))
        #expect((0..<v.rows).allSatisfy { second.line($0) == complete.line($0) })
        #expect(!(0..<v.rows).allSatisfy { first.frame.line($0) == complete.line($0) })

        let real = try TileArchives.open(Self.path("helsinki-omt.pmtiles"))
        let failing = TileSource(archive: FakeArchive(failingAll: real), label: "bad")
        let bad = MapSources(features: FeatureSources(base: Self.bundledWorld, details: [failing]))
        let f = Renderer.drawLoaded(s, sources: bad, options: RenderOptions(mode: .plain))
        let failed = try #require(f.map).tiles.failed
        #expect(failed >= 1)
        #expect(f.frame.line(v.rows).contains("\(failed) tile\(failed == 1 ? "" : "s") failed"))
    }

    /// A tileset whose tiles fail leaves their squares to the bundled city: its streets are drawn there
    /// as if the tileset were not given (a cut `.pmtiles` no longer blanks them).
    @Test func aFailingTilesetHidesNothing() throws {
        let city = try MapAsset(path: repositoryRoot.appendingPathComponent("assets/helsinki.tmap").path)
        let real = try TileArchives.open(Self.path("helsinki-omt.pmtiles"))
        let failing = TileSource(archive: FakeArchive(failingAll: real), label: "bad")
        let with = MapSources(features: FeatureSources(base: Self.bundledWorld, details: [failing, city]))
        let without = MapSources(features: FeatureSources(base: Self.bundledWorld, details: [city]))
        let v = HelsinkiViews.all[1]
        let s = try Self.state(v)
        let broken = Renderer.drawLoaded(s, sources: with, options: RenderOptions(mode: .plain))
        let plain = Renderer.drawLoaded(s, sources: without, options: RenderOptions(mode: .plain))
        #expect(try #require(broken.map).tiles.failed >= 1)
        let roads = try #require(plain.map).pick.allFeatures.filter { $0?.className.hasSuffix("road") == true }.count
        #expect(roads >= 50)
        #expect((0..<v.rows).allSatisfy { broken.frame.line($0) == plain.frame.line($0) })
    }

    /// A named point of interest that is a MultiPoint (one feature, three points): a sign at each point,
    /// each named.
    @Test func aMultiPointOfInterestIsSignedAtEachPoint() throws {
        func zigzag(_ v: Int64) -> UInt64 { UInt64(bitPattern: (v << 1) ^ (v >> 63)) }
        // MoveTo of count 3: the three points' deltas.
        let points: [UInt64] = [
            UInt64(3 << 3 | 1), zigzag(1880), zigzag(1880), zigzag(60), zigzag(0), zigzag(-60), zigzag(60),
        ]
        let tile = TileID(z: 14, x: 9326, y: 4742)
        let bytes = ProtoBuilder.tile(layer: "poi", features: [(1, points, ["class": "cafe", "name": "Kahvila"])])
        let sources = MapSources(
            features: FeatureSources(
                base: Self.bundledWorld,
                details: [TileSource(archive: FakeArchive(tiles: [tile: bytes]), label: "fake")]))
        let center = WebMercator.unproject(
            MercatorPoint(x: (9326 + 1900.0 / 4096) / 16384, y: (4742 + 1900.0 / 4096) / 16384))
        let s = try Self.state(lat: center.latitude, lon: center.longitude, zoom: 17, cols: 120, rows: 40)
        let f = Renderer.drawLoaded(s, sources: sources, options: RenderOptions(mode: .plain))
        let named = (0..<38).map { f.frame.line($0) }.joined().components(separatedBy: "Kahvila").count - 1
        #expect(named == 3, "\((0..<38).map { f.frame.line($0) }.joined(separator: "\n"))")
    }

    /// A tile with one malformed building (ClosePath of count 2, as in a real Berlin z14 tile) and one
    /// whose geometry starts with ClosePath is drawn without them: its roads stay, no tile fails, and
    /// the two are counted.
    @Test func aBadFeatureLosesItselfNotItsTile() throws {
        let tileID = TileID(z: 14, x: 9326, y: 4742)
        var roads: [(type: UInt64, geometry: [UInt64], properties: [String: String])] = []
        for i in 0..<8 {
            let y = Int64(i * 512 + 256)
            roads.append((2, ProtoBuilder.commands([(0, y), (4096, y)], close: false), ["class": "primary"]))
        }
        let bad: [(type: UInt64, geometry: [UInt64], properties: [String: String])] = [
            (3, [9, 6, 12, 18, 10, 12, 24, 44, 23], [:]), (3, [15, 9, 6, 12, 18, 10, 12, 24, 44], [:]),
        ]
        // The roads' layer, with the bad buildings in a layer between its two halves.
        func tile(_ buildings: [(type: UInt64, geometry: [UInt64], properties: [String: String])]) -> [UInt8] {
            ProtoBuilder.tile(layer: "transportation", features: Array(roads.prefix(4)))
                + (buildings.isEmpty ? [] : ProtoBuilder.tile(layer: "building", features: buildings))
                + ProtoBuilder.tile(layer: "transportation", features: Array(roads.suffix(4)))
        }
        let center = WebMercator.unproject(MercatorPoint(x: 9326.5 / 16384, y: 4742.5 / 16384))
        let s = try Self.state(lat: center.latitude, lon: center.longitude, zoom: 14, cols: 60, rows: 20)
        func drawn(_ bytes: [UInt8]) throws -> MapRendering {
            let source = TileSource(archive: FakeArchive(tiles: [tileID: bytes]), label: "fake")
            let sources = MapSources(features: FeatureSources(base: Self.bundledWorld, details: [source]))
            return try #require(Renderer.drawLoaded(s, sources: sources, options: RenderOptions(mode: .plain)).map)
        }
        let map = try drawn(tile(bad))
        let clean = try drawn(tile([]))
        #expect(map.tiles.failed == 0)
        #expect(map.tiles.skipped == 2)
        func roadCells(_ m: MapRendering) -> Int { m.pick.allFeatures.filter { $0?.className == "primary road" }.count }
        #expect(roadCells(clean) >= 100)
        #expect(roadCells(map) == roadCells(clean))
    }

    /// The two real tiles the fault was found in, as `SuiteReproductions` makes them: the Berlin z14 tile
    /// with one building of 975 closed with count 2, and the z12 tile whose water feature starts with
    /// ClosePath. Each is drawn with its roads, water and the other buildings; one feature is skipped.
    @Test(arguments: [true, false])
    func theRealTilesDrawWithoutTheirBadFeature(berlin: Bool) throws {
        let id = berlin ? SuiteReproductions.berlinTileID : SuiteReproductions.waterTileID
        let tile = TileID(z: id.z, x: id.x, y: id.y)
        let bytes =
            berlin
            ? SuiteReproductions.berlinZ14WithABadBuilding() : SuiteReproductions.z12WithWaterStartingWithClosePath()
        let archive = try PMTilesArchive(
            source: LocalFileSource(
                bytes: PMTilesWriter.archive(tiles: [(tile.pmtilesID, bytes)], maxZoom: UInt8(id.z))))
        let sources = MapSources(
            features: FeatureSources(base: Self.bundledWorld, details: [TileSource(archive: archive, label: "t")]))
        let n = Double(1 << id.z)
        let center = WebMercator.unproject(MercatorPoint(x: (Double(id.x) + 0.5) / n, y: (Double(id.y) + 0.5) / n))
        // Buildings are drawn from zoom 15: the Berlin tile is looked at there (its z14 tile scaled).
        let s = try Self.state(
            lat: center.latitude, lon: center.longitude, zoom: Double(id.z) + (berlin ? 1 : 0), cols: 60, rows: 20)
        let map = try #require(Renderer.drawLoaded(s, sources: sources, options: RenderOptions(mode: .plain)).map)
        #expect(map.tiles.failed == 0 && map.tiles.skipped == 1)
        let classes = map.pick.allFeatures.compactMap { $0?.className }
        #expect(classes.filter { $0 == "primary road" }.count >= 100)
        #expect(classes.contains("water"))
        if berlin { #expect(classes.filter { $0 == "building" }.count >= 50) }
    }

    /// Panning across many tiles keeps the decoded tiles within the cache's bound.
    @Test func theCacheStaysWithinItsBound() throws {
        let archive = try TileArchives.open(Self.path("helsinki-omt.pmtiles"))
        let limit = 200_000
        let source = TileSource(archive: archive, label: "t", cacheBytes: limit)
        let sources = MapSources(features: FeatureSources(base: Self.bundledWorld, details: [source]))
        var most = 0
        for zoom in [12.0, 13, 14, 15, 16] {
            _ = Self.loaded(
                try Self.state(lat: 60.1700, lon: 24.9440, zoom: zoom), sources: sources,
                options: RenderOptions(mode: .plain))
            let (bytes, count) = source.cacheUse
            most = max(most, bytes)
            #expect(count >= 1)
        }
        // The newest tiles (with their bytes, kept for what-is-here) stay even past the bound; older ones go.
        #expect(most <= limit + 500_000)
        #expect(source.cacheUse.bytes <= limit || source.cacheUse.count <= 4)
    }
}

extension TileRenderingTests {
    /// From a remote archive, a tile whose decoded form the cache let go is decoded again from its kept
    /// bytes: going back to a view asks the server for nothing.
    @Test func remoteTilesAreKeptRawWhenTheirDecodedFormGoes() throws {
        // Two tiles of 300 minor roads of 20 points each: decoded, each costs about five times its bytes.
        func roads(_ seed: Int64) -> [UInt8] {
            ProtoBuilder.tile(
                layer: "roads",
                features: (0..<300).map { i in
                    let points = (0..<20).map { k in
                        (Int64(k * 200 + (i * 7 + Int(seed)) % 100), Int64(i * 13 % 4000 + k))
                    }
                    return (2, ProtoBuilder.commands(points, close: false), ["kind": "minor_road"])
                })
        }
        let west = TileID(z: 14, x: 9326, y: 4742)
        let east = TileID(z: 14, x: 9327, y: 4742)
        let archive = FakeArchive(tiles: [west: roads(1), east: roads(2)])
        archive.isRemote = true
        let rawBytes = roads(1).count
        let probe = TileSource(archive: archive, label: "probe")
        let decodedBytes = probe.decode(roads(1), tile: west)?.bytes ?? 0
        #expect(decodedBytes > 4 * rawBytes)
        // Room for one decoded tile but both tiles' bytes: each new view evicts the other's decoded tile.
        let source = TileSource(archive: archive, label: "remote", cacheBytes: 10 * rawBytes)
        #expect(decodedBytes < 10 * rawBytes * 3 / 4 && 2 * decodedBytes > 10 * rawBytes * 3 / 4)
        let sources = MapSources(features: FeatureSources(base: Self.bundledWorld, details: [source]))
        func center(_ t: TileID) -> Coordinate {
            WebMercator.unproject(MercatorPoint(x: (Double(t.x) + 0.5) / 16384, y: (Double(t.y) + 0.5) / 16384))
        }
        let a = try Self.state(lat: center(west).latitude, lon: center(west).longitude, zoom: 17)
        let b = try Self.state(lat: center(east).latitude, lon: center(east).longitude, zoom: 17)
        let first = Self.loaded(a, sources: sources, options: RenderOptions(mode: .plain))
        _ = Self.loaded(b, sources: sources, options: RenderOptions(mode: .plain))
        #expect(archive.fetched == 2)
        #expect(source.cacheUse.count == 1, "the first tile's decoded form went")
        let again = Self.loaded(a, sources: sources, options: RenderOptions(mode: .plain))
        #expect(archive.fetched == 2, "asked the server again")
        #expect(again == first)
    }
}

extension TileRenderingTests {
    /// A tileset takes the shore over from the world's coastline only when it has the sea: without an
    /// ocean polygon (tilemaker without its shapefile) the world's coastline is still drawn there.
    @Test(arguments: [true, false])
    func theShoreIsTakenOverOnlyWithTheSea(ocean: Bool) throws {
        let tile = TileID(z: 14, x: 9326, y: 4742)
        let square = ProtoBuilder.commands([(0, 0), (0, 4096), (4096, 4096), (4096, 0)], close: true)
        let archive = FakeArchive(tiles: [
            tile: ProtoBuilder.tile(layer: "water", features: [(3, square, ["class": ocean ? "ocean" : "lake"])])
        ])
        let source = TileSource(archive: archive, label: "sea")
        let features = FeatureSources(base: Self.bundledWorld, details: [source])
        let c = WebMercator.unproject(MercatorPoint(x: 9326.5 / 16384, y: 4742.5 / 16384))
        let view = try Self.state(lat: c.latitude, lon: c.longitude, zoom: 15).view
        #expect(!FeatureSources.claims(source).contains(.coastline), "nothing is known before a tile is read")
        for result in try features.query(bounds: view.bounds, zoom: 15, metersPerDot: view.metersPerDot) {
            (result.source as? TileSource)?.load(result.view.missing)
        }
        let hits = try features.query(bounds: view.bounds, zoom: 15, metersPerDot: view.metersPerDot)
        // The tileset covers the world here: with the sea, the world is left only its state lines (its
        // borders the tileset claims too); without, the world still draws its coastline, lakes and land.
        let world = Set(hits.first { $0.source === Self.bundledWorld }?.hits.map(\.chunk.info.featureClass) ?? [])
        #expect(world.isDisjoint(with: [.coastline, .lake, .land, .lakeWater, .border]) == ocean, "\(world)")
        #expect(FeatureSources.claims(source).contains(.coastline) == ocean)
    }
}

/// A tileset in memory: given tiles, or failing another archive's tiles all.
final class FakeArchive: TileArchive, @unchecked Sendable {
    let info: TilesetInfo
    private var stored: [TileID: [UInt8]] = [:]
    private var inner: (any TileArchive)?
    private var failAll = false
    /// Pretends to be remote (its tiles' bytes are then kept); counts the tiles asked for.
    var isRemote = false
    private(set) var fetched = 0

    init(tiles: [TileID: [UInt8]]) {
        stored = tiles
        info = TilesetInfo(
            format: "fake", name: "fake", minZoom: 14, maxZoom: 14,
            bounds: CoordinateBounds(north: 85, south: -85, west: -180, east: 180), tileCount: tiles.count,
            attribution: nil, layers: ["park"], compression: "none")
    }

    /// The tiles of `inner`, counted.
    init(counting inner: any TileArchive) {
        self.inner = inner
        info = inner.info
    }

    init(failingAll inner: any TileArchive) {
        self.inner = inner
        failAll = true
        info = inner.info
    }

    func storedTiles(_ ids: [TileID], wanted: @escaping @Sendable (TileID) -> Bool) -> [TileID: Result<
        [UInt8]?, TileFailure
    >] {
        fetched += ids.count
        if failAll { return Dictionary(uniqueKeysWithValues: ids.map { ($0, .failure(TileFailure("bad"))) }) }
        if let inner { return inner.storedTiles(ids, wanted: wanted) }
        return Dictionary(uniqueKeysWithValues: ids.map { ($0, .success(stored[$0])) })
    }
}

extension TileRenderingTests {
    /// The loop asks for what a frame lacks and draws the tiles when they arrive, at once: the loader
    /// (here one that loads in the caller's thread) leaves its batch in the inbox, which ends the loop's
    /// wait, so the frame with the tiles has the time of the frame without them, not 33 or 250 ms later.
    @Test func arrivingTilesAreDrawnAtOnce() throws {
        let sources = try Self.sources("helsinki-omt.pmtiles")
        let s = try Self.state(lat: 60.1690, lon: 24.9420, zoom: 15)
        var frames: [(frame: Frame, time: Double)] = []
        let (end, _) = ScriptedRecording.play(s, keys: [], tour: nil, sources: sources, mode: .plain, spaced: true) {
            screenful, _, _, time in frames.append((screenful.frame, time))
        }
        #expect(frames.count == 2, "\(frames.map(\.time))")
        #expect(frames.first?.frame.line(28).contains("loading") == true)
        #expect(frames.last?.frame.line(28).contains("loading") == false)
        #expect(frames.first?.time == frames.last?.time)
        #expect(end.requestedTiles.isEmpty)
        #expect(
            frames.last?.frame
                == Self.loaded(
                    s, sources: try Self.sources("helsinki-omt.pmtiles"), options: RenderOptions(mode: .plain)))
    }
}

extension TileRenderingTests {
    /// A script ends, and on the screen of its last view with that view's tiles: after `q`, and with a
    /// cache too small for the view (what a view loaded and let go is asked for once, not in a loop).
    @Test(arguments: [TileSource.defaultCacheBytes, 1 << 20, 20_000])
    func aScriptEndsOnItsLastViewWithItsTiles(cacheBytes: Int) throws {
        func sources() throws -> MapSources {
            let tiles = TileSource(
                archive: try TileArchives.open(Self.path("helsinki-omt.pmtiles")), label: "tiles",
                cacheBytes: cacheBytes)
            return MapSources(features: FeatureSources(base: Self.bundledWorld, details: [tiles]))
        }
        let s = try Self.state(lat: 60.1690, lon: 24.9420, zoom: 14)
        let keys = try KeyScript.parse("z15<Enter>lq").get()
        let (end, screen) = ScriptedRecording.play(
            s, keys: keys, tour: nil, sources: try sources(), mode: .plain, spaced: false)
        #expect(end.view.zoom == 15)
        let last = try #require(screen.last)
        #expect(!last.frame.line(28).contains("loading"), "\(last.frame.line(28))")
        if cacheBytes == TileSource.defaultCacheBytes {
            #expect(last.frame == Self.loaded(end, sources: try sources(), options: RenderOptions(mode: .plain)))
        }
    }
}
