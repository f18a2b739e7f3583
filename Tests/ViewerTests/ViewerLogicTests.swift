import Foundation
import GeoCore
import Testing

@testable import MapRender
@testable import Viewer

@Suite("Keys, prompts and state")
struct ViewerLogicTests {
    func state(_ keys: String, zoom: Double = 5) throws -> ViewerState {
        try scripted(cols: 100, rows: 30, lat: 33.777328, lon: -84.397348, zoom: zoom, keys: keys)
    }

    @Test func zoomPromptSetsTheLevelExactly() throws {
        let s = try state("z14<Enter>", zoom: 3)
        #expect(s.view.zoom == 14)
        #expect(s.view.center == Coordinate(latitude: 33.777328, longitude: -84.397348))
        #expect(s.lastAction?.name == .setZoom && s.lastAction?.zoomBefore == 3 && s.lastAction?.zoomAfter == 14)
        #expect(s.lastAction?.fallback == false && s.lastAction?.zoomLevel?.requested == 14)
        #expect(try state("z12.5<Enter>").view.zoom == 12.5)
    }

    @Test func zoomAbove28ClampsAndSaysSo() throws {
        let s = try state("z31<Enter>")
        #expect(s.view.zoom == 28)
        #expect(s.message.contains("clamped to 28"))
        #expect(!s.messageIsError)
    }

    @Test(arguments: ["abc", "-3", "1e999", "", "nan", "inf", "0x10", String(repeating: "9", count: 10_000)])
    func invalidZoomLeavesTheViewAndShowsAnError(input: String) throws {
        let before = try state("")
        let s = try state("z" + input + "<Enter>")
        #expect(s.view == before.view)
        #expect(s.messageIsError)
        #expect(!s.message.isEmpty && !s.message.contains("\n"))
    }

    @Test(arguments: ["91,0", "abc", "", "1,2,3", "-91 5"])
    func invalidGoToLeavesTheView(input: String) throws {
        let before = try state("")
        let s = try state("g" + input + "<Enter>")
        #expect(s.view == before.view)
        #expect(s.messageIsError)
    }

    @Test func goToAndSearch() throws {
        let s = try state("g48.8566, 2.3522<Enter>")
        #expect(s.view.center == Coordinate(latitude: 48.8566, longitude: 2.3522))
        let hanoi = try state("/HANO<Enter>")
        #expect(abs(hanoi.view.center.latitude - 21.0245) < 1e-5)
        // Framed from its population (8 million: a 22.6 km radius), whatever the zoom was before.
        #expect(hanoi.view.zoom > 7 && hanoi.view.zoom < 10, "\(hanoi.view.zoom)")
        #expect(try state("/HANO<Enter>", zoom: 28).view.zoom == hanoi.view.zoom)
        #expect(hanoi.message.contains("Hanoi"))
        #expect(try state("/zzzzqqq<Enter>").messageIsError)
        let saoPaulo = try state("/sao paulo<Enter>")
        #expect(saoPaulo.message.contains("São Paulo"))
        // `g` takes a place's name as `--center` does: the first match, framed as `/` frames it.
        let named = try state("gHanoi<Enter>")
        #expect(named.view == hanoi.view && named.message == hanoi.message)
        #expect(try state("gzzzzqqq<Enter>").messageIsError)
    }

    @Test(arguments: [("500", 500.0), ("500m", 500), ("2km", 2000), ("1.5mi", 2414.016), ("800ft", 243.84)])
    func radiusPromptUnits(input: String, meters: Double) throws {
        let s = try state("r" + input + "<Enter>")
        #expect(abs((s.circle?.circle.radiusMeters ?? 0) - meters) < 1e-9)
    }

    @Test(arguments: ["0", "-5", "abc", "30000km", ""])
    func invalidRadiusIsRefused(input: String) throws {
        let s = try state("r" + input + "<Enter>")
        #expect(s.circle == nil)
        #expect(s.messageIsError)
    }

    @Test func escapeCancelsAndBackspaceEdits() throws {
        let cancelled = try state("z14<Esc>")
        #expect(cancelled.view.zoom == 5 && cancelled.prompt == nil)
        let edited = try state("z149<BS><Enter>")
        #expect(edited.view.zoom == 14)
    }

