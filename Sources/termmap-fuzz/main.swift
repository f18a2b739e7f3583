import Foundation
import GeoCore
import MapBuilders
import MapData
import MapFormats
import MapRender
import Raster
import Routing
import Support
import TestSupport
import Viewer

// termmap-fuzz: seeded fuzzing of the viewer (keys, mouse, resizes, ticks; over the world and over the
// Helsinki demo city), of the map data reader (truncations, byte flips, forged offsets and counts, in
// format versions 1 and 2; section and chunk bytes changed behind checksums made to match), of the OSM PBF reader and importer, and of the PMTiles, MBTiles and MVT
// readers, of TileJSON documents, download journals and the disk cache of remote sources, of the user's own files (GeoJSON, CSV, GPX, KML), and of the sanitiser and the width function (random outside text on screen). Same seed, same cases.
//   termmap-fuzz [--events N] [--mutations N] [--seed S]
// Prints the counts tried and a closing 'N passed, N failed' line; exits 1 on any failure.

let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

func peakRSSMegabytes() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_maxrss) / 1024
}

nonisolated(unsafe) var failures: [String] = []  // one thread only
func fail(_ s: String) {
    if failures.count < 50 { FileHandle.standardError.write(Data("FAIL \(s)\n".utf8)) }
    failures.append(s)
}

// MARK: Viewer events

func randomKey(_ r: inout SeededRandom) -> Key {
    let specials: [Key] = [.enter, .escape, .backspace, .left, .right, .up, .down, .ctrlL, .ctrlC]
    // Every key the keymap binds (new commands are fuzzed as soon as they have a key).
    let keymapChars: [Character] = Keymap.standard.bindings.flatMap(\.keys).compactMap {
        if case .char(let c) = $0 { c } else { nil }
    }
    let promptChars = Array("0123456789.-,e kmiftabcxyzé漢😀")
    switch r.below(10) {
    case 0, 1: return specials[r.below(specials.count)]
    case 2, 3, 4, 5: return .char(keymapChars[r.below(keymapChars.count)])
    case 6, 7, 8: return .char(promptChars[r.below(promptChars.count)])
    default:
        let scalar = Unicode.Scalar(UInt32(32 + r.below(0x2FFF))) ?? "x"
        return .char(Character(scalar))
    }
}

func randomEvent(_ r: inout SeededRandom, _ s: ViewerState) -> InputEvent {
    let col = r.below(s.terminalCols + 10) - 5
    let row = r.below(s.terminalRows + 10) - 5
    switch r.below(100) {
    case 0..<70: return .key(randomKey(&r))
    case 70..<78: return .mouse(.wheelUp(col: col, row: row))
    case 78..<86: return .mouse(.wheelDown(col: col, row: row))
    case 86..<88: return .mouse(.click(col: col, row: row))
    case 88..<90: return .mouse(.drag(dx: r.below(41) - 20, dy: r.below(21) - 10))
    case 90..<95: return .tick(seconds: [0.0, 0.016, 0.1, 1, -1, .nan, .infinity][r.below(7)])
    default:
        // Mostly terminal-like sizes, sometimes tiny or huge.
        let big = r.below(10) == 0
        return .resize(cols: 1 + r.below(big ? 400 : 140), rows: 1 + r.below(big ? 150 : 50))
    }
}

func fuzzViewer(
    events: Int, seed: UInt64, sources: MapSources, center: (Double, Double) = (0, 0), zoom: Double = 0
) -> Int {
    var r = SeededRandom(state: seed)
    var state: ViewerState
    do {
        state = try SessionStart(
            cols: 80, rows: 24, center: Coordinate(latitude: center.0, longitude: center.1), zoom: zoom
        ).state()
    } catch {
        fail("initial state: \(error)")
        return 0
    }
    var checked = 0
    for i in 0..<events {
        let event = randomEvent(&r, state)
        state.update(event, places: sources)  // effects (quit, repaint) end nothing here: the fuzz goes on
        let v = state.view
        let c = v.center
        guard c.latitude.isFinite, c.longitude.isFinite, abs(c.latitude) <= WebMercator.maxLatitude,
            c.longitude >= -180, c.longitude < 180, v.zoom >= 0, v.zoom <= 28, !v.zoom.isNaN
        else {
            fail("event \(i) \(event): state \(c) zoom \(v.zoom)")
            break
        }
        let shown = state.displayedView
        guard shown.zoom >= 0, shown.zoom <= 28, shown.center.latitude.isFinite else {
            fail("event \(i) \(event): displayed view \(shown.center) zoom \(shown.zoom)")
            break
        }
        let frame = Renderer.render(
            state, sources: sources, options: RenderOptions(mode: ColorMode.allCases[r.below(ColorMode.allCases.count)])
        )
        guard frame.cols == state.terminalCols, frame.rows == state.terminalRows,
            frame.cells.count == state.terminalCols * state.terminalRows
        else {
            fail(
                "event \(i) \(event): frame \(frame.cols)x\(frame.rows) for terminal \(state.terminalCols)x\(state.terminalRows)"
            )
            break
        }
        checked += 1
    }
    return checked
}

// MARK: Data mutations

enum Mutation: CaseIterable {
    case truncate, flip, flips, headerField, indexField, levelField, hugeCount
    /// Bytes of the places, names, metadata or search section, or of one chunk's payload, changed and the
    /// checksums made to match: what the section and chunk decoders see behind them.
    case sectionBytes, payloadBytes
}

func mutate(_ original: [UInt8], _ kind: Mutation, _ r: inout SeededRandom) -> [UInt8] {
    var b = original
    func u32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(b[at + $1]) << (8 * $1) } }
    func put(_ v: UInt32, at: Int) {
        for i in 0..<4 where at + i < b.count { b[at + i] = UInt8(truncatingIfNeeded: v >> (8 * UInt32(i))) }
    }
    let f = MapAssetFormat.self
    let layout = f.layout(version: Int(b[f.HeaderField.version]))
    let levels = u32(f.HeaderField.levelCount)
    let chunks = u32(f.HeaderField.chunkCount)
    let indexStart = layout.header + layout.levelEntry * levels
    let interesting: [UInt32] = [
        0, 1, 0xFFFF_FFFF, 0x7FFF_FFFF, 0x8000_0000, UInt32(b.count), UInt32(b.count + 1), 36, 48,
    ]
    func value() -> UInt32 {
        r.below(2) == 0 ? interesting[r.below(interesting.count)] : UInt32(truncatingIfNeeded: r.next())
    }
    switch kind {
    case .truncate:
        b = Array(b.prefix(r.below(b.count)))
    case .flip:
        b[r.below(b.count)] ^= UInt8(1 + r.below(255))
    case .flips:
        for _ in 0..<(2 + r.below(30)) { b[r.below(b.count)] ^= UInt8(1 + r.below(255)) }
    case .headerField:
        put(value(), at: f.HeaderField.flags + 4 * r.below((layout.header - f.HeaderField.flags) / 4))
        b = MapAsset.resealed(b) ?? b
    case .indexField:
        put(value(), at: indexStart + layout.chunkEntry * r.below(chunks) + 4 * r.below(layout.chunkEntry / 4))
        b = MapAsset.resealed(b) ?? b
    case .levelField:
        put(value(), at: layout.header + layout.levelEntry * r.below(levels) + 4 * r.below(layout.levelEntry / 4))
        b = MapAsset.resealed(b) ?? b
    case .sectionBytes, .payloadBytes:
        // Where: after the chunk data, or inside one chunk's payload (index entry: offset +20, length +24).
        var range = u32(f.HeaderField.cityOffset)..<b.count
        if kind == .payloadBytes, chunks > 0 {
            let entry = indexStart + layout.chunkEntry * r.below(chunks)
            let start = u32(f.HeaderField.dataOffset) + u32(entry + 20)
            range = start..<min(b.count, start + u32(entry + 24))
        }
        guard !range.isEmpty else { return b }
        let at = range.lowerBound + r.below(range.count)
        if r.below(2) == 0 {
            b[at] ^= UInt8(1 + r.below(255))
        } else {
            // The largest varint (zigzag: −2^63), over what was there.
            let varint: [UInt8] = Array(repeating: 0xFF, count: 9) + [0x01]
            for (k, byte) in varint.enumerated() where at + k < range.upperBound { b[at + k] = byte }
        }
        b = MapAsset.resealed(b, chunkChecksums: kind == .payloadBytes) ?? b
    case .hugeCount:
        put(
            [0xFFFF_FFFF, 0x00FF_FFFF, UInt32(chunks * 2), UInt32(levels + 1)][r.below(4)],
            at: [f.HeaderField.levelCount, f.HeaderField.chunkCount, f.HeaderField.placeCount][r.below(3)])
        b = MapAsset.resealed(b) ?? b
    }
    return b
}

