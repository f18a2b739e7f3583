import Glibc
import Support
import SystemSupport
import Viewer

/// The configuration file: `name = value` lines for the options `OptionTable` marks `inConfig`, and a
/// `[keys]` section binding commands by name to keys written as `--keys` writes them
/// (`zoom-in = "+", "="`). A `#` at the start of a line or after a space begins a comment, outside
/// quotes (a quoted value keeps its `#`, as `#map=` links have one). Every mistake is one line naming
/// the file and the line.
struct ConfigFile {
    /// One option set by the file.
    struct Setting {
        let option: OptionSpec
        /// Its values: one, or a list's (`tiles = "a.pmtiles", "b.pmtiles"`); a flag's `true` or `false`.
        let values: [String]
        let line: Int
    }

    /// One command bound by the file.
    struct KeySetting {
        let command: Command
        let keys: [Key]
        let line: Int
    }

    let path: String
    private(set) var settings: [Setting] = []
    private(set) var keys: [KeySetting] = []

    /// Files larger than this are not configurations.
    static let sizeLimit = 1 << 20

    /// Parses and checks `text` (every value as its option would take it on the command line).
    init(parsing text: String, path: String) throws(UsageError) {
        self.path = path
        var section = ""
        // Lines end at each LF (a CR before it is dropped): split by scalars, since a String's
        // characters make CR LF one.
        for (index, raw) in text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = index + 1
            func fail(_ why: String) -> UsageError { UsageError("\(path):\(line): \(Self.printable(why))") }
            let scalars = raw.last == "\r" ? raw.dropLast() : raw[...]
            let text = Self.withoutComment(String(String.UnicodeScalarView(scalars)))
            guard !text.isEmpty else { continue }
            if text.hasPrefix("[") {
                guard text.hasSuffix("]") else { throw fail("a section is written [keys]") }
                section = String(text.dropFirst().dropLast()).trimmedOfWhitespace
                guard section == "keys" else {
                    throw fail("unknown section '[\(section)]' (the one section is [keys])")
                }
                continue
            }
            guard let eq = text.firstIndex(of: "=") else { throw fail("expected 'name = value'") }
            let name = String(text[..<eq]).trimmedOfWhitespace
            let valueText = String(text[text.index(after: eq)...]).trimmedOfWhitespace
            guard !name.isEmpty else { throw fail("a name is missing before '='") }
            let values: [String]
            do { values = try Self.values(valueText) } catch { throw fail(error.description) }
            if section == "keys" {
                try addKeys(name: name, values: values, line: line, fail: fail)
            } else {
                try addSetting(name: name, values: values, line: line, fail: fail)
            }
        }
    }

    private mutating func addSetting(
        name: String, values: [String], line: Int, fail: (String) -> UsageError
    ) throws(UsageError) {
        let settable = OptionTable.all.filter(\.inConfig)
        guard let option = settable.first(where: { $0.name == name }) else {
            let known = OptionTable.all.contains { $0.name == name }
            let hint =
                Suggestion.closest(to: name, among: settable.map(\.name)).map { " (did you mean '\($0)'?)" } ?? ""
            throw fail(known ? "option '\(name)' is for the command line only" : "unknown option '\(name)'\(hint)")
        }
        if let earlier = settings.first(where: { $0.option == option }) {
            throw fail("'\(name)' is set twice (line \(earlier.line) too)")
        }
        if option.value == nil {
            guard values.count == 1, ["true", "false"].contains(values[0]) else {
                throw fail("'\(name)' is true or false")
            }
        } else {
            guard !values.isEmpty else { throw fail("'\(name)' needs a value") }
            guard values.count == 1 || option.repeatable else { throw fail("'\(name)' takes one value") }
        }
        // The value is checked as the command line checks it: one rule for both.
        let command: CommandName = option.commands.contains(.viewer) ? .viewer : .render
        do {
            let parsed = try ParsedArguments(ParsedArguments.arguments(of: option, values: values), for: command)
            _ = try StartupOptions(parsed)
        } catch {
            // `theme 'purple' must be…`: the file's name for it, not the command line's.
            let why = error.description
            throw fail(why.hasPrefix("--" + name) ? String(why.dropFirst(2)) : why)
        }
        settings.append(Setting(option: option, values: values, line: line))
    }

    private mutating func addKeys(
        name: String, values: [String], line: Int, fail: (String) -> UsageError
    ) throws(UsageError) {
        guard let command = Command.named(name) else {
            let hint =
                Suggestion.closest(to: name, among: Command.allCases.map(\.name)).map { " (did you mean '\($0)'?)" }
                ?? ""
            throw fail("unknown command '\(name)'\(hint) (termmap help keys lists them)")
        }
        if let earlier = keys.first(where: { $0.command == command }) {
            throw fail("'\(name)' is bound twice (line \(earlier.line) too)")
        }
        var bound: [Key] = []
        for value in values where !value.isEmpty {
            guard case .success(let strokes) = KeyScript.parse(value), strokes.count == 1,
                case .key(let key) = strokes[0]
            else {
                throw fail("'\(value)' is not one key (write keys as --keys does: \"+\", \"<Enter>\", \"<Ctrl-L>\")")
            }
            if let other = keys.first(where: { $0.keys.contains(key) }) {
                throw fail("key '\(value)' is bound to '\(other.command.name)' on line \(other.line) too")
            }
            if !bound.contains(key) { bound.append(key) }
        }
        keys.append(KeySetting(command: command, keys: bound, line: line))
    }

    /// The standard keymap with the file's `[keys]` applied.
    var keymap: Keymap {
        Keymap.standard.rebinding(Dictionary(keys.map { ($0.command, $0.keys) }) { a, _ in a })
    }

    /// `text` with its control characters written as escapes (`\r`, `\u{1B}`): a message quoting a
    /// damaged line stays one line, and sends the terminal nothing but text.
    static func printable(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0..<0x20, 0x7F..<0xA0: out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `text` without its comment: from a `#` at its start or after a space or tab, outside quotes.
    static func withoutComment(_ text: String) -> String {
        var inQuotes = false
        var escaped = false
        var previous: Character = " "
        var end = text.endIndex
        for i in text.indices {
            let ch = text[i]
            if inQuotes {
                if escaped {
                    escaped = false
                } else if ch == "\\" {
                    escaped = true
                } else if ch == "\"" {
                    inQuotes = false
                }
            } else if ch == "\"" {
                inQuotes = true
            } else if ch == "#" && (previous == " " || previous == "\t") {
                end = i
                break
            }
            previous = ch
        }
        return String(text[..<end]).trimmedOfWhitespace
    }

    /// A value's items: one bare word (spaces inside kept: `60.17,24.94` is one), or quoted strings
    /// separated by commas (`\"` and `\\` escape inside them). Empty: no item.
    static func values(_ text: String) throws(UsageError) -> [String] {
        guard text.hasPrefix("\"") else { return text.isEmpty ? [] : [text] }
        var items: [String] = []
        var chars = Array(text)[...]
        while true {
            guard chars.first == "\"" else { throw UsageError("expected a quoted value, or one value without quotes") }
            chars = chars.dropFirst()
            var item = ""
            var closed = false
            while let ch = chars.popFirst() {
                if ch == "\\" {
                    guard let next = chars.popFirst() else { break }
                    item.append(next)
                } else if ch == "\"" {
                    closed = true
                    break
                } else {
                    item.append(ch)
                }
            }
            guard closed else { throw UsageError("a quote is not closed") }
            items.append(item)
            while chars.first == " " || chars.first == "\t" { chars = chars.dropFirst() }
            if chars.isEmpty { return items }
            guard chars.first == "," else { throw UsageError("expected ',' between quoted values") }
            chars = chars.dropFirst()
            while chars.first == " " || chars.first == "\t" { chars = chars.dropFirst() }
        }
    }

    /// Values as the file writes them: one bare when it reads back the same, a list quoted.
    static func written(_ values: [String]) -> String {
        values.count == 1 ? quoted(values[0]) : values.map { quoted($0, always: true) }.joined(separator: ", ")
    }

    /// `text` as the file writes a value: bare when it reads back the same, else quoted.
    static func quoted(_ text: String, always: Bool = false) -> String {
        let bare =
            !always && !text.isEmpty && !text.hasPrefix("\"") && text.trimmedOfWhitespace == text
            && withoutComment(text) == text
        if bare { return text }
        return "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
    }
}

