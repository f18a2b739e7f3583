import FoundationEssentials
import GeoCore
import Glibc
import MapBuilders
import MapData
import MapFormats
import MapRender
import Support
import SystemSupport
import TerminalUI
import Viewer

/// `termmap data get NAME (--bbox W,S,E,N | --around PLACE|LAT,LON [--within 5km]) [--zooms 0-14]
/// [--from SOURCE]`: an area's tiles from any tileset termmap reads, as `NAME.pmtiles` in the data
/// folder, resumable, and polite to public servers.
enum AreaGet {
    /// A named public source gets at most this many requests a second (and 4 at a time, the pool's).
    static let publicRate = 20.0

    static func run(_ p: ParsedArguments, environment: [String: String]) throws -> Int32 {
        guard p.operands.count == 1 else {
            throw UsageError("data get: expected one NAME, then --bbox W,S,E,N or --around PLACE (see --help)")
        }
        let name = p.operands[0]
        try DataCommands.checkImportName(name)
        guard let from = p.value(.from) ?? p.allValues(.tiles).first else {
            throw UsageError("data get: --from SOURCE (or --tiles SOURCE) names the tileset to download from")
        }
        let zooms = try zoomRange(p.value(.zooms) ?? "0-14")
        let bounds = try area(p, environment: environment)
        // Open the source before touching the data folder: a source that cannot be read writes nothing.
        let archive = try TileArchives.open(from)
        let download = AreaDownload(bounds: bounds, zooms: zooms)
        let count = download.count(of: archive.info)
        let zoomsHeld = "\(max(zooms.lowerBound, archive.info.minZoom))–\(min(zooms.upperBound, archive.info.maxZoom))"
        guard count <= AreaDownload.confirmAbove || p.has(.yes) else {
            throw UsageError(
                "data get: the area holds \(grouped(count)) tiles at zooms \(zoomsHeld), more than "
                    + "\(grouped(AreaDownload.confirmAbove)): narrow the area or zooms, or give --yes")
        }
        let tiles = download.tiles(of: archive.info)
        guard !tiles.isEmpty else {
            throw DataFailure(
                "\(from): no tiles in that area and zooms (it has zooms \(archive.info.minZoom)–\(archive.info.maxZoom), "
                    + DataCommands.covers(archive.info.bounds) + ")")
        }
        let sizes = AreaDownload.bytes(of: tiles, in: archive)
        var holds = "the area holds \(grouped(tiles.count)) tiles at zooms \(zoomsHeld)"
        if let sizes { holds += " (\(grouped(sizes.count)) stored, \(megabytes(sizes.bytes)))" }
        printError("termmap: " + holds)
        let folder = try DataCommands.dataFolder(p.value(.data), environment: environment)
        let final = folder + "/" + name + ".pmtiles"
        let what =
            "\(from) \(bounds.west),\(bounds.south),\(bounds.east),\(bounds.north) z\(zooms.lowerBound)-\(zooms.upperBound)"
        let journal = try DownloadJournal(path: final + ".part", what: what)
        // Ctrl-C stops after the tiles in flight are in the journal (a second one stops at once).
        Interruption.catchFirst()
        let progress = Progress(
            total: tiles.count, done: journal.recorded.count, bytes: journal.tileBytes,
            showBar: isatty(STDERR_FILENO) == 1)
        try fetch(
            tiles.filter { journal.recorded[$0.pmtilesID] == nil }, of: tiles.count, from: archive, named: from,
            into: journal, progress: progress)
        let written = try writeArchive(
            tiles, from: archive, journal: journal, as: Target(name: name, path: final, source: from, area: what),
            bounds: bounds, zooms: zooms)
        progress.finish(
            "\(final): \(grouped(written.entries)) tiles (\(grouped(written.contents)) distinct), \(megabytes(fileSize(final) ?? 0))"
        )
        return 0
    }