    @Test func circleToggleFitAndUndo() throws {
        var s = try state("c")
        #expect(s.circle?.circle.radiusMeters == 500)
        #expect(s.circle?.circle.center == s.view.center)
        s = try state("cf")
        let fitted = s.view.zoom
        let circle = try GeodesicCircle(
            center: Coordinate(latitude: 33.777328, longitude: -84.397348), radiusMeters: 500)
        #expect(fitted == (try CircleFit.zoom(for: circle, size: s.view.size)))
        #expect(fitted > 13 && fitted < 14)
        s = try state("cfu")
        #expect(s.view.zoom == 5)
        s = try state("cc")
        #expect(s.circle == nil)
        #expect(try state("f").messageIsError)
    }

    @Test func panMovesAQuarterOrAWholeView() throws {
        let before = try state("")
        let right = try state("l")
        let quarter = before.view.size.widthDots / 4
        let moved = right.view.dotPoint(for: before.view.center)
        #expect(abs(moved.x - (before.view.size.widthDots / 2 - quarter)) < 1e-6)
        let page = try state("L")
        let movedPage = page.view.dotPoint(for: before.view.center)
        #expect(abs(movedPage.x - (before.view.size.widthDots / 2 - before.view.size.widthDots)) < 1e-6)
    }

    @Test func inThenOutIsNotTheStart() throws {
        let s = try state("+-", zoom: 14)
        #expect(abs(s.view.zoom - (14 - log2(1.2))) < 0.001)
    }

    @Test func animationInterpolatesAndAKeyFinishesIt() throws {
        var s = try ViewerState(cols: 100, rows: 30, center: Coordinate(latitude: 0, longitude: 0), zoom: 3)
        s.update(.key(.char("+")))
        #expect(s.animation != nil)
        #expect(s.displayedView.zoom == 3)
        s.update(.tick(seconds: 0.125))
        #expect(s.displayedView.zoom > 3 && s.displayedView.zoom < s.view.zoom)
        let target = s.view.zoom
        s.update(.key(.char("+")))
        #expect(s.history.count == 2)
        #expect(s.history.last?.view.zoom == target)
        s.update(.tick(seconds: 1))
        #expect(s.animation == nil && s.displayedView == s.view)
    }

    @Test func resizeKeepsCenterAndZoom() throws {
        var s = try state("")
        let before = s.view
        s.update(.resize(cols: 80, rows: 24))
        #expect(s.view.center == before.center && s.view.zoom == before.zoom)
        #expect(s.view.size.cols == 80 && s.view.size.rows == 22)
    }

    @Test func wheelKeepsThePointUnderThePointer() throws {
        var s = try state("")
        let p = DotPoint(x: 21, y: 30)  // cell (10, 7)
        let before = s.view.coordinate(at: p)
        s.update(.mouse(.wheelUp(col: 10, row: 7)))
        let after = s.view.coordinate(at: p)
        #expect(abs(after.latitude - before.latitude) < 1e-9 && abs(after.longitude - before.longitude) < 1e-9)
        #expect(s.view.zoom > 5)
    }

    @Test func clickCentersThereAndOutsideTheMapDoesNothing() throws {
        var s = try state("")
        let target = s.view.coordinate(col: 10, row: 7)
        s.update(.mouse(.click(col: 10, row: 7)))
        #expect(abs(s.view.center.latitude - target.latitude) < 1e-9)
        #expect(abs(s.view.center.longitude - target.longitude) < 1e-9)
        let before = s.view
        s.update(.mouse(.click(col: 10, row: 29)))  // the status rows
        s.update(.mouse(.wheelUp(col: -3, row: 500)))
        #expect(s.view == before)
    }

    @Test func helpOverlayOpensAndCloses() throws {
        var s = try state("?")
        #expect(s.showHelp)
        let text = screen(s).text
        #expect(text.contains("termmap keys"))
        #expect(text.contains("zoom in: MapKit zoom button"))
        s.update(.key(.escape))
        #expect(!s.showHelp)
    }

