import FoundationEssentials
import Glibc
import MapData
import MapFormats
import Support
import SystemSupport
import Viewer

/// Runs the command line; every failure ends in one line on stderr and a status (2 usage, 1 data).
func runTermmap(_ args: [String], environment: [String: String]) -> Int32 {
    do {
        guard let first = args.first else {
            return try InteractiveCommand.run([], environment: environment)
        }
        // `termmap render --help` and the like: help wherever it is asked for, not an error.
        if args.dropFirst().contains(where: { $0 == "--help" || $0 == "-h" }) {
            printLine(OptionTable.helpText)
            return 0
        }
        switch first {
        case "config":
            return try ConfigCommand.run(Array(args.dropFirst()), environment: environment)
        case "help":
            return try HelpCommand.run(Array(args.dropFirst()), environment: environment)
        case "--help", "-h":
            printLine(OptionTable.helpText)
            return 0
        case "--version":
            printLine(About.version)
            return 0
        case _ where first.hasPrefix("--") && args.contains("--about"):
            // The run's sources as the viewer would load them, with the data and tiles its options name
            // (`termmap --data DIR --tiles FILE --about`); without them, the data folders'.
            let parsed = try ConfigLocation.arguments(
                args.filter { $0 != "--about" }, for: .viewer, environment: environment
            ).parsed
            let options = try StartupOptions(parsed)
            let named = options.dataDir != nil || !options.tiles.isEmpty
            let load = {
                var skipped: [DataLoading.Skipped] = []
                return try DataLoading.load(
                    dataDir: options.dataDir, environment: environment, tiles: options.tiles, skipped: &skipped)
            }
            // What the options name must load (or say why not); the folders' data is credited whatever fails.
            printLine(About.attribution(named ? try load() : try? load()))
            return 0
        case "render":
            return try RenderCommand.run(Array(args.dropFirst()), environment: environment)
        case "route":
            return try RouteCommand.run(Array(args.dropFirst()), environment: environment)
        case "data":
            return try DataCommands.run(Array(args.dropFirst()), environment: environment)
        default:
            // Anything else that is not an option is a file to show (`./data` for a file named like a command).
            return try InteractiveCommand.run(args, environment: environment)
        }
    } catch let e as UsageError {
        printError("termmap: \(e)")
        return 2
    } catch let e as DataFailure {
        printError("termmap: \(e)")
        return 1
    } catch let e as Interrupted {
        printError("termmap: \(e)")
        return 130
    } catch let e as MapDataError {
        printError("termmap: \(e)")
        return 1
    } catch {
        // Anything else still ends in one line, the system's reason and not an error value printed whole.
        printError("termmap: \(fileErrorReason(error))")
        return 1
    }
}

CrashSettings.prepare(CommandLine.arguments)
tuneAllocatorForFrames()
exit(runTermmap(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