/// Loads a mutated file and reads what a viewer would: typed error or valid data, in bounded time.
func exercise(_ bytes: [UInt8], _ r: inout SeededRandom) -> (loaded: Bool, error: Bool) {
    do {
        let asset = try MapAsset(bytes: bytes, name: "mutated.tmap")
        var indices = (0..<min(asset.chunks.count, 20)).map { _ in r.below(max(1, asset.chunks.count)) }
        indices += [0, asset.chunks.count - 1].filter { $0 >= 0 }
        for i in indices { _ = try asset.chunk(i) }
        for (lat, lon) in [(0.0, 0.0), (60.0, 5.0), (-17.7, 179.5)] {
            let b = CoordinateBounds(north: lat + 5, south: lat - 5, west: lon - 10, east: lon + 10)
            _ = try asset.query(bounds: b, level: asset.level(forZoom: 5))
        }
        _ = try asset.placePoints(populationAtLeast: 1_000_000)
        let points = try asset.placePoints()
        _ = asset.placeName(points.count - 1)
        _ = try asset.cities()
        _ = try asset.names()
        _ = try asset.placeNames()
        _ = try asset.network()
        return (true, false)
    } catch {
        return (false, true)
    }
}

func fuzzData(_ file: String, mutations: Int, seed: UInt64) -> (tried: Int, errors: Int, valid: Int, slowest: Double) {
    let path = packageRoot.appendingPathComponent(file).path
    guard let data = FileManager.default.contents(atPath: path) else {
        fail("cannot read \(path)")
        return (0, 0, 0, 0)
    }
    let original = [UInt8](data)
    var r = SeededRandom(state: seed)
    var errors = 0
    var valid = 0
    var slowest = 0.0
    for i in 0..<mutations {
        let kind = Mutation.allCases[i % Mutation.allCases.count]
        let bytes = mutate(original, kind, &r)
        let t0 = now()
        let outcome = exercise(bytes, &r)
        let dt = now() - t0
        slowest = max(slowest, dt)
        if dt > 2 { fail("mutation \(i) (\(kind)) took \(dt) s") }
        if outcome.error { errors += 1 } else { valid += 1 }
        // A byte flip or a truncation can never leave the file valid: the checksums must catch it.
        if (kind == .truncate || kind == .flip) && outcome.loaded && bytes != original {
            // A flip in a chunk not read above is caught when that chunk is read: check it.
            if kind == .flip, let asset = try? MapAsset(bytes: bytes) {
                var caught = false
                for c in asset.chunks.indices where (try? asset.chunk(c)) == nil {
                    caught = true
                    break
                }
                if !caught, (try? asset.cities()) != nil, (try? asset.network()) != nil {
                    fail("mutation \(i): a byte flip went unnoticed")
                }
            } else if kind == .truncate {
                fail("mutation \(i): a truncated file loaded")
            }
        }
    }
    return (mutations, errors, valid, slowest)
}

// MARK: OSM PBF mutations

/// Reads a mutated PBF the way `data import-osm` does: a typed error or contents, in bounded time.
func fuzzPBF(_ file: String, mutations: Int, seed: UInt64) -> (tried: Int, errors: Int, slowest: Double) {
    let path = packageRoot.appendingPathComponent(file).path
    guard let data = FileManager.default.contents(atPath: path) else {
        fail("cannot read \(path)")
        return (0, 0, 0)
    }
    let original = [UInt8](data)
    var r = SeededRandom(state: seed)
    var errors = 0
    var slowest = 0.0
    for i in 0..<mutations {
        var b = original
        switch i % 4 {
        case 0: b = Array(b.prefix(r.below(b.count)))
        case 1: b[r.below(b.count)] ^= UInt8(1 + r.below(255))
        case 2: for _ in 0..<(2 + r.below(20)) { b[r.below(b.count)] ^= UInt8(1 + r.below(255)) }
        default:
            // A blob length or varint pushed to an extreme.
            let at = r.below(b.count)
            for k in 0..<min(4, b.count - at) { b[at + k] = [0xff, 0x7f, 0x80, 0x00][r.below(4)] }
        }
        let t0 = now()
        do {
            let (contents, _) = try OSMImporter.contents(
                pbf: b, name: "mutated.osm.pbf", source: "mutated", classMinZoom: StyleTable.minZoom)
            _ = MapAssetWriter.encode(contents)
        } catch {
            errors += 1
            if error.description.contains("\n") { fail("PBF mutation \(i): a message of more than one line") }
        }
        let dt = now() - t0
        slowest = max(slowest, dt)
        if dt > 2 { fail("PBF mutation \(i) took \(dt) s") }
    }
    return (mutations, errors, slowest)
}

// MARK: Vector tiles

/// A tileset in memory whose one tile is given (for mutated MVT tiles).
final class OneTileArchive: TileArchive {
    let info = TilesetInfo(
        format: "fuzz", name: "fuzz", minZoom: 14, maxZoom: 14,
        bounds: CoordinateBounds(north: 85, south: -85, west: -180, east: 180), tileCount: 1, attribution: nil,
        layers: [], compression: "none")
    let tile: TileID
    let bytes: [UInt8]
    init(tile: TileID, bytes: [UInt8]) {
        self.tile = tile
        self.bytes = bytes
    }
    func storedTiles(_ ids: [TileID], wanted: @escaping @Sendable (TileID) -> Bool) -> [TileID: Result<
        [UInt8]?, TileFailure
    >] {
        Dictionary(uniqueKeysWithValues: ids.map { ($0, .success($0 == tile ? bytes : nil)) })
    }
}

/// Views over the Helsinki fixtures' tiles, at tile zooms 12 to 14.
let tileViews: [(bounds: CoordinateBounds, zoom: Double)] = [12.0, 13, 14, 16].map { z in
    (CoordinateBounds(north: 60.18, south: 60.16, west: 24.93, east: 24.96), z)
}

/// Reads every tile of the views through a tile source: a typed error or tiles, in bounded time.
func exerciseTiles(_ archive: any TileArchive) {
    let source = TileSource(archive: archive, label: "fuzz", cacheBytes: 1 << 20)
    for v in tileViews {
        guard let view = try? source.chunks(in: v.bounds, zoom: v.zoom, classes: TileSchema.classes) else { continue }
        source.load(view.missing)
        _ = try? source.chunks(in: v.bounds, zoom: v.zoom, classes: TileSchema.classes)
    }
}

/// A byte mutation: truncation, flips, or a run of extreme varint bytes.
func mutateBytes(_ original: [UInt8], _ i: Int, _ r: inout SeededRandom, from: Int = 0) -> [UInt8] {
    var b = original
    guard b.count > from + 1 else { return b }
    func at() -> Int { from + r.below(b.count - from) }
    switch i % 4 {
    case 0: b = Array(b.prefix(from + r.below(b.count - from)))
    case 1: b[at()] ^= UInt8(1 + r.below(255))
    case 2: for _ in 0..<(2 + r.below(20)) { b[at()] ^= UInt8(1 + r.below(255)) }
    default:
        let p = at()
        for k in 0..<min(6, b.count - p) { b[p + k] = [0xff, 0x7f, 0x80, 0x00, 0x01][r.below(5)] }
    }
    return b
}

// MARK: Raster tiles' images (issue 47)

