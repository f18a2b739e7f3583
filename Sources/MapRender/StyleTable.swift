import MapData
import MapFormats
import Raster

/// What a cell shows, by what it is: a class of map features, or a part of the screen. Only the style
/// table knows how each looks.
public enum StyleRole: Hashable, Sendable {
    /// Features of a class (coastlines, motorways, buildings…).
    case feature(FeatureClass)
    case plain, grid, gridLabel, city, cityLabel, circleOutline, edge, streetLabel, placeLabel, poiLabel
    case status, credit, message, error, prompt, help, capitalLabel, attribution
    /// What the seeds would have drawn (`v`): their screen-space circle and width-only fit box.
    case seedOverlay
    /// The circle's shade outside it, over the sea (or where no land is drawn) and over land.
    case shade, shadeOverLand
    /// Features of the user's own layers (a file, a stream, a test's point): one look of the overlay
    /// palette each, the first file the first (`StyleTable.overlayLooks` of them, then again).
    case overlay(Int)
    /// A feature of the user's own in a colour its file gives (simplestyle-spec): entry `n` (0–215) of
    /// the 6 × 6 × 6 cube.
    case userColor(Int)
    /// A route (`d`, `termmap route`): over the streets, under the user's files.
    case route
    /// Contour lines every interval of height, every fifth line (an index contour), and its height's label.
    case contour, indexContour, contourLabel

    /// The roles that are not feature classes.
    static let screenRoles: [StyleRole] =
        [
            .plain, .grid, .gridLabel, .city, .cityLabel, .circleOutline, .edge, .streetLabel, .placeLabel, .status,
            .credit, .message, .error, .prompt, .help, .capitalLabel, .attribution, .seedOverlay, .shade,
            .shadeOverLand,
            .poiLabel,
        ] + (0..<StyleTable.overlayLooks).map { .overlay($0) } + (0..<216).map { .userColor($0) } + [
            .route, .contour, .indexContour, .contourLabel,
        ]

    /// Every role: the screen's, then one a feature class.
    public static let allCases: [StyleRole] = screenRoles + FeatureClass.allCases.map { .feature($0) }

    /// A dense number for array lookups (read for every cell of every frame).
    var index: Int {
        switch self {
        case .feature(let c): return Self.screenRoles.count + Self.classIndex[Int(c.rawValue)]
        case .plain: return 0
        case .grid: return 1
        case .gridLabel: return 2
        case .city: return 3
        case .cityLabel: return 4
        case .circleOutline: return 5
        case .edge: return 6
        case .streetLabel: return 7
        case .placeLabel: return 8
        case .status: return 9
        case .credit: return 10
        case .message: return 11
        case .error: return 12
        case .prompt: return 13
        case .help: return 14
        case .capitalLabel: return 15
        case .attribution: return 16
        case .seedOverlay: return 17
        case .shade: return 18
        case .shadeOverLand: return 19
        case .poiLabel: return 20
        case .overlay(let n): return 21 + n % StyleTable.overlayLooks
        case .userColor(let n): return 21 + StyleTable.overlayLooks + max(0, min(215, n))
        case .route: return 21 + StyleTable.overlayLooks + 216
        case .contour: return 21 + StyleTable.overlayLooks + 217
        case .indexContour: return 21 + StyleTable.overlayLooks + 218
        case .contourLabel: return 21 + StyleTable.overlayLooks + 219
        }
    }

    private static let classIndex: [Int] = {
        var table = [Int](repeating: 0, count: 256)
        for (i, c) in FeatureClass.allCases.enumerated() { table[Int(c.rawValue)] = i }
        return table
    }()
}

