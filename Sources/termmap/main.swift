import FoundationEssentials
import Glibc
import MapData
import Support
import Viewer

/// Runs the command line; every failure ends in one line on stderr and a status (2 usage, 1 data).
func runTermmap(_ args: [String], environment: [String: String]) -> Int32 {
    do {
        guard let first = args.first else {
            return try InteractiveCommand.run([], environment: environment)
        }
        // `termmap render --help` and the like: help wherever it is asked for, not an error.
        if args.dropFirst().contains(where: { $0 == "--help" || $0 == "-h" }) {
            print(OptionTable.helpText)
            return 0
        }
        switch first {
        case "help" where args.dropFirst().first == "keys":
            print(Keymap.standard.markdownTable)
            return 0
        case "help" where args.dropFirst().first == "options":
            print(OptionTable.markdownTable)
            return 0
        case "--help", "-h", "help":
            print(OptionTable.helpText)
            return 0
        case "--version":
            print(About.version)
            return 0
        case "--about":
            print(About.attribution)
            let locator = DataLocator(
                explicit: nil, environment: environment, executablePath: DataLoading.executablePath())
            if locator.find(DataLocator.highResolutionFileName) != nil { print(About.gshhgAttribution) }
            // Street-level files credit what their metadata says (OpenStreetMap's ODbL for imports).
            for path in locator.detailFiles(tilesets: true) {
                if TileArchives.fileExtensions.contains(where: path.hasSuffix) {
                    guard let archive = try? TileArchives.open(path) else { continue }
                    let credit = archive.info.attribution ?? Credit.openStreetMap.text
                    print("Tiles: \(TileArchives.label(path)) (\(archive.info.name), \(path)): \(credit).")
                    continue
                }
                guard let asset = try? MapAsset(path: path) else { continue }
                let credit = asset.attribution ?? "source unknown"
                let licence = asset.metadata["licence"].map { ", \($0)" } ?? ""
                print("Streets: \(asset.label) (\(asset.metadata["source"] ?? path)): \(credit)\(licence).")
            }
            return 0
        case "render":
            return try RenderCommand.run(Array(args.dropFirst()), environment: environment)
        case "data":
            return try DataCommands.run(Array(args.dropFirst()), environment: environment)
        default:
            guard first.hasPrefix("--") else { throw UsageError("unknown command '\(first)' (see --help)") }
            return try InteractiveCommand.run(args, environment: environment)
        }
    } catch let e as UsageError {
        printError("termmap: \(e)")
        return 2
    } catch let e as DataFailure {
        printError("termmap: \(e)")
        return 1
    } catch let e as MapDataError {
        printError("termmap: \(e)")
        return 1
    } catch {
        printError("termmap: \(error)")
        return 1
    }
}

exit(runTermmap(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
