import Support

/// A key press as the viewer sees it, whatever terminal it came from.
public enum Key: Hashable, Sendable {
    case char(Character)
    case enter, escape, backspace, tab, left, right, up, down, ctrlC, ctrlL, ctrlZ
    /// An arrow with Shift, Ctrl or Alt held (terminals tell them apart; the viewer does not).
    case modifiedLeft, modifiedRight, modifiedUp, modifiedDown

    /// The keys with names: how the help writes each, and the names `--keys` scripts and tours take
    /// for it between `<` and `>` (any case; the first is the one to write). One table for both.
    static let named: [(key: Key, label: String, names: [String])] = [
        (.enter, "Enter", ["enter", "cr"]), (.escape, "Esc", ["esc", "escape"]),
        (.backspace, "BS", ["bs", "backspace"]), (.tab, "Tab", ["tab"]),
        (.left, "←", ["left"]), (.right, "→", ["right"]), (.up, "↑", ["up"]), (.down, "↓", ["down"]),
        (.ctrlC, "Ctrl-C", ["c-c", "ctrl-c"]), (.ctrlL, "Ctrl-L", ["c-l", "ctrl-l"]),
        (.ctrlZ, "Ctrl-Z", ["c-z", "ctrl-z"]),
        (.modifiedLeft, "Shift-←", ["s-left", "c-left", "shift-left"]),
        (.modifiedRight, "Shift-→", ["s-right", "c-right", "shift-right"]),
        (.modifiedUp, "Shift-↑", ["s-up", "c-up", "shift-up"]),
        (.modifiedDown, "Shift-↓", ["s-down", "c-down", "shift-down"]), (.char(" "), "Space", ["space"]),
        (.char("<"), "<", ["lt"]),
    ]

    /// How the key is written in the help.
    public var label: String {
        if let entry = Self.named.first(where: { $0.key == self }) { return entry.label }
        if case .char(let c) = self { return String(c) }
        return "?"
    }

    /// The key as a `--keys` script writes it: `+`, `<Enter>`, `<Ctrl-L>`, `<left>`, `<lt>`.
    public var scriptText: String {
        if let entry = Self.named.first(where: { $0.key == self }) {
            // The label when it is a name (`Enter`, `Ctrl-L`), else the longest name in capitals (`Shift-Left`).
            if entry.names.contains(entry.label.lowercased()) { return "<" + entry.label + ">" }
            let name = entry.names.max { $0.count < $1.count } ?? entry.names[0]
            return "<"
                + name.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: "-")
                + ">"
        }
        if case .char(let c) = self { return String(c) }
        return "?"
    }

    /// The key a script's name (`enter`, `Left`, `c-l`) stands for.
    public static func named(_ name: String) -> Key? {
        let lower = name.lowercased()
        return named.first { $0.names.contains(lower) }?.key
    }
}

/// Everything a key can ask the viewer to do, each with one name (kebab-case: `zoom-in`) that tours,
/// `--keys` and `render --keys` take as `<zoom-in>` whatever key the keymap binds it to. An open set:
/// the built-in commands are below, and a command added with its row (`ViewerState.add(_:)`) is one
/// more, from any target.
public struct Command: RawRepresentable, Hashable, Sendable {
    /// Its identifier in camel case (`zoomIn`); `name` is how people write it.
    public let rawValue: String

