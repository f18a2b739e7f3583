import Foundation
import GeoCore
import Raster
import Testing

@testable import Viewer

/// The faults a new user hit (the cartography and interaction issue, section 3), one test each: every
/// test here fails without its fix.
@Suite("Faults a new user hit")
struct NewUserFaultTests {
    func state(_ keys: String, cols: Int = 100, rows: Int = 30, zoom: Double = 5) throws -> ViewerState {
        try scripted(cols: cols, rows: rows, lat: 48.8584, lon: 2.2945, zoom: zoom, keys: keys)
    }

    /// 1. A key that closes the help does nothing else: `+` does not zoom, `q` does not quit.
    @Test func aKeyThatClosesTheHelpDoesNothingElse() throws {
        var s = try state("?")
        let view = s.view
        #expect(s.update(.key(.char("+"))).isEmpty)
        #expect(!s.showHelp && s.view == view)
        s.update(.key(.char("?")))
        #expect(s.update(.key(.char("q"))).isEmpty, "q closed the help and quit")
        #expect(!s.showHelp)
        #expect(s.update(.key(.char("q"))) == [.quit])
    }

    /// 7 (help). At 80×24 the help does not fit at once: it says so and Space shows the rest, `q quit`
    /// included; at 100×40 it fits on one page.
    @Test func theHelpSaysWhenMoreFollows() throws {
        var s = try state("?", cols: 80, rows: 24)
        let first = Renderer.render(s, sources: nil, options: RenderOptions(mode: .plain)).text
        #expect(first.contains("page 1 of 2") && first.contains("Space: more"))
        #expect(!first.contains("Ctrl-C"), "the quit line is on the second page")
        s.update(.key(.char(" ")))
        #expect(s.showHelp)
        let second = Renderer.render(s, sources: nil, options: RenderOptions(mode: .plain)).text
        #expect(second.contains("page 2 of 2") && second.contains("Ctrl-C  quit"))
        s.update(.key(.char(" ")))
        #expect(!s.showHelp)
        let big = Renderer.render(try state("?", cols: 100, rows: 40), sources: nil, options: RenderOptions(mode: .plain))
        #expect(big.text.contains("any key closes") && big.text.contains("Ctrl-C  quit") && !big.text.contains("page 1"))
    }

    /// 6. Undo says what it undid.
    @Test func undoSaysWhatItUndid() throws {
        let panned = try state("lu")
        #expect(panned.message.hasPrefix("undo pan: back to 48.85840°N 2.29450°E"), "\(panned.message)")
        let zoomed = try state("+u")
        #expect(zoomed.message.hasPrefix("undo zoom in: back to zoom 5.00 (from"), "\(zoomed.message)")
        #expect(try state("z9<Enter>u").message.hasPrefix("undo zoom level: back to zoom 5.00 (from 9.00)"))
    }

    /// 11. The help and the messages speak of what a key does, not of the project's sources.
    @Test func theHelpSpeaksTheUsersWords() throws {
        for line in Keymap.helpLines { #expect(!line.contains("seed"), "\(line)") }
        #expect(!(try state("z31<Enter>")).message.contains("seed"))
    }
}
