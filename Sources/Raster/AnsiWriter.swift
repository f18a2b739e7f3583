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
        frame.cells.withUnsafeBufferPointer { cells in
            for row in 0..<frame.rows {
                var last: CellStyle?
                let start = row * frame.cols
                for i in start..<(start + frame.cols) {
                    let cell = cells[i]
                    if last != cell.style {
                        appendSGR(cell.style, to: &out)
                        last = cell.style
                    }
                    UTF8Bytes.append(cell.glyph, to: &out)
                }
                out.append(contentsOf: [0x1B, 0x5B, 0x30, 0x6D])  // ESC[0m
                if row < frame.rows - 1 { out.append(0x0A) }
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `ESC[0;…m` for a style: 30–37/90–97 and 40–47/100–107 for the 16 colours, 38;5;n and 48;5;n above.
    public static func sgr(_ s: CellStyle) -> String {
        var bytes: [UInt8] = []
        appendSGR(s, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The bytes of `sgr(s)`, written straight into `out` (a style change is most of a colour frame's
    /// text: no string is made for it).
    static func appendSGR(_ s: CellStyle, to out: inout [UInt8]) {
        out.append(contentsOf: [0x1B, 0x5B, 0x30])  // ESC[0
        if s.bold { out.append(contentsOf: [0x3B, 0x31]) }
        if s.underline { out.append(contentsOf: [0x3B, 0x34]) }
        if s.reverse { out.append(contentsOf: [0x3B, 0x37]) }
        if let fg = s.foreground { appendColor(fg, base: 30, bright: 90, extended: 38, to: &out) }
        if let bg = s.background { appendColor(bg, base: 40, bright: 100, extended: 48, to: &out) }
        out.append(0x6D)  // m
    }

    /// `;n` for a colour: its SGR code among the 16, or `;38;5;n` (`;48;5;n`) above.
    static func appendColor(_ c: PaletteColor, base: Int, bright: Int, extended: Int, to out: inout [UInt8]) {
        out.append(0x3B)
        switch c.index {
        case 0..<8: appendNumber(base + Int(c.index), to: &out)
        case 8..<16: appendNumber(bright + Int(c.index) - 8, to: &out)
        default:
            appendNumber(extended, to: &out)
            out.append(contentsOf: [0x3B, 0x35, 0x3B])  // ;5;
            appendNumber(Int(c.index), to: &out)
        }
    }

    /// A number below 1000 in decimal digits.
    static func appendNumber(_ n: Int, to out: inout [UInt8]) {
        if n >= 100 { out.append(UInt8(48 + n / 100)) }
        if n >= 10 { out.append(UInt8(48 + n / 10 % 10)) }
        out.append(UInt8(48 + n % 10))
    }
}
