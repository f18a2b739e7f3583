import CSQLite
import CZlib
import Foundation
import GeoCore
import MapBuilders
import MapData
import MapFormats
import MapRender
import TestSupport
import Viewer

// termmap-conformance: termmap's readers over the conformance suites other projects publish, laid out
// as a folder holding `mvt-fixtures/NNN/{tile.mvt,info.json,tile.json}` (mapbox/mvt-fixtures'
// `fixtures/`), `pmtiles/*.pmtiles` (PMTiles and go-pmtiles fixtures) and `osm-testdata/` (osmcode/
// osm-testdata: `grid/data/N/NNN/{data.osm,test.json}`, `misc/`, `xml/`). Each case is run several
// ways: a tile as it is, in `.pmtiles` and `.mbtiles` (raw and gzip), drawn at two zooms, and with its
// layers renamed to ones termmap draws; an archive opened, drawn and cut short; an OSM file converted
// by `osmium cat` (with and without locations on its ways), imported and drawn.
//   termmap-conformance DIR [--known FILE]
// Prints per suite the cases, the runs, how many came out as the suite expects, and each difference
// (marked when FILE lists it, with why). Exits 1 on a difference FILE does not list, on a refusal of
// more than one line, or on a run that takes more than 30 s (a hang); a crash ends the run itself.

let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

var arguments = Array(CommandLine.arguments.dropFirst())
var knownPath = packageRoot.appendingPathComponent("Tests/conformance/known-differences.tsv").path
if let i = arguments.firstIndex(of: "--known"), i + 1 < arguments.count {
    knownPath = arguments[i + 1]
    arguments.removeSubrange(i...(i + 1))
}
guard arguments.count == 1, !arguments[0].hasPrefix("-") else {
    FileHandle.standardError.write(Data("usage: termmap-conformance DIR [--known FILE]\n".utf8))
    exit(2)
}
let suites = URL(fileURLWithPath: arguments[0])
let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("termmap-conformance-\(getpid())")
try? FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: scratch) }

// MARK: What is known to differ

/// `suite<TAB>case<TAB>variant<TAB>why` lines (`*` as the variant: all of the case's).
struct Known {
    var entries: [String: String] = [:]
    init(path: String) {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return }
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            if f.count >= 4 { entries[f[0] + "\t" + f[1] + "\t" + f[2]] = f[3] }
        }
    }
    func why(_ suite: String, _ name: String, _ variant: String) -> String? {
        entries[suite + "\t" + name + "\t" + variant] ?? entries[suite + "\t" + name + "\t*"]
    }
}
let known = Known(path: knownPath)

// MARK: Tally

final class Tally {
    var suite = ""
    var cases = 0, runs = 0, asExpected = 0
    var differences: [(name: String, variant: String, text: String)] = []
    var faults = 0
    var unknownDifferences = 0

    func record(_ name: String, _ variant: String, expected: String, got: String, fault: Bool = false) {
        runs += 1
        if expected == got && !fault {
            asExpected += 1
        } else {
            differences.append((name, variant, "expected \(expected); got \(got)"))
            if fault { faults += 1 } else if known.why(suite, name, variant) == nil { unknownDifferences += 1 }
        }
    }

    func print() {
        Swift.print(
            "\(suite): \(cases) cases, \(runs) runs, \(asExpected) as expected, \(differences.count) differences")
        for d in differences {
            let why = known.why(suite, d.name, d.variant).map { " (known: \($0))" } ?? " (NEW)"
            Swift.print("  \(d.name) \(d.variant): \(d.text)\(why)")
        }
    }
}

// MARK: A hang is a failure

nonisolated(unsafe) var currentRun: [CChar] = Array(repeating: 0, count: 512)
func starting(_ label: String) {
    let bytes = Array(("HANG (more than 30 s): " + label + "\n").utf8CString.prefix(511))
    for i in 0..<512 { currentRun[i] = i < bytes.count ? bytes[i] : 0 }
    alarm(30)
}
signal(SIGALRM) { _ in
    currentRun.withUnsafeBufferPointer { b in
        _ = write(2, b.baseAddress, strlen(b.baseAddress!))
    }
    _exit(1)
}

