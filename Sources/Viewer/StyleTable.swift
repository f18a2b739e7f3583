import Raster

/// What a cell shows, by what it is: layers of the map and parts of the screen. Only the style table
/// knows how each looks.
public enum StyleRole: CaseIterable, Sendable {
    case plain, coastline, lake, border, grid, gridLabel, city, cityLabel, circleOutline, edge
    case status, message, error, prompt, help
}

/// One row of the style table: a role's ink on the canvas (higher wins a shared cell; 0 for text),
/// its colours in 256 and 16 colours, and reverse video where there is no colour.
struct StyleRow: Sendable {
    let role: StyleRole
    let ink: UInt8
    let color256: UInt8
    let color16: UInt8
    var reverse = false
}

/// The one table from roles to concrete cell styles, per colour mode (the seed: red circle, blue 20 %
/// shade). Adding a layer is one row.
public enum StyleTable {
    static let rows: [StyleRow] = [
        StyleRow(role: .plain, ink: 0, color256: 250, color16: 7),
        StyleRow(role: .grid, ink: 1, color256: 240, color16: 8),
        StyleRow(role: .edge, ink: 2, color256: 238, color16: 8),
        StyleRow(role: .lake, ink: 3, color256: 33, color16: 4),
        StyleRow(role: .border, ink: 4, color256: 179, color16: 3),
        StyleRow(role: .coastline, ink: 5, color256: 45, color16: 6),
        StyleRow(role: .city, ink: 6, color256: 220, color16: 11),
        StyleRow(role: .circleOutline, ink: 7, color256: 196, color16: 9),
        StyleRow(role: .gridLabel, ink: 0, color256: 245, color16: 7),
        StyleRow(role: .cityLabel, ink: 0, color256: 229, color16: 11),
        StyleRow(role: .status, ink: 0, color256: 255, color16: 7, reverse: true),
        StyleRow(role: .message, ink: 0, color256: 252, color16: 7),
        StyleRow(role: .error, ink: 0, color256: 203, color16: 9),
        StyleRow(role: .prompt, ink: 0, color256: 222, color16: 11),
        StyleRow(role: .help, ink: 0, color256: 255, color16: 7, reverse: true),
    ]

    /// The circle's shade, a background: navy (256) or blue (16).
    static let shade256: UInt8 = 17
    static let shade16: UInt8 = 4

    private static let byRole: [StyleRole: StyleRow] = Dictionary(uniqueKeysWithValues: rows.map { ($0.role, $0) })
    private static let byInk: [UInt8: StyleRole] = Dictionary(
        uniqueKeysWithValues: rows.filter { $0.ink > 0 }.map { ($0.ink, $0.role) })

    /// How `role` looks in `mode`.
    public static func style(_ role: StyleRole, mode: ColorMode) -> CellStyle {
        guard let row = byRole[role] else { return .plain }
        switch mode {
        case .plain: return .plain
        case .monochrome: return CellStyle(reverse: row.reverse)
        case .ansi16:
            // Reverse video on top of a colour would swap it into the background: colours alone there.
            return CellStyle(foreground: PaletteColor(row.color16))
        case .ansi256: return CellStyle(foreground: PaletteColor(row.color256))
        }
    }

    /// The background of the shade outside the circle, or nil where it shows as a stipple instead.
    public static func shade(mode: ColorMode) -> PaletteColor? {
        switch mode {
        case .ansi16: return PaletteColor(shade16)
        case .ansi256: return PaletteColor(shade256)
        case .plain, .monochrome: return nil
        }
    }

    /// The canvas ink of a map layer (`role` must have one).
    static func ink(_ role: StyleRole) -> UInt8 { byRole[role]?.ink ?? 0 }

    /// The layer that drew with `ink`.
    static func role(ink: UInt8) -> StyleRole { byInk[ink] ?? .plain }
}
