import Support
import SystemSupport
import Viewer

/// `termmap config`: every setting of the viewer in effect and where it comes from (default, the
/// file's line, the command line), written as the file writes it, so that the output is a configuration
/// itself; `--check` checks the file only.
enum ConfigCommand {
    static func run(_ args: [String], environment: [String: String]) throws(UsageError) -> Int32 {
        let (parsed, keymap, config) = try ConfigLocation.arguments(args, for: .config, environment: environment)
        guard parsed.operands.isEmpty else {
            throw UsageError("config takes options only, not '\(parsed.operands[0])' (see --help)")
        }
        let location = ConfigLocation.path(parsed, environment: environment)?.path
        if parsed.has(.check) {
            if let config {
                printLine("\(config.path): ok (\(config.settings.count) settings, \(config.keys.count) commands bound)")
            } else {
                printLine("no configuration file" + (location.map { " (none at \($0))" } ?? ""))
            }
            return 0
        }
        printLine(text(parsed, keymap: keymap, config: config, location: location), terminator: "")
        return 0
    }

    /// The listing: a header naming the file, `name = value  # origin` lines, then `[keys]`.
    static func text(_ parsed: ParsedArguments, keymap: Keymap, config: ConfigFile?, location: String?) -> String {
        var rows: [(String, String)] = []
        for option in OptionTable.all where option.inConfig && option.commands.contains(.viewer) {
            let values: [String]
            if option.value == nil {
                values = [parsed.has(option) ? "true" : "false"]
            } else {
                values = parsed.allValues(option)
            }
            let origin = parsed.origins[option.name]?.description ?? "default"
            let shown = origin == "default" ? option.configDefault : ConfigFile.written(values)
            // A default is shown commented out, so that the listing read back as a file sets what it shows.
            rows.append(((origin == "default" ? "# " : "") + "\(option.name) = \(shown)", origin))
        }
        let bound = Dictionary(config?.keys.map { ($0.command, $0.line) } ?? []) { a, _ in a }
        let standard = Dictionary(Keymap.standard.bindings.map { ($0.command, $0.keys) }) { a, _ in a }
        var keyRows: [(String, String)] = []
        for b in keymap.bindings {
            let origin: String
            if let line = bound[b.command], let path = config?.path {
                origin = "\(path):\(line)"
            } else {
                origin = standard[b.command] == b.keys ? "default" : "default, less the keys the file moved"
            }
            let keys = ConfigFile.written(b.keys.map(\.scriptText))
            keyRows.append(("\(b.command.name) = \(keys)", origin))
        }
        let width = (rows + keyRows).map(\.0.count).max() ?? 0
        func lines(_ rows: [(String, String)]) -> String {
            rows.map { $0.0.padded(to: width) + "  # " + $0.1 + "\n" }.joined()
        }
        let header: String
        if let path = config?.path {
            header = "# termmap: the settings in effect (file \(path))\n"
        } else {
            header = "# termmap: the settings in effect (no file" + (location.map { "; none at \($0)" } ?? "") + ")\n"
        }
        return header + lines(rows) + "\n[keys]\n" + lines(keyRows)
    }
}