// MARK: Shared pieces

let world: MapAsset = {
    do {
        return try MapAsset(path: packageRoot.appendingPathComponent("assets/world.tmap").path)
    } catch {
        FileHandle.standardError.write(Data("termmap-conformance: \(error)\n".utf8))
        exit(1)
    }
}()

/// A refusal as the user sees it: one line.
func oneLine(_ error: Error) -> (text: String, fault: Bool) {
    let text = "\(error)"
    return (text.split(separator: "\n").first.map(String.init) ?? text, text.contains("\n") || text.isEmpty)
}

/// Draws `archive` at `zoom` over its bounds' centre, 80×24: the tiles that failed and features skipped.
func draw(_ archive: any TileArchive, zoom: Double) -> (failed: Int, skipped: Int) {
    let b = archive.info.bounds
    let center = Coordinate(
        latitude: max(-80, min(80, (b.north + b.south) / 2)), longitude: (b.east + b.west) / 2)
    // A raster tileset is the imagery under the map (issue 47); any other, vector tiles.
    let sources: MapSources
    var start = SessionStart(cols: 80, rows: 24, center: center, zoom: zoom)
    if archive.info.imageFormat != nil {
        sources = MapSources(
            features: FeatureSources(base: world, details: []),
            imagery: ImagerySource(archive: archive, label: "suite"))
        start.imagery = "suite"
    } else {
        sources = MapSources(
            features: FeatureSources(base: world, details: [TileSource(archive: archive, label: "suite")]))
    }
    start.animations = false
    guard let state = try? start.state() else { return (-1, -1) }
    let shot = Renderer.drawLoaded(state, sources: sources, options: RenderOptions(mode: .ansi256))
    return (shot.map?.tiles.failed ?? -1, shot.map?.tiles.skipped ?? -1)
}

/// gzip of `bytes` (zlib's deflate with a gzip wrapper, as tilesets store tiles).
func gzip(_ bytes: [UInt8]) -> [UInt8] {
    var stream = z_stream()
    guard
        deflateInit2_(
            &stream, 9, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK
    else { return bytes }
    defer { deflateEnd(&stream) }
    var input = bytes
    var out = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))) + 32)
    let produced: Int = input.withUnsafeMutableBufferPointer { i in
        out.withUnsafeMutableBufferPointer { o in
            stream.next_in = i.baseAddress
            stream.avail_in = UInt32(i.count)
            stream.next_out = o.baseAddress
            stream.avail_out = UInt32(o.count)
            return deflate(&stream, Z_FINISH) == Z_STREAM_END ? o.count - Int(stream.avail_out) : -1
        }
    }
    return produced >= 0 ? Array(out.prefix(produced)) : bytes
}

/// An MBTiles file of one z0 tile (the metadata a tileset has, `format` pbf).
func mbtiles(_ tile: [UInt8], at path: String) -> Bool {
    unlink(path)
    var db: OpaquePointer?
    guard sqlite3_open(path, &db) == SQLITE_OK, let db else { return false }
    defer { sqlite3_close(db) }
    let schema = """
        CREATE TABLE metadata (name text, value text);
        CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob);
        CREATE UNIQUE INDEX tile_index on tiles (zoom_level, tile_column, tile_row);
        INSERT INTO metadata VALUES ('name', 'conformance'), ('format', 'pbf'), ('minzoom', '0'), ('maxzoom', '0');
        """
    guard sqlite3_exec(db, schema, nil, nil, nil) == SQLITE_OK else { return false }
    var s: OpaquePointer?
    guard sqlite3_prepare_v2(db, "INSERT INTO tiles VALUES (0, 0, 0, ?)", -1, &s, nil) == SQLITE_OK, let s else {
        return false
    }
    defer { sqlite3_finalize(s) }
    let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    _ = tile.withUnsafeBytes { sqlite3_bind_blob(s, 1, $0.baseAddress, Int32($0.count), transient) }
    return sqlite3_step(s) == SQLITE_DONE
}

