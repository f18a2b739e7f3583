import GeoCore
import MapData
import MapFormats
import Raster

/// How the map is drawn: the colour mode, the palette's theme, and braille or ASCII glyphs.
public struct MapStyle: Equatable, Sendable {
    /// What the screen shows of styles.
    public var mode: ColorMode
    /// The palette for a dark or a light background.
    public var theme: Theme
    /// ASCII glyphs instead of braille.
    public var ascii: Bool
    /// The latitude/longitude grid is drawn (`#` toggles it).
    public var grid: Bool
    /// The imagery is drawn, when the run has one (`I` toggles it).
    public var imagery: Bool
    /// The imagery is a picture the terminal draws under the text (kitty's), not half blocks: its cells
    /// are left blank, and the render holds the picture.
    public var imageryPicture: PictureCell?
    /// The terrain's hillshade shades the land, when the run has terrain (`H` toggles it).
    public var hillshade = true

    /// A style.
    public init(mode: ColorMode, theme: Theme = .dark, ascii: Bool = false, grid: Bool = true, imagery: Bool = true) {
        self.mode = mode
        self.theme = theme
        self.ascii = ascii
        self.grid = grid
        self.imagery = imagery
    }
}

/// Draws a view's layers, in order, into the map rows of a frame: a pure function of the view, the
/// layers and the data (it loads nothing: what it lacks it reports).
public enum MapRenderer {
    /// The layers every map has, lowest first: the map data, the grid, places, street names, points of
    /// interest (the label engine places the grid's labels first, then places, then streets, then points
    /// of interest).
    public static let baseLayers: [any MapLayer] = [
        BaseMapLayer(), GraticuleLayer(), PlacesLayer(), StreetNamesLayer(), PointsOfInterestLayer(), PeaksLayer(),
    ]

    /// Draws `baseLayers` then `overlays` into rows 0 ..< the view's rows of `frame`.
    /// `makesDetailAtOnce`: a level of detail of a user's file that the view lacks is made here (a
    /// script's frames, tests); else it is reported (`MapRendering.missingDetail`) and the nearest made
    /// is drawn (the viewer's, whose keys never wait for one).
    public static func render(
        into frame: inout Frame, view: MapView, overlays: [any MapLayer] = [], sources: MapSources?, style: MapStyle,
        makesDetailAtOnce: Bool = true
    ) -> MapRendering {
        var context = LayerContext(view: view, sources: sources, ascii: style.ascii)
        context.makesDetailAtOnce = makesDetailAtOnce
        context.wantsPicture = style.imageryPicture
        if style.imagery { ImageryLayer().draw(into: &context) }
        TerrainLayer().draw(into: &context)
        for layer in baseLayers where style.grid || !(layer is GraticuleLayer) { layer.draw(into: &context) }
        // Contours after the map's names (which win a place over theirs); their inks are below the data's.
        ContourLayer().draw(into: &context)
        if style.hillshade { HillshadeLayer().draw(into: &context) }
        for layer in overlays { layer.draw(into: &context) }
        let shown = compose(&frame, context, style)
        var rendering = finish(context)
        rendering.picture = context.picture
        rendering.shownClasses = shown.inks.indices.compactMap { ink in
            guard shown.inks[ink], case .feature(let fc) = StyleTable.role(ink: UInt8(ink)) else { return nil }
            return fc
        }
        if shown.sea && !rendering.shownClasses.contains(.lakeWater) {
            rendering.shownClasses.insert(.lakeWater, at: 0)
        }
        return rendering
    }

    /// The tiles `view` lacks, per source, without drawing it: a program that shows only its last
    /// screen loads them first and draws once.
    public static func missingTiles(view: MapView, sources: MapSources?, imagery: Bool = true) -> [TileBatch] {
        guard let sources else { return [] }
        var batches: [TileBatch] = []
        if imagery, let source = sources.imagery {
            let missing = ImagerySampler.missing(source, view: view)
            if !missing.isEmpty { batches.append(TileBatch(source: sources.imageryIndex, tiles: missing)) }
        }
        if let terrain = sources.terrain, case let missing = TerrainLayer.missing(terrain, view: view), !missing.isEmpty
        {
            batches.append(TileBatch(source: sources.terrainIndex, tiles: missing))
        }
        // Only tilesets lack anything (and most runs have none: no query then).
        guard sources.features.details.contains(where: { $0.kind == .tiles }),
            let results = try? sources.features.query(
                bounds: view.bounds, zoom: view.zoom, metersPerDot: view.metersPerDot)
        else { return batches }
        return batches
            + results.compactMap {
                $0.view.missing.isEmpty ? nil : TileBatch(source: $0.index, tiles: $0.view.missing)
            }
    }

