import Foundation
import MapData

/// A failure with data files: printed as one line, exit status 1.
struct DataFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// `termmap data …`: building and importing map data files.
enum DataCommands {
    static func run(_ args: [String], environment: [String: String]) throws -> Int32 {
        guard let sub = args.first else { throw UsageError("data: expected 'pack' or 'import-gshhg'") }
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
            print(
                "\(out): \(bytes.count) bytes, \(asset.levels.count) levels, \(asset.chunks.count) chunks, \(asset.cityCount) places"
            )
            return 0
        case "import-gshhg":
            let p = try ParsedArguments(rest, for: .importGSHHG)
            guard p.operands.count == 1 else {
                throw UsageError("data import-gshhg: expected one PATH (gshhs_f.dat or its folder)")
            }
            return try importGSHHG(p.operands[0], dataDir: p.value(.data), environment: environment)
        default:
            throw UsageError("data: unknown subcommand '\(sub)' (expected 'pack' or 'import-gshhg')")
        }
    }

    /// Reads `gshhs_X.dat` and `gshhsmeta_X.dat` (X = f or h) and writes `gshhg.tmap` in the user data folder.
    static func importGSHHG(_ path: String, dataDir: String?, environment: [String: String]) throws -> Int32 {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            throw DataFailure("\(path): no such file or folder")
        }
        var dataPath = path
        if isDir.boolValue {
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
        let folder = dataDir ?? DataLocator.userDataDirectory(environment: environment)
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw DataFailure("\(folder): cannot create the data folder (\((error as NSError).localizedDescription))")
        }
        let out = folder + "/" + DataLocator.highResolutionFileName
        try write(bytes, to: out)
        print("imported \(lines.count) rings from \(dataPath) into \(out) (\(bytes.count) bytes)")
        print(About.gshhgAttribution)
        return 0
    }

    static func readBytes(_ path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw DataFailure("\(path): cannot read the file")
        }
        return [UInt8](data)
    }

    /// Writes the whole file or nothing: Foundation's atomic write puts the bytes in a temporary file
    /// beside the target and renames it, so a reader never sees half a file.
    static func write(_ bytes: [UInt8], to path: String) throws {
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw DataFailure("\(path): cannot write the file (\((error as NSError).localizedDescription))")
        }
    }
}