/// The tile with every layer's name (field 1 of each layer, field 3 of the tile) set to `name`; nil when
/// the bytes are not protobuf that far. Other fields are copied as they are.
func renamed(_ tile: [UInt8], to name: String) -> [UInt8]? {
    tile.withUnsafeBytes { raw -> [UInt8]? in
        var top = ProtobufReader(raw)
        var out = ProtoBuilder()
        var start = top.position
        while let (field, wire) = top.field() {
            if field == 3, wire == 2 {
                guard let bytes = top.lengthDelimited() else { return nil }
                var r = ProtobufReader(bytes)
                var layer = ProtoBuilder()
                var at = r.position
                while let (f, w) = r.field() {
                    if f == 1, w == 2 {
                        guard r.lengthDelimited() != nil else { return nil }
                        layer.string(1, name)
                    } else {
                        guard r.skip(w) else { return nil }
                        layer.bytes += bytes[at..<r.position]
                    }
                    at = r.position
                }
                guard r.atEnd else { return nil }
                out.message(3, layer)
            } else {
                guard top.skip(wire) else { return nil }
                out.bytes += raw[start..<top.position]
            }
            start = top.position
        }
        return top.atEnd ? out.bytes : nil
    }
}

// MARK: mapbox/mvt-fixtures

/// One of mvt-fixtures' cases: its tile, whether the suite calls it valid (v2), its error class, and
/// the features per layer the suite decodes.
struct MVTFixture {
    let name: String
    let tile: [UInt8]
    let valid: Bool
    let error: String?
    let expectedCounts: [Int]?

    /// What a tile drawn in a tileset should give: a valid one draws whole; an invalid one draws as it
    /// can (its layers keep names termmap does not draw, whose insides it does not read).
    func drawn(_ d: (failed: Int, skipped: Int)) -> String {
        if valid || d.failed < 0 || d.failed > 1 || d.skipped < 0 {
            return "\(d.failed) failed, \(d.skipped) skipped"
        }
        return "drawn"
    }
}

func runMVT(_ folder: URL, _ t: Tally) {
    t.suite = "mvt-fixtures"
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent("\($0)/tile.mvt").path)
    }.sorted()
    for name in names {
        let dir = folder.appendingPathComponent(name)
        guard let tile = try? [UInt8](Data(contentsOf: dir.appendingPathComponent("tile.mvt"))),
            let infoData = try? Data(contentsOf: dir.appendingPathComponent("info.json")),
            let info = (try? JSONSerialization.jsonObject(with: infoData)) as? [String: Any]
        else { continue }
        t.cases += 1
        let validity = info["validity"] as? [String: Any] ?? [:]
        let valid = validity["v2"] as? Bool ?? false
        // The decoding the suite gives: features per layer.
        var expectedCounts: [Int]?
        if valid, let d = try? Data(contentsOf: dir.appendingPathComponent("tile.json")),
            let json = (try? JSONSerialization.jsonObject(with: d)) as? [String: Any]
        {
            expectedCounts = (json["layers"] as? [[String: Any]] ?? []).map { ($0["features"] as? [Any])?.count ?? 0 }
        }
        let fixture = MVTFixture(
            name: name, tile: tile, valid: valid, error: validity["error"] as? String, expectedCounts: expectedCounts)
        checkDecoded(fixture, t)
        checkInTilesets(fixture, t)
        checkRenamed(fixture, t)
    }
}

