import Foundation
import Raster
import Viewer

/// `termmap render`: the screen or the state, printed without a terminal.
enum RenderCommand {
    static func run(_ args: [String], environment: [String: String]) throws -> Int32 {
        let parsed = try ParsedArguments(args, for: .render)
        let options = try StartupOptions(parsed)
        var state = try options.initialState(cols: options.cols, rows: options.rows)
        let sources = try DataLoading.load(dataDir: options.dataDir, environment: environment)
        state.animationsEnabled = false
        for key in options.keys {
            if state.update(.key(key), places: sources).contains(.quit) { break }
        }
        if options.json {
            print(try StateJSON.encode(state))
            return 0
        }
        let depth = colorDepth(options.color, environment: environment)
        let frame = Renderer.render(state, sources: sources, options: RenderOptions(color: depth != .none))
        print(AnsiWriter.text(frame, depth: depth))
        return 0
    }

    static func colorDepth(_ option: String?, environment: [String: String]) -> ColorDepth {
        switch option {
        case "never": return .none
        case "16": return .ansi16
        case "256", "always": return .ansi256
        default:
            if environment["NO_COLOR"].map({ !$0.isEmpty }) ?? false { return .none }
            guard isatty(STDOUT_FILENO) == 1 else { return .none }
            return (environment["TERM"] ?? "").contains("256") ? .ansi256 : .ansi16
        }
    }
}