/// One row of the style table: a role's ink on the canvas (higher wins a shared cell; 0 for text), its
/// colours in 256 and 16 colours, reverse video where there is no colour, and for feature classes the
/// zoom they are drawn from (the zoom ladder; imports keep each class from that zoom on) and the look
/// that holds without colour: lines drawn every n-th dot (dotted), two dots wide from a zoom, areas
/// filled with a background tint (colour) or a sparse stipple glyph (no colour).
struct StyleRow: Sendable {
    let role: StyleRole
    let ink: UInt8
    /// A feature class in words, for what-is-here answers (`primary road`; static text: rows are
    /// copied for every frame, and a `String` would be retained at each copy).
    var name: StaticString = ""
    var minZoom = 0.0
    /// The zoom from which it is no longer drawn.
    var maxZoom = Double.infinity
    let color256: UInt8
    let color16: UInt8
    var reverse = false
    /// Reverse video in every mode, with colour too (a sign: its colour becomes the box).
    var sign = false
    var dotEvery = 1
    /// Dashed: this many dots on of every `dotEvery` (1: dotted, one dot of every `dotEvery`).
    var dashOn = 1
    var wideFromZoom = Double.infinity
    var fill256: UInt8?
    var fill16: UInt8?
    var stipple: Unicode.Scalar?
    /// The stipple in ASCII glyphs, when `stipple` is not ASCII.
    var asciiStipple: Unicode.Scalar?
    /// One stipple every this many columns and rows (a building's few cells all get one).
    var stippleCols = 3
    var stippleRows = 2
    /// Bold wherever the terminal shows attributes (a capital's name).
    var bold = false
    /// The light theme's colours (a light terminal background): foreground and fill in 256 colours,
    /// and a foreground in 16 where the dark theme's would not read on white.
    var light256: UInt8
    var light16: UInt8?
    var lightFill256: UInt8?
    /// On the status or message line: its own background (the line's band), so that it reads whatever
    /// the terminal's background and the theme (WCAG 2 contrast ≥ 4.5 with every band colour below).
    var band = false
    /// One of the user's looks: underlined in 8 colours and without colour, where no colour of its own is
    /// left (the map uses all eight).
    var userLook = false
    /// Underlined in 16 colours too (a look past the bright colours the map leaves free).
    var underline16 = false
    /// Reverse video in 16 and 8 colours and without colour, where every hue is the map's or a file's
    /// (a route: a bar of its colour with the dots cut out).
    var reverse16 = false
    /// Without colour, the glyph a cell of this class's lines shows instead of its dots (braille and
    /// ASCII), so that each family of classes reads apart by its glyphs alone (`ClassFamilyLookTests`):
    /// water `~`, parks and woods `'`, paths `·` (`.`), rail `‡` (`:`), major roads (ASCII only, where a
    /// line's weight does not show) `=`; nil: its dots.
    var plainGlyph: (braille: Unicode.Scalar?, ascii: Unicode.Scalar?)?
}

/// The status and message lines' background in each theme and colour mode: a dark grey band under
/// light text, a light grey one under dark text (xterm's 235 #262626 and 254 #e4e4e4; black and the
/// light grey of the 16).
enum LineBand {
    static let dark256: UInt8 = 235, light256: UInt8 = 254, dark16: UInt8 = 0, light16: UInt8 = 7
}

/// The palette's theme: for a dark terminal background (the default) or a light one.
public enum Theme: String, CaseIterable, Sendable {
    case dark, light
}

