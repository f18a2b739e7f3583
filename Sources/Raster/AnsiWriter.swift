/// Colour depth of the output.
public enum ColorDepth: String, Sendable { case none, ansi16, ansi256 }

/// Colours of each role for 16- and 256-colour terminals (the seed: red circle, blue 20 % shade).
public enum Palette {
    /// 256-colour foreground of a role.
    public static func color256(_ role: StyleRole) -> Int {
        switch role {
        case .plain: return 250
        case .coastline: return 45
        case .lake: return 33
        case .border: return 179
        case .grid: return 240
        case .gridLabel: return 245
        case .city: return 220
        case .cityLabel: return 229
        case .circleOutline: return 196
        case .edge: return 238
        case .status: return 255
        case .scaleBar: return 255
        case .message: return 252
        case .error: return 203
        case .prompt: return 222
        case .help: return 255
        }
    }

    /// 16-colour SGR foreground code of a role.
    public static func sgr16(_ role: StyleRole) -> Int {
        switch role {
        case .plain, .message, .status, .scaleBar, .help: return 37
        case .coastline: return 36
        case .lake: return 34
        case .border: return 33
        case .grid, .edge: return 90
        case .gridLabel: return 37
        case .city, .cityLabel, .prompt: return 93
        case .circleOutline, .error: return 91
        }
    }

    /// The shade's background: navy (256) or blue (16).
    public static let shade256 = 17
    /// The shade's 16-colour SGR background code.
    public static let shadeSGR16 = 44
}

/// A frame as text with ANSI SGR colours (one line per row, reset at each line end).
public enum AnsiWriter {
    /// The frame's lines; with `.none` just the glyphs.
    public static func text(_ frame: Frame, depth: ColorDepth) -> String {
        guard depth != .none else { return frame.text }
        var out = ""
        for row in 0..<frame.rows {
            var last: (StyleRole, Bool)?
            for col in 0..<frame.cols {
                let cell = frame[col, row]
                if last == nil || last?.0 != cell.role || last?.1 != cell.shaded {
                    out += sgr(cell.role, shaded: cell.shaded, depth: depth)
                    last = (cell.role, cell.shaded)
                }
                out.append(cell.glyph)
            }
            out += "\u{1b}[0m"
            if row < frame.rows - 1 { out += "\n" }
        }
        return out
    }

    static func sgr(_ role: StyleRole, shaded: Bool, depth: ColorDepth) -> String {
        switch depth {
        case .none: return ""
        case .ansi16:
            return "\u{1b}[0;\(Palette.sgr16(role))" + (shaded ? ";\(Palette.shadeSGR16)" : "") + "m"
        case .ansi256:
            return "\u{1b}[0;38;5;\(Palette.color256(role))" + (shaded ? ";48;5;\(Palette.shade256)" : "") + "m"
        }
    }
}