/// Damaged PNG, JPEG and WebP tiles (the fixtures cut, flipped or overwritten): each decodes or ends in
/// one typed error, in bounded time, never bigger than the ceiling.
func fuzzImages(mutations: Int, seed: UInt64) -> [(name: String, tried: Int, decoded: Int, slowest: Double)] {
    var r = SeededRandom(state: seed)
    var out: [(String, Int, Int, Double)] = []
    for name in ["stripes.png", "stripes.jpg", "stripes.webp"] {
        let path = packageRoot.appendingPathComponent("Tests/MapDataTests/Fixtures/images/" + name).path
        guard let data = FileManager.default.contents(atPath: path) else {
            fail("cannot read \(path)")
            continue
        }
        let original = [UInt8](data)
        var decoded = 0
        var slowest = 0.0
        for i in 0..<mutations {
            let bytes = mutateBytes(original, i, &r)
            let t0 = now()
            if let image = try? TileImage.decode(bytes, name: name) {
                decoded += 1
                if image.width > TileImage.maxSide || image.height > TileImage.maxSide
                    || image.rgba.count != image.width * image.height * 4
                {
                    fail("\(name) mutation \(i): an image of \(image.width)×\(image.height), \(image.rgba.count) bytes")
                }
            }
            let dt = now() - t0
            slowest = max(slowest, dt)
            if dt > 2 { fail("\(name) mutation \(i) took \(dt) s") }
        }
        out.append((name, mutations, decoded, slowest))
    }
    return out
}

// MARK: The street network (issue 46)

/// Damaged network sections (the demo city's, inflated, then cut, flipped or overwritten): each is
/// refused or read, and what is read is routed on and reached from without a crash, in bounded time.
func fuzzNetwork(mutations: Int, seed: UInt64) -> (tried: Int, read: Int, slowest: Double) {
    let path = packageRoot.appendingPathComponent("assets/helsinki.tmap").path
    guard let asset = try? MapAsset(path: path), let network = try? asset.network() else {
        fail("the demo city has no network")
        return (0, 0, 0)
    }
    let original = RoadNetworkCoding.encodeRaw(network)
    var r = SeededRandom(state: seed)
    var read = 0
    var slowest = 0.0
    for i in 0..<mutations {
        let bytes = mutateBytes(original, i, &r)
        let t0 = now()
        if let n = bytes.withUnsafeBytes({ RoadNetworkCoding.decode(raw: $0) }), n.nodeCount > 0 {
            read += 1
            let router = Router(n)
            let a = n.node(r.below(n.nodeCount))
            let b = n.node(r.below(n.nodeCount))
            for profile in RouteProfile.allCases {
                if case .success(let path) = router.route(from: a, to: b, profile: profile) {
                    _ = RouteSteps.steps(path, router: router)
                    _ = router.geometry(path)
                }
            }
            if let start = router.snap(a, profile: .foot) {
                _ = router.reach(from: start, seconds: 300, profile: .foot)
            }
        }
        let dt = now() - t0
        slowest = max(slowest, dt)
        if dt > 2 { fail("network mutation \(i) took \(dt) s") }
    }
    return (mutations, read, slowest)
}

/// One mutated input tried: `body` either succeeds or ends in a one-line typed error, within 2 s; the
/// time goes into `slowest`. True when it succeeded.
@discardableResult
func trial(_ label: String, slowest: inout Double, _ body: () throws(MapDataError) -> Void) -> Bool {
    let t0 = now()
    var ok = true
    do {
        try body()
    } catch {
        ok = false
        if error.description.contains("\n") { fail("\(label): a message of more than one line") }
    }
    let dt = now() - t0
    slowest = max(slowest, dt)
    if dt > 2 { fail("\(label) took \(dt) s") }
    return ok
}

/// PMTiles files mutated: headers (u64 offsets and lengths set to extremes), directories and tiles.
func fuzzPMTiles(_ original: [UInt8], name: String, mutations: Int, seed: UInt64) -> (
    tried: Int, opened: Int, slowest: Double
) {
    var r = SeededRandom(state: seed)
    var opened = 0
    var slowest = 0.0
    let extremes: [UInt64] = [
        0, 1, 126, 127, 16_384, UInt64(original.count), UInt64(original.count) + 1, UInt64.max, 1 << 63,
    ]
    for i in 0..<mutations {
        var b: [UInt8]
        if i % 5 == 4 {
            // A header field (offset, length or count) forged.
            b = original
            let field = 8 + 8 * r.below(11)
            let v = extremes[r.below(extremes.count)]
            for k in 0..<8 { b[field + k] = UInt8(truncatingIfNeeded: v >> (8 * UInt64(k))) }
        } else {
            b = mutateBytes(original, i, &r)
        }
        trial("\(name) mutation \(i)", slowest: &slowest) { () throws(MapDataError) in
            let archive = try PMTilesArchive(source: LocalFileSource(bytes: b, name: "mutated.pmtiles"))
            opened += 1
            exerciseTiles(archive)
        }
    }
    return (mutations, opened, slowest)
}

/// MBTiles files mutated (SQLite pages and tile blobs), opened from a temporary file.
func fuzzMBTiles(_ file: String, mutations: Int, seed: UInt64) -> (tried: Int, opened: Int, slowest: Double) {
    let path = packageRoot.appendingPathComponent(file).path
    guard let data = FileManager.default.contents(atPath: path) else {
        fail("cannot read \(path)")
        return (0, 0, 0)
    }
    let original = [UInt8](data)
    let temp = NSTemporaryDirectory() + "termmap-fuzz-\(getpid()).mbtiles"
    defer { try? FileManager.default.removeItem(atPath: temp) }
    var r = SeededRandom(state: seed)
    var opened = 0
    var slowest = 0.0
    for i in 0..<mutations {
        // Past SQLite's 100-byte header half the time (its pages and the tile blobs).
        let b = mutateBytes(original, i, &r, from: i % 2 == 0 ? 100 : 0)
        guard FileManager.default.createFile(atPath: temp, contents: Data(b)) else {
            fail("cannot write \(temp)")
            break
        }
        trial("mbtiles mutation \(i)", slowest: &slowest) { () throws(MapDataError) in
            let archive = try MBTilesArchive(path: temp)
            opened += 1
            exerciseTiles(archive)
            _ = archive.countTiles()
        }
    }
    return (mutations, opened, slowest)
}

/// GSHHG shorelines and rivers (basemap's meta text and float32 records) and the asset builder's TMRAW
/// lines, mutated: each reader ends in its result or one typed line.
func fuzzShorelineInputs(mutations: Int, seed: UInt64) -> (tried: Int, read: Int, slowest: Double) {
    var data: [UInt8] = []
    var meta: [String] = []
    for (k, (lon, lat)) in [(10.0, 46.0), (190.0, -17.0), (-70.0, 45.0)].enumerated() {
        let start = data.count
        for (dx, dy) in [(0.0, 0.0), (0.5, 0.0), (0.5, 0.5), (0.0, 0.0)] {
            for v in [Float(lon + dx), Float(lat + dy)] {
                withUnsafeBytes(of: v.bitPattern.littleEndian) { data += $0 }
            }
        }
        meta.append("\(k + 1) 1.5 4 \(lat) \(lat + 0.5) \(start) \(data.count - start) \(k)")
    }
    var raw = Array("TMRAW001".utf8)
    for tag: UInt8 in [0, 3, 0x83, 4] {
        raw.append(tag)
        withUnsafeBytes(of: UInt32(4).littleEndian) { raw += $0 }
        for v in [1.0, 2.0, 3.0, 2.0, 1.0, 4.0, 1.0, 2.0] {
            withUnsafeBytes(of: v.bitPattern.littleEndian) { raw += $0 }
        }
    }
    let metaBytes = Array(meta.joined(separator: "\n").utf8)
    var r = SeededRandom(state: seed)
    var read = 0
    var slowest = 0.0
    for i in 0..<mutations {
        let d = i % 3 == 0 ? mutateBytes(data, i, &r) : data
        let m =
            i % 3 == 1 ? String(decoding: mutateBytes(metaBytes, i, &r), as: UTF8.self) : meta.joined(separator: "\n")
        let t = i % 3 == 2 ? mutateBytes(raw, i, &r) : raw
        if trial(
            "gshhg mutation \(i)", slowest: &slowest,
            { () throws(MapDataError) in
                _ = try SourceReaders.gshhg(meta: m, data: d, name: "gshhs_f.dat")
                _ = try SourceReaders.gshhgRivers(meta: m, data: d, name: "rivers_f.dat")
                _ = try SourceReaders.rawLines(t, name: "lines.bin")
            })
        {
            read += 1
        }
    }
    return (mutations, read, slowest)
}

