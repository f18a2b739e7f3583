import GeoCore
import MapRender
import TestSupport
import Testing

@testable import Viewer

/// A command is one row: one added from outside the viewer (TestSupport's toy command) is in the
/// keymap, the help, scripts by name, and what `render --json` prints after it ran.
@Suite("A command added from outside")
struct CommandRowTests {
    static func state() throws -> ViewerState {
        var s = try ViewerState(cols: 80, rows: 24, center: Coordinate(latitude: 60.17, longitude: 24.94), zoom: 15)
        s.add(ToyCommand.row)
        return s
    }

    @Test func itsKeyRunsItAndRenderJSONShowsWhatItDid() throws {
        var s = try Self.state()
        #expect(s.keymap.command(for: .char("ä")) == ToyCommand.command)
        s.update(.key(.char("ä")))
        let json = try StateJSON.encode(s)
        #expect(json.contains("\"lat\":60.16952") || json.contains("\"lat\" : 60.16952"), "\(json.prefix(300))")
        #expect(abs(s.view.center.longitude - ToyCommand.senateSquare.longitude) < 1e-9)
    }

    @Test func scriptsReachItByNameAndTheHelpListsIt() throws {
        var s = try Self.state()
        let script = try KeyScript.parse("<toy-hop>", commands: s.commands).get()
        #expect(script == [.command(ToyCommand.command)])
        s.update(script[0].event)
        #expect(abs(s.view.center.latitude - ToyCommand.senateSquare.latitude) < 1e-9)
        // Unknown to a session that did not add it.
        #expect((try? KeyScript.parse("<toy-hop>").get()) == nil)
        #expect(
            s.keymap.helpLines.contains {
                $0.hasPrefix("ä") && $0.hasSuffix("hop to the Senate Square (a toy command)")
            })
        s.update(.key(.char("?")))
        var screen = Renderer.draw(s, sources: nil, options: RenderOptions(mode: .plain)).frame.text
        for _ in 0..<8 where !screen.contains("hop to the Senate Square") {
            s.update(.key(.char(" ")))
            screen = Renderer.draw(s, sources: nil, options: RenderOptions(mode: .plain)).frame.text
        }
        #expect(screen.contains("hop to the Senate Square"))
    }

    @Test func itCannotReplaceABuiltInCommandButTakesItsKeys() throws {
        var s = try Self.state()
        s.add(CommandRow(.zoomIn, keys: [.char("ö")], "not zoom") { _ in })
        #expect(s.keymap.command(for: .char("ö")) == nil)
        s.add(CommandRow(Command(rawValue: "toyZoom"), keys: [.char("+")], "toy zoom") { _ in })
        #expect(s.keymap.command(for: .char("+"))?.name == "toy-zoom")
        #expect(s.keymap.command(for: .char("=")) == .zoomIn)
    }
}
