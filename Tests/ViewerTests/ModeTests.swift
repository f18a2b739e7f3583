import GeoCore
import Testing

@testable import Viewer

/// Modes and the command table: a key's meaning is looked up in the open modes, topmost first, then in
/// the map's keymap; a command is one row.
@Suite("Modes and commands")
struct ModeTests {
    static func state() throws -> ViewerState {
        try ViewerState(cols: 80, rows: 24, center: Coordinate(latitude: 60.17, longitude: 24.94), zoom: 12)
    }

    @Test func theOpenModesAreAStackWithTheMapLast() throws {
        var s = try Self.state()
        #expect(s.modes == [.map] && s.mode == .map)
        s.update(.key(.char("i")))
        s.update(.key(.char("M")))
        #expect(s.modes == [.info, .ruler, .map])
        s.update(.key(.char("z")))
        #expect(s.mode == .prompt && s.modes == [.prompt, .info, .ruler, .map])
    }

    @Test func aKeyMeansWhatTheTopmostModeThatTakesItSays() throws {
        var s = try Self.state()
        s.update(.key(.char("i")))
        let center = s.view.center
        // ↑ scrolls the panel in the info mode; k, which it lets through, pans the map.
        s.update(.key(.down))
        #expect(s.infoScroll == 1 && s.view.center == center)
        s.update(.key(.char("k")))
        #expect(s.view.center != center && s.showInfo)
        // Esc: the info mode takes it before the ruler below it.
        s.update(.key(.char("M")))
        s.update(.key(.escape))
        #expect(!s.showInfo && s.ruler != nil)
        s.update(.key(.escape))
        #expect(s.ruler == nil && s.modes == [.map])
    }

    @Test func aModalModeTakesEveryKey() throws {
        var s = try Self.state()
        s.update(.key(.char("?")))
        #expect(s.mode == .help)
        let zoom = s.view.zoom
        s.update(.key(.char("+")))
        #expect(s.view.zoom == zoom && !s.showHelp)
    }

    @Test func suspendWorksInEveryModeAndLeavesItOpen() throws {
        var s = try Self.state()
        s.update(.key(.char("g")))
        #expect(s.update(.key(.ctrlZ)) == [.suspend])
        #expect(s.mode == .prompt)
        #expect(ViewerCommands.row(.suspend)?.worksInEveryMode == true)
        #expect(ViewerCommands.row(.zoomIn)?.modes == [.map])
    }

    @Test func everyCommandIsOneRowAndTheKeymapIsMadeFromTheRows() {
        #expect(
            ViewerCommands.rows.map(\.command).sorted { $0.rawValue < $1.rawValue }
                == Command.allCases.sorted { $0.rawValue < $1.rawValue })
        #expect(Keymap.standard.bindings.map(\.command) == ViewerCommands.rows.map(\.command))
        #expect(Keymap.standard.bindings.map(\.help) == ViewerCommands.rows.map(\.help))
    }

    @Test func updateAsksTheStateNotTheRendererForTheHelpsPages() throws {
        var s = try ViewerState(cols: 80, rows: 10, center: Coordinate(latitude: 0, longitude: 0), zoom: 3)
        #expect(s.helpLayout.pages > 1)
        s.update(.key(.char("?")))
        for _ in 0..<(s.helpLayout.pages - 1) { s.update(.key(.char(" "))) }
        #expect(s.showHelp && s.helpPage == s.helpLayout.pages - 1)
        s.update(.key(.char(" ")))
        #expect(!s.showHelp)
    }
}
