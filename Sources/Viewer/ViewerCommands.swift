import GeoCore
import MapData
import MapRender

/// One command, one row: its name (the `Command`, kebab-case in scripts, tours and `[keys]`), its
/// default keys, its one-line doc, the modes it works in, and what it does. The keymap, the help, the
/// man page, the completions and the key table of docs/viewer.md are made from these rows.
public struct CommandRow: Sendable {
    /// The command, and so its name.
    public let command: Command
    /// The keys that run it unless a configuration's `[keys]` says otherwise.
    public let keys: [Key]
    /// One line of help.
    public let help: String
    /// The modes it works in: the map's (reached once the open panels let a key through), or every mode
    /// (it runs whatever is open, before the mode's own keys).
    public let modes: Set<Mode>
    /// What it does to the state, and what it asks of the program; `places` answers names.
    let perform: @Sendable (inout ViewerState, PlaceSearching?) -> [Effect]

    /// A row whose command asks the program for something (or needs the gazetteer).
    init(
        _ command: Command, keys: [Key], _ help: String, modes: Set<Mode> = [.map],
        effects: @escaping @Sendable (inout ViewerState, PlaceSearching?) -> [Effect]
    ) {
        (self.command, self.keys, self.help, self.modes, self.perform) = (command, keys, help, modes, effects)
    }

    /// A row whose command only changes the state: what a command added from outside the viewer is.
    public init(
        _ command: Command, keys: [Key], _ help: String, does: @escaping @Sendable (inout ViewerState) -> Void
    ) {
        self.init(command, keys: keys, help) { state, _ in
            does(&state)
            return []
        }
    }

    /// True when it runs whatever is open (Ctrl-Z).
    public var worksInEveryMode: Bool { modes == Set(Mode.allCases) }
}

extension CommandRow: Equatable {
    /// Rows are equal when they say the same (a function cannot be compared; a command has one row).
    public static func == (a: CommandRow, b: CommandRow) -> Bool {
        a.command == b.command && a.keys == b.keys && a.help == b.help && a.modes == b.modes
    }
}

/// The viewer's commands, in help order.
public enum ViewerCommands {
    /// Every built-in command's row. A command from outside the viewer is added to a session's state
    /// (`ViewerState.add(_:)`), not here: the table stays a value.
    public static let rows: [CommandRow] = zoomAndCircle + panning + places + panels + program

    /// The row of a built-in command.
    public static func row(_ command: Command) -> CommandRow? { byCommand[command] }

    private static let byCommand = Dictionary(rows.map { ($0.command, $0) }, uniquingKeysWith: { a, _ in a })
    private static let quarter = 0.25

    private static let zoomAndCircle: [CommandRow] = [
        CommandRow(.zoomIn, keys: [.char("+"), .char("=")], "zoom in: MapKit zoom button, region ×0.4") {
            $0.zoomButton(.zoomIn)
        },
        CommandRow(.zoomOut, keys: [.char("-"), .char("_")], "zoom out: MapKit zoom button, region ×3") {
            $0.zoomButton(.zoomOut)
        },
        CommandRow(.zoomPrompt, keys: [.char("z")], "set the zoom level (0–28, fractions allowed)") {
            $0.prompt = Prompt(kind: .zoomLevel, text: "")
        },
        CommandRow(.toggleCircle, keys: [.char("c")], "inverted circle at the map center on/off") {
            $0.toggleCircle()
        },
        CommandRow(.radiusPrompt, keys: [.char("r")], "circle radius (500, 2km, 1.5mi, 800ft); turns it on") {
            $0.prompt = Prompt(kind: .radius, text: "")
        },
        CommandRow(.fitCircle, keys: [.char("f")], "fit the view to the circle") { $0.fitCircle() },
    ]

    private static let panning: [CommandRow] = [
        CommandRow(.panLeft, keys: [.left, .char("h")], "pan left a quarter view") { $0.pan(-quarter, 0) },
        CommandRow(.panDown, keys: [.down, .char("j")], "pan down a quarter view") { $0.pan(0, quarter) },
        CommandRow(.panUp, keys: [.up, .char("k")], "pan up a quarter view") { $0.pan(0, -quarter) },
        CommandRow(.panRight, keys: [.right, .char("l")], "pan right a quarter view") { $0.pan(quarter, 0) },
        CommandRow(.pageLeft, keys: [.modifiedLeft], "pan left a whole view") { $0.pan(-1, 0) },
        CommandRow(.pageDown, keys: [.char("J"), .modifiedDown], "pan down a whole view") { $0.pan(0, 1) },
        CommandRow(.pageUp, keys: [.char("K"), .modifiedUp], "pan up a whole view") { $0.pan(0, -1) },
        CommandRow(.pageRight, keys: [.char("L"), .modifiedRight], "pan right a whole view") { $0.pan(1, 0) },
    ]

