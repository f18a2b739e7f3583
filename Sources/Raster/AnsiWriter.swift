/// What a screen can show of styles, decided once for a run (`choose`).
public enum ColorMode: String, Sendable {
    /// Text only, no escape sequences (`render` into a file or pipe).
    case plain
    /// Attributes (reverse, bold, underline) but no colours: NO_COLOR, `--color never` on a terminal,
    /// terminals without colours.
    case monochrome
    /// The 16 ANSI colours.
    case ansi16
    /// The xterm 256-colour palette.
    case ansi256

    /// True when colours are shown (the circle's shade is then a background, not a stipple).
    public var hasColor: Bool { self == .ansi16 || self == .ansi256 }

    /// The one colour decision: `option` is `--color` (never, always, 16, 256 or nil), `noColor` whether
    /// NO_COLOR is set and not empty, `isTerminal` whether the output is a terminal, `terminalColors`
    /// how many colours the terminal has (nil when unknown: `render` trusts the option).
    public static func choose(option: String?, noColor: Bool, isTerminal: Bool, terminalColors: Int?) -> ColorMode {
        let colourless: ColorMode = isTerminal ? .monochrome : .plain
        let colors = terminalColors ?? 256
        switch option {
        case "never": return colourless
        case "16": return colors >= 8 ? .ansi16 : colourless
        case "256", "always": return colors >= 256 ? .ansi256 : colors >= 8 ? .ansi16 : colourless
        default:
            guard !noColor, isTerminal, colors >= 8 else { return colourless }
            return colors >= 256 ? .ansi256 : .ansi16
        }
    }
}

/// A frame as text with ANSI SGR sequences (one line per row, reset at each line end); `.plain` gives
/// just the glyphs.
public enum AnsiWriter {
    /// The frame's lines in `mode`.
    public static func text(_ frame: Frame, mode: ColorMode) -> String {
        guard mode != .plain else { return frame.text }
        var out: [UInt8] = []
        out.reserveCapacity(frame.cells.count * 4)
        for row in 0..<frame.rows {
            var last: CellStyle?
            for col in 0..<frame.cols {
                let cell = frame[col, row]
                if last != cell.style {
                    out += sgr(cell.style).utf8
                    last = cell.style
                }
                UTF8Bytes.append(cell.glyph, to: &out)
            }
            out += "\u{1b}[0m".utf8
            if row < frame.rows - 1 { out.append(0x0A) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `ESC[0;…m` for a style: 30–37/90–97 and 40–47/100–107 for the 16 colours, 38;5;n and 48;5;n above.
    public static func sgr(_ s: CellStyle) -> String {
        var codes = ["0"]
        if s.bold { codes.append("1") }
        if s.underline { codes.append("4") }
        if s.reverse { codes.append("7") }
        if let fg = s.foreground { codes.append(color(fg, base: 30, bright: 90, extended: 38)) }
        if let bg = s.background { codes.append(color(bg, base: 40, bright: 100, extended: 48)) }
        return "\u{1b}[" + codes.joined(separator: ";") + "m"
    }

    static func color(_ c: PaletteColor, base: Int, bright: Int, extended: Int) -> String {
        switch c.index {
        case 0..<8: return String(base + Int(c.index))
        case 8..<16: return String(bright + Int(c.index) - 8)
        default: return "\(extended);5;\(c.index)"
        }
    }
}
