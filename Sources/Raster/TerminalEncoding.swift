/// What a screen can show of styles, decided once for a run (`choose`).
public enum ColorMode: String, Sendable, CaseIterable {
    /// Text only, no escape sequences (`render` into a file or pipe).
    case plain
    /// Attributes (reverse, bold, underline) but no colours: NO_COLOR, `--color never` on a terminal,
    /// terminals without colours.
    case monochrome
    /// The 8 ANSI colours, the bright ones shown as bold (TERM=xterm, the Linux console): SGR 30–37 and
    /// 40–47 only.
    case ansi8
    /// The 16 ANSI colours, the bright ones as SGR 90–97 and 100–107 (aixterm's, which every 16-colour
    /// terminal reads).
    case ansi16
    /// The xterm 256-colour palette.
    case ansi256
    /// 24-bit colour (`COLORTERM=truecolor` or `24bit`): an image's exact colours as `38;2;r;g;b`; the
    /// map's own colours stay the palette's.
    case truecolor

    /// True when colours are shown (the circle's shade is then a background, not a stipple).
    public var hasColor: Bool { self == .ansi8 || self == .ansi16 || self == .ansi256 || self == .truecolor }

    /// The mode whose palette the map's own colours come from (truecolour draws the map as 256 does).
    public var paletteMode: ColorMode { self == .truecolor ? .ansi256 : self }

    /// The one colour decision: `option` is `--color` (never, always, 8, 16, 256, truecolor or nil),
    /// `noColor` whether NO_COLOR is set and not empty, `isTerminal` whether the output is a terminal,
    /// `terminalColors` how many colours the terminal has (terminfo `colors`; nil when unknown: `render`
    /// trusts the option), `colorTerm` the COLORTERM variable (`truecolor` or `24bit` say 24-bit colour,
    /// which terminfo rarely does). A mode asked for that the terminal cannot show falls to the next it can.
    public static func choose(
        option: String?, noColor: Bool, isTerminal: Bool, terminalColors: Int?, colorTerm: String? = nil
    ) -> ColorMode {
        let says24Bit = colorTerm == "truecolor" || colorTerm == "24bit"
        let colourless: ColorMode = isTerminal ? .monochrome : .plain
        let colors = terminalColors ?? 256
        func atMost(_ wanted: ColorMode) -> ColorMode {
            switch wanted {
            case .ansi256 where colors >= 256: return .ansi256
            case .truecolor: return .truecolor
            case .ansi256, .ansi16: return colors >= 16 ? .ansi16 : colors >= 8 ? .ansi8 : colourless
            case .ansi8: return colors >= 8 ? .ansi8 : colourless
            case .plain, .monochrome: return colourless
            }
        }
        switch option {
        case "never": return colourless
        case "8": return atMost(.ansi8)
        case "16": return atMost(.ansi16)
        case "256": return atMost(.ansi256)
        case "truecolor", "24bit": return .truecolor
        case "always": return says24Bit ? .truecolor : atMost(.ansi256)
        default:
            guard !noColor, isTerminal else { return colourless }
            return says24Bit ? .truecolor : atMost(.ansi256)
        }
    }
}

/// Cells and pens into terminal bytes, the one way for every output (the live screen's painter,
/// `render`'s text and the recordings): UTF-8 for glyphs (RFC 3629), and ECMA-48's SGR for styles, each
/// change sent as one sequence with only what changed.
public struct TerminalEncoder: Sendable {
    /// The bytes so far.
    public var bytes: [UInt8] = []
    /// The pen the terminal draws with after these bytes.
    public internal(set) var pen: Pen = 0

    /// An encoder whose terminal has no attributes set.
    public init() {}

    // MARK: Pens

    /// A style as the terminal is sent it in a mode, packed: the foreground in bits 0–24 (0: the
    /// default; 1–256: palette entry + 1; `1 << 24 | rgb`: a 24-bit colour), the background alike in
    /// bits 25–49, then bold, underline, reverse.
    public typealias Pen = UInt64
    @usableFromInline static let colourBits: Pen = 25
    @usableFromInline static let colourMask: Pen = 1 << 25 - 1
    public static let bold: Pen = 1 << 50
    public static let underline: Pen = 1 << 51
    public static let reverse: Pen = 1 << 52
    public static let background: Pen = colourMask << 25
    /// What shows of a pen on a blank cell: the background, underline and reverse.
    public static let blankLook: Pen = background | underline | reverse

