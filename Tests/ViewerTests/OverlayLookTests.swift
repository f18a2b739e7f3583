import Foundation
import MapData
import MapFormats
import Raster
import Testing

@testable import MapRender

/// The user's layers look like nothing of the map's, in every theme and colour mode: their looks (the
/// colour as the terminal shows it, bold, underline) are none of the map's classes' or names', nor each
/// other's; in 256 colours their hues stand far from every colour the map uses; their ASCII markers are
/// no glyph the map draws.
@Suite("The user's layers stand out")
struct OverlayLookTests {
    /// The roles drawn by the map itself (its classes and names), not the tools over it (the circle, the
    /// seeds' picture) nor the screen's lines.
    static let mapRoles: [StyleRole] = StyleRole.allCases.filter {
        switch $0 {
        case .overlay, .userColor, .circleOutline, .seedOverlay, .status, .credit, .message, .error, .prompt, .help,
            .attribution, .shade, .shadeOverLand, .plain:
            return false
        default: return true
        }
    }

    /// How a role's text or dots show in `mode`: the colour the terminal shows (8 colours show the
    /// bright ones as bold plain ones), bold, underline, reverse.
    static func look(_ role: StyleRole, _ mode: ColorMode, _ theme: Theme) -> String {
        let s = StyleTable.style(role, mode: mode, theme: theme)
        var color = s.foreground.map { Int($0.index) } ?? -1
        var bold = s.bold
        if mode == .ansi8, color >= 8, color < 16 {
            color -= 8
            bold = true
        }
        // Bold is how 8 colours show bright ones, and a terminal may show bold as bright: it tells
        // nothing apart on its own there.
        return "\(color) \(mode == .ansi8 || mode == .ansi16 ? "" : "\(bold)") \(s.underline) \(s.reverse)"
    }

    static let modes: [ColorMode] = [.monochrome, .ansi8, .ansi16, .ansi256]

    @Test(arguments: Theme.allCases)
    func looksAreTheirOwn(theme: Theme) {
        for mode in Self.modes {
            let map = Set(Self.mapRoles.map { Self.look($0, mode, theme) })
            var mine: Set<String> = []
            for n in 0..<StyleTable.overlayLooks {
                let look = Self.look(.overlay(n), mode, theme)
                #expect(!map.contains(look), "look \(n) in \(mode) \(theme): \(look) is a map class's")
                if mode != .monochrome {
                    #expect(!mine.contains(look), "look \(n) in \(mode) \(theme) repeats an earlier look")
                }
                mine.insert(look)
            }
        }
    }

    /// ΔE (CIE 1976) between two xterm palette entries.
    static func deltaE(_ a: UInt8, _ b: UInt8) -> Double {
        PaletteQuantizer.deltaE(PaletteQuantizer.rgb(a), PaletteQuantizer.rgb(b))
    }

    /// In 256 colours a file's lines are at least ΔE 30 from every colour of the map's (a pink track
    /// among salmon footpaths was ΔE 26), its areas' tints at least 12 (a dark tint is near the map's
    /// dark ones, and its outline says whose it is).
    @Test(arguments: Theme.allCases)
    func hundredsOfColoursKeepAFileFarFromTheMap(theme: Theme) {
        var used: Set<UInt8> = []
        for role in Self.mapRoles {
            if let f = StyleTable.style(role, mode: .ansi256, theme: theme).foreground { used.insert(f.index) }
            if let f = StyleTable.fill(role, mode: .ansi256, theme: theme) { used.insert(f.index) }
        }
        for n in 0..<StyleTable.overlayLooks {
            for (color, least) in [
                (StyleTable.style(.overlay(n), mode: .ansi256, theme: theme).foreground, 30.0),
                (StyleTable.fill(.overlay(n), mode: .ansi256, theme: theme), 12),
            ] {
                guard let c = color?.index else { continue }
                let nearest = used.map { Self.deltaE(c, $0) }.min() ?? 100
                #expect(nearest >= least, "look \(n) \(theme): colour \(c) is ΔE \(nearest) from the map's")
            }
        }
    }

    /// A route (issue 46) looks like no class of the map's and no file's in any colour mode, and in 256
    /// colours stands ΔE 30 from every colour of the map's and 20 from the files'.
    @Test(arguments: Theme.allCases)
    func aRouteLooksLikeNothingOfTheMap(theme: Theme) {
        for mode in [ColorMode.ansi8, .ansi16, .ansi256] {
            let map = Set(Self.mapRoles.filter { $0 != .route }.map { Self.look($0, mode, theme) })
            let look = Self.look(.route, mode, theme)
            #expect(!map.contains(look), "the route in \(mode) \(theme): \(look) is a map class's")
            for n in 0..<StyleTable.overlayLooks {
                #expect(
                    look != Self.look(.overlay(n), mode, theme), "the route in \(mode) \(theme) is file look \(n)'s")
            }
        }
        var used: Set<UInt8> = []
        for role in Self.mapRoles where role != .route {
            if let f = StyleTable.style(role, mode: .ansi256, theme: theme).foreground { used.insert(f.index) }
            if let f = StyleTable.fill(role, mode: .ansi256, theme: theme) { used.insert(f.index) }
        }
        let files = (0..<StyleTable.overlayLooks).compactMap {
            StyleTable.style(.overlay($0), mode: .ansi256, theme: theme).foreground?.index
        }
        guard let c = StyleTable.style(.route, mode: .ansi256, theme: theme).foreground?.index else {
            Issue.record("the route has no colour")
            return
        }
        let nearestMap = used.map { Self.deltaE(c, $0) }.min() ?? 100
        let nearestFile = files.map { Self.deltaE(c, $0) }.min() ?? 100
        #expect(
            nearestMap >= 30 && nearestFile >= 20, "route \(c) \(theme): ΔE \(nearestMap) map, \(nearestFile) files")
    }

    @Test func asciiMarkersAreNoGlyphOfTheMap() {
        var mapGlyphs = Set((0...255).map { Character(AsciiGlyphs.glyph(UInt8($0))) })
        for role in Self.mapRoles {
            if let s = StyleTable.stipple(role, ascii: true) { mapGlyphs.insert(Character(s.glyph)) }
        }
        mapGlyphs.formUnion(["*", ":"])
        for kind in NameKind.allCases { mapGlyphs.insert(StyleTable.poiGlyph(kind)) }
        let markers = (0..<StyleTable.overlayLooks).map { StyleTable.overlayMarker($0, ascii: true) }
        #expect(Set(markers).count == markers.count)
        for m in markers { #expect(!mapGlyphs.contains(m), "marker \(m) is a glyph of the map's") }
    }
}