    @Test func keymapDrivesHelpAndReadme() throws {
        // Every binding with a key is in the help: its own row, or one of four pans in a row of their
        // directions (a command for scripts alone, `<time-forward>`, is in `termmap help keys`).
        let help = Keymap.standard.helpLines
        let keyed = Keymap.standard.bindings.filter { !$0.keys.isEmpty }
        #expect(help.count == keyed.count + 1 - 2 * 3)
        for b in keyed {
            let row =
                help.first { $0.contains(b.help) }
                ?? help.first { line in
                    let words = b.help.split(separator: " ")
                    return line.contains(
                        "left, down, up, right "
                            + words.drop { !["left", "down", "up", "right"].contains(String($0)) }.dropFirst().joined(
                                separator: " "))
                        && line.hasPrefix(b.keys[0].label + " ") || line.contains(" \(b.keys[0].label) ")
                }
            #expect(row != nil, "\(b.command.name) is in the help")
        }
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/viewer.md"), encoding: .utf8)
        #expect(
            readme.contains(Keymap.standard.markdownTable),
            "docs/viewer.md key table is out of date: paste Keymap.standard.markdownTable")
        // Every command has a key.
        for command in Command.allCases { #expect(Keymap.standard.bindings.contains { $0.command == command }) }
    }

    @Test func effectsAreReturnedNotStored() throws {
        var s = try state("")
        #expect(s.update(.key(.char("+"))) == [])
        #expect(s.update(.key(.ctrlL)) == [.repaint])
        #expect(s.update(.key(.char("q"))) == [.quit])
        #expect(s.update(.key(.ctrlC)) == [.quit])
        // In a prompt Ctrl-C cancels the prompt, not the program.
        #expect(s.update(.key(.char("z"))) == [])
        #expect(s.update(.key(.ctrlC)) == [])
        #expect(s.prompt == nil && s.message == "cancelled")
        #expect(s.update(.idleTimeout(seconds: 600)) == [.quit])
        #expect(s.message == "idle for 10 min: goodbye")
    }

