import GeoCore
import MapData
import MapFormats
import Raster
import TestSupport
import Testing
import Viewer

@testable import MapRender

/// Imagery (issue 47) without a terminal: tiles made here (PNGs of known pixels in a PMTiles of tile
/// type PNG), sampled into half-cells, shown as cells in each colour mode.
struct ImageryTests {
    /// An imagery source of `tiles` (PNG bytes by tile), zooms `minZoom`…`maxZoom`.
    static func source(_ tiles: [TileID: [UInt8]], maxZoom: UInt8 = 6) throws -> ImagerySource {
        let sorted = tiles.map { (id: $0.key.pmtilesID, data: $0.value) }.sorted { $0.id < $1.id }
        let bytes = PMTilesWriter.archive(tiles: sorted, maxZoom: maxZoom, tileType: 2)
        return ImagerySource(archive: try PMTilesArchive(source: LocalFileSource(bytes: bytes)), label: "test")
    }

    /// A 256-pixel tile whose rows alternate `even` and `odd` colours (one pixel each).
    static func stripes(_ even: (UInt8, UInt8, UInt8), _ odd: (UInt8, UInt8, UInt8)) -> [UInt8] {
        var rgba: [UInt8] = []
        for y in 0..<256 {
            let c = y % 2 == 0 ? even : odd
            for _ in 0..<256 { rgba += [c.0, c.1, c.2, 255] }
        }
        return PNGWriter.png(width: 256, height: 256, rgba: rgba)
    }

    /// A view of `cols` × `rows` at `zoom`, centred on the world's centre.
    static func view(zoom: Double, cols: Int = 40, rows: Int = 12) throws -> MapView {
        try MapView(
            center: Coordinate(latitude: 0, longitude: 0), zoom: zoom, size: try ViewSize(cols: cols, rows: rows))
    }

    static func sample(_ source: ImagerySource, _ view: MapView) -> ImagerySampler.Sampled {
        ImagerySampler.sample(
            source, transform: view.transform, viewZoom: view.zoom, cols: view.size.cols, rows: view.size.rows)
    }

    static func rgb(_ v: UInt32) -> (UInt8, UInt8, UInt8) { ImageryLook.channels(v) }

    /// The tile zoom is the one whose pixel is nearest half a cell: zoom − 1 for 256-pixel tiles,
    /// within the tileset's zooms.
    @Test func tileZoomIsTheOneWhosePixelIsHalfACell() throws {
        let source = try Self.source([
            TileID(z: 0, x: 0, y: 0): PNGWriter.png(width: 256, height: 256, colour: (1, 2, 3))
        ])
        #expect(source.tileZoom(5) == 4)
        #expect(source.tileZoom(4.6) == 4)
        #expect(source.tileZoom(4.4) == 3)
        #expect(source.tileZoom(0.2) == 0)
        #expect(source.tileZoom(12) == 6)  // the tileset's deepest
    }

    /// At view zoom 1 the one tile of zoom 0 fills the world: every half-cell of the view is its colour,
    /// and the view lacks nothing.
    @Test func aLoadedTileIsDrawnInItsColour() throws {
        let zero = TileID(z: 0, x: 0, y: 0)
        let source = try Self.source([zero: PNGWriter.png(width: 256, height: 256, colour: (200, 120, 40))])
        source.load([zero])
        let sampled = Self.sample(source, try Self.view(zoom: 1))
        #expect(sampled.tileZoom == 0 && sampled.missing.isEmpty && sampled.drawn)
        #expect(sampled.halves.allSatisfy { $0 == 1 << 24 | 200 << 16 | 120 << 8 | 40 })
    }