/// The one table from roles to concrete cell styles, per colour mode (the seed: red circle, blue 20 %
/// shade), and the zoom ladder of street-level classes (after OpenMapTiles: major roads, rail, rivers
/// and water from 11; minor roads, parks, woods, streams and trams from 13; service roads, paths and
/// buildings from 15). Adding a class of features is one row here (and its tags in the importer).
public enum StyleTable {
    static let rows: [StyleRow] = [
        StyleRow(role: .plain, ink: 0, color256: 250, color16: 7, light256: 238, light16: 0),
        StyleRow(role: .grid, ink: 1, color256: 240, color16: 8, light256: 250),
        StyleRow(role: .edge, ink: 2, color256: 238, color16: 8, light256: 252),
        // Contour lines (issue 48): over the land's tints, under every line of the data; brown as topographic
        // maps draw them, every fifth (an index contour) stronger and solid, the others dotted.
        StyleRow(
            role: .contour, ink: 3, name: "contour", color256: 137, color16: 3, dotEvery: 2, light256: 95, light16: 3),
        StyleRow(
            role: .indexContour, ink: 4, name: "index contour", color256: 180, color16: 3, light256: 94, light16: 3),
        // The world's land and lakes: background tints only, where no street-level data has its own
        // (Natural Earth's shore is too coarse for streets); the sea is the cells with no land.
        StyleRow(
            role: .feature(.land), ink: 5, name: "land", color256: 235, color16: 0, fill256: 235, light256: 230,
            lightFill256: 230),
        StyleRow(
            role: .feature(.lakeWater), ink: 6, name: "water", color256: 16, color16: 4, fill16: 4, light256: 195,
            lightFill256: 195),
        // Street-level layers, lowest first: areas, then waterways, then roads by importance. The sea of
        // street-level data looks as its other water does.
        StyleRow(
            role: .feature(.sea), ink: 7, name: "sea", color256: 38, color16: 4, fill256: 23, fill16: 4, stipple: "~",
            stippleCols: 2,
            stippleRows: 1, light256: 25, lightFill256: 153, plainGlyph: ("~", "~")),
        StyleRow(
            role: .feature(.water), ink: 8, name: "water", minZoom: 11, color256: 38, color16: 4, fill256: 23,
            fill16: 4, stipple: "~",
            stippleCols: 2, stippleRows: 1, light256: 25, lightFill256: 153, plainGlyph: ("~", "~")),
        StyleRow(
            role: .feature(.wood), ink: 9, name: "wood", minZoom: 13, color256: 65, color16: 2, fill256: 22, fill16: 2,
            stipple: "'",
            stippleCols: 2, stippleRows: 1, light256: 22, lightFill256: 194, plainGlyph: ("'", "'")),
        StyleRow(
            role: .feature(.park), ink: 10, name: "park", minZoom: 13, color256: 71, color16: 2, fill256: 22, fill16: 2,
            stipple: "'",
            stippleCols: 2, stippleRows: 1, light256: 28, lightFill256: 194, plainGlyph: ("'", "'")),
        // Buildings are blocks: a dim fill a shade off the land's with an outline a shade further (256), dark
        // grey with a magenta outline (16), a magenta stipple in every cell (8, which has no grey
        // background) and without colour.
        StyleRow(
            role: .feature(.building), ink: 11, name: "building", minZoom: 15, color256: 241, color16: 5, fill256: 237,
            fill16: 8,
            stipple: "▒", asciiStipple: "#", stippleCols: 1, stippleRows: 1, light256: 246, lightFill256: 252),
        StyleRow(
            role: .feature(.stream), ink: 12, name: "stream", minZoom: 13, color256: 32, color16: 4, dotEvery: 2,
            light256: 25, plainGlyph: ("~", "~")),
        // Without colour each shore and border has a look of its own: coasts solid, lake shores in short
        // dashes, borders in long ones.
        StyleRow(
            role: .feature(.lake), ink: 13, name: "lake shore", color256: 33, color16: 4, dotEvery: 3, dashOn: 2,
            light256: 26),
        StyleRow(
            role: .feature(.river), ink: 15, name: "river", minZoom: 11, color256: 39, color16: 4, dotEvery: 3,
            dashOn: 2, light256: 26, plainGlyph: ("~", "~")),
        StyleRow(
            role: .feature(.worldRiver), ink: 14, name: "river", minZoom: 4, color256: 39, color16: 4,
            light256: 26, plainGlyph: ("~", "~")),
        // Paths in long dashes of their own, salmon as web maps draw footways (red in 8 and 16 colours).
        StyleRow(
            role: .feature(.path), ink: 16, name: "path", minZoom: 15, color256: 174, color16: 1, dotEvery: 4,
            dashOn: 3, light256: 131, plainGlyph: ("·", ".")),
        StyleRow(
            role: .feature(.serviceRoad), ink: 17, name: "service road", minZoom: 15, color256: 244, color16: 7,
            fill256: 240, light256: 244, light16: 8),
        StyleRow(
            role: .feature(.tram), ink: 18, name: "tram line", minZoom: 13, color256: 139, color16: 6, dotEvery: 4,
            light256: 96, plainGlyph: ("‡", ":")),
        StyleRow(
            role: .feature(.rail), ink: 19, name: "railway", minZoom: 11, color256: 246, color16: 6, dotEvery: 3,
            light256: 242, plainGlyph: ("‡", ":")),
        StyleRow(
            role: .feature(.minorRoad), ink: 20, name: "minor road", minZoom: 13, color256: 252, color16: 7,
            fill256: 242, light256: 240, light16: 0),
        StyleRow(
            role: .feature(.tertiary), ink: 21, name: "tertiary road", minZoom: 13, color256: 253, color16: 15,
            fill256: 242, light256: 238, light16: 0),
        StyleRow(
            role: .feature(.secondary), ink: 22, name: "secondary road", minZoom: 11, color256: 230, color16: 11,
            wideFromZoom: 0, fill256: 58, light256: 136, light16: 3, plainGlyph: (nil, "=")),
        StyleRow(
            role: .feature(.primary), ink: 23, name: "primary road", minZoom: 11, color256: 221, color16: 11,
            wideFromZoom: 0, fill256: 58, light256: 130, light16: 3, plainGlyph: (nil, "=")),
        StyleRow(
            role: .feature(.trunk), ink: 24, name: "trunk road", minZoom: 11, color256: 214, color16: 3,
            wideFromZoom: 0, fill256: 94, light256: 166, plainGlyph: (nil, "=")),
        StyleRow(
            role: .feature(.motorway), ink: 25, name: "motorway", minZoom: 11, color256: 208, color16: 11,
            wideFromZoom: 0, fill256: 94, light256: 160, light16: 3, plainGlyph: (nil, "=")),
        StyleRow(
            role: .feature(.stateBorder), ink: 26, name: "state border", minZoom: 4, color256: 137, color16: 8,
            dotEvery: 5, dashOn: 2, light256: 137),
        StyleRow(
            role: .feature(.border), ink: 27, name: "country border", color256: 179, color16: 3, dotEvery: 6, dashOn: 4,
            light256: 94),
        StyleRow(
            role: .feature(.coastline), ink: 28, name: "coastline", color256: 45, color16: 14, light256: 24, light16: 4),
        StyleRow(role: .city, ink: 29, name: "city", color256: 220, color16: 11, light256: 160, light16: 1),
        StyleRow(role: .circleOutline, ink: 30, color256: 196, color16: 9, light256: 196),
        // The seeds' picture beside ours (`v`): magenta dashes, which read without colour too.
        StyleRow(role: .seedOverlay, ink: 31, color256: 201, color16: 13, dotEvery: 4, dashOn: 2, light256: 127),
        StyleRow(role: .gridLabel, ink: 0, color256: 245, color16: 7, light256: 242, light16: 0),
        StyleRow(role: .cityLabel, ink: 0, color256: 229, color16: 11, light256: 235, light16: 0),
        StyleRow(role: .capitalLabel, ink: 0, color256: 229, color16: 11, bold: true, light256: 232, light16: 0),
        StyleRow(role: .streetLabel, ink: 0, color256: 231, color16: 15, light256: 236, light16: 0),
        StyleRow(role: .contourLabel, ink: 0, color256: 180, color16: 3, light256: 94, light16: 3),
        StyleRow(role: .placeLabel, ink: 0, color256: 183, color16: 7, light256: 91, light16: 0),
        // Points of interest: a letter for their kind in reverse video (a small sign, which reads without
        // colour too), their names in a softer colour than the streets'.
        StyleRow(
            role: .feature(.poi), ink: 0, name: "point of interest", minZoom: 16, color256: 216, color16: 14,
            sign: true,
            light256: 130, light16: 0),
        StyleRow(role: .poiLabel, ink: 0, color256: 223, color16: 7, light256: 94, light16: 0),
        // Peaks and passes (issue 48): a `▲` (a pass `×`) and the height, in the contours' brown, from zoom 11.
        StyleRow(
            role: .feature(.peak), ink: 0, name: "peak", minZoom: 11, color256: 180, color16: 3, bold: true,
            light256: 94, light16: 3),
        // The status and message lines, on their band (`LineBand`).
        StyleRow(
            role: .status, ink: 0, color256: 255, color16: 7, reverse: true, light256: 235, light16: 0, band: true),
        StyleRow(
            role: .credit, ink: 0, color256: 247, color16: 8, reverse: true, light256: 240, light16: 0, band: true),
        StyleRow(role: .message, ink: 0, color256: 252, color16: 7, light256: 236, light16: 0, band: true),
        StyleRow(role: .error, ink: 0, color256: 203, color16: 9, light256: 124, light16: 1, band: true),
        StyleRow(role: .prompt, ink: 0, color256: 222, color16: 11, light256: 58, light16: 4, band: true),
        StyleRow(role: .help, ink: 0, color256: 255, color16: 7, reverse: true, light256: 235, light16: 0),
        StyleRow(role: .attribution, ink: 0, color256: 248, color16: 8, light256: 240, light16: 0, band: true),
        // The seed's 20 % blue outside the circle: navy (256) or blue (16) over the sea, a lighter navy over
        // land (a fifth of blue over its tint); lavender on a light background, a bluer cyan over its sea.
        // Without colour, a stipple nothing else draws (the grid is braille dots, areas `~` and `'`).
        StyleRow(
            role: .shade, ink: 0, color256: 250, color16: 7, fill256: 17, fill16: 4, stipple: "░", light256: 238,
            lightFill256: 153),
        StyleRow(
            role: .shadeOverLand, ink: 0, color256: 250, color16: 7, fill256: 18, fill16: 4, stipple: "░",
            light256: 238, lightFill256: 189),
        // The user's own layers, over everything of the map's (the highest inks), one look a file, none of
        // them a look any class of the map has in that theme and mode (`OverlayLookTests`): in 256 colours
        // hues far from the map's (CIE ΔE ≥ 30 from every colour it uses; an area's tint ≥ 12), in 16 the
        // bright colours the map leaves free, then underlined; in 8 (where the map uses all eight) six
        // hues, underlined, as without colour; and a marker glyph and a stipple of their own.
        StyleRow(
            role: .overlay(0), ink: 32, name: "file", color256: 198, color16: 13, fill256: 53, stipple: ".",
            stippleCols: 2, stippleRows: 1, bold: true, light256: 161, lightFill256: 225, userLook: true),
        StyleRow(
            role: .overlay(1), ink: 33, name: "file", color256: 46, color16: 10, fill256: 28, stipple: ";",
            stippleCols: 2, stippleRows: 1, bold: true, light256: 21, light16: 12, lightFill256: 147, userLook: true),
        StyleRow(
            role: .overlay(2), ink: 34, name: "file", color256: 50, color16: 9, fill256: 30, stipple: "`",
            stippleCols: 2, stippleRows: 1, bold: true, light256: 29, lightFill256: 158, userLook: true),
        StyleRow(
            role: .overlay(3), ink: 35, name: "file", color256: 99, color16: 12, fill256: 54, stipple: "=",
            stippleCols: 2, stippleRows: 1, bold: true, light256: 93, light16: 2, lightFill256: 183, userLook: true,
            underline16: true),
        StyleRow(
            role: .overlay(4), ink: 36, name: "file", color256: 203, color16: 14, fill256: 52, stipple: "^",
            stippleCols: 2, stippleRows: 1, bold: true, light256: 88, light16: 6, lightFill256: 224, userLook: true,
            underline16: true),
        StyleRow(
            role: .overlay(5), ink: 37, name: "file", color256: 191, color16: 11, fill256: 100, stipple: "\"",
            stippleCols: 2, stippleRows: 1, bold: true, light256: 17, light16: 3, lightFill256: 111, userLook: true,
            underline16: true),
        // A route, in a look no class of the map has (`OverlayLookTests`): spring green on dark, plum on
        // light (ΔE ≥ 30 from every colour of the map's, ≥ 20 from the files' looks), bold; in 16 and 8
        // colours, where every hue is taken, reverse video in blue (magenta on light).
        StyleRow(
            role: .route, ink: 38, name: "route", color256: 48, color16: 12, bold: true, light256: 89, light16: 5,
            reverse16: true),
    ]