    /// Fetches the tiles not yet in the journal, a batch at a time (remote tiles a few at a time, what the
    /// pool has in flight: the journal grows as they come); a named public source at most `publicRate`
    /// tiles a second. A damaged tile, or more than 20 failures, ends it with a line saying how to resume.
    static func fetch(
        _ todo: [TileID], of total: Int, from archive: TileArchive, named from: String, into journal: DownloadJournal,
        progress: Progress
    ) throws {
        let named = NamedTileSource.named(from) != nil
        let batchSize = archive.isRemote ? HTTPPool.parallel : 256
        var next = 0
        var failures = 0
        while next < todo.count {
            let started = monotonicSeconds()
            // The next tiles not in the journal (a batch asked for again keeps what it got).
            var batch: [TileID] = []
            var end = next
            while end < todo.count, batch.count < batchSize {
                if journal.recorded[todo[end].pmtilesID] == nil { batch.append(todo[end]) }
                end += 1
            }
            let got = archive.storedTiles(batch) { _ in true }
            for tile in batch {
                switch got[tile] {
                case .success(let bytes)?:
                    try journal.record(tile, bytes)
                    progress.add(bytes: bytes?.count ?? 0)
                case .failure(let f)?:
                    // A damaged tile is the source's, not the network's: the download cannot be whole.
                    failures += 1
                    if f.retry == .never || failures > 20 {
                        journal.flush()
                        throw DataFailure(
                            "\(from): \(f.reason); \(journal.recorded.count) of \(total) tiles are in \(journal.path), run again to resume"
                        )
                    }
                case nil:
                    break
                }
            }
            journal.flush()
            if Interruption.requested() {
                progress.stop()
                throw Interrupted(
                    "interrupted: \(journal.recorded.count) of \(total) tiles are in \(journal.path), run again to resume"
                )
            }
            if got.values.contains(where: { if case .failure = $0 { true } else { false } }) {
                // A server error or a wait: the batch is asked for again after a pause.
                usleep(1_000_000)
                continue
            }
            next = end
            if named {
                let minimum = Double(batch.count) / publicRate
                let spent = monotonicSeconds() - started
                if spent < minimum { usleep(useconds_t((minimum - spent) * 1_000_000)) }
            }
            progress.draw()
        }
    }

    /// The archive's name, where it goes, what it was downloaded from and the area asked (its metadata).
    struct Target {
        let name: String
        let path: String
        let source: String
        let area: String
    }

    /// Every tile is in the journal: writes the archive beside it, then gives it its name. Returns the
    /// tiles written and how many distinct contents they hold.
    static func writeArchive(
        _ tiles: [TileID], from archive: TileArchive, journal: DownloadJournal, as target: Target,
        bounds: CoordinateBounds, zooms: ClosedRange<Int>
    ) throws -> (entries: Int, contents: Int) {
        let (name, final, from, what) = (target.name, target.path, target.source, target.area)
        // Every tile is in the journal: write the archive beside it, then give it its name.
        var entries: [PMTilesBuilder.Tile] = []
        for tile in tiles {
            guard case .some(.some(let at)) = journal.recorded[tile.pmtilesID] else { continue }
            let bytes = try journal.bytes(at: at.offset, length: at.length)
            entries.append(PMTilesBuilder.Tile(id: tile.pmtilesID, length: at.length, hash: PMTilesBuilder.hash(bytes)))
        }
        var offsets: [UInt64: (offset: Int, length: Int)] = [:]
        for (id, at) in journal.recorded { if let at { offsets[id] = at } }
        let info = archive.info
        var metadata: [String: PMTilesBuilder.JSONText] = [
            "name": .string(name),
            "description": .string("\(from), downloaded by termmap data get"),
            "bounds": .string("\(bounds.west),\(bounds.south),\(bounds.east),\(bounds.north)"),
            "minzoom": .raw(String(max(zooms.lowerBound, info.minZoom))),
            "maxzoom": .raw(String(min(zooms.upperBound, info.maxZoom))),
            "vector_layers": .raw(
                "["
                    + info.layers.map { "{\"id\":" + PMTilesBuilder.quoted($0) + ",\"fields\":{}}" }.joined(
                        separator: ",") + "]"),
            "termmap:area": .string(what),
        ]
        if let credit = info.attribution { metadata["attribution"] = .string(credit) }
        // Imagery: a raster archive (its type told by its tiles), of the tiles' format and no layers.
        if let image = info.imageFormat {
            metadata["format"] = .string(image)
            metadata["vector_layers"] = nil
            // Elevation tiles stay terrain: their encoding goes with them (issue 48).
            if let encoding = info.encoding ?? DataLoading.encoding(guessedFrom: from) {
                metadata["encoding"] = .string(encoding.rawValue)
            }
        }
        let area = CoordinateBounds(
            north: min(bounds.north, info.bounds.north), south: max(bounds.south, info.bounds.south),
            west: max(bounds.west, info.bounds.west), east: min(bounds.east, info.bounds.east))
        let building = final + ".part.pmtiles"
        let contents = try PMTilesBuilder.write(
            entries, to: building, description: PMTilesBuilder.Description(bounds: area, metadata: metadata)
        ) { tile in
            guard let at = offsets[tile.id] else { return [] }
            return try journal.bytes(at: at.offset, length: at.length)
        }
        guard rename(building, final) == 0 else {
            throw DataFailure("\(final): cannot write (\(systemErrorReason()))")
        }
        unlink(final + ".part")
        return (entries.count, contents)
    }

