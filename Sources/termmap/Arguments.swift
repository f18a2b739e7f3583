/// A command-line mistake: printed as one line, exit status 2.
struct UsageError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Options after the subcommand: `--flag`, `--name value` or `--name=value`, and plain operands.
struct ParsedArguments {
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []
    /// The arguments that are not options.
    private(set) var operands: [String] = []

    /// The value given for `option`, if any.
    func value(_ option: OptionSpec) -> String? { values[option.name]?.first }
    /// Every value given for a repeatable `option`, in order.
    func allValues(_ option: OptionSpec) -> [String] { values[option.name] ?? [] }
    /// True when the flag `option` was given.
    func has(_ option: OptionSpec) -> Bool { flags.contains(option.name) }

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
                if arg.hasPrefix("-"), arg.count > 1 { throw UsageError("unknown option '\(arg)' (see --help)") }
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
            } else if allowedFlags.contains(name) {
                guard inline == nil else { throw UsageError("option --\(name) takes no value") }
                guard !flags.contains(name) else { throw UsageError("option --\(name) is given twice") }
                flags.insert(name)
            } else {
                throw UsageError("unknown option '--\(name)' (see --help)")
            }
        }
    }
}
