import FoundationEssentials
import Glibc
import MapFormats
import Support
import SystemSupport

/// Where map data is looked for: `--data DIR`, then `$XDG_DATA_HOME/termmap`
/// (default `~/.local/share/termmap`), then the bundled `assets/`.
public struct DataLocator: Equatable, Sendable {
    /// The bundled world file's name.
    public static let worldFileName = "world.tmap"
    /// The imported high-resolution file's name.
    public static let highResolutionFileName = "gshhg.tmap"
    /// GSHHG's rivers, imported beside its shorelines (a street-level file as far as precedence goes:
    /// drawn from its zoom on, wherever no finer data draws rivers).
    public static let riversFileName = "gshhg-rivers.tmap"

    /// Folders in search order.
    public var directories: [String]
    /// The bundled folder, when there is one.
    public let bundled: String?

    /// The search path from an explicit folder, the environment and the executable's location.
    public init(
        explicit: String?, environment: [String: String], executablePath: String, sourceFilePath: String = #filePath
    ) {
        var dirs: [String] = []
        if let explicit { dirs.append(explicit) }
        dirs.append(Self.userDataDirectory(environment: environment))
        bundled = Self.bundledAssetsDirectory(executablePath: executablePath, sourceFilePath: sourceFilePath)
        if let bundled { dirs.append(bundled) }
        directories = dirs
    }

    /// Bundled when the file is in the bundled folder (the same folder, however its path is written),
    /// imported otherwise.
    public func kind(of path: String) -> SourceKind {
        guard let bundled else { return .import }
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        func real(_ p: String) -> String {
            guard let r = realpath(p.isEmpty ? "." : p, nil) else { return p }
            defer { free(r) }
            return String(cString: r)
        }
        return real(folder) == real(bundled) ? .bundled : .import
    }

    /// `$XDG_DATA_HOME/termmap`, or `$HOME/.local/share/termmap`.
    public static func userDataDirectory(environment: [String: String]) -> String {
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") { return xdg + "/termmap" }
        let home = environment["HOME"] ?? homeDirectoryFromPasswordDatabase()
        return home + "/.local/share/termmap"
    }

    /// The bundled `assets/`: beside an installed binary (`../share/termmap`), above a SwiftPM build
    /// folder (`.build/<triple>/<config>/termmap`), or in the source tree this binary was built from.
    public static func bundledAssetsDirectory(executablePath: String, sourceFilePath: String) -> String? {
        let fm = FileManager.default
        let exe = URL(fileURLWithPath: executablePath).resolvingSymlinksInPath().deletingLastPathComponent()
        var candidates = [exe.appendingPathComponent("../share/termmap").standardized.path]
        var dir = exe
        for _ in 0..<6 {
            candidates.append(dir.appendingPathComponent("assets").path)
            dir = dir.deletingLastPathComponent()
        }
        // Sources/MapData/DataLocator.swift → the package root.
        let root = URL(fileURLWithPath: sourceFilePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        candidates.append(root.appendingPathComponent("assets").path)
        return candidates.first { fm.fileExists(atPath: $0 + "/" + worldFileName) }
    }

    /// Every map data file (`*.tmap`, and with `tilesets` `*.pmtiles` and `*.mbtiles`) in the search
    /// path, folder by folder, each folder's sorted by name.
    public func allFiles(tilesets: Bool = false) -> [(folder: String, file: String)] {
        let suffixes = [".tmap"] + (tilesets ? TileArchives.fileExtensions : [])
        return directories.flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { name in
                suffixes.contains { name.hasSuffix($0) }
            }.sorted().map { (folder, $0) }
        }
    }

    /// The street-level files (all `*.tmap` but the world and the shorelines, and with `tilesets` the
    /// tilesets) as full paths, the first of each name in search order: the user's before the bundled.
    public func detailFiles(tilesets: Bool = false) -> [String] {
        var seen = Set<String>()
        return allFiles(tilesets: tilesets).filter { entry in
            ![Self.worldFileName, Self.highResolutionFileName].contains(entry.file) && seen.insert(entry.file).inserted
        }.map { $0.folder + "/" + $0.file }
    }

    /// The first folder holding `fileName`, as a full path.
    public func find(_ fileName: String) -> String? {
        directories.lazy.map { $0 + "/" + fileName }.first { FileManager.default.fileExists(atPath: $0) }
    }
}
