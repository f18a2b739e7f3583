import SystemSupport

/// `termmap help [TOPIC]`: the usage, the keys in effect, the manual, shell completions or the option
/// table; a topic there is not is a usage mistake with the nearest topic.
enum HelpCommand {
    /// What `help TOPIC` tells (`help` alone, or with a command's name, prints the usage).
    static let topics = ["keys", "man", "completions", "options"]

    static func run(_ args: [String], environment: [String: String]) throws -> Int32 {
        switch args.first {
        case "keys":
            // The keys in effect: the configuration's `[keys]` applied.
            printLine(
                try ConfigLocation.arguments(Array(args.dropFirst()), for: .viewer, environment: environment).keymap
                    .markdownTable)
        case "man":
            printLine(ManPage.roff)
        case "completions":
            guard args.count == 2, let shell = Completions.Shell(rawValue: args[1]) else {
                throw UsageError("help completions takes one shell: bash, zsh or fish")
            }
            printLine(Completions.script(for: shell), terminator: "")
        case "options":
            printLine(OptionTable.markdownTable)
        case let topic? where !OptionTable.commandWords.contains(topic):
            let hint = Suggestion.closest(to: topic, among: topics).map { " (did you mean '\($0)'?)" }
            throw UsageError("help has no topic '\(topic)'\(hint ?? ": \(topics.joined(separator: ", "))")")
        default:
            printLine(OptionTable.helpText)
        }
        return 0
    }
}
