import FoundationEssentials
import Glibc
import MapData
import MapFormats
import MapRender
import Support
import SystemSupport
import Viewer

/// Finds and loads the map data along the search path.
enum DataLoading {
    /// A data folder's file that could not be read and was left out: said once on stderr and once on
    /// the message line, while the rest is drawn.
    struct Skipped {
        var error: MapDataError
        /// For stderr: `termmap: DIR/bad.pmtiles: not a PMTiles file (…); skipped, the rest is used`.
        var line: String { "termmap: \(error); skipped, the rest is used" }
        /// For the message line, short enough to leave the data's credit beside it at 80 columns (the
        /// reason is on stderr, and `data list` marks the file).
        var message: String {
            let file = error.file.split(separator: "/").last.map(String.init) ?? error.file
            return "\(file) is damaged and not used"
        }
    }

    /// `load`, saying on stderr which of the data folders' files were left out; the first of them is
    /// returned for the message line.
    static func loadSayingSkipped(
        dataDir: String?, environment: [String: String], tiles: [String], terrain: [String] = [],
        tileCacheBytes: Int, tileCacheDiskBytes: Int = 0, folderTiles: Bool = true
    ) throws -> (sources: MapSources, skipped: Skipped?) {
        var skipped: [Skipped] = []
        var notices: [String] = []
        let sources = try load(
            dataDir: dataDir, environment: environment, tiles: tiles, terrain: terrain, tileCacheBytes: tileCacheBytes,
            tileCache: TileCachePolicy(
                folder: TileDiskCache.folder(environment: environment), limitBytes: tileCacheDiskBytes),
            folderTiles: folderTiles, skipped: &skipped, notices: &notices)
        for s in skipped { printError(s.line) }
        for n in notices { printError("termmap: " + n) }
        return (sources, skipped.first)
    }

    /// The sources of a run: the world, the shorelines, `--tiles` sources, then the data folders'
    /// imports and tilesets (the data folders' tilesets not in kiosk mode), then the bundled cities.
    /// A data folder's file that cannot be read is left out and added to `skipped`; the world file and
    /// the `--tiles` named must load.
    static func load(
        dataDir: String?, environment: [String: String], tiles: [String] = [],
        tileCacheBytes: Int = TileSource.defaultCacheBytes,
        tileCache: TileCachePolicy = .none, folderTiles: Bool = true, skipped: inout [Skipped]
    ) throws -> MapSources {
        var notices: [String] = []
        return try load(
            dataDir: dataDir, environment: environment, tiles: tiles, tileCacheBytes: tileCacheBytes,
            tileCache: tileCache,
            folderTiles: folderTiles, skipped: &skipped, notices: &notices)
    }

    /// `load`, adding lines to say once (a tile cache that cannot be kept) to `notices`.
    static func load(
        dataDir: String?, environment: [String: String], tiles: [String], terrain terrainSources: [String] = [],
        tileCacheBytes: Int, tileCache: TileCachePolicy, folderTiles: Bool, skipped: inout [Skipped],
        notices: inout [String]
    ) throws -> MapSources {
        let locator = DataLocator(explicit: dataDir, environment: environment, executablePath: executablePath())
        if let dataDir {
            guard isDirectory(dataDir) else {
                throw DataFailure(
                    "--data \(dataDir): "
                        + (FileManager.default.fileExists(atPath: dataDir) ? "not a folder" : "no such folder"))
            }
        }
        let (world, high) = try baseMaps(locator, skipped: &skipped)
        var said: [String] = []
        // A remote tileset that gives no answer is offline, not an error: the map opens on everything
        // else and it is asked again as tiles are wanted (a wrong address or a refusal still ends here).
        func archive(_ location: String) throws(MapDataError) -> any TileArchive {
            do {
                return try TileArchives.open(location, cache: tileCache, notices: &said)
            } catch {
                guard case .unreachable(let why) = error.kind else { throw error }
                said.append("\(location): offline (\(why)); the map is drawn without it until it answers")
                return ReconnectingArchive(location: location, reason: why) { () throws(MapDataError) in
                    var notices: [String] = []
                    return try TileArchives.open(location, cache: tileCache, notices: &notices)
                }
            }
        }
        // A raster tileset is the imagery under the map (the first one: a second is said and left out);
        // one whose metadata says an elevation `encoding` is terrain (issue 48): every one named, stacked.
        var details: [any ChunkSource] = []
        var imagery: ImagerySource?
        var terrainLayers: [TerrainStack.Layer] = []
        func addTerrain(_ opened: any TileArchive, _ location: String) throws(MapDataError) {
            terrainLayers.append(try Self.terrainLayer(opened, location))
        }
        func add(_ location: String) throws(MapDataError) {
            let opened = try archive(location)
            let label = TileArchives.label(location)
            // Elevation tiles named in --tiles or kept in the data folder are terrain too.
            if opened.info.encoding != nil
                || (opened.info.imageFormat != nil && Self.encoding(guessedFrom: location) != nil)
            {
                return try addTerrain(opened, location)
            }
            guard opened.info.imageFormat != nil else {
                details.append(TileSource(archive: opened, label: label, cacheBytes: tileCacheBytes))
                return
            }
            guard let first = imagery else {
                imagery = ImagerySource(archive: opened, label: label, cacheBytes: tileCacheBytes)
                return
            }
            said.append("\(location): imagery \(first.label) is drawn already; one imagery at a time")
        }
        // The terrain named on the command line first (the first named wins where it has a height), then
        // elevation tiles among --tiles, then those kept in the data folder.
        for location in terrainSources { try addTerrain(try archive(location), location) }
        for location in tiles { try add(location) }
        for path in locator.detailFiles(tilesets: folderTiles) {
            do throws(MapDataError) {
                if TileArchives.fileExtensions.contains(where: path.hasSuffix) {
                    try add(path)
                } else {
                    details.append(try MapAsset(path: path, kind: locator.kind(of: path)))
                }
            } catch {
                skipped.append(Skipped(error: error))
            }
        }
        notices += said
        return MapSources(
            features: FeatureSources(base: world, shorelines: high, details: details), imagery: imagery,
            terrain: terrain(terrainLayers, cacheBytes: tileCacheBytes))
    }