    /// The context after drawing `layers` over `view` (for tests of what layers leave for the compositor).
    static func drawn(
        view: MapView, sources: MapSources?, ascii: Bool = false, layers: [any MapLayer] = baseLayers
    ) -> LayerContext {
        var context = LayerContext(view: view, sources: sources, ascii: ascii)
        for layer in layers { layer.draw(into: &context) }
        return context
    }

    /// Which inks the frame shows (dots and areas), and whether it shows the world's sea (for the legend).
    struct Shown {
        var inks = [Bool](repeating: false, count: 256)
        var sea = false
    }

    /// Canvas → frame: each cell's dots (or, without colour, its class's glyph), its area's tint or
    /// stipple, the sea's; which inks the frame shows.
    static func paintCells(_ frame: inout Frame, _ c: LayerContext, _ style: MapStyle) -> Shown {
        var shown = Shown()
        let mode = style.mode
        let theme = style.theme
        let ascii = style.ascii
        let cols = c.view.size.cols
        let mapRows = c.view.size.rows
        let canvas = c.canvas
        let sea = c.showsSea ? StyleTable.sea(mode: mode, theme: theme) : nil
        let rows = worldRows(c.transform)
        // Each ink's look, once a frame (not a table lookup a cell).
        let inkFills = (0...255).map { StyleTable.fill(StyleTable.role(ink: UInt8($0)), mode: mode, theme: theme) }
        let inkStipples = (0...255).map { StyleTable.stipple(StyleTable.role(ink: UInt8($0)), ascii: ascii) }
        let inkStyles = (0...255).map { StyleTable.style(StyleTable.role(ink: UInt8($0)), mode: mode, theme: theme) }
        // Without colour each family of classes has glyphs of its own (water `~`, parks `'`, paths `·`, rail
        // `‡`; in ASCII major roads `=`), and the sea a sparse stipple, so that land, sea and the families read apart.
        let plain = !mode.hasColor
        let inkGlyphs = (0...255).map {
            plain ? StyleTable.plainGlyph(StyleTable.role(ink: UInt8($0)), ascii: ascii) : nil
        }
        let seaStipple: Unicode.Scalar = "~"
        // The sea's stipple is fixed to the world (a pan moves it with the map): cells counted from the
        // world's top left corner.
        let (worldCol, worldRow) = (
            Int((c.transform.dotX(0) / Double(ViewSize.dotsPerCellX)).rounded(.down)),
            Int((c.transform.dotY(0) / Double(ViewSize.dotsPerCellY)).rounded(.down))
        )
        // Canvas → frame; empty cells keep the terminal's own colours. Areas are a background tint with
        // colour, a sparse stipple in empty cells without. (The frame is set in place: every cell is
        // visited, and none of the map's glyphs is two columns wide.)
        frame.withOneColumnCells { cells in
            for row in 0..<mapRows {
                for col in 0..<cols {
                    let i = row * cols + col
                    let p = canvas.pattern(col: col, row: row)
                    if p != 0 {
                        let ink = canvas.ink(col: col, row: row)
                        var glyph = ascii ? AsciiGlyphs.glyph(p) : BrailleCanvas.brailleGlyph(p)
                        if plain, let own = inkGlyphs[Int(ink)] { glyph = own }
                        shown.inks[Int(ink)] = true
                        cells[i] = Cell(glyph: glyph, style: inkStyles[Int(ink)])
                    }
                    let fill = c.fills[i]
                    shown.inks[Int(fill)] = true
                    guard fill != 0 else {
                        if c.showsSea && rows.contains(row) { shown.sea = true }
                        if let sea, rows.contains(row) { cells[i].style.background = sea }
                        if plain, p == 0, c.showsSea, rows.contains(row), (row - worldRow) & 1 == 0,
                            ((col - worldCol + row - worldRow) % 6 + 6) % 6 == 0
                        {
                            cells[i] = Cell(glyph: seaStipple, style: inkStyles[Int(StyleTable.ink(.feature(.sea)))])
                        }
                        continue
                    }
                    if let background = inkFills[Int(fill)] {
                        cells[i].style.background = background
                    } else if p == 0, let stipple = inkStipples[Int(fill)], col % stipple.cols == 0,
                        row % stipple.rows == 0
                    {
                        cells[i] = Cell(glyph: stipple.glyph, style: inkStyles[Int(fill)])
                    }
                }
            }
        }
        return shown
    }

