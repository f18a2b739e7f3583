import GeoCore
import MapData
import MapFormats
import Raster
import Testing

@testable import MapRender
@testable import Viewer

/// Every colour mode, in both glyph sets, tells the street-level class families apart: for each pair of
/// families, the cells of their classes differ in glyph, colour or attribute as the terminal shows them.
@Suite("Class families read apart in every mode")
struct ClassFamilyLookTests {
    static let families: [(name: String, classes: [FeatureClass])] = [
        ("water", [.sea, .water, .river, .stream]),
        ("parks", [.park, .wood]),
        ("buildings", [.building]),
        ("major roads", [.motorway, .trunk, .primary, .secondary]),
        ("minor roads", [.tertiary, .minorRoad, .serviceRoad]),
        ("paths", [.path]),
        ("rail", [.rail, .tram]),
    ]

    /// What tells a cell of class `c` in `mode`: with colour, its colour as the terminal shows it (an
    /// area's background, else its stipple's colour; a line's; 8 colours show a bright colour as its
    /// plain one, bold or not); without, its glyph (an area's stipple and its density, a line's dot
    /// pattern and width) and attributes.
    static func look(_ c: FeatureClass, _ mode: ColorMode, ascii: Bool) -> String {
        if mode.hasColor { return colour(c, mode) }
        return glyph(c, mode, ascii: ascii)
    }

    static func colour(_ c: FeatureClass, _ mode: ColorMode) -> String {
        let role = StyleRole.feature(c)
        func shown(_ color: PaletteColor?) -> String {
            guard let color else { return "-" }
            return String(mode == .ansi8 && color.index >= 8 && color.index < 16 ? color.index - 8 : color.index)
        }
        if c.isArea, let fill = StyleTable.fill(role, mode: mode) { return "background \(shown(fill))" }
        return "foreground \(shown(StyleTable.style(role, mode: mode).foreground))"
    }

    static func glyph(_ c: FeatureClass, _ mode: ColorMode, ascii: Bool) -> String {
        let role = StyleRole.feature(c)
        guard let row = StyleTable.row(role) else { return "none" }
        let style = StyleTable.style(role, mode: mode)
        func shown(_ color: PaletteColor?) -> String {
            guard let color, mode.hasColor else { return "-" }
            return String(mode == .ansi8 && color.index >= 8 && color.index < 16 ? color.index - 8 : color.index)
        }
        let attributes = mode == .plain ? "" : "\(mode == .ansi8 ? false : style.bold)\(style.reverse)"
        if c.isArea {
            if let fill = StyleTable.fill(role, mode: mode) { return "area bg \(shown(fill))" }
            let s = StyleTable.stipple(role, ascii: ascii)
            return
                "area \(s.map { "\($0.glyph) \($0.cols)x\($0.rows)" } ?? "nothing") fg \(shown(style.foreground)) \(attributes)"
        }
        let wide = row.wideFromZoom <= 15
        return
            "line \(row.dotEvery)/\(row.dashOn) \(wide ? "wide" : "thin") fg \(shown(style.foreground)) \(attributes)"
    }

    @Test(arguments: ColorMode.allCases, [false, true])
    func everyPairOfFamiliesDiffers(mode: ColorMode, ascii: Bool) {
        for (i, a) in Self.families.enumerated() {
            for b in Self.families[(i + 1)...] {
                for ca in a.classes {
                    for cb in b.classes {
                        let (la, lb) = (Self.look(ca, mode, ascii: ascii), Self.look(cb, mode, ascii: ascii))
                        #expect(
                            la != lb,
                            "\(mode) \(ascii ? "ASCII" : "braille"): \(ca) (\(a.name)) and \(cb) (\(b.name)) both \(la)"
                        )
                    }
                }
            }
        }
    }

    /// A stipple in ASCII is ASCII.
    @Test func asciiStipplesAreASCII() {
        for c in FeatureClass.allCases {
            if let s = StyleTable.stipple(.feature(c), ascii: true) { #expect(s.glyph.isASCII, "\(c): \(s.glyph)") }
        }
    }

    /// Without colour the families read apart on a real street view (Helsinki at zoom 16, 200 × 60): for
    /// every pair, the glyphs of their cells (the pick says whose each cell is; blanks say nothing) share
    /// at most 35 % (histogram intersection of the two glyph distributions), in braille and in ASCII; and
    /// the sea has a stipple the land has not (the world at zoom 2).
    @Test(arguments: [false, true])
    func familiesReadApartWithoutColour(ascii: Bool) throws {
        var s = try ViewerState(
            cols: 200, rows: 62, center: Coordinate(latitude: 60.1699, longitude: 24.9384), zoom: 16)
        s.glyphMode = ascii ? .ascii : .braille
        let screen = Renderer.draw(s, sources: bundledCitySources, options: RenderOptions(mode: .plain))
        let map = try #require(screen.map)
        var family: [String: String] = [:]
        for f in Self.families { for c in f.classes { family[StyleTable.className(c)] = f.name } }
        var glyphs: [String: [Unicode.Scalar: Double]] = [:]
        for row in 0..<60 {
            for col in 0..<200 {
                let glyph = screen.frame[col, row].glyph
                guard glyph != " ", let picked = map.pick.feature(col: col, row: row),
                    let name = family[picked.className]
                else { continue }
                glyphs[name, default: [:]][glyph, default: 0] += 1
            }
        }
        #expect(glyphs.count == Self.families.count, "\(glyphs.keys.sorted())")
        let names = glyphs.keys.sorted()
        for (i, a) in names.enumerated() {
            for b in names[(i + 1)...] {
                let (ga, gb) = (glyphs[a] ?? [:], glyphs[b] ?? [:])
                let (na, nb) = (ga.values.reduce(0, +), gb.values.reduce(0, +))
                let shared = Set(ga.keys).union(gb.keys).reduce(0.0) {
                    $0 + min((ga[$1] ?? 0) / na, (gb[$1] ?? 0) / nb)
                }
                #expect(shared <= 0.35, "\(ascii ? "ASCII" : "braille"): \(a) and \(b) share \(shared)")
            }
        }
        var world = try ViewerState(cols: 100, rows: 30, center: Coordinate(latitude: 0, longitude: -30), zoom: 2)
        world.glyphMode = ascii ? .ascii : .braille
        let w = Renderer.draw(world, sources: bundledSources, options: RenderOptions(mode: .plain))
        let wmap = try #require(w.map)
        var seaStipple = 0
        var landStipple = 0
        for row in 0..<28 {
            for col in 0..<100 where w.frame[col, row].glyph == "~" {
                if wmap.pick.area(col: col, row: row)?.className == StyleTable.className(.lakeWater) {
                    seaStipple += 1
                } else {
                    landStipple += 1
                }
            }
        }
        #expect(seaStipple > 20 && landStipple == 0, "sea \(seaStipple), land \(landStipple)")
    }
}