    /// The rows of the user's own colours: inks 40–255, the cube's entries in 256 colours, the nearest
    /// of the 16 in 16 and 8 (bold, as the overlays' are), a tint of the same entry for areas.
    static let userColorRows: [StyleRow] = (0..<216).map { n in
        let (r, g, b) = SimpleStyle.rgb(n)
        return StyleRow(
            role: .userColor(n), ink: UInt8(40 + n), name: "file", color256: UInt8(16 + n), color16: nearest16(r, g, b),
            fill256: UInt8(16 + n), stipple: ".", stippleCols: 2, stippleRows: 1, bold: true, light256: UInt8(16 + n),
            lightFill256: UInt8(16 + n), userLook: true)
    }

    /// The nearest of the 16 ANSI colours (xterm's values) to an RGB.
    static func nearest16(_ r: Int, _ g: Int, _ b: Int) -> UInt8 {
        let ansi: [(Int, Int, Int)] = [
            (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205),
            (229, 229, 229),
            (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255),
            (255, 255, 255),
        ]
        let d = ansi.map { ($0.0 - r) * ($0.0 - r) + ($0.1 - g) * ($0.1 - g) + ($0.2 - b) * ($0.2 - b) }
        return UInt8(d.indices.min { d[$0] < d[$1] } ?? 7)
    }