    /// The hillshade into the land's cells: its tint lighter on slopes facing the sun and darker on those
    /// facing away (a ramp of the theme's land colours in 256 colours, a grey in 16 where the shadow is
    /// deep), or, in 8 colours and without colour, a stipple in empty cells, denser the deeper the shadow
    /// (fixed to the world's cells, as the sea's is).
    static func paintHillshade(_ frame: inout Frame, _ c: LayerContext, _ style: MapStyle) {
        let cols = c.view.size.cols
        let land = StyleTable.ink(.feature(.land))
        let flat = Float(Hillshade.flat)
        // Dark theme: greys around the land's 235; light: the pale yellow land's 230 with its darker kin.
        let ramp: [UInt8] = style.theme == .dark ? Array(232...241) : [143, 144, 186, 187, 230, 231]
        let level = style.theme == .dark ? 3 : 4
        let (worldCol, worldRow) = (
            Int((c.transform.dotX(0) / Double(ViewSize.dotsPerCellX)).rounded(.down)),
            Int((c.transform.dotY(0) / Double(ViewSize.dotsPerCellY)).rounded(.down))
        )
        let stipple = Cell(
            glyph: style.ascii ? "." : "·", style: StyleTable.style(.contour, mode: style.mode, theme: style.theme))
        frame.withOneColumnCells { cells in
            for row in 0..<c.view.size.rows {
                for col in 0..<cols {
                    let i = row * cols + col
                    let v = c.hillshade[i]
                    guard c.fills[i] == land, !v.isNaN else { continue }
                    // Steps of the ramp from the flat ground's colour (16 a unit of shade: a 10° slope
                    // turned from the sun is about two steps darker).
                    let steps = Int(((v - flat) * Self.hillshadeGain).rounded())
                    switch style.mode {
                    case .ansi256, .truecolor:
                        let k = min(ramp.count - 1, max(0, level + steps))
                        cells[i].style.background = PaletteColor(ramp[k])
                    case .ansi16:
                        if steps <= -2 { cells[i].style.background = PaletteColor(style.theme == .dark ? 8 : 7) }
                    case .ansi8, .plain, .monochrome:
                        // A dot of shadow every other cell of a deep shadow, every fourth of a lighter one.
                        let (wc, wr) = (col - worldCol, row - worldRow)
                        let dense = steps <= -4 ? (wc + wr) & 1 == 0 : steps <= -2 && wc & 1 == 0 && wr & 1 == 0
                        if dense, cells[i].glyph == " " { cells[i] = stipple }
                    }
                }
            }
        }
    }

    /// Ramp steps a unit of hillshade.
    static let hillshadeGain: Float = 16

    /// The imagery into the painted cells: bare where no dot is drawn (areas, the sea and their
    /// stipples give way to it), else under the dots as a halo.
    static func paintImagery(_ frame: inout Frame, _ c: LayerContext, _ style: MapStyle) {
        let look = ImageryLook(mode: style.mode, theme: style.theme, ascii: style.ascii)
        let cols = c.view.size.cols
        let imagery = c.imagery
        let canvas = c.canvas
        // The grid's dots sit on the picture itself, not on a halo: a halo every ten degrees hides it.
        let grid = StyleTable.ink(.grid)
        frame.withOneColumnCells { cells in
            for row in 0..<c.view.size.rows {
                for col in 0..<cols {
                    let i = row * cols + col
                    let (upper, lower) = (imagery[2 * i], imagery[2 * i + 1])
                    guard upper | lower != 0 else { continue }
                    let bare = style.imageryPicture != nil
                    cells[i] =
                        canvas.pattern(col: col, row: row) == 0
                        ? (bare ? Cell() : look.cell(upper: upper, lower: lower, col: col, row: row))
                        : look.haloed(
                            cells[i], upper: upper, lower: lower, faint: canvas.ink(col: col, row: row) == grid)
                }
            }
        }
    }

