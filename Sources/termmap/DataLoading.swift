import FoundationEssentials
import Glibc
import MapData
import MapRender
import Support
import Viewer

/// Finds and loads the map data along the search path.
enum DataLoading {
    /// The sources of a run: the world, the shorelines, `--tiles` sources, then the data folders'
    /// imports and tilesets (the data folders' tilesets not in kiosk mode), then the bundled cities.
    /// `lenient`: a data folder's file that cannot be read is left out rather than an error (`--about`).
    static func load(
        dataDir: String?, environment: [String: String], tiles: [String] = [], tileCacheBytes: Int = TileSource.defaultCacheBytes,
        folderTiles: Bool = true, lenient: Bool = false
    ) throws -> MapSources {
        let locator = DataLocator(explicit: dataDir, environment: environment, executablePath: executablePath())
        if let dataDir {
            guard isDirectory(dataDir) else {
                throw DataFailure("--data \(dataDir): no such folder")
            }
        }
        guard let worldPath = locator.find(DataLocator.worldFileName) else {
            throw DataFailure(
                "no \(DataLocator.worldFileName) found in: " + locator.directories.joined(separator: ", "))
        }
        let world = try MapAsset(path: worldPath, kind: locator.kind(of: worldPath))
        var high: MapAsset?
        if let hiPath = locator.find(DataLocator.highResolutionFileName) {
            high = try MapAsset(path: hiPath, kind: locator.kind(of: hiPath))
        }
        func tileSource(_ location: String) throws(MapDataError) -> TileSource {
            TileSource(
                archive: try TileArchives.open(location), label: TileArchives.label(location), cacheBytes: tileCacheBytes)
        }
        var details: [any FeatureSource] = try tiles.map(tileSource)
        for path in locator.detailFiles(tilesets: folderTiles) {
            let source: any FeatureSource
            do {
                if TileArchives.fileExtensions.contains(where: path.hasSuffix) {
                    source = try tileSource(path)
                } else {
                    source = try MapAsset(path: path, kind: locator.kind(of: path))
                }
            } catch {
                if lenient { continue }
                throw error
            }
            details.append(source)
        }
        return MapSources(features: FeatureSources(base: world, shorelines: high, details: details))
    }

    /// This executable's path (from /proc on Linux, which `swift run` and symlinks do not fool).
    static func executablePath() -> String {
        if let p = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return p }
        return CommandLine.arguments.first ?? "termmap"
    }
}