    /// `style` in `mode`'s colours: without colours only the attributes; with 8, the bright colours
    /// (8–15) as bold 0–7 (a bright background as its plain colour); with 16 and 256, as they are; in
    /// truecolour, an exact colour as itself.
    @inlinable
    public static func pen(_ style: CellStyle, _ mode: ColorMode) -> Pen {
        var fg = colourPen(style.fg, mode)
        var bg = colourPen(style.bg, mode)
        var attributes: Pen = 0
        switch mode {
        case .plain, .monochrome:
            fg = 0
            bg = 0
        case .ansi8:
            if fg > 8 && fg <= 16 {
                fg -= 8
                attributes |= bold
            }
            if bg > 8 && bg <= 16 { bg -= 8 }
        case .ansi16, .ansi256, .truecolor:
            break
        }
        if style.bold { attributes |= bold }
        if style.underline { attributes |= underline }
        if style.reverse { attributes |= reverse }
        return fg | bg << colourBits | attributes
    }

    /// A packed colour (`CellStyle`'s) as a pen's colour field: 0 the default, palette entry + 1, or in
    /// truecolour an exact colour as itself (elsewhere its nearest entry + 1).
    @inlinable @inline(__always)
    static func colourPen(_ packed: UInt32, _ mode: ColorMode) -> Pen {
        if packed == CellStyle.none { return 0 }
        if packed < 1 << 24 { return Pen(packed) + 1 }
        return mode == .truecolor ? Pen(packed) : Pen(PaletteColor(value: packed).index) + 1
    }

    /// Sets the pen with one SGR: only what changed, or a reset and all of it when an attribute goes (or
    /// everything does). (Inlined: most cells keep their neighbour's pen, and then nothing is sent.)
    @inlinable @inline(__always)
    public mutating func setPen(_ new: Pen) {
        if new != pen { changePen(new) }
    }

    /// The SGR from `pen` to `new` (they differ).
    @usableFromInline
    mutating func changePen(_ new: Pen) {
        let old = pen
        pen = new
        let attributes: Pen = Self.bold | Self.underline | Self.reverse
        let reset = old & attributes & ~new != 0 || new == 0
        let from: Pen = reset ? 0 : old
        put(0x1B, 0x5B)
        // Each parameter after the first is preceded by a semicolon.
        var first = true
        if reset {
            bytes.append(0x30)
            first = false
        }
        if new & Self.bold != 0, from & Self.bold == 0 { parameter(0x31, &first) }
        if new & Self.underline != 0, from & Self.underline == 0 { parameter(0x34, &first) }
        if new & Self.reverse != 0, from & Self.reverse == 0 { parameter(0x37, &first) }
        let fg = Int(new & Self.colourMask)
        if fg != Int(from & Self.colourMask) { colour(fg, base: 30, bright: 90, extended: 38, &first) }
        let bg = Int(new >> Self.colourBits & Self.colourMask)
        if bg != Int(from >> Self.colourBits & Self.colourMask) {
            colour(bg, base: 40, bright: 100, extended: 48, &first)
        }
        bytes.append(0x6D)  // m
    }

    /// A one-digit SGR parameter.
    @inline(__always)
    private mutating func parameter(_ digit: UInt8, _ first: inout Bool) {
        if !first { bytes.append(0x3B) }
        first = false
        bytes.append(digit)
    }

    /// A colour's parameters: 0 the default (39, 49); 1–8 the 8 colours; 9–16 the bright ones; to 256,
    /// the 256-colour palette (`38;5;n`); from `1 << 24`, a 24-bit colour (`38;2;r;g;b`, ITU T.416 as
    /// xterm and every truecolour terminal read it).
    @inline(__always)
    private mutating func colour(_ c: Int, base: Int, bright: Int, extended: Int, _ first: inout Bool) {
        if !first { bytes.append(0x3B) }
        first = false
        switch c {
        case 0: small(base + 9)
        case 1...8: small(base + c - 1)
        case 9...16: small(bright + c - 9)
        case (1 << 24)...:
            small(extended)
            put(0x3B, 0x32, 0x3B)  // ;2;
            small(c >> 16 & 0xFF)
            bytes.append(0x3B)
            small(c >> 8 & 0xFF)
            bytes.append(0x3B)
            small(c & 0xFF)
        default:
            small(extended)
            put(0x3B, 0x35, 0x3B)  // ;5;
            small(c - 1)
        }
    }