    /// The world file (which must load) and the finer shorelines, if there are any that read.
    static func baseMaps(_ locator: DataLocator, skipped: inout [Skipped]) throws -> (MapAsset, MapAsset?) {
        guard let worldPath = locator.find(DataLocator.worldFileName) else {
            throw DataFailure(
                "no \(DataLocator.worldFileName) found in: " + locator.directories.joined(separator: ", "))
        }
        let world = try MapAsset(path: worldPath, kind: locator.kind(of: worldPath))
        guard let hiPath = locator.find(DataLocator.highResolutionFileName) else { return (world, nil) }
        do throws(MapDataError) {
            return (world, try MapAsset(path: hiPath, kind: locator.kind(of: hiPath)))
        } catch {
            skipped.append(Skipped(error: error))
            return (world, nil)
        }
    }

    /// Elevation tiles as a layer of terrain: raster tiles whose encoding the metadata says (or the
    /// address).
    static func terrainLayer(_ opened: any TileArchive, _ location: String) throws(MapDataError) -> TerrainStack.Layer {
        guard opened.info.imageFormat != nil else {
            throw MapDataError(file: location, .badInput("vector tiles, not elevation tiles (PNG or WebP)"))
        }
        guard let encoding = opened.info.encoding ?? Self.encoding(guessedFrom: location) else {
            throw MapDataError(
                file: location, .badInput("its metadata names no elevation encoding (`encoding`: terrarium or mapbox)"))
        }
        return TerrainStack.Layer(archive: opened, label: TileArchives.label(location), encoding: encoding)
    }

    /// The terrain of `layers`: one tileset as it is, several as one stack (`TerrainStack`).
    static func terrain(_ layers: [TerrainStack.Layer], cacheBytes: Int) -> TerrainSource? {
        guard let first = layers.first else { return nil }
        guard layers.count > 1 else {
            return TerrainSource(
                archive: first.archive, label: first.label, encoding: first.encoding, cacheBytes: cacheBytes)
        }
        let stack = TerrainStack(layers: layers)
        return TerrainSource(archive: stack, label: stack.info.name, encoding: .terrarium, cacheBytes: cacheBytes)
    }

    /// The elevation encoding a template or file name says (`…/terrarium/{z}/{x}/{y}.png`,
    /// `terrain-rgb`), for sources without metadata.
    static func encoding(guessedFrom location: String) -> TerrainEncoding? {
        let l = location.lowercased()
        // Mapterhorn's tiles are Terrarium (mapterhorn.com), whatever its TileJSON says.
        if l.contains("terrarium") || l.contains("mapterhorn") { return .terrarium }
        if l.contains("terrain-rgb") || l.contains("terrainrgb") { return .mapbox }
        return nil
    }

    /// Waits for the tile sources' background work (cache writes, revalidations) and says their
    /// notices: at the end of a run.
    static func finish(_ sources: MapSources) {
        for case let tiles as TileSource in sources.features.all {
            tiles.archive.finish()
            for n in tiles.takeNotices() { printError("termmap: " + n) }
        }
        if let imagery = sources.imagery {
            imagery.archive.finish()
            for n in imagery.takeNotices() { printError("termmap: " + n) }
        }
        if let terrain = sources.terrain {
            terrain.tiles.archive.finish()
            for n in terrain.takeNotices() { printError("termmap: " + n) }
        }
    }

    /// This executable's path (from /proc on Linux, which `swift run` and symlinks do not fool).
    static func executablePath() -> String {
        if let p = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return p }
        return CommandLine.arguments.first ?? "termmap"
    }
}
