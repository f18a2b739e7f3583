import MapData
import Raster

/// What a cell shows, by what it is: layers of the map and parts of the screen. Only the style table
/// knows how each looks.
public enum StyleRole: Int, CaseIterable, Sendable {
    case plain, coastline, lake, border, grid, gridLabel, city, cityLabel, circleOutline, edge
    case status, message, error, prompt, help
    // Street-level layers (OpenStreetMap) and their labels.
    case motorway, trunk, primary, secondary, tertiary, minorRoad, serviceRoad, path, rail, tram
    case river, stream, water, park, wood, building, streetLabel, placeLabel, credit
}

/// One row of the style table: a role's ink on the canvas (higher wins a shared cell; 0 for text), its
/// colours in 256 and 16 colours, reverse video where there is no colour, and for map layers the look
/// that holds without colour: lines drawn every n-th dot (dotted), two dots wide from a zoom, areas
/// filled with a background tint (colour) or a sparse stipple glyph (no colour).
struct StyleRow: Sendable {
    let role: StyleRole
    let ink: UInt8
    let color256: UInt8
    let color16: UInt8
    var reverse = false
    var dotEvery = 1
    var wideFromZoom = Double.infinity
    var fill256: UInt8?
    var fill16: UInt8?
    var stipple: Unicode.Scalar?
}

/// The one table from roles to concrete cell styles, per colour mode (the seed: red circle, blue 20 %
/// shade). Adding a layer is one row.
public enum StyleTable {
    static let rows: [StyleRow] = [
        StyleRow(role: .plain, ink: 0, color256: 250, color16: 7),
        StyleRow(role: .grid, ink: 1, color256: 240, color16: 8),
        StyleRow(role: .edge, ink: 2, color256: 238, color16: 8),
        // Street-level layers, lowest first: areas, then waterways, then roads by importance.
        StyleRow(role: .water, ink: 3, color256: 38, color16: 4, fill256: 23, fill16: 4, stipple: "~"),
        StyleRow(role: .wood, ink: 4, color256: 65, color16: 2, fill256: 22, fill16: 2, stipple: "'"),
        StyleRow(role: .park, ink: 5, color256: 71, color16: 2, fill256: 22, fill16: 2, stipple: "'"),
        StyleRow(role: .building, ink: 6, color256: 180, color16: 5),
        StyleRow(role: .stream, ink: 7, color256: 32, color16: 4, dotEvery: 2),
        StyleRow(role: .lake, ink: 8, color256: 33, color16: 4),
        StyleRow(role: .river, ink: 9, color256: 39, color16: 12),
        StyleRow(role: .path, ink: 10, color256: 138, color16: 5, dotEvery: 2),
        StyleRow(role: .serviceRoad, ink: 11, color256: 244, color16: 8),
        StyleRow(role: .tram, ink: 12, color256: 139, color16: 5, dotEvery: 4),
        StyleRow(role: .rail, ink: 13, color256: 246, color16: 8, dotEvery: 3),
        StyleRow(role: .minorRoad, ink: 14, color256: 252, color16: 7),
        StyleRow(role: .tertiary, ink: 15, color256: 253, color16: 15),
        StyleRow(role: .secondary, ink: 16, color256: 230, color16: 11, wideFromZoom: 16),
        StyleRow(role: .primary, ink: 17, color256: 221, color16: 11, wideFromZoom: 16),
        StyleRow(role: .trunk, ink: 18, color256: 214, color16: 3, wideFromZoom: 16),
        StyleRow(role: .motorway, ink: 19, color256: 208, color16: 9, wideFromZoom: 16),
        StyleRow(role: .border, ink: 20, color256: 179, color16: 3),
        StyleRow(role: .coastline, ink: 21, color256: 45, color16: 6),
        StyleRow(role: .city, ink: 22, color256: 220, color16: 11),
        StyleRow(role: .circleOutline, ink: 23, color256: 196, color16: 9),
        StyleRow(role: .gridLabel, ink: 0, color256: 245, color16: 7),
        StyleRow(role: .cityLabel, ink: 0, color256: 229, color16: 11),
        StyleRow(role: .streetLabel, ink: 0, color256: 231, color16: 15),
        StyleRow(role: .placeLabel, ink: 0, color256: 183, color16: 13),
        StyleRow(role: .status, ink: 0, color256: 255, color16: 7, reverse: true),
        StyleRow(role: .credit, ink: 0, color256: 244, color16: 8, reverse: true),
        StyleRow(role: .message, ink: 0, color256: 252, color16: 7),
        StyleRow(role: .error, ink: 0, color256: 203, color16: 9),
        StyleRow(role: .prompt, ink: 0, color256: 222, color16: 11),
        StyleRow(role: .help, ink: 0, color256: 255, color16: 7, reverse: true),
    ]

    /// The role that draws each feature class.
    static func role(_ c: FeatureClass) -> StyleRole {
        switch c {
        case .coastline: return .coastline
        case .lake: return .lake
        case .border: return .border
        case .motorway: return .motorway
        case .trunk: return .trunk
        case .primary: return .primary
        case .secondary: return .secondary
        case .tertiary: return .tertiary
        case .minorRoad: return .minorRoad
        case .serviceRoad: return .serviceRoad
        case .path: return .path
        case .rail: return .rail
        case .tram: return .tram
        case .river: return .river
        case .stream: return .stream
        case .water: return .water
        case .park: return .park
        case .wood: return .wood
        case .building: return .building
        }
    }

    /// The row of a role.
    static func row(_ role: StyleRole) -> StyleRow? { byRole[role.rawValue] }

    /// The background that fills an area of `role` in `mode`, if it has one there.
    static func fill(_ role: StyleRole, mode: ColorMode) -> PaletteColor? {
        guard let row = byRole[role.rawValue] else { return nil }
        switch mode {
        case .ansi256: return row.fill256.map(PaletteColor.init)
        case .ansi16: return row.fill16.map(PaletteColor.init)
        case .plain, .monochrome: return nil
        }
    }

    /// The circle's shade, a background: navy (256) or blue (16).
    static let shade256: UInt8 = 17
    static let shade16: UInt8 = 4

    // Arrays, not dictionaries: these are read for every cell of every frame.
    private static let byRole: [StyleRow?] = {
        var table = [StyleRow?](repeating: nil, count: StyleRole.allCases.count)
        for row in rows { table[row.role.rawValue] = row }
        return table
    }()
    private static let byInk: [StyleRole] = {
        var table = [StyleRole](repeating: .plain, count: 256)
        for row in rows where row.ink > 0 { table[Int(row.ink)] = row.role }
        return table
    }()
    private static let styles: [[CellStyle]] = [ColorMode.plain, .monochrome, .ansi16, .ansi256].map { mode in
        StyleRole.allCases.map { makeStyle($0, mode: mode) }
    }

    /// How `role` looks in `mode`.
    @inline(__always)
    public static func style(_ role: StyleRole, mode: ColorMode) -> CellStyle {
        let m: Int
        switch mode {
        case .plain: m = 0
        case .monochrome: m = 1
        case .ansi16: m = 2
        case .ansi256: m = 3
        }
        return styles[m][role.rawValue]
    }

    private static func makeStyle(_ role: StyleRole, mode: ColorMode) -> CellStyle {
        guard let row = byRole[role.rawValue] else { return .plain }
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
    static func ink(_ role: StyleRole) -> UInt8 { byRole[role.rawValue]?.ink ?? 0 }

    /// The layer that drew with `ink`.
    @inline(__always)
    static func role(ink: UInt8) -> StyleRole { byInk[Int(ink)] }
}