/// 1. Decoded as the suite decodes it.
func checkDecoded(_ fixture: MVTFixture, _ t: Tally) {
    let (name, tile, valid, error, expectedCounts) = (
        fixture.name, fixture.tile, fixture.valid, fixture.error, fixture.expectedCounts
    )
    starting("mvt-fixtures \(name) decode")
    let layers = MVTDecoder.decode(tile)
    let skipped = layers?.reduce(0) { $0 + $1.skipped } ?? 0
    let outcome: String
    if let layers {
        outcome = skipped > 0 ? "features skipped" : "decoded \(layers.map(\.features.count))"
    } else {
        outcome = "tile refused"
    }
    let expected: String
    if valid {
        expected = "decoded \(expectedCounts ?? [])"
    } else if error == "recoverable" {
        expected =
            outcome.hasPrefix("decoded") || outcome == "features skipped"
            ? outcome : "decoded (the fault recovered)"
    } else {
        expected =
            outcome == "features skipped" || outcome == "tile refused"
            ? outcome : "tile refused or the bad feature skipped"
    }
    t.record(name, "decoded", expected: expected, got: outcome)
}

/// 2. In a tileset (PMTiles and MBTiles, plain and gzipped), drawn.
func checkInTilesets(_ fixture: MVTFixture, _ t: Tally) {
    let (name, tile, valid) = (fixture.name, fixture.tile, fixture.valid)
    let want = valid ? "0 failed, 0 skipped" : "drawn"
    let zipped = gzip(tile)
    // PMTiles has no empty tile (an entry's length is at least 1): an empty tile is no entry.
    let containers = [("pmtiles", tile), ("pmtiles-gzip", zipped), ("mbtiles", tile), ("mbtiles-gzip", zipped)]
        .filter { !tile.isEmpty || !$0.0.hasPrefix("pmtiles") }
    for (container, bytes) in containers {
        for zoom in [0.0, 2.5] {
            let variant = "\(container) z\(zoom)"
            starting("mvt-fixtures \(name) \(variant)")
            let got: String
            do {
                let archive: any TileArchive
                if container.hasPrefix("pmtiles") {
                    let file = PMTilesWriter.archive(
                        tiles: [(0, bytes)], tileCompression: container.hasSuffix("gzip") ? 2 : 1, maxZoom: 0)
                    archive = try PMTilesArchive(source: LocalFileSource(bytes: file, name: "\(name).pmtiles"))
                } else {
                    let path = scratch.appendingPathComponent("\(name).mbtiles").path
                    guard mbtiles(bytes, at: path) else { continue }
                    archive = try MBTilesArchive(path: path)
                }
                let d = draw(archive, zoom: zoom)
                got = fixture.drawn(d)
            } catch {
                let e = oneLine(error)
                t.record(name, variant, expected: want, got: "refused: " + e.text, fault: e.fault)
                continue
            }
            t.record(name, variant, expected: want, got: got)
        }
    }
}

/// 3. Its layers renamed to ones termmap draws (OpenMapTiles and Protomaps names).
func checkRenamed(_ fixture: MVTFixture, _ t: Tally) {
    let (name, tile, valid) = (fixture.name, fixture.tile, fixture.valid)
    for layer in ["transportation", "building", "water", "waterway", "park", "landcover", "roads", "buildings"] {
        guard !tile.isEmpty, let bytes = renamed(tile, to: layer) else { continue }
        let variant = "as \(layer)"
        starting("mvt-fixtures \(name) \(variant)")
        let file = PMTilesWriter.archive(tiles: [(0, gzip(bytes))], tileCompression: 2, maxZoom: 0)
        do {
            let archive = try PMTilesArchive(source: LocalFileSource(bytes: file, name: "\(name).pmtiles"))
            let d = draw(archive, zoom: 1)
            // Features of a type a layer does not draw are not read past their type: a fault in them
            // need not be seen, so an invalid tile is only to draw without harm.
            t.record(name, variant, expected: valid ? "0 failed, 0 skipped" : "drawn", got: fixture.drawn(d))
        } catch {
            let e = oneLine(error)
            t.record(name, variant, expected: "drawn", got: "refused: " + e.text, fault: e.fault)
        }
    }
}

// MARK: PMTiles and go-pmtiles fixtures