    /// How many looks the overlay palette has.
    public static let overlayLooks = 6

    /// The marker of a point of overlay look `n`, in braille and in ASCII glyph sets.
    public static func overlayMarker(_ n: Int, ascii: Bool) -> Character {
        let i = n % overlayLooks
        // None of them a glyph of the map's (ASCII lines are ' , _ - | / \\ + #, areas ~ ' # :, cities *).
        return ascii ? ["o", "x", "@", "%", "&", "$"][i] : ["●", "◆", "▲", "■", "✚", "✖"][i]
    }

    /// The letter that marks a point of interest of `kind` (the legend explains them; ASCII in both glyph
    /// sets, so a sign reads the same on every terminal).
    public static func poiGlyph(_ kind: NameKind) -> Character {
        switch kind {
        case .food: "R"
        case .drink: "C"
        case .shop: "S"
        case .lodging: "H"
        case .sight: "M"
        case .station: "T"
        default: "+"
        }
    }

    /// The zoom from which buildings are outlined (below it a block's fill is enough).
    public static let buildingOutlineZoom = 17.0

    /// The zoom from which roads are drawn as wide as they are: a band with its centre line.
    public static let roadBandZoom = 16.0

    /// A road's width in metres by its class (docs/data.md, "Roads as wide as they are"), nil for classes
    /// drawn as thin lines at every zoom (paths, steps, rail).
    public static func roadWidth(_ c: FeatureClass) -> Double? {
        switch c {
        // One way each: a dual carriageway is two ways in OpenStreetMap.
        case .motorway: return 16
        case .trunk: return 14
        case .primary: return 12
        case .secondary: return 10
        case .tertiary: return 8
        case .minorRoad: return 6
        case .serviceRoad: return 4
        default: return nil
        }
    }

