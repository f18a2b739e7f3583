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
        // Written through a pointer into room for the worst case (a 4-byte glyph after the longest SGR
        // sequence in every cell): appending byte by byte to an array checked its capacity each time.
        let bound = frame.cells.count * (maxSGRBytes + 4) + frame.rows * 5
        let bytes = [UInt8](unsafeUninitializedCapacity: bound) { buffer, count in
            guard let base = buffer.baseAddress else { return }
            var out = ByteSink(base: base)
            frame.cells.withUnsafeBufferPointer { cells in
                for row in 0..<frame.rows {
                    var last: CellStyle?
                    let start = row * frame.cols
                    for i in start..<(start + frame.cols) {
                        let cell = cells[i]
                        if last != cell.style {
                            out.sgr(cell.style)
                            last = cell.style
                        }
                        out.scalar(cell.glyph)
                    }
                    out.put(0x1B, 0x5B, 0x30)  // ESC[0m
                    out.put(0x6D)
                    if row < frame.rows - 1 { out.put(0x0A) }
                }
            }
            count = out.count
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The longest SGR sequence: `ESC[0;1;4;7;38;5;255;48;5;255m`.
    static let maxSGRBytes = 28

    /// `ESC[0;…m` for a style: 30–37/90–97 and 40–47/100–107 for the 16 colours, 38;5;n and 48;5;n above.
    public static func sgr(_ s: CellStyle) -> String {
        let bytes = [UInt8](unsafeUninitializedCapacity: maxSGRBytes) { buffer, count in
            guard let base = buffer.baseAddress else { return }
            var out = ByteSink(base: base)
            out.sgr(s)
            count = out.count
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Bytes written one after another from a pointer into room the caller made.
struct ByteSink {
    let base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0

    init(base: UnsafeMutablePointer<UInt8>) { self.base = base }

    @inline(__always)
    mutating func put(_ b: UInt8) {
        base[count] = b
        count += 1
    }

    @inline(__always)
    mutating func put(_ a: UInt8, _ b: UInt8, _ c: UInt8) {
        put(a)
        put(b)
        put(c)
    }

    /// The 1 to 4 UTF-8 bytes of `scalar`.
    @inline(__always)
    mutating func scalar(_ scalar: Unicode.Scalar) {
        let v = scalar.value
        switch v {
        case 0..<0x80:
            put(UInt8(v))
        case 0x80..<0x800:
            put(UInt8(0xC0 | v >> 6))
            put(UInt8(0x80 | v & 0x3F))
        case 0x800..<0x10000:
            put(UInt8(0xE0 | v >> 12), UInt8(0x80 | v >> 6 & 0x3F), UInt8(0x80 | v & 0x3F))
        default:
            put(UInt8(0xF0 | v >> 18))
            put(UInt8(0x80 | v >> 12 & 0x3F), UInt8(0x80 | v >> 6 & 0x3F), UInt8(0x80 | v & 0x3F))
        }
    }

    /// `ESC[0;…m` for a style (see `AnsiWriter.sgr`).
    mutating func sgr(_ s: CellStyle) {
        put(0x1B, 0x5B, 0x30)  // ESC[0
        if s.bold { put(0x3B); put(0x31) }
        if s.underline { put(0x3B); put(0x34) }
        if s.reverse { put(0x3B); put(0x37) }
        if let fg = s.foreground { color(fg, base: 30, bright: 90, extended: 38) }
        if let bg = s.background { color(bg, base: 40, bright: 100, extended: 48) }
        put(0x6D)  // m
    }

    /// `;n` for a colour: its SGR code among the 16, or `;38;5;n` (`;48;5;n`) above.
    private mutating func color(_ c: PaletteColor, base: Int, bright: Int, extended: Int) {
        put(0x3B)
        switch c.index {
        case 0..<8: number(base + Int(c.index))
        case 8..<16: number(bright + Int(c.index) - 8)
        default:
            number(extended)
            put(0x3B, 0x35, 0x3B)  // ;5;
            number(Int(c.index))
        }
    }

    /// A number below 1000 in decimal digits.
    private mutating func number(_ n: Int) {
        if n >= 100 { put(UInt8(48 + n / 100)) }
        if n >= 10 { put(UInt8(48 + n / 10 % 10)) }
        put(UInt8(48 + n % 10))
    }
}