/// The file the configuration is read from, and reading it.
enum ConfigLocation {
    /// `--config FILE`; else `$TERMMAP_CONFIG`; else `$XDG_CONFIG_HOME/termmap/config` (the XDG Base
    /// Directory spec: `~/.config` when unset or not absolute). Nil with `--no-config`, or in kiosk mode
    /// without `--config` (a shared account takes its settings from its command line only).
    /// `required`: named, so a missing file is an error rather than no configuration.
    static func path(_ parsed: ParsedArguments, environment: [String: String]) -> (path: String, required: Bool)? {
        if parsed.has(.noConfig) { return nil }
        if let named = parsed.value(.config) { return (named, true) }
        if parsed.has(.kiosk) { return nil }
        if let named = environment["TERMMAP_CONFIG"], !named.isEmpty { return (named, true) }
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") { return (xdg + "/termmap/config", false) }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return (home + "/.config/termmap/config", false)
    }

    /// The configuration `parsed` and the environment name, parsed; nil when there is none.
    static func load(_ parsed: ParsedArguments, environment: [String: String]) throws(UsageError) -> ConfigFile? {
        if parsed.has(.noConfig) && parsed.value(.config) != nil {
            throw UsageError("--config and --no-config say opposite things: give one")
        }
        guard let (path, required) = self.path(parsed, environment: environment) else { return nil }
        if isDirectory(path) { throw UsageError("config '\(path)': is a directory") }
        guard let bytes = readFileHead(path, count: ConfigFile.sizeLimit + 1) else {
            if !required && errno == ENOENT { return nil }
            throw UsageError("config '\(path)': \(systemErrorReason())")
        }
        guard bytes.count <= ConfigFile.sizeLimit else { throw UsageError("config '\(path)': larger than 1 MB") }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw UsageError("config '\(path)': not UTF-8 text")
        }
        return try ConfigFile(parsing: text, path: path)
    }

    /// The command line of `command` with the configuration's settings filled in, and the keymap in effect.
    static func arguments(_ args: [String], for command: CommandName, environment: [String: String])
        throws(UsageError) -> (parsed: ParsedArguments, keymap: Keymap, config: ConfigFile?)
    {
        var parsed = try ParsedArguments(args, for: command)
        let config = try load(parsed, environment: environment)
        if let config { parsed.fill(from: config, for: command) }
        return (parsed, config?.keymap ?? .standard, config)
    }
}

/// "Did you mean": the closest of some names by edit distance, when it is close enough to be a slip.
enum Suggestion {
    static func closest(to word: String, among names: [String]) -> String? {
        let scored = names.map { ($0, distance(word.lowercased(), $0)) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        return best.1 <= max(2, word.count / 3) ? best.0 : nil
    }

    /// Levenshtein distance (Wagner–Fischer, one row).
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        var row = Array(0...b.count)
        for i in 1...max(1, a.count) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let current = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = current
            }
        }
        return a.isEmpty ? b.count : row[b.count]
    }
}