/// MVT tiles mutated (the fixture's densest tile, inflated), decoded and drawn into chunks.
func fuzzMVT(_ tile: [UInt8], at id: TileID, mutations: Int, seed: UInt64) -> (
    tried: Int, decoded: Int, slowest: Double
) {
    var r = SeededRandom(state: seed)
    var decoded = 0
    var slowest = 0.0
    for i in 0..<mutations {
        let b = mutateBytes(tile, i, &r)
        let t0 = now()
        if MVTDecoder.decode(b) != nil { decoded += 1 }
        exerciseTiles(OneTileArchive(tile: id, bytes: b))
        let dt = now() - t0
        slowest = max(slowest, dt)
        if dt > 2 { fail("MVT mutation \(i) took \(dt) s") }
    }
    return (mutations, decoded, slowest)
}

// MARK: Remote sources: TileJSON, the download journal, the disk cache

/// TileJSON documents mutated (text and bytes): `TileJSON.parse` gives a tileset or one line.
func fuzzTileJSON(mutations: Int, seed: UInt64) -> (tried: Int, parsed: Int, slowest: Double) {
    let original = Array(
        #"""
        {"tilejson":"3.0.0","name":"fuzz","tiles":["https://tiles.example.org/{z}/{x}/{y}.pbf","http://b.example.org/t/{z}/{x}/{y}"],
         "scheme":"tms","minzoom":0,"maxzoom":14,"bounds":[-180,-85.0511,180,85.0511],"center":[24.94,60.17,12],
         "attribution":"<a href=\"https://openmaptiles.org/\">&copy; OpenMapTiles</a> \u00a9 OSM",
         "vector_layers":[{"id":"water","fields":{"class":"String"}},{"id":"transportation","minzoom":4,"maxzoom":14}]}
        """#.utf8)
    var r = SeededRandom(state: seed)
    var parsed = 0
    var slowest = 0.0
    let tokens = [
        "{", "}", "[", "]", "\"", ",", ":", "\\u", "\\", "1e999", "-0", "null", "true", "9223372036854775808", "\u{0}",
    ]
    for i in 0..<mutations {
        var b = mutateBytes(original, i, &r)
        if i % 3 == 2 {
            // A JSON token put anywhere: unbalanced brackets, escapes, numbers out of range.
            let p = r.below(b.count)
            b.insert(contentsOf: Array(tokens[r.below(tokens.count)].utf8), at: p)
        }
        if trial(
            "tilejson mutation \(i)", slowest: &slowest,
            { () throws(MapDataError) in
                let t = try TileJSON.parse(b, url: "https://example.org/fuzz.json")
                if t.templates.isEmpty || t.minZoom > t.maxZoom || t.maxZoom > 24 {
                    fail("tilejson mutation \(i): \(t.templates.count) templates, zooms \(t.minZoom)-\(t.maxZoom)")
                }
            })
        {
            parsed += 1
        }
    }
    return (mutations, parsed, slowest)
}

// MARK: Position: gpsd's JSON and NMEA 0183 (issue 49)

/// gpsd reports and NMEA sentences mutated (bytes, and JSON tokens put anywhere): each line is a report,
/// nothing, or (gpsd) one thrown line; every fix taken is a place on Earth; within 2 s each.
func fuzzPositionReaders(mutations: Int, seed: UInt64) -> (tried: Int, fixes: Int, slowest: Double) {
    let tpv = Array(
        #"{"class":"TPV","device":"/dev/ttyUSB0","mode":3,"time":"2024-05-01T10:15:00.000Z","lat":60.169900000,"lon":24.938400000,"altMSL":12.5,"track":90.0,"speed":12.0,"eph":17.1}"#
            .utf8)
    let sky = Array(
        #"{"class":"SKY","uSat":8,"nSat":11,"satellites":[{"PRN":4,"used":true},{"PRN":5,"used":false}]}"#.utf8)
    let nmea = [
        "$GPGGA,101500.00,6010.194000,N,02456.316970,E,1,08,0.9,12.0,M,17.0,M,,*59",
        "$GPGSA,A,3,04,05,09,12,24,25,29,31,,,,,1.8,0.9,1.5*35",
        "$GPRMC,101500.00,A,6010.194000,N,02456.316970,E,23.326,90.0,010524,,,A*52",
    ].map { Array($0.utf8) }
    let tokens = ["{", "}", "[", "\"", ",", ":", "1e999", "-0", "null", "*00", "$", "\u{0}", "NaN", "999999"]
    var r = SeededRandom(state: seed)
    var fixes = 0
    var slowest = 0.0
    var reader = NMEAReader()
    func check(_ report: GPSReport?, _ label: String) {
        guard case .fix(let f) = report else { return }
        fixes += 1
        if !(f.latitude.isFinite && f.longitude.isFinite && abs(f.latitude) <= 90 && abs(f.longitude) <= 180) {
            fail("\(label): a fix at \(f.latitude), \(f.longitude)")
        }
        if let t = f.time, GPSDReports.isoTime(t) == nil { fail("\(label): a time that is no time") }
    }
    for i in 0..<mutations {
        let original = i % 5 == 0 ? sky : i % 5 == 1 ? tpv : nmea[i % 3]
        var b = mutateBytes(original, i, &r)
        if i % 4 == 3 { b.insert(contentsOf: Array(tokens[r.below(tokens.count)].utf8), at: r.below(b.count + 1)) }
        if i % 4 == 0 {
            // Gentle: a few digits changed, the rest as it was (positions past 90°, minutes past 60, a
            // mode of 9): what the field readers must check.
            b = original
            let digits = b.indices.filter { (0x30...0x39).contains(b[$0]) }
            for _ in 0..<(1 + r.below(3)) { b[digits[r.below(digits.count)]] = UInt8(0x30 + r.below(10)) }
        }
        if i % 6 == 1 || i % 4 == 0, let star = b.lastIndex(of: UInt8(ascii: "*")),
            let dollar = b.firstIndex(of: UInt8(ascii: "$")),
            dollar < star
        {
            // The checksum made to match: what the field readers see behind it.
            let sum = b[(dollar + 1)..<star].reduce(UInt8(0), ^)
            let hex = Array(String(sum, radix: 16, uppercase: true).utf8)
            b = Array(b[...star]) + (hex.count == 1 ? [UInt8(ascii: "0")] + hex : hex)
        }
        let started = now()
        if original.first == UInt8(ascii: "{") {
            check(try? GPSDReports.report(b), "gpsd mutation \(i)")
        } else {
            check(reader.take(b), "nmea mutation \(i)")
        }
        slowest = max(slowest, now() - started)
        if now() - started > 2 { fail("position mutation \(i) took \(now() - started) s") }
    }
    return (mutations, fixes, slowest)
}

/// Download journals mutated (what a killed `data get` leaves): reopened, every record it keeps lies
/// inside the file and reads back, and recording goes on.
func fuzzDownloadJournal(mutations: Int, seed: UInt64) -> (tried: Int, kept: Int, slowest: Double) {
    let path = NSTemporaryDirectory() + "termmap-fuzz-\(getpid()).pmtiles.part"
    defer { try? FileManager.default.removeItem(atPath: path) }
    let what = "fuzz 14 24.90,60.15,24.99,60.19"
    var original: [UInt8] = []
    do {
        try? FileManager.default.removeItem(atPath: path)
        let journal = try DownloadJournal(path: path, what: what)
        for k in 0..<12 {
            try journal.record(
                TileID(z: 14, x: 9320 + k, y: 4742), k % 4 == 3 ? nil : Array(repeating: UInt8(k), count: 5 + 7 * k))
        }
        journal.flush()
        original = [UInt8](FileManager.default.contents(atPath: path) ?? Data())
    } catch {
        fail("download journal: \(error)")
        return (0, 0, 0)
    }
    var r = SeededRandom(state: seed)
    var kept = 0
    var slowest = 0.0
    for i in 0..<mutations {
        let b = i % 7 == 6 ? (0..<r.below(400)).map { _ in UInt8(r.below(256)) } : mutateBytes(original, i, &r)
        guard FileManager.default.createFile(atPath: path, contents: Data(b)) else {
            fail("cannot write \(path)")
            break
        }
        trial("download journal mutation \(i)", slowest: &slowest) { () throws(MapDataError) in
            let journal = try DownloadJournal(path: path, what: what)
            kept += journal.recorded.count
            let size = Int((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
            for case (let id, let place?) in journal.recorded {
                guard place.offset >= 0, place.length >= 0, place.offset + place.length <= size else {
                    fail(
                        "download journal mutation \(i): tile \(id) at \(place.offset)+\(place.length) past \(size) bytes"
                    )
                    continue
                }
                _ = try journal.bytes(at: place.offset, length: place.length)
            }
            try journal.record(TileID(z: 14, x: 9400, y: 4742), [1, 2, 3])
        }
    }
    return (mutations, kept, slowest)
}

/// Disk caches of remote sources mutated, opened with no server (port 9 of loopback refuses): their
/// SQLite pages, and the rows kept in them (the TileJSON document, a PMTiles header, tiles, entries
/// gone stale). The source opens from the cache or ends in one line; its tiles draw or stay missing.
func fuzzDiskCache(_ pmtiles: [UInt8], tile: [UInt8], mutations: Int, seed: UInt64) -> (
    tried: Int, opened: Int, slowest: Double
) {
    let folder = NSTemporaryDirectory() + "termmap-fuzz-cache-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let tileJSON = Array(
        #"{"tilejson":"3.0.0","tiles":["http://127.0.0.1:9/{z}/{x}/{y}.pbf"],"minzoom":0,"maxzoom":14}"#.utf8)
    let ids = [TileID(z: 14, x: 9327, y: 4742), TileID(z: 14, x: 9326, y: 4742), TileID(z: 13, x: 4663, y: 2371)]
    var r = SeededRandom(state: seed)
    var opened = 0
    var slowest = 0.0
    for i in 0..<mutations {
        try? FileManager.default.removeItem(atPath: folder)
        let pm = i % 2 == 1
        let location = pm ? "http://127.0.0.1:9/fuzz.pmtiles" : "http://127.0.0.1:9/fuzz.json"
        // The rows: kept as a run of the source would keep them, one of them mutated.
        guard case (let cache?, _) = TileDiskCache.open(source: location, folder: folder) else {
            fail("cannot make a cache in \(folder)")
            break
        }
        let rowsMutated = i % 4 < 2
        let stale: Int64 = r.below(3) == 0 ? 0 : .max
        if pm {
            let head = Array(pmtiles.prefix(16_384))
            cache.put(
                resource: HTTPRangeSource.headerKey,
                .init(body: rowsMutated ? mutateBytes(head, i / 4, &r) : head, etag: "\"e\"", expires: stale))
        } else {
            cache.put(
                resource: "tilejson",
                .init(
                    body: rowsMutated && r.below(2) == 0 ? mutateBytes(tileJSON, i / 4, &r) : tileJSON, expires: stale))
            for id in ids {
                let body: [UInt8]? = r.below(5) == 0 ? nil : rowsMutated ? mutateBytes(tile, i / 4, &r) : tile
                cache.put(id, .init(body: body, etag: r.below(2) == 0 ? "" : "\"\(i)\"", expires: stale))
            }
        }
        cache.close()
        if !rowsMutated {
            // The file itself: its pages (past SQLite's 100-byte header half the time).
            let file = cache.path
            let bytes = [UInt8](FileManager.default.contents(atPath: file) ?? Data())
            _ = FileManager.default.createFile(
                atPath: file, contents: Data(mutateBytes(bytes, i / 4, &r, from: i % 8 < 4 ? 100 : 0)))
            try? FileManager.default.removeItem(atPath: file + "-wal")
        }
        trial("disk cache mutation \(i)", slowest: &slowest) { () throws(MapDataError) in
            var notices: [String] = []
            let archive = try TileArchives.open(location, cache: TileCachePolicy(folder: folder), notices: &notices)
            opened += 1
            exerciseTiles(archive)
            archive.finish()
            for line in notices + archive.takeNotices() where line.contains("\n") {
                fail("disk cache mutation \(i): a notice of more than one line")
            }
        }
    }
    return (mutations, opened, slowest)
}

// MARK: The user's own files

/// The user-data fixtures mutated, each through its reader (GeoJSON in its three framings, CSV/TSV,
/// GPX and KML through expat, the stream's lines): features or one line naming the file, a line and
/// a column, in bounded time; a layer read is drawn.
func fuzzUserData(mutations: Int, seed: UInt64) -> [(name: String, tried: Int, read: Int, slowest: Double)] {
    let folder = packageRoot.appendingPathComponent("Tests/ViewerTests/Fixtures/userdata/")
    var results: [(String, Int, Int, Double)] = []
    let view = try? MapView(
        center: Coordinate(latitude: 20, longitude: 0), zoom: 1, size: try ViewSize(cols: 80, rows: 24))
    let fixture = { (file: String) in
        FileManager.default.contents(atPath: folder.appendingPathComponent(file).path).map { [UInt8]($0) }
    }
    // Made here: a KMZ of the KML (the zip reader), the GPX declared ISO-8859-1 (the encodings), WKT
    // curves in CSV.
    let made: [String: [UInt8]] = [
        "places.kmz": ZipWriter.stored(name: "doc.kml", content: fixture("places.kml") ?? []),
        "latin1.gpx": (fixture("walk.gpx") ?? []).split(separator: 0x0A, maxSplits: 1, omittingEmptySubsequences: false)
            .last.map {
                Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n".utf8) + $0
            } ?? [],
        "curves.csv": Array(
            "id,wkt\n1,\"CIRCULARSTRING(0 0,1 1,2 0,3 -1,4 0)\"\n2,\"CURVEPOLYGON(COMPOUNDCURVE(CIRCULARSTRING(0 0,1 1,2 0),(2 0,0 0)))\"\n3,\"MULTISURFACE(((0 0,1 0,1 1,0 0)))\"\n"
                .utf8),
    ]
    for (file, format) in [
        ("shapes.geojson", UserDataFormat.geojson), ("shapes.ndjson", .geojson), ("points.csv", .csv),
        ("wkt.csv", .csv),
        ("walk.gpx", .gpx), ("places.kml", .kml), ("places.kmz", .kml), ("latin1.gpx", .gpx), ("curves.csv", .csv),
    ] {
        guard let original = made[file] ?? fixture(file) else {
            fail("cannot read the fixture \(file)")
            continue
        }
        var r = SeededRandom(state: seed)
        var read = 0
        var slowest = 0.0
        let tokens = [
            "{", "}", "[", "]", "\"", ",", ":", "\\u", "1e999", "-", "<", ">", "</", "&", "<!ENTITY a \"x\">", "\r\n",
            "\u{1E}", "\0",
        ]
        for i in 0..<mutations {
            var b = mutateBytes(original, i, &r)
            if i % 3 == 2, !b.isEmpty {
                b.insert(contentsOf: Array(tokens[r.below(tokens.count)].utf8), at: r.below(b.count))
            }
            if trial(
                "\(file) mutation \(i)", slowest: &slowest,
                { () throws(MapDataError) in
                    let data = try UserDataReader.read(b, format: format, file: file)
                    if let view {
                        let layer = UserDataLayer(file: UserFile(file: file, format: format, data: data), look: i)
                        _ = MapRenderer.render(
                            into: &scratchFrame, view: view, overlays: [layer], sources: nil,
                            style: MapStyle(mode: .ansi256))
                    }
                })
            {
                read += 1
            }
        }
        results.append((file, mutations, read, slowest))
    }
    results += fuzzDrivers(mutations: mutations, seed: seed)
    results.append(fuzzStreamLines(mutations: mutations, seed: seed, folder: folder))
    return results
}

/// Every format driver's own fuzz entry (its sample, its syntax's tokens): the built-in ones and one
/// registered from outside termmap's targets (TestSupport's toy), so that a new format is fuzzed by
/// being a driver.
func fuzzDrivers(mutations: Int, seed: UInt64) -> [(name: String, tried: Int, read: Int, slowest: Double)] {
    FormatDrivers.register(ToyDriver())
    var results: [(String, Int, Int, Double)] = []
    for driver in FormatDrivers.all {
        let original = Array(driver.fuzzSample.utf8)
        let file = "sample." + (driver.extensions.first ?? driver.format.rawValue)
        var r = SeededRandom(state: seed)
        var read = 0
        var slowest = 0.0
        for i in 0..<mutations {
            var b = mutateBytes(original, i, &r)
            if i % 3 == 2, !b.isEmpty, !driver.fuzzTokens.isEmpty {
                b.insert(
                    contentsOf: Array(driver.fuzzTokens[r.below(driver.fuzzTokens.count)].utf8), at: r.below(b.count))
            }
            if trial(
                "\(driver.title) sample mutation \(i)", slowest: &slowest,
                { () throws(MapDataError) in _ = try UserDataReader.read(b, format: driver.format, file: file) })
            {
                read += 1
            }
        }
        results.append(("\(driver.title) driver's sample", mutations, read, slowest))
    }
    return results
}

/// A stream's lines: mutated Features and live points, one after another into one layer, which keeps
/// only live features (at most one a distinct id).
func fuzzStreamLines(mutations: Int, seed: UInt64, folder: URL) -> (
    name: String, tried: Int, read: Int, slowest: Double
) {
    var r = SeededRandom(state: seed)
    var live = LiveFeatures()
    var slowest = 0.0
    let lines: [[UInt8]] =
        (FileManager.default.contents(atPath: folder.appendingPathComponent("shapes.ndjson").path).map { [UInt8]($0) }
        ?? [])
        .split(separator: 0x0A).map(Array.init)
        + [
            ##"{"id":1,"lat":60.17,"lon":24.94,"label":"bus","color":"#f00"}"##, #"{"id":1,"delete":true}"#,
            #"{"id":"x","lat":1e999,"lon":0}"#,
        ]
        .map { Array($0.utf8) }
    for i in 0..<mutations {
        guard !lines.isEmpty else { break }
        let line = mutateBytes(lines[r.below(lines.count)], i, &r)
        let t0 = now()
        live.take(line)
        slowest = max(slowest, now() - t0)
    }
    let features = live.features
    if features.count > mutations { fail("stream: \(features.count) features kept from \(mutations) lines") }
    return ("stream lines", mutations, mutations - live.badLines, slowest)
}

nonisolated(unsafe) var scratchFrame = Frame(cols: 80, rows: 24)

/// Tour files mutated (the built-in tour's text): `Tour.parse` gives a tour or a one-line error naming its
/// line; a tour it gives is played step by step on a viewer, whose state stays valid.
func fuzzTours(mutations: Int, seed: UInt64) -> (tried: Int, parsed: Int, slowest: Double) {
    let original = Array(Tour.builtinText.utf8)
    var r = SeededRandom(state: seed)
    var parsed = 0
    var slowest = 0.0
    for i in 0..<mutations {
        let text = String(decoding: mutateBytes(original, i, &r), as: UTF8.self)
        let t0 = now()
        switch Tour.parse(text) {
        case .failure(let e):
            // One short line; printError shows any control character in it (`withVisibleControls`).
            if e.description.contains("\n") || e.description.count > 200 {
                fail("tour mutation \(i): not one short line: \(e.description.debugDescription)")
            }
        case .success(let tour):
            parsed += 1
            var start = SessionStart(cols: 80, rows: 24, center: Coordinate(latitude: 0, longitude: 0), zoom: 0)
            start.animations = false
            guard var state = try? start.state() else { break }
            for (k, step) in tour.steps.enumerated() {
                state.play(step, mode: .playing(step: k + 1, steps: tour.steps.count))
                let v = state.view
                if !(v.zoom >= 0 && v.zoom <= 28 && v.center.latitude.isFinite && v.center.longitude.isFinite) {
                    fail("tour mutation \(i), step \(k + 1): view \(v.center) zoom \(v.zoom)")
                }
            }
            _ = Renderer.render(state, sources: nil, options: RenderOptions(mode: .ansi256))
        }
        let dt = now() - t0
        slowest = max(slowest, dt)
        if dt > 2 { fail("tour mutation \(i) took \(dt) s") }
    }
    return (mutations, parsed, slowest)
}

// MARK: Outside text

/// Random text of the characters that trouble terminals: C0, DEL, C1, bidirectional and zero-width
/// controls, combining marks, joiners, CJK and emoji, unassigned and private-use code points, pieces of
/// the hostile corpus, plain letters.
func randomOutsideText(_ r: inout SeededRandom) -> String {
    let ranges: [ClosedRange<UInt32>] = [
        0...0x1F, 0x7F...0x9F, 0x200B...0x200F, 0x202A...0x202E, 0x2060...0x2069, 0x0300...0x036F, 0xFE00...0xFE0F,
        0x1100...0x115F, 0x2E80...0x9FFF, 0xAC00...0xD7A3, 0x1F300...0x1FAFF, 0xE0000...0xE007F, 0xE000...0xF8FF,
        0x0378...0x0379, 0x0041...0x007A, 0x00A0...0x024F, 0x2190...0x2BFF, 0x30000...0x3134A, 0xFFF0...0xFFFF,
    ]
    var out = ""
    for _ in 0..<r.below(40) {
        if r.below(8) == 0 {
            let piece = HostileText.corpus[r.below(HostileText.corpus.count)]
            out += String(piece.prefix(r.below(piece.count + 1)))
            continue
        }
        let range = ranges[r.below(ranges.count)]
        let v = range.lowerBound + UInt32(r.below(Int(range.upperBound - range.lowerBound) + 1))
        if let scalar = Unicode.Scalar(v) { out.unicodeScalars.append(scalar) }
    }
    return out
}

/// `wcwidth` of the C library in C.UTF-8 (looked up by name: Swift's Glibc module leaves it out).
typealias WCWidth = @convention(c) (Int32) -> Int32
let cWidth: WCWidth? = dlsym(nil, "wcwidth").map { unsafeBitCast($0, to: WCWidth.self) }
nonisolated(unsafe) let utf8Locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", nil)

/// The sanitiser and the width function: random outside text made screen text and lines (nothing left
/// that acts on a terminal, and once made safe it stays as it is), written into frames at random
/// columns over random earlier text, painted with random abilities and moves through a terminal in
/// memory: every row is the screen's width by the C library's `wcwidth`, the painter sends nothing
/// foreign, and the terminal shows the frame.
func fuzzOutsideText(cases: Int, seed: UInt64) -> Int {
    var r = SeededRandom(state: seed &+ 43)
    var checked = 0
    let old = uselocale(utf8Locale)
    defer { uselocale(old) }
    for round in 0..<cases / 50 {
        let (cols, rows) = (5 + r.below(60), 1 + r.below(6))
        let mode = [ColorMode.ansi256, .ansi16, .monochrome][r.below(3)]
        let unicode = r.below(4) != 0
        let abilities = TerminalPainter.Abilities(
            colorMode: mode, unicode: unicode, scrollRegion: r.below(2) == 0, insertDelete: r.below(3) != 0,
            lastCellSafe: r.below(3) != 0,
            eraseCharacters: r.below(2) == 0, eraseLine: r.below(2) == 0, backgroundErase: r.below(2) == 0)
        var painter = TerminalPainter(cols: cols, rows: rows, abilities: abilities)
        var terminal = ModelTerminal(cols: cols, rows: rows)
        var frame = Frame(cols: cols, rows: rows)
        for step in 0..<50 {
            let text = randomOutsideText(&r)
            let screen = SafeText.forScreen(text)
            let line = SafeText.forLine(text)
            if screen.unicodeScalars.contains(where: HostileText.actsOnTerminal)
                || line.unicodeScalars.contains(where: HostileText.actsOnTerminal)
            {
                fail("sanitiser \(round)/\(step): \(SafeText.forLine(screen))")
            }
            if SafeText.forScreen(screen) != screen || SafeText.forLine(line) != line {
                fail("sanitiser \(round)/\(step): not idempotent")
            }
            let style = CellStyle(
                foreground: PaletteColor(UInt8(r.below(256))),
                background: r.below(2) == 0 ? nil : PaletteColor(UInt8(r.below(256))))
            let row = r.below(rows)
            let written = frame.write(
                r.below(2) == 0 ? text : screen, col: r.below(cols + 10) - 5, row: row, style: style)
            if written < 0 { fail("width \(round)/\(step): wrote \(written) columns") }
            if r.below(4) == 0 { frame[r.below(cols), r.below(rows)] = Cell(glyph: "x", style: style) }
            for row in 0..<rows {
                var columns = 0
                for s in frame.line(row).unicodeScalars {
                    let w = Int(cWidth?(Int32(bitPattern: s.value)) ?? 1)
                    // Where glibc does not know a character, Unicode 15's width (the table's, for wide and combining ones).
                    columns += w >= 0 ? w : (CharacterWidth.of(s) ?? 99)
                }
                if columns != cols {
                    fail(
                        "width \(round)/\(step): row \(row) is \(columns) columns, not \(cols): \(SafeText.forLine(frame.line(row)))"
                    )
                }
                if frame[0, row].isContinuation { fail("width \(round)/\(step): row \(row) starts with a second half") }
            }
            if r.below(3) == 0 { painter.moveColumns(by: r.below(2 * cols) - cols, rows: 0..<rows) }
            let bytes = painter.paint(frame, fullRepaint: r.below(30) == 0)
            if let foreign = HostileText.foreignSequence(in: bytes) { fail("painter \(round)/\(step): \(foreign)") }
            terminal.feed(bytes)
            if !terminal.errors.isEmpty { fail("painter \(round)/\(step): \(terminal.errors.prefix(3))") }
            if unicode, abilities.lastCellSafe, let wrong = terminal.firstDifference(frame, mode: mode) {
                fail("painter \(round)/\(step): cell \(wrong) not shown")
            }
            if !failures.isEmpty { return checked }
            checked += 1
        }
    }
    return checked
}

/// What a terminal sends, mutated: answers (device attributes, OSC 11 colours, kitty's APC graphics
/// answers, some cut or run on) among keys, fed to `TerminalReplies` unit by unit: every unit comes
/// back as input or inside a reply (an arrow with modifiers as one key), nothing is held past the
/// longest reply, and a kitty answer is a reply, never keys.
func fuzzTerminalReplies(streams: Int, seed: UInt64) -> Int {
    var r = SeededRandom(state: seed)
    let pieces = [
        "\u{1B}[?62;22c", "\u{1B}]11;rgb:ffff/0000/8080\u{07}", "\u{1B}]11;rgb:1/2/3\u{1B}\\",
        "\u{1B}_Gi=31;OK\u{1B}\\",
        "\u{1B}_Gi=31;EINVAL:no\u{1B}\\", "\u{1B}_G", "\u{1B}_", "\u{1B}]", "\u{1B}[", "\u{1B}", "q", "j", "\u{9B}",
        "\u{7}",
        "\u{1B}[1;5D", String(repeating: "x", count: 600),
    ]
    var checked = 0
    for _ in 0..<streams {
        var text = ""
        for _ in 0..<(1 + r.below(8)) { text += pieces[r.below(pieces.count)] }
        let units = text.unicodeScalars.map { TerminalReplies.Unit.char($0.value) }
        var replies = TerminalReplies()
        var given = 0
        var answers = 0
        var arrows = 0
        for u in units {
            switch replies.feed(u) {
            case .input(let back):
                given += back.count
                arrows += back.filter { if case .modifiedArrow = $0 { true } else { false } }.count
            case .reply: answers += 1
            case .pending: break
            }
            if replies.isPending, given > units.count { fail("replies: more units given back than fed") }
        }
        given += replies.timeout().count
        if given > units.count { fail("replies: \(given) units given back of \(units.count)") }
        if answers == 0, arrows == 0, given != units.count {
            fail("replies: units lost with no reply: \(text.debugDescription)")
        }
        if text == "\u{1B}_Gi=31;OK\u{1B}\\", answers != 1 { fail("replies: kitty's answer was not a reply") }
        checked += 1
    }
    return checked
}

/// Frames the viewer draws, with cells mutated and pan hints that may not match, through
/// `TerminalPainter` into a terminal in memory: after each the screen shows the frame, the painter
/// sends nothing the terminal does not understand, and leaves no attributes set.
func fuzzTerminalPainter(steps: Int, seed: UInt64) -> Int {
    var r = SeededRandom(state: seed)
    let cols = 120
    let rows = 40
    let modes: [ColorMode] = [.ansi256, .ansi16, .ansi8, .monochrome]
    var checked = 0
    for round in 0..<(steps / 100) {
        let mode = modes[round % modes.count]
        let abilities = TerminalPainter.Abilities(
            colorMode: mode, unicode: round % 2 == 0, scrollRegion: r.below(4) != 0, insertDelete: r.below(4) != 0,
            lastCellSafe: true, eraseCharacters: r.below(2) == 0, eraseLine: r.below(2) == 0,
            backgroundErase: r.below(2) == 0)
        var painter = TerminalPainter(cols: cols, rows: rows, abilities: abilities)
        var terminal = ModelTerminal(cols: cols, rows: rows)
        for step in 0..<100 {
            let center = Coordinate(latitude: Double(r.below(140)) - 70, longitude: Double(r.below(360)) - 180)
            var start = SessionStart(cols: cols, rows: rows, center: center, zoom: Double(r.below(60)) / 10)
            start.animations = false
            guard var state = try? start.state() else { continue }
            if r.below(2) == 0 { state.update(.key(.char("c")), places: nil) }  // the shaded circle
            var frame = Renderer.render(state, sources: nil, options: RenderOptions(mode: mode))
            // Cells of the frame copied elsewhere in it: glyphs and styles it really has, in new places.
            for _ in 0..<r.below(200) {
                frame[r.below(cols), r.below(rows)] = frame[r.below(cols), r.below(rows)]
            }
            if r.below(3) == 0 { painter.moveColumns(by: r.below(61) - 30, rows: 0..<(rows - r.below(3))) }
            if r.below(3) == 0 { painter.moveRows(by: r.below(21) - 10, within: 0..<(rows - r.below(3))) }
            terminal.feed(painter.paint(frame, fullRepaint: r.below(50) == 0))
            if !terminal.errors.isEmpty { fail("painter round \(round) step \(step): \(terminal.errors.prefix(3))") }
            // A terminal without UTF-8 is sent `?` for what it cannot show.
            var expected = frame
            if !abilities.unicode {
                for row in 0..<rows {
                    for col in 0..<cols where !frame[col, row].glyph.isASCII { expected[col, row].glyph = "?" }
                }
            }
            if let wrong = terminal.firstDifference(expected, mode: mode) {
                fail("painter round \(round) step \(step): cell \(wrong) not shown")
            }
            if !terminal.penIsPlain { fail("painter round \(round) step \(step): attributes left set") }
            if !failures.isEmpty { return checked }
            checked += 1
        }
    }
    return checked
}

// MARK: Main

var events = 100_000
var mutations = 1_400
var seed: UInt64 = 2026
var only: String?
var args = Array(CommandLine.arguments.dropFirst())
while !args.isEmpty {
    let a = args.removeFirst()
    guard let v = args.first else { break }
    switch a {
    case "--events": events = Int(v) ?? events
    case "--mutations": mutations = Int(v) ?? mutations
    case "--seed": seed = UInt64(v) ?? seed
    case "--only": only = v
    default: break
    }
    args.removeFirst()
}

// `--only position`: the position readers alone (while working on them).
if only == "position" {
    let p = fuzzPositionReaders(mutations: 20_000, seed: seed)
    print("position: \(p.tried) mutations: \(p.fixes) fixes, all on Earth")
    exit(failures.isEmpty ? 0 : 1)
}

let worldPath = packageRoot.appendingPathComponent("assets/world.tmap").path
do {
    let sources = MapSources(world: try MapAsset(path: worldPath))
    let t0 = now()
    let checked = fuzzViewer(events: events, seed: seed, sources: sources)
    print(
        "viewer: \(checked) of \(events) seeded events checked (state, displayed view, frame size) in \(CoordinateFormat.fixed(now() - t0, 1)) s"
    )
} catch {
    fail("cannot load \(worldPath): \(error)")
}
do {
    // The street-level demo city as well, from a view over it.
    let sources = MapSources(
        world: try MapAsset(path: worldPath),
        details: [try MapAsset(path: packageRoot.appendingPathComponent("assets/helsinki.tmap").path)])
    let t0 = now()
    let checked = fuzzViewer(events: events / 5, seed: seed + 1, sources: sources, center: (60.1688, 24.9416), zoom: 15)
    print(
        "viewer over the Helsinki demo city: \(checked) of \(events / 5) events checked in \(CoordinateFormat.fixed(now() - t0, 1)) s"
    )
} catch {
    fail("cannot load the bundled data: \(error)")
}
for (file, count) in [("assets/world.tmap", mutations), ("assets/helsinki.tmap", mutations / 2)] {
    let t1 = now()
    let d = fuzzData(file, mutations: count, seed: seed)
    print(
        "data: \(d.tried) mutations of \(file): \(d.errors) typed errors, \(d.valid) still valid, slowest \(CoordinateFormat.fixed(d.slowest * 1000, 1)) ms, \(CoordinateFormat.fixed(now() - t1, 1)) s"
    )
}
for (file, count) in [
    ("Tests/MapDataTests/Fixtures/osm/town-dense-zlib.osm.pbf", 1_000),
    ("Tests/MapDataTests/Fixtures/osm/town-plain-raw.osm.pbf", 500),
    ("Tests/MapDataTests/Fixtures/osm/Helsinki.osm.pbf", 60),
] {
    let t1 = now()
    let p = fuzzPBF(file, mutations: count, seed: seed)
    print(
        "pbf: \(p.tried) mutations of \(file.split(separator: "/").last ?? ""): \(p.errors) typed errors, slowest \(CoordinateFormat.fixed(p.slowest * 1000, 1)) ms, \(CoordinateFormat.fixed(now() - t1, 1)) s"
    )
}
do {
    let t1 = now()
    let g = fuzzShorelineInputs(mutations: 3_000, seed: seed)
    print(
        "gshhg, rivers and TMRAW lines: \(g.tried) mutations, \(g.read) read whole, slowest \(CoordinateFormat.fixed(g.slowest * 1000, 1)) ms, \(CoordinateFormat.fixed(now() - t1, 1)) s"
    )
}
do {
    let folder = "Tests/MapDataTests/Fixtures/tiles/"
    let pmtiles = [UInt8](
        FileManager.default.contents(atPath: packageRoot.appendingPathComponent(folder + "helsinki-omt.pmtiles").path)
            ?? Data())
    // A leafy archive with uncompressed directories: mutations reach the directory varints.
    let leafy = PMTilesWriter.archive(
        tiles: (0..<400).map {
            (id: TileID(z: 14, x: 9326, y: 4742).pmtilesID + UInt64($0 * 2), data: [UInt8](repeating: 0x1a, count: 3))
        },
        leafSize: 50)
    for (name, bytes) in [("helsinki-omt.pmtiles", pmtiles), ("leafy.pmtiles", leafy)] {
        let t1 = now()
        let p = fuzzPMTiles(bytes, name: name, mutations: 1_000, seed: seed)
        print(
            "pmtiles: \(p.tried) mutations of \(name): \(p.opened) opened, slowest \(CoordinateFormat.fixed(p.slowest * 1000, 1)) ms, \(CoordinateFormat.fixed(now() - t1, 1)) s"
        )
    }
    let t2 = now()
    let m = fuzzMBTiles(folder + "helsinki-omt.mbtiles", mutations: 1_000, seed: seed)
    print(
        "mbtiles: \(m.tried) mutations of helsinki-omt.mbtiles: \(m.opened) opened, slowest \(CoordinateFormat.fixed(m.slowest * 1000, 1)) ms, \(CoordinateFormat.fixed(now() - t2, 1)) s"
    )
    let densest = TileID(z: 14, x: 9327, y: 4742)
    let archive = try PMTilesArchive(source: LocalFileSource(bytes: pmtiles))
    if case .success(let tile?)? = archive.tiles([densest])[densest] {
        let t3 = now()
        let v = fuzzMVT(tile, at: densest, mutations: 1_000, seed: seed)
        print(
            "mvt: \(v.tried) mutations of tile \(densest) (\(tile.count) bytes): \(v.decoded) still decode, slowest \(CoordinateFormat.fixed(v.slowest * 1000, 1)) ms, \(CoordinateFormat.fixed(now() - t3, 1)) s"
        )
        let t4 = now()
        let c = fuzzDiskCache(pmtiles, tile: tile, mutations: 400, seed: seed)
        print(
            "disk cache: \(c.tried) mutations of cached remote sources (pages and rows), no server: \(c.opened) opened, slowest \(CoordinateFormat.fixed(c.slowest * 1000, 1)) ms, \(CoordinateFormat.fixed(now() - t4, 1)) s"
        )
    } else {
        fail("no tile \(densest) in the fixture")
    }
    let t5 = now()
    let j = fuzzTileJSON(mutations: 3_000, seed: seed)
    print(
        "tilejson: \(j.tried) mutations of a TileJSON 3.0.0 document: \(j.parsed) parsed, slowest \(CoordinateFormat.fixed(j.slowest * 1000, 1)) ms, \(CoordinateFormat.fixed(now() - t5, 1)) s"
    )
    let t6 = now()
    let d = fuzzDownloadJournal(mutations: 1_000, seed: seed)
    print(
        "download journal: \(d.tried) mutations of a data get journal: \(d.kept) records kept and read back, slowest \(CoordinateFormat.fixed(d.slowest * 1000, 1)) ms, \(CoordinateFormat.fixed(now() - t6, 1)) s"
    )
} catch {
    fail("cannot open the tile fixtures: \(error)")
}
for u in fuzzUserData(mutations: 2_000, seed: seed) {
    print(
        "user data: \(u.tried) mutations of \(u.name): \(u.read) read, slowest \(CoordinateFormat.fixed(u.slowest * 1000, 1)) ms"
    )
}
for i in fuzzImages(mutations: 1_000, seed: seed) {
    print(
        "images: \(i.tried) mutations of \(i.name): \(i.decoded) decoded, slowest \(CoordinateFormat.fixed(i.slowest * 1000, 1)) ms"
    )
}
do {
    let t0 = now()
    let n = fuzzNetwork(mutations: 400, seed: seed)
    print(
        "network: \(n.tried) mutations of the demo city's street network: \(n.read) read, routed and reached on, slowest \(CoordinateFormat.fixed(n.slowest * 1000, 1)) ms, \(CoordinateFormat.fixed(now() - t0, 1)) s"
    )
}
do {
    let t0 = now()
    let p = fuzzPositionReaders(mutations: 20_000, seed: seed)
    print(
        "position: \(p.tried) mutations of gpsd reports and NMEA sentences: \(p.fixes) fixes, all on Earth, slowest \(CoordinateFormat.fixed(p.slowest * 1000, 2)) ms, \(CoordinateFormat.fixed(now() - t0, 1)) s"
    )
    let t1 = now()
    let t = fuzzTours(mutations: 2_000, seed: seed)
    print(
        "tours: \(t.tried) mutations of the built-in tour: \(t.parsed) parsed and played, slowest \(CoordinateFormat.fixed(t.slowest * 1000, 1)) ms, \(CoordinateFormat.fixed(now() - t1, 1)) s"
    )
    let t4 = now()
    let answered = fuzzTerminalReplies(streams: 20_000, seed: seed)
    print(
        "terminal answers: \(answered) streams of answers and keys taken apart, \(CoordinateFormat.fixed(now() - t4, 1)) s"
    )
    let t2 = now()
    let n = fuzzTerminalPainter(steps: 2_000, seed: seed)
    print("painter: \(n) frames shown right through a terminal in memory, \(CoordinateFormat.fixed(now() - t2, 1)) s")
    let t3 = now()
    let o = fuzzOutsideText(cases: 20_000, seed: seed)
    print(
        "outside text: \(o) random texts made safe, written at random columns and painted: every row the screen's width by wcwidth, \(CoordinateFormat.fixed(now() - t3, 1)) s"
    )
}
print("peak RSS: \(CoordinateFormat.fixed(peakRSSMegabytes(), 1)) MB")
if peakRSSMegabytes() > 1024 { fail("peak RSS above 1 GB") }
let total = 2
let failed = failures.isEmpty ? 0 : 1
print("fuzz: \(total - failed) passed, \(failed) failed")
exit(failures.isEmpty ? 0 : 1)