    /// The command of an identifier (`zoomIn`, or a registered command's).
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let zoomIn = Command(rawValue: "zoomIn")
    public static let zoomOut = Command(rawValue: "zoomOut")
    public static let zoomPrompt = Command(rawValue: "zoomPrompt")
    public static let toggleCircle = Command(rawValue: "toggleCircle")
    public static let radiusPrompt = Command(rawValue: "radiusPrompt")
    public static let fitCircle = Command(rawValue: "fitCircle")
    public static let panLeft = Command(rawValue: "panLeft")
    public static let panRight = Command(rawValue: "panRight")
    public static let panUp = Command(rawValue: "panUp")
    public static let panDown = Command(rawValue: "panDown")
    public static let pageLeft = Command(rawValue: "pageLeft")
    public static let pageRight = Command(rawValue: "pageRight")
    public static let pageUp = Command(rawValue: "pageUp")
    public static let pageDown = Command(rawValue: "pageDown")
    public static let goToPrompt = Command(rawValue: "goToPrompt")
    public static let search = Command(rawValue: "search")
    public static let world = Command(rawValue: "world")
    public static let undo = Command(rawValue: "undo")
    public static let redo = Command(rawValue: "redo")
    public static let toggleAnimations = Command(rawValue: "toggleAnimations")
    public static let toggleGlyphs = Command(rawValue: "toggleGlyphs")
    public static let explain = Command(rawValue: "explain")
    public static let toggleSeedOverlay = Command(rawValue: "toggleSeedOverlay")
    public static let toggleGrid = Command(rawValue: "toggleGrid")
    public static let toggleImagery = Command(rawValue: "toggleImagery")
    public static let toggleHillshade = Command(rawValue: "toggleHillshade")
    public static let followPosition = Command(rawValue: "followPosition")
    public static let recordTrack = Command(rawValue: "recordTrack")
    public static let timeBar = Command(rawValue: "timeBar")
    public static let timeForward = Command(rawValue: "timeForward")
    public static let timeBack = Command(rawValue: "timeBack")
    public static let toggleLegend = Command(rawValue: "toggleLegend")
    public static let toggleLayers = Command(rawValue: "toggleLayers")
    public static let whatIsHere = Command(rawValue: "whatIsHere")
    public static let toggleMouse = Command(rawValue: "toggleMouse")
    public static let copyLink = Command(rawValue: "copyLink")
    public static let bookmark = Command(rawValue: "bookmark")
    public static let bookmarks = Command(rawValue: "bookmarks")
    public static let ruler = Command(rawValue: "ruler")
    public static let routePoint = Command(rawValue: "routePoint")
    public static let directionsPanel = Command(rawValue: "directionsPanel")
    public static let resumeTour = Command(rawValue: "resumeTour")
    public static let help = Command(rawValue: "help")
    public static let suspend = Command(rawValue: "suspend")
    public static let quit = Command(rawValue: "quit")
    public static let redraw = Command(rawValue: "redraw")

    /// The built-in commands, in help order.
    public static let allCases: [Command] = ViewerCommands.rows.map(\.command)

    /// Its name: `zoom-in`, `toggle-seed-overlay`.
    public var name: String {
        var out = ""
        for ch in rawValue {
            if ch.isUppercase {
                out += "-" + ch.lowercased()
            } else {
                out.append(ch)
            }
        }
        return out
    }

    /// The command of a name, among `commands` (the built-in ones unless a session added more).
    public static func named(_ name: String, among commands: [Command] = allCases) -> Command? {
        commands.first { $0.name == name.lowercased() }
    }
}

/// A key, or a command by its name: what scripts and tours press.
public enum Keystroke: Hashable, Sendable {
    case key(Key)
    case command(Command)

    /// The input event it makes.
    public var event: InputEvent {
        switch self {
        case .key(let k): return .key(k)
        case .command(let c): return .command(c)
        }
    }
}

/// One line of the keymap: the keys, the command, and its help text.
public struct Binding: Equatable, Sendable {
    /// Keys that run the command.
    public let keys: [Key]
    /// The command.
    public let command: Command
    /// One line of help.
    public let help: String

    /// A binding.
    public init(keys: [Key], command: Command, help: String) {
        self.keys = keys
        self.command = command
        self.help = help
    }
}

/// The key bindings, a value (helix's keymap: keys → named commands, each with its doc string): the
/// viewer's state holds one, the standard one unless a configuration changes it; the `?` overlay and
/// the key table of docs/viewer.md are made from it.
public struct Keymap: Equatable, Sendable {
    /// Every binding, in help order.
    public let bindings: [Binding]
    private let lookup: [Key: Command]

    /// A keymap of `bindings` (a key bound twice runs the later command).
    public init(bindings: [Binding]) {
        self.bindings = bindings
        var table: [Key: Command] = [:]
        for b in bindings { for k in b.keys { table[k] = b.command } }
        lookup = table
    }

    public static func == (a: Keymap, b: Keymap) -> Bool { a.bindings == b.bindings }

    /// The command bound to a key, if any.
    public func command(for key: Key) -> Command? { lookup[key] }

    /// The first key bound to a command, if any.
    public func key(for command: Command) -> Key? { bindings.first { $0.command == command }?.keys.first }