    /// `A-B` within 0–30, A ≤ B.
    static func zoomRange(_ text: String) throws(UsageError) -> ClosedRange<Int> {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0.trimmedOfWhitespace) }
        if parts.count == 1, let z = parts[0], (0...30).contains(z) { return z...z }
        guard parts.count == 2, let a = parts[0], let b = parts[1], (0...30).contains(a), (0...30).contains(b) else {
            throw UsageError("--zooms '\(text)' must be A-B, zooms from 0 to 30 (e.g. 0-14)")
        }
        guard a <= b else { throw UsageError("--zooms '\(text)': the first zoom must not be above the second") }
        return a...b
    }

    /// The area of `--bbox` or `--around` (with `--within`).
    static func area(_ p: ParsedArguments, environment: [String: String]) throws -> CoordinateBounds {
        switch (p.value(.bbox), p.value(.around)) {
        case (let box?, nil):
            let v = box.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmedOfWhitespace) }
            guard v.count == 4, let w = v[0], let s = v[1], let e = v[2], let n = v[3] else {
                throw UsageError("--bbox '\(box)' must be W,S,E,N in degrees (e.g. 24.90,60.15,24.98,60.19)")
            }
            guard (-180...180).contains(w), (-180...180).contains(e), (-90...90).contains(s), (-90...90).contains(n)
            else {
                throw UsageError("--bbox '\(box)': longitudes must be within ±180 and latitudes within ±90")
            }
            guard w < e, s < n else {
                throw UsageError("--bbox '\(box)': west must be less than east, and south less than north")
            }
            return CoordinateBounds(north: n, south: s, west: w, east: e)
        case (nil, let place?):
            let radius = try StartupOptions.value(p.value(.within) ?? "5km", of: .within, InputParsing.radius)
            guard radius <= 500_000 else { throw UsageError("--within '\(p.value(.within) ?? "")': at most 500 km") }
            let center: Coordinate
            if case .success(let c) = InputParsing.coordinate(place) {
                center = c
            } else {
                var skipped: [DataLoading.Skipped] = []
                let sources = try DataLoading.load(dataDir: p.value(.data), environment: environment, skipped: &skipped)
                guard let hit = sources.search(place) else {
                    throw UsageError("--around '\(place)': no such place (give LAT,LON, or a city's name)")
                }
                center = hit.coordinate
            }
            // Degrees of the radius: 111,320 m a degree of latitude, and of longitude times cos(latitude).
            let dLat = radius / 111_320
            let dLon = radius / (111_320 * max(0.01, cos(center.latitude * .pi / 180)))
            return CoordinateBounds(
                north: min(85.0511, center.latitude + dLat), south: max(-85.0511, center.latitude - dLat),
                west: max(-180, center.longitude - dLon), east: min(180, center.longitude + dLon))
        case (.some, .some):
            throw UsageError("data get: give --bbox or --around, not both")
        case (nil, nil):
            throw UsageError("data get: the area is --bbox W,S,E,N or --around PLACE|LAT,LON [--within 5km]")
        }
    }

    /// Text to stderr as it is (the bar's carriage return and erase-line).
    static func writeStderr(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }

    /// `12,345`.
    static func grouped(_ n: Int) -> String {
        let digits = String(n)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return out
    }

    /// `1.2 MB`.
    static func megabytes(_ bytes: Int) -> String { fixedDecimals(Double(bytes) / 1_048_576, 1) + " MB" }

    /// The download's progress on stderr: a bar redrawn in place on a terminal, one line at the end
    /// otherwise.
    final class Progress {
        let total: Int
        var done: Int
        var bytes: Int
        let showBar: Bool
        let start = monotonicSeconds()
        let startDone: Int
        var lastDraw = 0.0

        init(total: Int, done: Int, bytes: Int, showBar: Bool) {
            (self.total, self.done, self.bytes, self.showBar, startDone) = (total, done, bytes, showBar, done)
        }

        func add(bytes b: Int) {
            done += 1
            bytes += b
        }

        func draw(force: Bool = false) {
            let now = monotonicSeconds()
            guard showBar, force || now - lastDraw >= 0.1 else { return }
            lastDraw = now
            let rate = Double(done - startDone) / max(0.001, now - start)
            let left = rate > 0 ? Double(total - done) / rate : 0
            let width = 24
            let filled = total > 0 ? width * done / total : width
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            let line =
                "[\(bar)] \(AreaGet.grouped(done))/\(AreaGet.grouped(total)) tiles  \(AreaGet.megabytes(bytes))  "
                + "\(Int(rate.rounded())) tiles/s  \(Int(left.rounded())) s left"
            writeStderr("\r" + line + "\u{1b}[K")
        }

        /// Ends the bar's line (the last state drawn), for a line said after it.
        func stop() {
            guard showBar else { return }
            draw(force: true)
            writeStderr("\n")
        }

        func finish(_ summary: String) {
            let seconds = monotonicSeconds() - start
            if showBar {
                draw(force: true)
                writeStderr("\n")
            }
            printError("termmap: \(summary) in \(fixedDecimals(seconds, 1)) s")
        }
    }
}