    private static let places: [CommandRow] = [
        CommandRow(.goToPrompt, keys: [.char("g")], "go to a latitude, longitude, a pasted map link or a place's name")
        {
            $0.prompt = Prompt(kind: .goTo, text: "")
        },
        CommandRow(.search, keys: [.char("/")], "find a place or street (↑↓ choose a match, Enter goes)") {
            $0.prompt = Prompt(kind: .search, text: "")
        },
        CommandRow(.world, keys: [.char("0")], "whole world") { $0.world() },
        CommandRow(
            .routePoint, keys: [.char("d")],
            "directions: start at the crosshair, d again the end (Tab foot/bike/car, Esc clears)",
            effects: { state, places in
                state.routePoint(places: places)
                return []
            }),
        CommandRow(
            .directionsPanel, keys: [.char("D")],
            "the route's steps (↑↓ Enter centres one); no route: reach in 15 min (r: minutes)",
            effects: { state, places in
                state.directionsPanel(places: places)
                return []
            }),
        CommandRow(.undo, keys: [.char("u")], "undo the last view change") { $0.undo() },
        CommandRow(.redo, keys: [.char("U")], "redo what undo took back") { $0.redo() },
    ]

    private static let panels: [CommandRow] = [
        CommandRow(.toggleAnimations, keys: [.char("a")], "animations on/off") { $0.toggleAnimations() },
        CommandRow(.toggleGlyphs, keys: [.char("m")], "glyphs braille ↔ ASCII") { $0.toggleGlyphs() },
        CommandRow(.explain, keys: [.char("e")], "explain the last step (+ - z c r f): every number it computed") {
            $0.showExplain = true
        },
        CommandRow(
            .toggleSeedOverlay, keys: [.char("v")],
            "what the iOS code would draw on/off: its circle and its fit, dashed"
        ) { $0.toggleSeedOverlay() },
        CommandRow(.toggleGrid, keys: [.char("#")], "latitude/longitude grid on/off") { $0.toggleGrid() },
        CommandRow(.toggleImagery, keys: [.char("I")], "imagery (a raster tileset under the map) on/off") {
            $0.toggleImagery()
        },
        CommandRow(
            .toggleHillshade, keys: [.char("H")], "hillshade (the terrain's relief, lit from the north-west) on/off"
        ) {
            $0.toggleHillshade()
        },
        CommandRow(
            .followPosition, keys: [.char("F")],
            "follow the GPS position (--gps) or a played track; a pan stops"
        ) { $0.toggleFollow() },
        CommandRow(.recordTrack, keys: [.char("R")], "record the GPS track as GPX on/off (--gps-record)") {
            state, _ in state.toggleRecording()
        },
        CommandRow(
            .timeBar, keys: [.char("T")],
            "time bar: play timed tracks (Space, ←→ step, [ ] speed, t aligns starts)"
        ) { $0.toggleTimeBar() },
        CommandRow(.timeForward, keys: [], "step the time bar's clock forward (for scripts)") { $0.stepClock(1) },
        CommandRow(.timeBack, keys: [], "step the time bar's clock back (for scripts)") { $0.stepClock(-1) },
        CommandRow(
            .toggleLegend, keys: [.char("w")], "legend on/off: each kind of feature on screen and its look"
        ) { $0.showLegend.toggle() },
        CommandRow(
            .toggleLayers, keys: [.char("o")], "your files: each one's format and counts; 1–9 shows or hides one"
        ) { $0.toggleLayerList() },
        CommandRow(
            .whatIsHere, keys: [.char("i")],
            "what is here: the features under the crosshair (the centre), their ids and tags; ↑↓ scroll, Esc closes"
        ) {
            $0.showInfo.toggle()
            $0.infoScroll = 0
        },
        CommandRow(
            .toggleMouse, keys: [.char("p")], "mouse on/off: off, the terminal selects text (--no-mouse starts so)",
            effects: { state, _ in state.toggleMouse() }),
        CommandRow(
            .copyLink, keys: [.char("y")],
            "copy this place (OSC 52): 1 openstreetmap.org link, 2 geo: URI, 3 coordinates"
        ) { $0.openCopyMenu() },
        CommandRow(
            .ruler, keys: [.char("M")],
            "ruler: a vertex at the centre (near the first: closes it, with its area); Backspace takes one back, Esc ends it"
        ) { $0.rulerVertex() },
        CommandRow(
            .bookmark, keys: [.char("b")], "bookmark this view under a name (the place's own proposed)",
            effects: { state, places in state.askBookmarkName(places: places) }),
        CommandRow(.bookmarks, keys: [.char("'")], "your bookmarks: 1–9 goes there, d then 1–9 deletes one") {
            $0.openBookmarkList()
        },
        CommandRow(.resumeTour, keys: [.char("t")], "resume a tour a key paused (termmap --tour)") {
            $0.resumeTour()
        },
        CommandRow(.help, keys: [.char("?")], "this help") { $0.showHelp = true },
    ]

    private static let program: [CommandRow] = [
        CommandRow(.redraw, keys: [.ctrlL], "redraw the screen", effects: { _, _ in [.repaint] }),
        CommandRow(
            .suspend, keys: [.ctrlZ], "suspend to the shell (fg comes back)", modes: Set(Mode.allCases),
            effects: { state, _ in state.suspendOrSayWhyNot() }),
        CommandRow(.quit, keys: [.char("q"), .ctrlC], "quit", effects: { _, _ in [.quit] }),
    ]
}

