import Support
/// A key press as the viewer sees it, whatever terminal it came from.
public enum Key: Hashable, Sendable {
    case char(Character)
    case enter, escape, backspace, left, right, up, down, ctrlC, ctrlL

    /// How the key is written in `--keys` scripts and the help.
    public var label: String {
        switch self {
        case .char(" "): return "Space"
        case .char(let c): return String(c)
        case .enter: return "Enter"
        case .escape: return "Esc"
        case .backspace: return "BS"
        case .left: return "←"
        case .right: return "→"
        case .up: return "↑"
        case .down: return "↓"
        case .ctrlC: return "Ctrl-C"
        case .ctrlL: return "Ctrl-L"
        }
    }
}

/// Everything a key can ask the viewer to do.
public enum Command: String, CaseIterable, Sendable {
    case zoomIn, zoomOut, zoomPrompt, toggleCircle, radiusPrompt, fitCircle
    case panLeft, panRight, panUp, panDown, pageLeft, pageRight, pageUp, pageDown
    case goToPrompt, search, world, undo, toggleAnimations, toggleGlyphs, explain, toggleSeedOverlay, resumeTour, help, quit, redraw
}

/// One line of the keymap: the keys, the command, and its help text.
public struct Binding: Sendable {
    /// Keys that run the command.
    public let keys: [Key]
    /// The command.
    public let command: Command
    /// One line of help.
    public let help: String
}

/// The single table of key bindings; the `?` overlay and the README's key table are made from it.
public enum Keymap {
    /// Every binding, in help order.
    public static let bindings: [Binding] = [
        Binding(keys: [.char("+"), .char("=")], command: .zoomIn, help: "zoom in: MapKit zoom button, region ×0.4"),
        Binding(keys: [.char("-"), .char("_")], command: .zoomOut, help: "zoom out: MapKit zoom button, region ×3"),
        Binding(
            keys: [.char("z")], command: .zoomPrompt, help: "set the zoom level (0–28, fractions allowed)"),
        Binding(keys: [.char("c")], command: .toggleCircle, help: "inverted circle at the map center on/off"),
        Binding(
            keys: [.char("r")], command: .radiusPrompt, help: "circle radius (500, 2km, 1.5mi, 800ft); turns it on"),
        Binding(keys: [.char("f")], command: .fitCircle, help: "fit the view to the circle"),
        Binding(keys: [.left, .char("h")], command: .panLeft, help: "pan left a quarter view"),
        Binding(keys: [.down, .char("j")], command: .panDown, help: "pan down a quarter view"),
        Binding(keys: [.up, .char("k")], command: .panUp, help: "pan up a quarter view"),
        Binding(keys: [.right, .char("l")], command: .panRight, help: "pan right a quarter view"),
        Binding(keys: [.char("H")], command: .pageLeft, help: "pan left a whole view"),
        Binding(keys: [.char("J")], command: .pageDown, help: "pan down a whole view"),
        Binding(keys: [.char("K")], command: .pageUp, help: "pan up a whole view"),
        Binding(keys: [.char("L")], command: .pageRight, help: "pan right a whole view"),
        Binding(keys: [.char("g")], command: .goToPrompt, help: "go to a latitude, longitude"),
        Binding(keys: [.char("/")], command: .search, help: "find a place or street (↑↓ choose a match, Enter goes)"),
        Binding(keys: [.char("0")], command: .world, help: "whole world"),
        Binding(keys: [.char("u")], command: .undo, help: "undo the last view change"),
        Binding(keys: [.char("a")], command: .toggleAnimations, help: "animations on/off"),
        Binding(keys: [.char("m")], command: .toggleGlyphs, help: "glyphs braille ↔ ASCII"),
        Binding(keys: [.char("e")], command: .explain, help: "explain the last step (+ - z c r f): every number it computed"),
        Binding(
            keys: [.char("v")], command: .toggleSeedOverlay,
            help: "what the iOS code would draw on/off: its circle and its fit, dashed"),
        Binding(keys: [.char("t")], command: .resumeTour, help: "resume a tour a key paused (termmap --tour)"),
        Binding(keys: [.char("?")], command: .help, help: "this help"),
        Binding(keys: [.ctrlL], command: .redraw, help: "redraw the screen"),
        Binding(keys: [.char("q"), .ctrlC], command: .quit, help: "quit"),
    ]

    /// The command bound to a key, if any.
    public static func command(for key: Key) -> Command? { lookup[key] }

    private static let lookup: [Key: Command] = {
        var table: [Key: Command] = [:]
        for b in bindings { for k in b.keys { table[k] = b.command } }
        return table
    }()

    /// `+ =` style list of a binding's keys.
    public static func keyList(_ b: Binding) -> String { b.keys.map(\.label).joined(separator: " ") }

    /// The help overlay's lines.
    public static var helpLines: [String] {
        let width = bindings.map { keyList($0).count }.max() ?? 0
        return bindings.map { keyList($0).padded(to: width) + "  " + $0.help }
            + ["mouse wheel  zoom step around the pointer; click: center there; drag: move the map"]
    }

    /// The README's key table (Markdown), generated from the same bindings.
    public static var markdownTable: String {
        var lines = ["| keys | action |", "|---|---|"]
        for b in bindings {
            let keys = b.keys.map { "`\($0.label)`" }.joined(separator: " ")
            lines.append("| \(keys) | \(b.help) |")
        }
        lines.append("| mouse | wheel: zoom step around the pointer; click: center there; drag: move the map |")
        return lines.joined(separator: "\n")
    }
}