    /// Stripes one pixel tall at a view whose half-cells are one pixel each: the upper half of every
    /// cell is the upper (even) row's colour, the lower the odd row's; as cells, `▀` in the upper
    /// colour over the lower (the half block's halves the right way up).
    @Test func upperHalfIsTheUpperPixelRow() throws {
        let zero = TileID(z: 0, x: 0, y: 0)
        let source = try Self.source([zero: Self.stripes((230, 20, 20), (20, 30, 230))], maxZoom: 0)
        source.load([zero])
        // Zoom 1: a dot is half a pixel, a half-cell 2 × 2 dots one pixel; the centre is a pixel corner.
        let view = try Self.view(zoom: 1, cols: 40, rows: 12)
        let sampled = Self.sample(source, view)
        for cell in 0..<(40 * 12) {
            #expect(Self.rgb(sampled.halves[2 * cell]) == (230, 20, 20))
            #expect(Self.rgb(sampled.halves[2 * cell + 1]) == (20, 30, 230))
        }
        for mode in [ColorMode.truecolor, .ansi256] {
            let cell = ImageryLook(mode: mode, theme: .dark).cell(
                upper: sampled.halves[0], lower: sampled.halves[1], col: 0, row: 0)
            #expect(cell.glyph == "▀")
            let (upper, lower) = (try #require(cell.style.foreground), try #require(cell.style.background))
            if mode == .truecolor {
                #expect(upper.rgb == (230, 20, 20) && lower.rgb == (20, 30, 230))
            } else {
                #expect(upper.index == PaletteQuantizer.nearestClose(230, 20, 20))
                #expect(lower.index == PaletteQuantizer.nearestClose(20, 30, 230))
            }
        }
    }

    /// The grid sits on the picture's own colour (a halo every ten degrees would hide it); the map's
    /// other dots on a halo.
    @Test func gridDotsSitOnThePicture() throws {
        let look = ImageryLook(mode: .truecolor, theme: .dark)
        let sand: UInt32 = 1 << 24 | 230 << 16 | 200 << 8 | 150
        let dots = Cell(glyph: "⡀", style: CellStyle(foreground: PaletteColor(240)))
        let grid = try #require(look.haloed(dots, upper: sand, lower: sand, faint: true).style.background)
        let road = try #require(look.haloed(dots, upper: sand, lower: sand).style.background)
        #expect(grid.rgb == (230, 200, 150))
        #expect(road.rgb != (230, 200, 150))
    }

    /// `I` shows and hides the imagery and names it; without one, it says how to have one.
    @Test func capitalIShowsAndHidesTheImagery() throws {
        var s = try ViewerState(cols: 80, rows: 24, center: Coordinate(latitude: 0, longitude: 0), zoom: 2)
        _ = s.update(.key(.char("I")))
        #expect(s.showImagery && s.message.hasPrefix("no imagery: give a raster tileset with --tiles"))
        s.imageryName = "aerial"
        _ = s.update(.key(.char("I")))
        #expect(!s.showImagery && s.message == "imagery aerial off")
        _ = s.update(.key(.char("I")))
        #expect(s.showImagery && s.message == "imagery aerial on")
    }

    /// With ASCII glyphs only (LANG=C) a cell is a blank of its halves' mean colour: no `▀` to show.
    @Test func asciiCellsAreBlanksOfTheMeanColour() throws {
        let look = ImageryLook(mode: .truecolor, theme: .dark, ascii: true)
        let cell = look.cell(
            upper: 1 << 24 | 200 << 16 | 100 << 8 | 50, lower: 1 << 24 | 100 << 16 | 51 << 8, col: 0, row: 0)
        let background = try #require(cell.style.background)
        #expect(cell.glyph == " " && background.rgb == (150, 76, 25))
    }

    /// A tile not loaded yet is drawn from its loaded ancestor, stretched (bilinear), and asked for.
    @Test func aMissingTileIsItsAncestorStretchedWhileItLoads() throws {
        let zero = TileID(z: 0, x: 0, y: 0)
        var rgba: [UInt8] = []
        for y in 0..<256 { for _ in 0..<256 { rgba += y < 128 ? [0, 200, 0, 255] : [0, 0, 200, 255] } }
        let source = try Self.source([zero: PNGWriter.png(width: 256, height: 256, rgba: rgba)])
        source.load([zero])
        let sampled = Self.sample(source, try Self.view(zoom: 4))
        #expect(sampled.tileZoom == 3)
        #expect(!sampled.missing.isEmpty && sampled.status.loading == sampled.missing.count)
        // The view's centre is the world's: green above, blue below, from the zoom-0 tile.
        let cols = 40
        let top = Self.rgb(sampled.halves[2 * (0 * cols + 20)])
        let bottom = Self.rgb(sampled.halves[2 * (11 * cols + 20) + 1])
        #expect(top == (0, 200, 0) && bottom == (0, 0, 200))
    }

    /// Tiles that are no image of a tile are skipped and counted, never asked for again: a cut PNG, an
    /// image of the wrong size, bytes of noise.
    @Test func badTilesAreSkippedAndCounted() throws {
        let good = PNGWriter.png(width: 256, height: 256, colour: (9, 9, 9))
        let tiles: [TileID: [UInt8]] = [
            TileID(z: 1, x: 0, y: 0): good,
            TileID(z: 1, x: 1, y: 0): Array(good.prefix(good.count / 2)),
            TileID(z: 1, x: 0, y: 1): PNGWriter.png(width: 100, height: 60, colour: (1, 1, 1)),
            TileID(z: 1, x: 1, y: 1): Array("RIFF\u{10}\0\0\0WEBPVP8 noise".utf8),
        ]
        let source = try Self.source(tiles)
        source.load(Array(tiles.keys))
        #expect(source.skipped.count == 3)
        #expect(source.image(TileID(z: 1, x: 0, y: 0))?.width == 256)
        for bad in tiles.keys where bad != TileID(z: 1, x: 0, y: 0) {
            #expect(source.hasTried(bad) && source.image(bad) == nil)
        }
        let sampled = Self.sample(source, try Self.view(zoom: 2))
        #expect(sampled.status.failed == 3 && sampled.status.cached == 1)
    }

    /// Each colour channel reaches the terminal: truecolour sends the three as they are.
    @Test func truecolourSendsEachChannel() {
        let style = CellStyle(foreground: PaletteColor(red: 12, green: 34, blue: 56))
        var out = TerminalEncoder()
        out.setPen(TerminalEncoder.pen(style, .truecolor))
        #expect(String(decoding: out.bytes, as: UTF8.self) == "\u{1B}[38;2;12;34;56m")
        var palette = TerminalEncoder()
        palette.setPen(TerminalEncoder.pen(style, .ansi256))
        #expect(
            String(decoding: palette.bytes, as: UTF8.self) == "\u{1B}[38;5;\(PaletteQuantizer.nearest(12, 34, 56))m")
    }