    /// The canvas, the areas, the tints, the labels and the shade into the frame.
    @discardableResult
    static func compose(_ frame: inout Frame, _ c: LayerContext, _ style: MapStyle) -> Shown {
        let shown = paintCells(&frame, c, style)
        if !c.hillshade.isEmpty { paintHillshade(&frame, c, style) }
        if !c.imagery.isEmpty { paintImagery(&frame, c, style) }
        // What text then changes over imagery is given a halo (`haloText`).
        let painted = c.imagery.isEmpty ? [] : frame.cells
        let (mode, theme, ascii) = (style.mode, style.theme, style.ascii)
        let cols = c.view.size.cols
        let mapRows = c.view.size.rows
        if ascii {
            // One marker for a city in ASCII, wherever its dot fell in its cell (a dot alone would read
            // as ', , or | by its place); the cell keeps its tint.
            for m in c.labels.markers {
                frame.write("*", col: m.col, row: m.row, style: StyleTable.style(.city, mode: mode, theme: theme))
            }
        }
        // A name a user's marker falls on gives way whole: pieces of a name between markers say nothing.
        var markerCells = [Bool](repeating: false, count: c.labels.overlayMarkers.isEmpty ? 0 : cols * mapRows)
        for m in c.labels.overlayMarkers where m.col >= 0 && m.row >= 0 && m.col < cols && m.row < mapRows {
            markerCells[m.row * cols + m.col] = true
        }
        for label in c.labels.labels {
            if !markerCells.isEmpty, label.row >= 0, label.row < mapRows,
                (label.col..<(label.col + label.text.columns)).contains(where: {
                    $0 >= 0 && $0 < cols && markerCells[label.row * cols + $0]
                })
            {
                continue
            }
            frame.write(
                Transliteration.screenText(label.text, ascii: ascii), col: label.col, row: label.row,
                style: StyleTable.style(label.role, mode: mode, theme: theme))
        }
        for g in c.labels.gaps where !markerCells.isEmpty ? !markerCells[g.row * cols + g.col] : true {
            frame.write(" ", col: g.col, row: g.row, style: StyleTable.style(.poiLabel, mode: mode, theme: theme))
        }
        for m in c.labels.overlayMarkers {
            frame[m.col, m.row] = Cell(
                glyph: m.glyph.unicodeScalars.first ?? "o", style: StyleTable.style(m.role, mode: mode, theme: theme))
        }
        if !painted.isEmpty { haloText(&frame, painted: painted, c, style) }
        if !c.shade.isEmpty { shade(&frame, c, style) }
        frame.makeGlyphsReadable()
        return shown
    }

    /// Text written over imagery (names, markers, the grid's labels) on the halo of its cell's pixels.
    static func haloText(_ frame: inout Frame, painted: [Cell], _ c: LayerContext, _ style: MapStyle) {
        let look = ImageryLook(mode: style.mode, theme: style.theme)
        let cols = c.view.size.cols
        for row in 0..<c.view.size.rows {
            for col in 0..<cols {
                let i = row * cols + col
                let (upper, lower) = (c.imagery[2 * i], c.imagery[2 * i + 1])
                guard upper | lower != 0, frame.cells[i] != painted[i], !frame.cells[i].isContinuation else { continue }
                frame[col, row] = look.haloed(frame[col, row], upper: upper, lower: lower)
                // A two-column glyph's second cell takes the same halo.
                if col + 1 < cols, frame.cells[i + 1].isContinuation {
                    frame[col + 1, row] = look.haloed(frame[col + 1, row], upper: upper, lower: lower)
                }
            }
        }
    }

    /// How a class looks in the legend (`w`): three cells of it in `style` (a line's dots, an area's
    /// background or stipple).
    public static func legendSample(_ c: FeatureClass, style: MapStyle) -> [Cell] {
        let role = StyleRole.feature(c)
        guard let row = StyleTable.row(role) else { return [] }
        let pen = StyleTable.style(role, mode: style.mode, theme: style.theme)
        if c.isArea {
            if let fill = StyleTable.fill(role, mode: style.mode, theme: style.theme) {
                return Array(repeating: Cell(glyph: " ", style: CellStyle(background: fill)), count: 3)
            }
            let glyph = StyleTable.stipple(role, ascii: style.ascii)?.glyph ?? " "
            return Array(repeating: Cell(glyph: glyph, style: pen), count: 3)
        }
        var canvas = BrailleCanvas(cols: 3, rows: 1)
        canvas.line(0, 1, 5.9, 1, ink: row.ink, every: row.dotEvery, on: row.dashOn)
        if row.wideFromZoom.isFinite { canvas.line(0, 2, 5.9, 2, ink: row.ink, every: row.dotEvery, on: row.dashOn) }
        return (0..<3).map { col in
            let p = canvas.pattern(col: col, row: 0)
            return Cell(glyph: style.ascii ? AsciiGlyphs.glyph(p) : BrailleCanvas.brailleGlyph(p), style: pen)
        }
    }