    /// The zoom from which features of `c` are drawn (and kept by an import).
    public static func minZoom(_ c: FeatureClass) -> Double { row(.feature(c))?.minZoom ?? 0 }

    /// The row of a role.
    static func row(_ role: StyleRole) -> StyleRow? { byRole[role.index] }

    /// The background that fills an area of `role` in `mode`, if it has one there (8 colours show no
    /// bright background: a stipple stands for it there).
    static func fill(_ role: StyleRole, mode: ColorMode, theme: Theme = .dark) -> PaletteColor? {
        guard let row = byRole[role.index] else { return nil }
        switch mode.paletteMode {
        case .ansi256, .truecolor: return (theme == .light ? row.lightFill256 : row.fill256).map(PaletteColor.init)
        case .ansi16: return row.fill16.map(PaletteColor.init)
        case .ansi8: return row.fill16.flatMap { $0 < 8 ? PaletteColor($0) : nil }
        case .plain, .monochrome: return nil
        }
    }

    /// Without colour, the glyph a line cell of `role` shows instead of its dots (nil: its dots).
    static func plainGlyph(_ role: StyleRole, ascii: Bool) -> Unicode.Scalar? {
        byRole[role.index]?.plainGlyph.flatMap { ascii ? $0.ascii : $0.braille }
    }