    @Test func keyScripts() {
        guard case .success(let keys) = KeyScript.parse("z14<Enter>c+<lt><Left>") else {
            Issue.record("valid script refused")
            return
        }
        #expect(
            keys
                == [.char("z"), .char("1"), .char("4"), .enter, .char("c"), .char("+"), .char("<"), .left].map {
                    .key($0)
                })
        if case .success = KeyScript.parse("<Bogus>") { Issue.record("bad key name accepted") }
        if case .success = KeyScript.parse("abc<Enter") { Issue.record("unclosed < accepted") }
    }

    /// Every command has one kebab-case name, which scripts take between `<` and `>`; a command pressed
    /// by name does what its key does, and a key name and a command name never clash.
    @Test func commandsHaveOneNameEach() throws {
        let names = Command.allCases.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(names.allSatisfy { $0.allSatisfy { $0.isLowercase || $0 == "-" } })
        #expect(Command.zoomIn.name == "zoom-in" && Command.toggleSeedOverlay.name == "toggle-seed-overlay")
        for name in Key.named.flatMap(\.names) { #expect(Command.named(name) == nil, "\(name)") }
        let script = try KeyScript.parse("<zoom-in><PAN-LEFT>z3<enter><fit-circle>").get()
        #expect(script.prefix(2) == [.command(.zoomIn), .command(.panLeft)])
        for (command, key) in [(Command.zoomIn, "+"), (.panLeft, "h"), (.world, "0"), (.toggleCircle, "c")] {
            var byName = try scripted(cols: 80, rows: 24, lat: 50, lon: 10, zoom: 5)
            var byKey = byName
            byName.update(.command(command))
            byKey.update(.key(.char(Character(key))))
            #expect(byName == byKey, "\(command.name)")
        }
        // A command is never typed into a prompt: the prompt is left first.
        var prompt = try scripted(cols: 80, rows: 24, lat: 50, lon: 10, zoom: 5, keys: "z")
        prompt.update(.command(.zoomIn))
        #expect(prompt.prompt == nil && prompt.view.zoom > 5)
    }

    /// Shift- and Ctrl-arrows pan a whole view, as J K L do (`H` is the hillshade's); `--keys` names them
    /// `<s-left>`, `<c-up>`.
    @Test func modifiedArrowsPanAWholeView() throws {
        for (key, letter) in [(Key.modifiedRight, "L"), (.modifiedUp, "K"), (.modifiedDown, "J")] {
            let start = try scripted(cols: 80, rows: 24, lat: 20, lon: 10, zoom: 5)
            var a = start
            var b = start
            a.update(.key(key))
            b.update(.key(.char(Character(letter))))
            #expect(a.view.center == b.view.center && a.view.center != start.view.center)
        }
        #expect(Key.named("s-left") == .modifiedLeft && Key.named("C-Up") == .modifiedUp)
    }

    /// `p` leaves the mouse to the terminal and takes it back, saying so.
    @Test func pTogglesTheMouse() throws {
        var s = try scripted(cols: 80, rows: 24, lat: 20, lon: 10, zoom: 5)
        #expect(s.mouseCaptured)
        #expect(
            s.update(.key(.char("p"))) == [.captureMouse(false)] && !s.mouseCaptured && s.message.contains("mouse off"))
        #expect(
            s.update(.key(.char("p"))) == [.captureMouse(true)] && s.mouseCaptured && s.message.contains("mouse on"))
    }

    /// Ctrl-Z suspends (the screen does it), or says why it cannot and changes nothing else.
    @Test func ctrlZSuspendsOrSaysWhyNot() throws {
        var s = try scripted(cols: 80, rows: 24, lat: 20, lon: 10, zoom: 5)
        let before = s.view
        #expect(s.update(.key(.ctrlZ)) == [.suspend])
        #expect(s.update(.command(.suspend)) == [.suspend])
        s.suspendRefusal = "not in kiosk mode (q leaves)"
        #expect(s.update(.key(.ctrlZ)) == [] && s.message == "Ctrl-Z: not in kiosk mode (q leaves)")
        #expect(s.view == before)
        #expect(Key.named("c-z") == .ctrlZ && Key.ctrlZ.scriptText == "<Ctrl-Z>")
        // Whatever is open stays open for `fg`, and a stop from outside is not a key that closes it.
        s.suspendRefusal = nil
        s.update(.key(.char("?")))
        #expect(s.showHelp && s.update(.key(.ctrlZ)) == [.suspend] && s.showHelp)
        #expect(s.update(.command(.suspend)) == [.suspend] && s.showHelp)
        s.update(.key(.escape))
        s.update(.key(.char("g")))
        #expect(s.prompt != nil && s.update(.command(.suspend)) == [.suspend] && s.prompt != nil)
    }

    /// The keymap is a value: a state given another one runs what it binds.
    @Test func theKeymapIsAValue() throws {
        var s = try scripted(cols: 80, rows: 24, lat: 50, lon: 10, zoom: 5)
        s.keymap = Keymap(bindings: [Binding(keys: [.char("x")], command: .zoomIn, help: "in")])
        s.update(.key(.char("x")))
        #expect(s.view.zoom > 5)
        s.update(.key(.char("+")))
        #expect(s.messageIsError && s.message.contains("no command on key +"))
    }

    @Test func jsonHasExactlyTheKeysAndMatchesTheModel() throws {
        let s = try scripted(cols: 100, rows: 32, lat: 33.777328, lon: -84.397348, zoom: 14, circle: 500, keys: "+")
        let text = try StateJSON.encode(s)
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        #expect(
            Set(object?.keys.map { $0 } ?? []) == [
                "center", "zoom", "terminal", "map", "region", "bounds", "metersPerDot", "circle", "lastAction",
                "message", "sources", "poisInView", "poisOmitted", "files", "ruler", "info", "route", "reach",
            ])
        #expect(object?["info"] is NSNull, "the what-is-here panel is closed")
        // Full precision: the printed numbers read back to the same Doubles.
        struct Numbers: Decodable {
            var zoom: Double
            var metersPerDot: Double
            var bounds: [String: Double]
        }
        let numbers = try JSONDecoder().decode(Numbers.self, from: Data(text.utf8))
        #expect(numbers.zoom == s.view.zoom)
        #expect(numbers.metersPerDot == s.view.metersPerDot)
        #expect(numbers.bounds["west"] == s.view.bounds.west)
        #expect(s.view.zoom != (s.view.zoom * 1e6).rounded() / 1e6)  // a zoom that needs every digit
        // Keys sorted, so that the text of equal states is equal.
        #expect(text.hasPrefix("{\"bounds\":{\"east\":"))
        let none = try StateJSON.encode(try scripted(cols: 40, rows: 10, lat: 0, lon: 0, zoom: 1))
        #expect(none.contains("\"circle\":null") && none.contains("\"lastAction\":null"))
        let last = object?["lastAction"] as? [String: Any]
        #expect(last?["name"] as? String == "zoomIn")
        #expect(last?["fallback"] as? Bool == false)
        let map = object?["map"] as? [String: Any]
        #expect(map?["dotsPerCell"] as? [Int] == [2, 4])
    }
}