    /// The map rows wholly between the Mercator limits (±85.05°): the sea ends with the world, the edge's
    /// rows stay blank.
    static func worldRows(_ t: ViewTransform) -> Range<Int> {
        let top = Int((t.dotY(0) / 4).rounded(.up))
        let bottom = Int((t.dotY(1) / 4).rounded(.down))
        return top..<max(top, bottom)
    }

    /// The circle's shade outside it: a background with colour (over land lighter than over the sea, as
    /// the areas say), a stipple in empty cells without (never inside a label or
    /// the cell beside it).
    static func shade(_ frame: inout Frame, _ c: LayerContext, _ style: MapStyle) {
        let cols = c.view.size.cols
        let background = StyleTable.shade(mode: style.mode, theme: style.theme)
        let landBackground = StyleTable.shade(mode: style.mode, theme: style.theme, overLand: true)
        let stippleRow = StyleTable.row(.shade)
        let stipple = Cell(
            glyph: style.ascii ? ":" : stippleRow?.stipple ?? ":",
            style: StyleTable.style(.plain, mode: style.mode, theme: style.theme))
        for row in 0..<c.view.size.rows {
            for col in 0..<cols where c.shade[row * cols + col] {
                if let background {
                    let overLand = isLand(c, col: col, row: row, mode: style.mode, theme: style.theme)
                    frame.setBackground(col: col, row: row, overLand ? landBackground ?? background : background)
                } else if frame[col, row].glyph == " ", (col + row) % 2 == 0, !c.labels.taken[row * cols + col] {
                    frame[col, row] = stipple
                }
            }
        }
    }

    /// True where the cell shows land in `mode`: an area other than water (the sea and cells with no
    /// tint are not).
    static func isLand(_ c: LayerContext, col: Int, row: Int, mode: ColorMode, theme: Theme) -> Bool {
        let i = row * c.view.size.cols + col
        let fill = c.fills[i]
        if fill != 0 {
            let role = StyleTable.role(ink: fill)
            return role != .feature(.water) && role != .feature(.lakeWater) && role != .feature(.sea)
                && StyleTable.fill(role, mode: mode, theme: theme) != nil
        }
        return false
    }

    /// The render's answers: labels with their features, the pick, the credits and each source's state.
    static func finish(_ c: LayerContext) -> MapRendering {
        let cols = c.view.size.cols
        let rows = c.view.size.rows
        let world = worldRows(c.transform)
        let all = c.sources?.features.all ?? []
        // The tints where nothing is drawn: land and sea, as the compositor shows them.
        let pick = Pick(
            cols: cols, rows: rows, lineTags: c.canvas.tags, buffer: c.pick,
            seaRows: c.showsSea ? world : 0..<0, sources: c.sources, transform: c.transform, imagery: c.imagery)
        let names = SourceNames.distinct(all.map { SourceNames.display($0.label) })
        var reports = zip(all, names).map { source, name in
            SourceReport(
                name: name, kind: source.kind, credits: source.credits, inView: false, detail: nil,
                status: SourceStatus())
        }
        for asked in c.report.asked where reports.indices.contains(asked.index) {
            reports[asked.index].inView = true
            reports[asked.index].detail = asked.detail
            reports[asked.index].status = asked.status
        }
        if let imagery = c.report.imagery { reports.append(imagery) }
        if let terrain = c.report.terrain { reports.append(terrain) }
        var rendering = MapRendering(
            placed: c.labels.labels, ascii: c.ascii, pick: pick, credits: c.report.credits, sources: reports,
            missing: c.report.missing, dataError: c.report.dataError)
        rendering.sources += c.report.overlays
        rendering.centerHeight = c.report.centerHeight
        rendering.missingDetail = c.report.missingDetail
        rendering.streetDataEnds = c.report.streetDataEnds
        rendering.streetDataInView = c.report.streetDataInView
        rendering.poisNamed = c.report.poisNamed
        rendering.poisOmitted = c.report.poisOmitted
        let signs = Set(c.labels.labels.filter { $0.role == .feature(.poi) }.map(\.text))
        rendering.shownPointKinds = NameKind.allCases.filter {
            $0.rawValue >= NameKind.food.rawValue && signs.contains(String(StyleTable.poiGlyph($0)))
        }
        return rendering
    }
}