func runPMTiles(_ folder: URL, _ t: Tally) {
    t.suite = "pmtiles"
    let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter {
        $0.hasSuffix(".pmtiles")
    }.sorted()
    for file in files {
        guard let bytes = try? [UInt8](Data(contentsOf: folder.appendingPathComponent(file))) else { continue }
        t.cases += 1
        // What the file is, read from its header as the spec lays it out (magic, version byte 7, tile
        // type byte 99: 2–4 PNG, JPEG and WebP imagery, 5 AVIF (no decoder), 6 MapLibre Tiles).
        let expectation: String
        if bytes.count < 127 || !bytes.starts(with: Array("PMTiles".utf8)) {
            expectation = "refused: not PMTiles"
        } else if bytes[7] != 3 {
            expectation = "refused: version \(bytes[7])"
        } else if bytes[99] == 5 {
            expectation = "refused: AVIF"
        } else if bytes[99] == 6 {
            expectation = "refused: MLT"
        } else {
            expectation = "opened"
        }
        func classify(_ text: String) -> String {
            if let v = text.firstMatch(of: /PMTiles version (\d+)/) { return "refused: version \(v.1)" }
            if text.contains("MapLibre Tiles") { return "refused: MLT" }
            if text.contains("AVIF") { return "refused: AVIF" }
            if text.contains("not a PMTiles file") { return "refused: not PMTiles" }
            return "refused: " + text
        }
        starting("pmtiles \(file) open")
        var archive: PMTilesArchive?
        do {
            archive = try PMTilesArchive(source: LocalFileSource(bytes: bytes, name: file))
            t.record(file, "open", expected: expectation, got: "opened")
        } catch {
            let e = oneLine(error)
            t.record(
                file, "open", expected: expectation, got: classify(e.text.replacing(file + ": ", with: "")),
                fault: e.fault)
        }
        if let archive {
            let i = archive.info
            for zoom in Set([
                Double(i.minZoom), Double(i.minZoom + i.maxZoom) / 2, Double(i.maxZoom), Double(i.maxZoom) + 2,
            ]).sorted() {
                starting("pmtiles \(file) z\(zoom)")
                let d = draw(archive, zoom: zoom)
                t.record(file, "z\(zoom)", expected: "0 failed", got: "\(d.failed) failed")
            }
        }
        // Cut short, as an interrupted download leaves it: refused at open in one line, or (cut past
        // every section) drawn.
        for fraction in [0.1, 0.33, 0.5, 0.66, 0.9] {
            let cut = Array(bytes.prefix(Int(Double(bytes.count) * fraction)))
            let variant = "cut to \(Int(fraction * 100)) %"
            starting("pmtiles \(file) \(variant)")
            do {
                let a = try PMTilesArchive(source: LocalFileSource(bytes: cut, name: file))
                let d = draw(a, zoom: Double(a.info.minZoom))
                t.record(file, variant, expected: "refused in one line", got: "opened, \(d.failed) tiles failed")
            } catch {
                let e = oneLine(error)
                t.record(
                    file, variant, expected: "refused in one line", got: e.fault ? e.text : "refused in one line",
                    fault: e.fault)
            }
        }
    }
}

// MARK: osmcode/osm-testdata

/// Runs `osmium` (Debian's osmium-tool); false when it refuses the file (the suite has invalid XML).
func osmium(_ args: [String]) -> Bool {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = ["osmium"] + args
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle.nullDevice
    do { try p.run() } catch { return false }
    p.waitUntilExit()
    return p.terminationStatus == 0
}

/// The rings of a WKT MULTIPOLYGON (outer and inner alike: the even–odd area tells them apart).
func wktRings(_ wkt: String) -> [[(Double, Double)]] {
    var out: [[(Double, Double)]] = []
    var depth = 0
    var text = ""
    for ch in wkt {
        if ch == "(" {
            depth += 1
            text = ""
        } else if ch == ")" {
            if depth == 3 {
                let points = text.split(separator: ",").compactMap { p -> (Double, Double)? in
                    let xy = p.split(separator: " ").compactMap { Double($0) }
                    return xy.count == 2 ? (xy[0], xy[1]) : nil
                }
                out.append(points)
            }
            depth -= 1
        } else if depth == 3 {
            text.append(ch)
        }
    }
    return out
}

