import Foundation
import MapFormats
import Raster
import Testing

@testable import MapRender
@testable import Viewer

/// Both themes read on their terminal's background and on the land and sea tints they draw: every
/// line and label keeps a contrast ratio (WCAG 2.1 relative luminance, over the xterm 256-colour
/// palette's published RGB values) of at least 3:1 against each background it can lie on.
@Suite("Themes")
struct ThemeTests {
    /// xterm's palette: the 16 system colours (its defaults), the 6×6×6 cube, the 24 greys.
    static func rgb(_ i: UInt8) -> (Double, Double, Double) {
        let system: [(Double, Double, Double)] = [
            (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205),
            (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255),
            (0, 255, 255), (255, 255, 255),
        ]
        if i < 16 { return system[Int(i)] }
        if i < 232 {
            let levels: [Double] = [0, 95, 135, 175, 215, 255]
            let n = Int(i) - 16
            return (levels[n / 36], levels[n / 6 % 6], levels[n % 6])
        }
        let v = Double(8 + 10 * (Int(i) - 232))
        return (v, v, v)
    }

    /// WCAG 2.1 relative luminance.
    static func luminance(_ c: (Double, Double, Double)) -> Double {
        func channel(_ v: Double) -> Double {
            let s = v / 255
            return s <= 0.03928 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channel(c.0) + 0.7152 * channel(c.1) + 0.0722 * channel(c.2)
    }

    static func contrast(_ a: UInt8, _ b: UInt8) -> Double {
        let (la, lb) = (luminance(rgb(a)), luminance(rgb(b)))
        return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
    }

    /// Decorations drawn faint on purpose, the tints themselves, and buildings (dim blocks by design).
    static let faint: Set<StyleRole> = [.grid, .edge, .feature(.land), .feature(.lakeWater), .feature(.building)]

    @Test(arguments: Theme.allCases)
    func everyLineAndLabelReadsOnEveryBackground(theme: Theme) throws {
        // The terminal's own background (black or white), the land's tint and the sea's.
        let land = try #require(StyleTable.fill(.feature(.land), mode: .ansi256, theme: theme)).index
        // The dark sea is the terminal's own background (black here).
        let sea = StyleTable.sea(mode: .ansi256, theme: theme)?.index ?? 16
        #expect((StyleTable.sea(mode: .ansi256, theme: theme) == nil) == (theme == .dark))
        let backgrounds: [UInt8] = [theme == .dark ? 16 : 231, land, sea]
        // Land and sea differ at a glance: in hue if not in lightness (pale yellow and pale cyan).
        let (a, b) = (Self.rgb(land), Self.rgb(sea))
        #expect(((a.0 - b.0) * (a.0 - b.0) + (a.1 - b.1) * (a.1 - b.1) + (a.2 - b.2) * (a.2 - b.2)).squareRoot() >= 40)
        // The user's own colours (simplestyle) are the user's choice.
        for role in StyleRole.allCases where !Self.faint.contains(role) {
            if case .userColor = role { continue }
            guard let row = StyleTable.row(role), !row.reverse else { continue }
            let fg = try #require(StyleTable.style(role, mode: .ansi256, theme: theme).foreground).index
            for bg in backgrounds {
                #expect(Self.contrast(fg, bg) >= 3, "\(theme) \(role): colour \(fg) on \(bg)")
            }
        }
    }

    /// The light theme draws its own colours: pale land, no white text, the lavender shade.
    @Test func lightThemeFrame() throws {
        var s = try scripted(cols: 100, rows: 30, lat: 37.8, lon: -122.4, zoom: 10, circle: 5000)
        s.theme = .light
        let ansi = AnsiWriter.text(
            Renderer.render(s, sources: bundledSources, options: RenderOptions(mode: .ansi256)), mode: .ansi256)
        #expect(ansi.contains("48;5;230") && ansi.contains("48;5;189"))
        #expect(!ansi.contains("38;5;231") && !ansi.contains("48;5;235"))
        s.theme = .dark
        let dark = AnsiWriter.text(
            Renderer.render(s, sources: bundledSources, options: RenderOptions(mode: .ansi256)), mode: .ansi256)
        #expect(dark.contains("48;5;235") && dark.contains("48;5;17") && !dark.contains("48;5;230"))
    }

    /// In 16 colours (xterm's values) no name sits within 1.5:1 of a fill it can lie on (an area's
    /// background, or the terminal's own: black, white for the light theme), and no line within 1.5:1 of
    /// the terminal's background (grey names on grey buildings, yellow motorways on white).
    @Test(arguments: Theme.allCases)
    func sixteenColoursKeepNamesOffTheirFills(theme: Theme) {
        let terminal: UInt8 = theme == .dark ? 0 : 15
        let areas = FeatureClass.allCases.compactMap { StyleTable.fill(.feature($0), mode: .ansi16, theme: theme) }
            .map(\.index)
        let names: [StyleRole] = [
            .gridLabel, .cityLabel, .capitalLabel, .streetLabel, .placeLabel, .poiLabel, .feature(.poi),
        ]
        var low: [String] = []
        for role in names {
            guard let fg = StyleTable.style(role, mode: .ansi16, theme: theme).foreground?.index else { continue }
            for bg in areas + [terminal] where Self.contrast(fg, bg) < 1.5 {
                low.append("\(role) \(fg) on \(bg): \(Self.contrast(fg, bg))")
            }
        }
        for c in FeatureClass.allCases where StyleTable.fill(.feature(c), mode: .ansi16, theme: theme) == nil {
            guard c != .land, let fg = StyleTable.style(.feature(c), mode: .ansi16, theme: theme).foreground?.index
            else { continue }
            if Self.contrast(fg, terminal) < 1.5 { low.append("\(c) line \(fg) on \(terminal)") }
        }
        #expect(low.isEmpty, "\(low)")
    }
}