    /// COLORTERM says 24-bit colour; `--color truecolor` asks for it; NO_COLOR and `never` still win.
    @Test func truecolourIsChosenAsCOLORTERMSays() {
        func mode(_ option: String?, _ colorTerm: String?, noColor: Bool = false) -> ColorMode {
            ColorMode.choose(
                option: option, noColor: noColor, isTerminal: true, terminalColors: 256, colorTerm: colorTerm)
        }
        #expect(mode(nil, "truecolor") == .truecolor && mode(nil, "24bit") == .truecolor)
        #expect(mode(nil, nil) == .ansi256 && mode(nil, "yes") == .ansi256)
        #expect(mode("truecolor", nil) == .truecolor && mode("256", "truecolor") == .ansi256)
        #expect(mode(nil, "truecolor", noColor: true) == .monochrome && mode("never", "truecolor") == .monochrome)
    }

    /// The 256-colour quantiser's near search agrees with the full search: on 20,000 seeded colours,
    /// at most 1 in 1,000 differ, each by less than 2 ΔE.
    @Test func nearSearchIsTheFullSearch() {
        var random = SeededRandom(state: 47)
        var differ = 0
        for _ in 0..<20_000 {
            let (r, g, b) = (UInt8(random.below(256)), UInt8(random.below(256)), UInt8(random.below(256)))
            let (near, exact) = (PaletteQuantizer.nearestClose(r, g, b), PaletteQuantizer.nearestExact(r, g, b))
            guard near != exact else { continue }
            differ += 1
            let c = (r, g, b)
            #expect(
                PaletteQuantizer.deltaE(PaletteQuantizer.rgb(near), c)
                    - PaletteQuantizer.deltaE(PaletteQuantizer.rgb(exact), c) < 2)
        }
        #expect(differ <= 20)
    }

    /// Over imagery the map's text sits on a halo: dark under light pixels, light under dark ones, and
    /// its colour reads on it.
    @Test func textOverImageryHasAHaloThatReads() {
        let look = ImageryLook(mode: .ansi256, theme: .dark)
        let light: UInt32 = 1 << 24 | 240 << 16 | 240 << 8 | 220
        let dark: UInt32 = 1 << 24 | 10 << 16 | 20 << 8 | 30
        let text = Cell(glyph: "A", style: CellStyle(foreground: PaletteColor(252)))
        let onLight = look.haloed(text, upper: light, lower: light)
        let onDark = look.haloed(text, upper: dark, lower: dark)
        #expect(
            ImageryLook.luminance(onLight.style.background?.rgb ?? (255, 255, 255)) < ImageryLook.luminance(light) - 0.3
        )
        #expect(ImageryLook.luminance(onDark.style.background?.rgb ?? (0, 0, 0)) > ImageryLook.luminance(dark) + 0.15)
        for cell in [onLight, onDark] {
            let fg = ImageryLook.luminance(cell.style.foreground?.rgb ?? (0, 0, 0))
            let bg = ImageryLook.luminance(cell.style.background?.rgb ?? (0, 0, 0))
            #expect(abs(fg - bg) >= 0.3)
        }
    }
}