/// The area the even–odd rule fills for `rings` (as the scanline fill draws them), exactly: between
/// consecutive vertex and crossing latitudes every edge is straight and none cross, so the filled width
/// is linear and its middle value times the slab's height is the slab's area.
func evenOddArea(_ rings: [[(Double, Double)]]) -> Double {
    var edges: [((Double, Double), (Double, Double))] = []
    for ring in rings where ring.count > 2 {
        for i in ring.indices {
            let a = ring[i]
            let b = ring[(i + 1) % ring.count]
            if a.1 != b.1 { edges.append((a, b)) }
        }
    }
    var ys = Set(edges.flatMap { [$0.0.1, $0.1.1] })
    // Where two edges cross, the order of crossings changes: a slab boundary too.
    for i in edges.indices {
        for j in edges.indices where j > i {
            let (p, p2) = edges[i]
            let (q, q2) = edges[j]
            let r = (p2.0 - p.0, p2.1 - p.1)
            let s = (q2.0 - q.0, q2.1 - q.1)
            let d = r.0 * s.1 - r.1 * s.0
            guard d != 0 else { continue }
            let t = ((q.0 - p.0) * s.1 - (q.1 - p.1) * s.0) / d
            let u = ((q.0 - p.0) * r.1 - (q.1 - p.1) * r.0) / d
            if t > 0, t < 1, u > 0, u < 1 { ys.insert(p.1 + t * r.1) }
        }
    }
    let levels = ys.sorted()
    var area = 0.0
    for k in levels.indices.dropLast() {
        let y0 = levels[k]
        let y1 = levels[k + 1]
        let y = (y0 + y1) / 2
        let xs = edges.compactMap { e -> Double? in
            let (a, b) = e
            guard min(a.1, b.1) < y, y < max(a.1, b.1) else { return nil }
            return a.0 + (y - a.1) * (b.0 - a.0) / (b.1 - a.1)
        }.sorted()
        var width = 0.0
        var i = 0
        while i + 1 < xs.count {
            width += xs[i + 1] - xs[i]
            i += 2
        }
        area += width * (y1 - y0)
    }
    return area
}

/// What libosmium makes of a case's areas (grid cases), those with tags termmap draws, or that it calls
/// invalid ("INVALID": it makes no area). Compared by area: a ring that touches itself is one ring to
/// libosmium and two here, the same surface either way. Nil for a case with no test.json.
func libosmiumAreas(_ source: URL) -> [String]? {
    let testJSON = source.deletingLastPathComponent().appendingPathComponent("test.json")
    guard let d = try? Data(contentsOf: testJSON),
        let json = (try? JSONSerialization.jsonObject(with: d)) as? [String: Any],
        let areas = (json["areas"] as? [String: Any])?["default"] as? [[String: Any]]
    else { return nil }
    // libosmium makes no area of what it calls invalid.
    return areas.filter {
        ($0["wkt"] as? String) != "INVALID"
            && Classification.areaClass($0["tags"] as? [String: String] ?? [:]) != nil
    }
    .map { a in
        let rings = wktRings(a["wkt"] as? String ?? "")
        return String(format: "%.6f", evenOddArea(rings))
    }.sorted()
}