    /// This keymap with `changes` applied, as a configuration file's `[keys]` gives them: a command listed
    /// gets exactly its listed keys (none: only its `<name>` runs it); a key it takes from another
    /// command's bindings leaves that command. Two commands listing one key is the caller's error to find.
    public func rebinding(_ changes: [Command: [Key]]) -> Keymap {
        let taken = Set(changes.values.joined())
        return Keymap(
            bindings: bindings.map { b in
                Binding(
                    keys: changes[b.command] ?? b.keys.filter { !taken.contains($0) }, command: b.command, help: b.help)
            })
    }

    /// The standard keymap: each command's row's keys and help (`ViewerCommands`).
    public static let standard = Keymap(
        bindings: ViewerCommands.rows.map { Binding(keys: $0.keys, command: $0.command, help: $0.help) })

    /// The keymap with one more command's row at its end (its keys taken from any command that had them).
    public func adding(_ row: CommandRow) -> Keymap {
        let taken = Set(row.keys)
        return Keymap(
            bindings: bindings.filter { $0.command != row.command }.map {
                Binding(keys: $0.keys.filter { !taken.contains($0) }, command: $0.command, help: $0.help)
            } + [Binding(keys: row.keys, command: row.command, help: row.help)])
    }

    /// `+ =` style list of a binding's keys.
    public static func keyList(_ b: Binding) -> String { b.keys.map(\.label).joined(separator: " ") }

    /// The help overlay's lines.
    public var helpLines: [String] {
        // Commands without a key (for scripts: `<time-forward>`) are in `termmap help keys`, not here.
        let rows = Self.groupedByDirection(bindings.filter { !$0.keys.isEmpty })
        // Padded to the widest single binding's keys (a group's longer keys push only their own row).
        let width = bindings.map { Self.keyList($0).count }.filter { $0 <= 9 }.max() ?? 0
        return rows.map { ($0.keys.count > width ? $0.keys : $0.keys.padded(to: width)) + "  " + $0.help }
            + ["mouse wheel  zoom step around the pointer; click: center there; drag: move the map"]
    }

    /// The help's rows: bindings one a row, but a run of four whose help differs only in its direction
    /// (`pan left a quarter view` … `pan right …`) one row (`h j k l ← ↓ ↑ →  pan left, down, up,
    /// right a quarter view`), so that the help stays on one page of a common terminal.
    static func groupedByDirection(_ bindings: [Binding]) -> [(keys: String, help: String)] {
        let directions = ["left", "down", "up", "right"]
        func split(_ help: String) -> (before: String, direction: String, after: String)? {
            let words = help.split(separator: " ").map(String.init)
            guard let i = words.firstIndex(where: directions.contains) else { return nil }
            return (words[..<i].joined(separator: " "), words[i], words[(i + 1)...].joined(separator: " "))
        }
        var rows: [(keys: String, help: String)] = []
        var i = 0
        while i < bindings.count {
            let run = bindings[i..<min(bindings.count, i + 4)].map { split($0.help) }
            if run.count == 4, let first = run[0],
                run.allSatisfy({ $0?.before == first.before && $0?.after == first.after }),
                run.compactMap({ $0?.direction }) == directions
            {
                let group = bindings[i..<(i + 4)]
                // The first keys, then the others; `Shift-←`… written `Shift-←↓↑→`.
                let others = group.flatMap { $0.keys.dropFirst().map(\.label) }
                let shift = others.count == 4 && others.allSatisfy { $0.hasPrefix("Shift-") }
                let keys =
                    group.map { $0.keys.first.map(\.label) ?? "" }
                    + (shift ? ["Shift-" + others.map { String($0.dropFirst(6)) }.joined()] : others)
                rows.append((keys.joined(separator: " "), "\(first.before) left, down, up, right \(first.after)"))
                i += 4
            } else {
                rows.append((keyList(bindings[i]), bindings[i].help))
                i += 1
            }
        }
        return rows
    }

    /// The key table of docs/viewer.md (Markdown), generated from the same bindings, with each command's name.
    public var markdownTable: String {
        var lines = ["| keys | command | action |", "|---|---|---|"]
        for b in bindings {
            let keys = b.keys.map { "`\($0.label)`" }.joined(separator: " ")
            lines.append("| \(keys) | `<\(b.command.name)>` | \(b.help) |")
        }
        lines.append("| mouse | | wheel: zoom step around the pointer; click: center there; drag: move the map |")
        return lines.joined(separator: "\n")
    }
}