    /// The glyph that marks an area of `role` where it has no background, and how sparse it is (one
    /// every `cols` columns and `rows` rows).
    static func stipple(_ role: StyleRole, ascii: Bool) -> (glyph: Unicode.Scalar, cols: Int, rows: Int)? {
        guard let row = byRole[role.index], let glyph = ascii ? row.asciiStipple ?? row.stipple : row.stipple else {
            return nil
        }
        return (glyph, row.stippleCols, row.stippleRows)
    }

    /// The sea's background where the world's land is drawn: the lakes' (on a dark terminal its own
    /// background, as dark web maps draw water, which also costs no bytes; pale cyan on a light one;
    /// blue in 16 colours).
    static func sea(mode: ColorMode, theme: Theme = .dark) -> PaletteColor? {
        fill(.feature(.lakeWater), mode: mode, theme: theme)
    }

    // Arrays, not dictionaries: these are read for every cell of every frame.
    private static let byRole: [StyleRow?] = {
        var table = [StyleRow?](repeating: nil, count: StyleRole.allCases.count)
        for row in rows + userColorRows { table[row.role.index] = row }
        return table
    }()
    private static let byInk: [StyleRole] = {
        var table = [StyleRole](repeating: .plain, count: 256)
        for row in rows + userColorRows where row.ink > 0 { table[Int(row.ink)] = row.role }
        return table
    }()
    private static let styles: [[[CellStyle]]] = Theme.allCases.map { theme in
        [ColorMode.plain, .monochrome, .ansi8, .ansi16, .ansi256].map { mode in
            StyleRole.allCases.map { makeStyle($0, mode: mode, theme: theme) }
        }
    }

    /// How `role` looks in `mode`.
    @inline(__always)
    public static func style(_ role: StyleRole, mode: ColorMode, theme: Theme = .dark) -> CellStyle {
        let m: Int
        switch mode {
        case .plain: m = 0
        case .monochrome: m = 1
        case .ansi8: m = 2
        case .ansi16: m = 3
        case .ansi256, .truecolor: m = 4
        }
        return styles[theme == .dark ? 0 : 1][m][role.index]
    }

    private static func makeStyle(_ role: StyleRole, mode: ColorMode, theme: Theme) -> CellStyle {
        guard let row = byRole[role.index] else { return .plain }
        switch mode.paletteMode {
        case .plain: return .plain
        case .monochrome:
            return CellStyle(bold: row.bold, reverse: row.reverse || row.sign || row.reverse16, underline: row.userLook)
        case .ansi8, .ansi16:
            // Reverse video on top of a colour would swap it into the background: colours alone there.
            let color = theme == .light ? row.light16 ?? row.color16 : row.color16
            let band = row.band ? PaletteColor(theme == .light ? LineBand.light16 : LineBand.dark16) : nil
            let underline = row.userLook && (mode == .ansi8 || row.underline16)
            return CellStyle(
                foreground: PaletteColor(color), background: band, bold: row.bold, reverse: row.sign || row.reverse16,
                underline: underline)
        case .ansi256, .truecolor:
            let band = row.band ? PaletteColor(theme == .light ? LineBand.light256 : LineBand.dark256) : nil
            return CellStyle(
                foreground: PaletteColor(theme == .light ? row.light256 : row.color256), background: band,
                bold: row.bold, reverse: row.sign)
        }
    }

    /// The background of the shade outside the circle, or nil where it shows as a stipple instead.
    public static func shade(mode: ColorMode, theme: Theme = .dark, overLand: Bool = false) -> PaletteColor? {
        fill(overLand ? .shadeOverLand : .shade, mode: mode, theme: theme)
    }

    /// A feature class in words (`primary road`).
    public static func className(_ c: FeatureClass) -> String {
        byRole[StyleRole.feature(c).index].map { $0.name.description } ?? "\(c)"
    }

    /// The canvas ink of a map layer (`role` must have one).
    static func ink(_ role: StyleRole) -> UInt8 { byRole[role.index]?.ink ?? 0 }

    /// The layer that drew with `ink`.
    @inline(__always)
    static func role(ink: UInt8) -> StyleRole { byInk[Int(ink)] }
}
