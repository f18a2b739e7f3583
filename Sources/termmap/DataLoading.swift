import Foundation
import MapData
import Viewer

/// Finds and loads the map data along the search path.
enum DataLoading {
    static func load(dataDir: String?, environment: [String: String]) throws -> MapSources {
        let locator = DataLocator(explicit: dataDir, environment: environment, executablePath: executablePath())
        if let dataDir {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: dataDir, isDirectory: &isDir), isDir.boolValue else {
                throw DataFailure("--data \(dataDir): no such folder")
            }
        }
        guard let worldPath = locator.find(DataLocator.worldFileName) else {
            throw DataFailure(
                "no \(DataLocator.worldFileName) found in: " + locator.directories.joined(separator: ", "))
        }
        let world = try MapAsset(path: worldPath)
        var high: MapAsset?
        if let hiPath = locator.find(DataLocator.highResolutionFileName) {
            high = try MapAsset(path: hiPath)
        }
        let details = try locator.detailFiles().map { path throws(MapDataError) in try MapAsset(path: path) }
        return MapSources(world: world, highResolution: high, details: details)
    }

    /// This executable's path (from /proc on Linux, which `swift run` and symlinks do not fool).
    static func executablePath() -> String {
        if let p = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return p }
        return CommandLine.arguments.first ?? "termmap"
    }
}