func runOSM(_ folder: URL, _ t: Tally) {
    t.suite = "osm-testdata"
    guard osmium(["--version"]) else {
        print("osm-testdata: skipped (osmium, Debian's osmium-tool, is not installed)")
        return
    }
    var files: [String] = []
    if let e = FileManager.default.enumerator(atPath: folder.path) {
        for case let f as String in e where f.hasSuffix(".osm") && !f.hasSuffix("all.osm") { files.append(f) }
    }
    for file in files.sorted() {
        let source = folder.appendingPathComponent(file)
        let name = file.replacing("/data.osm", with: "").replacing("grid/data/", with: "")
        let plain = scratch.appendingPathComponent("plain.osm.pbf").path
        let located = scratch.appendingPathComponent("located.osm.pbf").path
        let raw = scratch.appendingPathComponent("raw.osm.pbf").path
        let rawLocated = scratch.appendingPathComponent("raw-located.osm.pbf").path
        for path in [plain, located, raw, rawLocated] { unlink(path) }  // none left from the case before
        guard osmium(["cat", "-F", "osm", source.path, "-f", "pbf", "-o", plain, "--overwrite"]) else { continue }
        t.cases += 1
        // The other encodings a PBF writer may choose: plain (not dense) nodes and uncompressed blobs.
        let rawFormat = "pbf,pbf_dense_nodes=false,pbf_compression=none"
        _ = osmium(["cat", "-F", "osm", source.path, "-f", rawFormat, "-o", raw, "--overwrite"])
        for (out, format) in [(located, "pbf"), (rawLocated, rawFormat)] {
            _ = osmium([
                "add-locations-to-ways", "--ignore-missing-nodes", "--keep-untagged-nodes", "-F", "osm", source.path,
                "-f", format, "-o", out, "--overwrite",
            ])
        }
        let expectedAreas = libosmiumAreas(source)
        let variants = [
            ("pbf", plain), ("pbf with locations", located), ("raw pbf", raw), ("raw pbf with locations", rawLocated),
        ]
        for (variant, path) in variants {
            guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)) else { continue }
            starting("osm-testdata \(name) \(variant)")
            let contents: MapContents
            do {
                (contents, _) = try OSMImporter.contents(
                    pbf: data, name: file, source: file, classMinZoom: StyleTable.minZoom)
            } catch {
                let e = oneLine(error)
                t.record(name, variant, expected: "imported", got: "refused: " + e.text, fault: e.fault)
                continue
            }
            // Drawn, over the data; not the box and sea it makes.
            let areas = contents.features.filter { $0.featureClass.isArea && !$0.featureClass.isFillOnly }
            if let expectedAreas {
                let ours = areas.map { f in
                    String(format: "%.6f", evenOddArea(f.parts.map { $0.map { ($0.longitude, $0.latitude) } }))
                }.sorted()
                t.record(
                    name, variant + " areas", expected: "[" + expectedAreas.joined(separator: ", ") + "]",
                    got: "[" + ours.joined(separator: ", ") + "]")
            }
            starting("osm-testdata \(name) \(variant) drawn")
            do {
                let asset = try MapAsset(bytes: MapAssetWriter.encode(contents), name: file)
                let c = asset.coverage
                let center = Coordinate(latitude: (c.north + c.south) / 2, longitude: (c.east + c.west) / 2)
                let sources = MapSources(features: FeatureSources(base: world, details: [asset]))
                var start = SessionStart(cols: 80, rows: 24, center: center, zoom: 14)
                start.animations = false
                let state = try start.state()
                _ = Renderer.drawLoaded(state, sources: sources, options: RenderOptions(mode: .ansi256))
                t.record(name, variant + " drawn", expected: "drawn", got: "drawn")
            } catch {
                let e = oneLine(error)
                t.record(name, variant + " drawn", expected: "drawn", got: "refused: " + e.text, fault: e.fault)
            }
        }
    }
}

// MARK: The user's formats

/// What GDAL keeps of a user's file: its features with a geometry (ogr2ogr to GeoJSONSeq; for GPX its
/// waypoints, routes and tracks, and the routes' named points, which termmap reads as stops, not the
/// other points again), nil when GDAL is not installed.
func gdalFeatures(_ path: String, gpx: Bool) -> Int? {
    guard gpx else { return gdalFeatures(path, arguments: []) }
    guard let features = gdalFeatures(path, arguments: ["waypoints", "routes", "tracks"]) else { return nil }
    let stops = gdalFeatures(path, arguments: ["route_points", "-where", "name IS NOT NULL AND name <> ''"])
    return features + (stops ?? 0)
}