    /// A number below 1000 in decimal.
    @inline(__always)
    private mutating func small(_ n: Int) {
        if n >= 100 { bytes.append(UInt8(48 + n / 100)) }
        if n >= 10 { bytes.append(UInt8(48 + n / 10 % 10)) }
        bytes.append(UInt8(48 + n % 10))
    }

    /// The terminal now draws with `pen` (after bytes it was sent elsewhere, such as a reset).
    public mutating func assume(_ pen: Pen) { self.pen = pen }

    // MARK: Bytes

    @inline(__always)
    public mutating func put(_ a: UInt8) { bytes.append(a) }

    @inline(__always)
    public mutating func put(_ a: UInt8, _ b: UInt8) {
        bytes.append(a)
        bytes.append(b)
    }

    @inline(__always)
    public mutating func put(_ a: UInt8, _ b: UInt8, _ c: UInt8) {
        put(a, b)
        bytes.append(c)
    }

    /// A non-negative number in decimal.
    public mutating func number(_ n: Int) {
        if n >= 10 { number(n / 10) }
        bytes.append(UInt8(0x30 + n % 10))
    }

    /// `ESC [ n final`, n left out when it is 1 (the default).
    public mutating func csi(_ n: Int, final: UInt8) {
        put(0x1B, 0x5B)
        if n != 1 { number(n) }
        bytes.append(final)
    }

    /// `ESC [ a ; b final`.
    public mutating func csi2(_ a: Int, _ b: Int, final: UInt8) {
        put(0x1B, 0x5B)
        number(a)
        bytes.append(0x3B)
        number(b)
        bytes.append(final)
    }

    /// The UTF-8 bytes of a scalar value.
    @inline(__always)
    public mutating func scalar(_ v: UInt32) { Self.utf8(v, into: &bytes) }

    /// The UTF-8 bytes of a scalar value, onto `bytes` (RFC 3629).
    @inline(__always)
    public static func utf8(_ v: UInt32, into bytes: inout [UInt8]) {
        switch v {
        case 0..<0x80:
            bytes.append(UInt8(v))
        case 0x80..<0x800:
            bytes.append(UInt8(0xC0 | v >> 6))
            bytes.append(UInt8(0x80 | v & 0x3F))
        case 0x800..<0x10000:
            bytes.append(UInt8(0xE0 | v >> 12))
            bytes.append(UInt8(0x80 | v >> 6 & 0x3F))
            bytes.append(UInt8(0x80 | v & 0x3F))
        default:
            bytes.append(UInt8(0xF0 | v >> 18))
            bytes.append(UInt8(0x80 | v >> 12 & 0x3F))
            bytes.append(UInt8(0x80 | v >> 6 & 0x3F))
            bytes.append(UInt8(0x80 | v & 0x3F))
        }
    }

    /// The pens of a row of cells, each blank lent the pen of the nearest glyph to its left where it
    /// looks the same in both (`BlankStyling`): the terminal is then sent a colour change only where a
    /// glyph's colour changes. `blank` tells which cells are blanks. (In place: this runs for every
    /// row of every frame.)
    public static func rowPens(
        _ cells: ArraySlice<Cell>, _ mode: ColorMode, into pens: inout [Pen], blank: inout [Bool]
    ) {
        let n = cells.count
        if pens.count != n { pens = [Pen](repeating: 0, count: n) }
        if blank.count != n { blank = [Bool](repeating: false, count: n) }
        cells.withUnsafeBufferPointer { c in
            pens.withUnsafeMutableBufferPointer { p in
                blank.withUnsafeMutableBufferPointer { b in
                    var lastStyle = CellStyle.plain
                    var lastPen: Pen = 0
                    for i in 0..<n {
                        let cell = c[i]
                        if cell.style != lastStyle {
                            lastStyle = cell.style
                            lastPen = pen(lastStyle, mode)
                        }
                        p[i] = lastPen
                        b[i] = cell.glyph == " "
                    }
                    BlankStyling.lend(
                        p, isBlank: UnsafeBufferPointer(b),
                        combine: { lent, own in own & blankLook | lent & ~blankLook })
                }
            }
        }
    }
}
