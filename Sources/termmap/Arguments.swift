/// A command-line mistake: printed as one line, exit status 2.
struct UsageError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Where a setting in effect comes from (`termmap config` says).
enum SettingOrigin: Equatable, CustomStringConvertible {
    case commandLine
    case file(path: String, line: Int)

    var description: String {
        switch self {
        case .commandLine: return "command line"
        case .file(let path, let line): return "\(path):\(line)"
        }
    }
}

/// Options after the subcommand: `--flag`, `--name value` or `--name=value`, and plain operands.
struct ParsedArguments {
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []
    /// Where each option given comes from: the command line, or a line of the configuration file.
    private(set) var origins: [String: SettingOrigin] = [:]
    /// The arguments that are not options.
    private(set) var operands: [String] = []

    /// The value given for `option`, if any.
    func value(_ option: OptionSpec) -> String? { values[option.name]?.first }
    /// Every value given for a repeatable `option`, in order.
    func allValues(_ option: OptionSpec) -> [String] { values[option.name] ?? [] }
    /// True when the flag `option` was given.
    func has(_ option: OptionSpec) -> Bool { flags.contains(option.name) }

    /// Takes the file's settings of the options `command` takes that the command line does not give: the
    /// command line wins, and a list it gives (`--tiles`) replaces the file's list.
    mutating func fill(from config: ConfigFile, for command: CommandName) {
        let taken = Set(OptionTable.options(of: command).map(\.name))
        for setting in config.settings where taken.contains(setting.option.name) && origins[setting.option.name] == nil
        {
            if setting.option.value == nil {
                guard setting.values == ["true"] else { continue }
                flags.insert(setting.option.name)
            } else {
                values[setting.option.name] = setting.values
            }
            origins[setting.option.name] = .file(path: config.path, line: setting.line)
        }
    }

    /// The arguments a setting stands for (`--theme light`; a flag set to false: none).
    static func arguments(of option: OptionSpec, values: [String]) -> [String] {
        if option.value == nil { return values == ["true"] ? ["--" + option.name] : [] }
        return values.flatMap { ["--" + option.name, $0] }
    }

    /// Parses `args` against the options `command` takes (`OptionTable`).
    init(_ args: [String], for command: CommandName) throws(UsageError) {
        let options = OptionTable.options(of: command)
        let valued = Set(options.filter { $0.value != nil }.map(\.name))
        let repeatable = Set(options.filter(\.repeatable).map(\.name))
        let allowedFlags = Set(options.filter { $0.value == nil }.map(\.name))
        let implicit = Dictionary(options.compactMap { o in o.implicitValue.map { (o.name, $0) } }) { a, _ in a }
        var i = 0
        while i < args.count {
            let arg = args[i]
            i += 1
            if arg == "--" {
                // Everything after is a file, whatever it looks like.
                operands += args[i...]
                break
            }
            guard arg.hasPrefix("--"), arg.count > 2 else {
                // `-33.86,151.21` is a point south of the equator, not an option.
                let negativeNumber = arg.dropFirst().first.map { $0.isNumber || $0 == "." } ?? false
                if arg.hasPrefix("-"), arg.count > 1, !negativeNumber { throw Self.unknownOption(arg, among: options) }
                operands.append(arg)
                continue
            }
            var name = String(arg.dropFirst(2))
            var inline: String?
            if let eq = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            if valued.contains(name) {
                let value: String
                if let inline {
                    value = inline
                } else if let given = implicit[name], i >= args.count || args[i].hasPrefix("--") {
                    value = given
                } else {
                    guard i < args.count else { throw UsageError("option --\(name) needs a value") }
                    value = args[i]
                    i += 1
                }
                guard values[name] == nil || repeatable.contains(name) else {
                    throw UsageError("option --\(name) is given twice")
                }
                values[name, default: []].append(value)
                origins[name] = .commandLine
            } else if allowedFlags.contains(name) {
                guard inline == nil else { throw UsageError("option --\(name) takes no value") }
                guard !flags.contains(name) else { throw UsageError("option --\(name) is given twice") }
                flags.insert(name)
                origins[name] = .commandLine
            } else {
                throw Self.unknownOption("--\(name)", among: options)
            }
        }
    }

    /// An option this command does not take. A misspelt one comes with the nearest this command takes
    /// (`--colour`: did you mean `--color`?), as the configuration file suggests them; another command's
    /// option points to the help, and one written with one dash gets its two.
    static func unknownOption(_ arg: String, among options: [OptionSpec]) -> UsageError {
        let word = String(arg.drop { $0 == "-" })
        let misspelt = !OptionTable.all.contains { $0.name == word }
        // `-center`: one dash short.
        let oneDash = !arg.hasPrefix("--") && options.contains { $0.name == word }
        let hint = oneDash ? word : misspelt ? Suggestion.closest(to: word, among: options.map(\.name)) : nil
        return UsageError("unknown option '\(arg)'\(hint.map { " (did you mean '--\($0)'?)" } ?? " (see --help)")")
    }
}