/// What the commands do that takes more than a line.
extension ViewerState {
    /// Runs a command as its row says.
    mutating func perform(_ command: Command, places: PlaceSearching?) -> [Effect] {
        guard let row = row(command) else { return [] }
        return row.perform(&self, places)
    }

    /// The row of a command: a built-in one's, or one this session added.
    func row(_ command: Command) -> CommandRow? {
        ViewerCommands.row(command) ?? addedCommands.first { $0.command == command }
    }

    /// Adds a command from outside the viewer (a later capability, a test): its keys join the keymap
    /// (taken from a command that had them), its help line the help, and scripts reach it by name.
    public mutating func add(_ row: CommandRow) {
        guard ViewerCommands.row(row.command) == nil else { return }
        addedCommands.removeAll { $0.command == row.command }
        addedCommands.append(row)
        keymap = keymap.adding(row)
    }

    /// Every command this session knows: the built-in ones, then those added.
    public var commands: [Command] { Command.allCases + addedCommands.map(\.command) }

    mutating func toggleAnimations() {
        animationsEnabled.toggle()
        setMessage("animations " + (animationsEnabled ? "on" : "off"))
    }

    mutating func toggleGlyphs() {
        glyphMode = glyphMode == .braille ? .ascii : .braille
        setMessage("glyphs: " + glyphMode.rawValue)
    }

    mutating func toggleGrid() {
        showGrid.toggle()
        setMessage(showGrid ? "grid on" : "grid off")
    }

    mutating func toggleImagery() {
        guard let name = imageryName else {
            setMessage("no imagery: give a raster tileset with --tiles (see docs/imagery.md)")
            return
        }
        showImagery.toggle()
        setMessage("imagery \(name) " + (showImagery ? "on" : "off"))
    }

    mutating func toggleHillshade() {
        guard let name = terrainName else {
            setMessage("no terrain: give elevation tiles with --terrain (see docs/terrain.md)")
            return
        }
        showHillshade.toggle()
        setMessage("hillshade of \(name) " + (showHillshade ? "on" : "off"))
    }

    mutating func toggleSeedOverlay() {
        showSeedOverlay.toggle()
        setMessage(showSeedOverlay ? "seed overlay on: the iOS code's circle and fit, dashed" : "seed overlay off")
    }

    mutating func toggleLayerList() {
        showLayers.toggle()
        if showLayers && userLayers.isEmpty { setMessage("no files: give them on the command line (termmap FILE…)") }
    }

    mutating func toggleMouse() -> [Effect] {
        mouseCaptured.toggle()
        setMessage(
            mouseCaptured
                ? "mouse on: wheel zooms, click centres, drag moves"
                : "mouse off: the terminal selects text; p turns it back on")
        return [.captureMouse(mouseCaptured)]
    }

    mutating func openCopyMenu() {
        showCopyMenu = true
        setMessage("copy: 1 openstreetmap.org link · 2 geo: URI · 3 coordinates (Esc: nothing)")
    }

    mutating func resumeTour() {
        guard case .paused(let step, let steps) = tour else {
            setError("no tour to resume: start termmap with --tour")
            return
        }
        tour = .playing(step: step, steps: steps)
        setMessage("tour resumed")
    }

    /// The bookmark prompt, with the nearest place's name proposed where the gazetteer has one near.
    mutating func askBookmarkName(places: PlaceSearching?) -> [Effect] {
        guard bookmarks != nil else {
            setError(bookmarksOff)
            return []
        }
        prompt = Prompt(
            kind: .bookmarkName,
            text: places?.nearestName(to: view.center, within: view.region.span.latitudeDelta * 55_000) ?? "")
        return []
    }

    mutating func openBookmarkList() {
        guard let list = bookmarks else {
            setError(bookmarksOff)
            return
        }
        showBookmarks = true
        deletingBookmark = false
        if list.bookmarks.isEmpty { setMessage("no bookmarks yet: b keeps this view") }
    }

    /// `M`: starts a ruler at the centre, or adds the centre as its next vertex; within a cell of the
    /// first vertex on screen it closes onto it exactly.
    mutating func rulerVertex() {
        let c = view.center
        guard var r = ruler else {
            ruler = Ruler(start: c)
            setMessage("ruler from \(CoordinateFormat.hemispheres(c, decimals: 5)): move, then M adds a vertex")
            return
        }
        let first = view.transform.dot(for: r.vertices[0])
        let here = view.transform.dot(for: c)
        if r.vertices.count >= 3, abs(first.x - here.x) <= Double(ViewSize.dotsPerCellX),
            abs(first.y - here.y) <= Double(ViewSize.dotsPerCellY)
        {
            r.close()
        } else {
            r.add(c)
        }
        ruler = r
        sayRuler(r)
    }

    /// Suspends, or says on the message line why it cannot here.
    mutating func suspendOrSayWhyNot() -> [Effect] {
        guard let refusal = suspendRefusal else { return [.suspend] }
        setMessage("Ctrl-Z: \(refusal)")
        return []
    }
}