/// The features with a geometry of `arguments`' layers (all when none) of `path`, as ogr2ogr writes them.
func gdalFeatures(_ path: String, arguments: [String]) -> Int? {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/ogr2ogr")
    p.arguments = ["-f", "GeoJSONSeq", "/vsistdout/", path] + arguments
    let out = Pipe()
    p.standardOutput = out
    p.standardError = FileHandle.nullDevice
    guard (try? p.run()) != nil else { return nil }
    let data = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    var count = 0
    for line in data.split(separator: 0x0A) where !line.isEmpty {
        let record = line.first == 0x1E ? line.dropFirst() : line
        guard let object = try? JSONSerialization.jsonObject(with: Data(record)) as? [String: Any],
            let geometry = object["geometry"] as? [String: Any]
        else { continue }
        // An empty geometry draws nothing: GDAL writes it with empty coordinates ([], [[]], …).
        func positions(_ v: Any?) -> Int {
            if let list = v as? [Any] { return list.first is NSNumber ? 1 : list.reduce(0) { $0 + positions($1) } }
            if let g = v as? [String: Any] { return positions(g["coordinates"]) + positions(g["geometries"]) }
            return 0
        }
        if positions(geometry) > 0 { count += 1 }
    }
    return count
}

/// The user-format suites (`userformats/<suite>/…`: geojsonhint's good and bad GeoJSON, gpxpy's GPX,
/// togeojson's KML and GPX, pykml's KML samples), each file read by termmap's own readers and by GDAL:
/// the features with a geometry each keeps, as many; a file neither keeps anything of, both nothing.
func runUserFormats(_ dir: URL, _ t: Tally) {
    t.suite = "userformats"
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ogr2ogr") else {
        print("userformats: skipped (GDAL's ogr2ogr, Debian's gdal-bin, is not installed)")
        return
    }
    let files = (FileManager.default.enumerator(atPath: dir.path)?.allObjects as? [String] ?? []).filter {
        ["geojson", "json", "gpx", "kml", "kmz"].contains(($0 as NSString).pathExtension.lowercased())
    }.sorted()
    for file in files {
        let path = dir.appendingPathComponent(file).path
        guard let bytes = FileManager.default.contents(atPath: path) else { continue }
        t.cases += 1
        starting("userformats \(file)")
        let gdal = gdalFeatures(path, gpx: file.lowercased().hasSuffix(".gpx")) ?? 0
        let expected = gdal == 0 ? "nothing to draw" : "\(gdal) features"
        let got: String
        guard let format = UserDataReader.format(of: Array(bytes.prefix(1 << 16)), file: path) else {
            t.record(file, "features", expected: expected, got: "not read by termmap (ogr2ogr's)")
            continue
        }
        do {
            let data = try UserDataReader.read([UInt8](bytes), format: format, file: file)
            got = data.count == 0 ? "nothing to draw" : "\(data.count) features"
        } catch {
            let e = oneLine(error)
            if e.fault {
                t.record(file, "features", expected: expected, got: "refused: " + e.text, fault: true)
                continue
            }
            got = "nothing to draw"
        }
        t.record(file, "features", expected: expected, got: got)
    }
}

// MARK: Run

var failed = false
for (folder, run) in [
    ("mvt-fixtures", runMVT), ("pmtiles", runPMTiles), ("osm-testdata", runOSM), ("userformats", runUserFormats),
] as [(String, (URL, Tally) -> Void)] {
    var dir = suites.appendingPathComponent(folder)
    // A checkout of mapbox/mvt-fixtures keeps its cases under fixtures/.
    if folder == "mvt-fixtures", FileManager.default.fileExists(atPath: dir.appendingPathComponent("fixtures").path) {
        dir = dir.appendingPathComponent("fixtures")
    }
    guard FileManager.default.fileExists(atPath: dir.path) else {
        print("\(folder): not in \(suites.path), skipped")
        continue
    }
    let t = Tally()

    run(dir, t)
    alarm(0)
    guard t.cases > 0 else { continue }
    t.print()
    if t.faults > 0 || t.unknownDifferences > 0 { failed = true }
}
exit(failed ? 1 : 0)
