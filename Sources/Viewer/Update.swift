import FoundationEssentials
import GeoCore
import Glibc
import MapData
import MapRender
import Support

/// A mouse event on a cell.
public enum MouseEvent: Equatable, Sendable {
    case wheelUp(col: Int, row: Int)
    case wheelDown(col: Int, row: Int)
    case click(col: Int, row: Int)
    /// The pointer moved `dx` columns and `dy` rows with the button down: the map follows it.
    case drag(dx: Int, dy: Int)
}

/// Everything that can happen to the viewer.
public enum InputEvent: Equatable, Sendable {
    case key(Key)
    /// Something the program around the viewer could not do, said on the message line (a bookmarks
    /// file it could not write).
    case problem(String)
    /// A command by its name (a script's `<zoom-in>`): as its key would, whatever key the keymap binds.
    case command(Command)
    case mouse(MouseEvent)
    case resize(cols: Int, rows: Int)
    /// Time passes (animations advance).
    case tick(seconds: Double)
    /// No input for `seconds` (the kiosk's idle timeout ran out).
    case idleTimeout(seconds: Double)
    /// A frame was drawn, and its view lacked these tiles and levels of detail of the user's files (the
    /// render reports, the update asks).
    case rendered(
        missing: [TileBatch], streetDataEnds: Bool = false, streetDataInView: Bool = true, infoScrollLimit: Int? = nil,
        detail: [DetailRequest] = [])
    /// A level of detail a frame lacked has been made (in the background): the next frame draws it.
    case detailPrepared(DetailRequest)
    /// Tiles a load asked for have arrived (or could not be read: the next frame counts them).
    case tilesArrived(TileBatch)
    /// A file of the user's has been read, or a stream has new features: its layer shows them.
    case userFile(UserFileUpdate)
    /// The bookmarks file as written after a change (with what other viewers kept meanwhile).
    case bookmarksWritten(BookmarkList)
}

/// A user's file as it now stands: read whole, or a stream's features so far.
public struct UserFileUpdate: Equatable, Sendable {
    /// The file's features (a stream's live ones).
    public var file: UserFile
    /// True when a stream has ended (its input closed).
    public var ended: Bool
    /// Lines of a stream that were not a feature.
    public var badLines: Int

    /// An update.
    public init(file: UserFile, ended: Bool = true, badLines: Int = 0) {
        (self.file, self.ended, self.badLines) = (file, ended, badLines)
    }

    public static func == (a: UserFileUpdate, b: UserFileUpdate) -> Bool {
        a.file === b.file && a.ended == b.ended && a.badLines == b.badLines
    }
}

/// What an update asks of the program around the viewer; the state itself holds no requests
/// (bubbletea's `Update(msg) (Model, Cmd)`).
public enum Effect: Equatable, Sendable {
    /// End the program: `q`, Ctrl-C, the idle timeout.
    case quit
    /// Redraw every cell of the terminal, whatever it shows now (Ctrl-L).
    case repaint
    /// Load tiles a view lacks; their arrival comes back as `InputEvent.tilesArrived`.
    case load(TileBatch)
    /// Make a level of detail of a user's file a view lacks (away from the keys); it comes back as
    /// `InputEvent.detailPrepared`.
    case prepare(DetailRequest)
    /// Put text on the clipboard of the person's own terminal (OSC 52: it crosses SSH and tmux).
    case copy(String)
    /// Make one change to the bookmarks file (to the file as it is then: another viewer's bookmarks
    /// stay); the file's list as written comes back as `InputEvent.bookmarksWritten`.
    case changeBookmarks(BookmarkChange)
    /// Capture the mouse (wheel, clicks, drags) or leave it to the terminal, which then selects text.
    case captureMouse(Bool)
    /// Give the terminal back to the shell until it continues the program (Ctrl-Z, then `fg`).
    case suspend
}

/// The viewer's logic: state and event in, new state and effects out, nothing else touched.
extension ViewerState {
    /// Applies one event and returns what the program must do besides drawing the new state.
    /// `places` answers `/` searches (nil: no gazetteer).
    @discardableResult
    public mutating func update(_ event: InputEvent, places: PlaceSearching? = nil) -> [Effect] {
        // Once the user moves the map, files read later no longer decide the view.
        let before = view
        defer {
            switch event {
            case .key, .mouse, .command: if view != before { fitsToFiles = false }
            default: break
            }
        }
        switch event {
        case .problem(let text):
            setError(text)
            return []
        case .userFile(let update):
            showUserFile(update)
            return []
        case .tick(let seconds):
            guard var a = animation, seconds.isFinite, seconds > 0 else { return [] }
            a.progress = min(1, a.progress + seconds / ViewAnimation.duration)
            animation = a.progress >= 1 ? nil : a
            return []
        case .resize(let cols, let rows):
            resize(cols: cols, rows: rows)
            return []
        case .idleTimeout(let seconds):
            setMessage("idle for \(Int(seconds / 60)) min: goodbye")
            return [.quit]
        case .detailPrepared:
            return []
        case .bookmarksWritten(let list):
            // Listed as the file has them now, other viewers' bookmarks included.
            if bookmarks != nil { bookmarks = list }
            return []
        case .rendered(let missing, let streetDataEnds, let streetDataInView, let infoScrollLimit, let detail):
            // The panel scrolls no further than its last line (only the frame knows how many it has).
            if let limit = infoScrollLimit { infoScroll = min(infoScroll, limit) }
            // Said once, the first time a view shows where the street data stops.
            // (Not over another message: said at the next view then.)
            if streetDataEnds && !saidStreetDataEnds && message.isEmpty {
                saidStreetDataEnds = true
                setMessage("no street data beyond here")
            } else if !streetDataInView, !streetDataEnds, suggestsStreetData, !saidNoStreetData, message.isEmpty,
                displayedView.zoom >= Self.streetZoom
            {
                // A street view with nothing at street level: say once how to get some.
                saidNoStreetData = true
                setMessage(Self.noStreetDataHint)
            }
            // Tiles that arrived for this view and are lacking again do not fit the cache with the rest:
            // asked for once a view, not in a loop.
            let drawnView = displayedView
            if drawnView != tilesView {
                tilesView = drawnView
                arrivedTiles = [:]
            }
            return requestTiles(
                missing.compactMap { batch in
                    let tiles = batch.tiles.filter { !(arrivedTiles[batch.source]?.contains($0) ?? false) }
                    return tiles.isEmpty ? nil : TileBatch(source: batch.source, tiles: tiles)
                }) + detail.map { .prepare($0) }
        case .tilesArrived(let batch):
            arrivedTiles[batch.source, default: []].formUnion(batch.tiles)
            if let wanted = requestedTiles[batch.source] {
                let left = wanted.filter { !batch.tiles.contains($0) }
                requestedTiles[batch.source] = left.isEmpty ? nil : left
            }
            return []
        case .mouse(let m):
            animation = nil
            if pauseTour() { return [] }
            handleMouse(m)
            return []
        case .command(.suspend):
            // Whatever is open (a prompt, a panel, a tour): a stop asked from outside is not a key.
            return suspendOrSayWhyNot()
        case .command(let command):
            // Never typed into a prompt: the prompt is left first, as with Esc.
            prompt = nil
            if let key = keymap.key(for: command) { return update(.key(key), places: places) }
            animation = nil
            if pauseTour() { return [] }
            return run(command)
        case .key(let key) where keymap.command(for: key) == .suspend:
            // Ctrl-Z suspends whatever is open (a prompt, a panel, a tour), which is there on `fg`.
            return suspendOrSayWhyNot()
        case .key(let key):
            // A key during an animation finishes it at once, then applies.
            animation = nil
            // A key during a tour hands control to the user, and does nothing else.
            if pauseTour() { return [] }
            if prompt != nil {
                handlePromptKey(key, places: places)
                // What the prompt's answer asks of the program (a bookmark to write), handed on now.
                defer { pendingEffects = [] }
                return pendingEffects
            }
            if showExplain {
                // A key that closes the panel does nothing else.
                showExplain = false
                return []
            }
            if showHelp {
                // A key that closes the help does nothing else; Space turns its page when it has more.
                if key == .char(" "), helpPage + 1 < Renderer.helpPageCount(self) {
                    helpPage += 1
                } else {
                    showHelp = false
                    helpPage = 0
                }
                return []
            }
            if showBookmarks {
                return bookmarkListKey(key)
            }
            if showInfo, key == .up || key == .down || key == .escape {
                // The open panel takes ↑ ↓ (it scrolls) and Esc (it closes); hjkl still move the crosshair.
                if key == .escape {
                    showInfo = false
                } else {
                    infoScroll = max(0, infoScroll + (key == .down ? 1 : -1))
                }
                return []
            }
            if var r = ruler, key == .backspace || key == .escape {
                // With a ruler on, Backspace takes back its last vertex and Esc ends it.
                if key == .escape || !r.removeLast() {
                    ruler = nil
                    setMessage("ruler off")
                } else {
                    ruler = r
                    sayRuler(r)
                }
                return []
            }
            if keymap.command(for: key) == .bookmark {
                // The name proposed: the nearest place's, where the gazetteer has one near.
                guard bookmarks != nil else {
                    setError(bookmarksOff)
                    return []
                }
                prompt = Prompt(
                    kind: .bookmarkName,
                    text: places?.nearestName(to: view.center, within: view.region.span.latitudeDelta * 55_000) ?? "")
                return []
            }
            if showCopyMenu {
                // `y`'s menu: a digit copies, anything else closes it.
                showCopyMenu = false
                guard case .char(let c) = key, let n = c.wholeNumberValue, let text = copyText(n) else {
                    setMessage("nothing copied")
                    return []
                }
                setMessage("copied: \(text)")
                return [.copy(text)]
            }
            if showLayers, case .char(let c) = key, let n = c.wholeNumberValue, n >= 1, n <= min(9, userLayers.count) {
                // With the layer list open a digit shows or hides that file.
                toggleUserLayer(n - 1)
                let layer = userLayers[n - 1]
                setMessage("\(layer.file.displayName) " + (layer.visible ? "shown" : "hidden"))
                return []
            }
            guard let command = keymap.command(for: key) else {
                if key != .escape { setError("no command on key \(key.label); press ? for help") }
                return []
            }
            return run(command)
        }
    }

    /// Asks for the tiles a drawn view lacked, source by source, unless the last request was the same
    /// (a frame drawn again while they load asks nothing more); a source that lacks nothing more is done.
    private mutating func requestTiles(_ missing: [TileBatch]) -> [Effect] {
        var effects: [Effect] = []
        for batch in missing where requestedTiles[batch.source] != batch.tiles {
            requestedTiles[batch.source] = batch.tiles
            effects.append(.load(batch))
        }
        for source in requestedTiles.keys where !missing.contains(where: { $0.source == source }) {
            requestedTiles[source] = nil
        }
        return effects
    }

    private mutating func run(_ command: Command) -> [Effect] {
        let panFraction = 0.25
        switch command {
        case .zoomIn: zoomButton(.zoomIn)
        case .zoomOut: zoomButton(.zoomOut)
        case .zoomPrompt: prompt = Prompt(kind: .zoomLevel, text: "")
        case .radiusPrompt: prompt = Prompt(kind: .radius, text: "")
        case .goToPrompt: prompt = Prompt(kind: .goTo, text: "")
        case .search: prompt = Prompt(kind: .search, text: "")
        case .toggleCircle: toggleCircle()
        case .fitCircle: fitCircle()
        case .panLeft: pan(-panFraction, 0)
        case .panRight: pan(panFraction, 0)
        case .panUp: pan(0, -panFraction)
        case .panDown: pan(0, panFraction)
        case .pageLeft: pan(-1, 0)
        case .pageRight: pan(1, 0)
        case .pageUp: pan(0, -1)
        case .pageDown: pan(0, 1)
        case .world: world()
        case .undo: undo()
        case .redo: redo()
        case .toggleAnimations:
            animationsEnabled.toggle()
            setMessage("animations " + (animationsEnabled ? "on" : "off"))
        case .toggleGlyphs:
            glyphMode = glyphMode == .braille ? .ascii : .braille
            setMessage("glyphs: " + glyphMode.rawValue)
        case .explain: showExplain = true
        case .resumeTour:
            guard case .paused(let step, let steps) = tour else {
                setError("no tour to resume: start termmap with --tour")
                return []
            }
            tour = .playing(step: step, steps: steps)
            setMessage("tour resumed")
        case .toggleSeedOverlay:
            showSeedOverlay.toggle()
            setMessage(
                showSeedOverlay
                    ? "seed overlay on: the iOS code's circle and fit, dashed" : "seed overlay off")
        case .toggleLegend: showLegend.toggle()
        case .toggleLayers:
            showLayers.toggle()
            if showLayers && userLayers.isEmpty {
                setMessage("no files: give them on the command line (termmap FILE…)")
            }
        case .bookmark:
            // (With the gazetteer: the key's path above proposes a name.)
            if bookmarks == nil {
                setError(bookmarksOff)
            } else {
                prompt = Prompt(kind: .bookmarkName, text: "")
            }
        case .bookmarks:
            guard let list = bookmarks else {
                setError(bookmarksOff)
                return []
            }
            showBookmarks = true
            deletingBookmark = false
            if list.bookmarks.isEmpty { setMessage("no bookmarks yet: b keeps this view") }
        case .ruler:
            let c = view.center
            guard var r = ruler else {
                ruler = Ruler(start: c)
                setMessage("ruler from \(CoordinateFormat.hemispheres(c, decimals: 5)): move, then M adds a vertex")
                return []
            }
            // Within a cell of the first vertex on screen: closed onto it exactly.
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
        case .toggleMouse:
            mouseCaptured.toggle()
            setMessage(
                mouseCaptured
                    ? "mouse on: wheel zooms, click centres, drag moves"
                    : "mouse off: the terminal selects text; p turns it back on")
            return [.captureMouse(mouseCaptured)]
        case .whatIsHere:
            showInfo.toggle()
            infoScroll = 0
        case .copyLink:
            showCopyMenu = true
            setMessage("copy: 1 openstreetmap.org link · 2 geo: URI · 3 coordinates (Esc: nothing)")
        case .toggleGrid:
            showGrid.toggle()
            setMessage(showGrid ? "grid on" : "grid off")
        case .help: showHelp = true
        case .redraw: return [.repaint]
        case .suspend: return suspendOrSayWhyNot()
        case .quit: return [.quit]
        }
        return []
    }

    /// Suspends, or says on the message line why it cannot here.
    private mutating func suspendOrSayWhyNot() -> [Effect] {
        guard let refusal = suspendRefusal else { return [.suspend] }
        setMessage("Ctrl-Z: \(refusal)")
        return []
    }

    /// Pauses a playing tour (true), or does nothing (false).
    private mutating func pauseTour() -> Bool {
        guard case .playing(let step, let steps) = tour else { return false }
        tour = .paused(step: step, steps: steps)
        setMessage("tour paused: the map is yours; t resumes the tour")
        return true
    }

    // MARK: View changes

    /// Records the old view for undo (with what changed it) and starts an animation when enabled.
    private mutating func commit(from old: MapView, change: String, animate: Bool = true) {
        guard old != view else { return }
        history.append(HistoryEntry(view: old, change: change))
        if history.count > ViewerState.historyLimit { history.removeFirst() }
        // A new change ends what undo gave back to redo.
        redoHistory = []
        animation = animationsEnabled && animate ? ViewAnimation(from: old, progress: 0) : nil
    }

    private mutating func zoomButton(_ direction: ZoomDirection) {
        let old = view
        let step = view.zoomButton(direction)
        commit(from: old, change: direction.rawValue)
        lastAction = LastAction(
            name: direction == .zoomIn ? .zoomIn : .zoomOut, zoomBefore: step.zoomBefore, zoomAfter: step.zoomAfter,
            fallback: step.usedFallback, zoomStep: step)
        let factor = direction == .zoomIn ? "×0.4" : "×3"
        var text =
            "\(direction.rawValue) \(factor): east–west chord \(Formatting.distance(step.metersBefore.longitudinal)) → "
            + "\(Formatting.distance(step.metersRequested.longitudinal)), "
            + "zoom \(Formatting.zoom(step.zoomBefore)) → \(Formatting.zoom(step.zoomAfter))"
        if step.usedFallback {
            text += direction == .zoomIn ? " (fallback step +log2 2.5)" : " (fallback step −log2 3)"
        }
        if step.zoomAfter == step.zoomBefore {
            text += direction == .zoomIn ? " (at the zoom limit 28)" : " (at zoom 0)"
        }
        setMessage(text)
    }

    private mutating func pan(_ fx: Double, _ fy: Double) {
        let old = view
        // Whole cells, so that the map moves by exact cells: the terminal can then scroll lines
        // instead of redrawing every braille pattern.
        let cols = (fx * Double(view.size.cols)).rounded()
        let rows = (fy * Double(view.size.rows)).rounded()
        view.pan(dx: cols * Double(ViewSize.dotsPerCellX), dy: rows * Double(ViewSize.dotsPerCellY))
        commit(from: old, change: "pan", animate: false)
        lastAction = LastAction(name: .pan, zoomBefore: old.zoom, zoomAfter: view.zoom, fallback: false)
        setMessage("pan to \(CoordinateFormat.hemispheres(view.center, decimals: 5))")
    }

    private mutating func world() {
        let old = view
        let s = view.size
        let z = MapView.clampZoom(min(log2(s.widthDots / 256), log2(s.heightDots / 256)))
        _ = try? view.setCenter(Coordinate(latitude: 0, longitude: 0), zoomLevel: z)
        commit(from: old, change: "whole world")
        lastAction = LastAction(name: .world, zoomBefore: old.zoom, zoomAfter: view.zoom, fallback: false)
        setMessage("whole world: zoom \(Formatting.zoom(old.zoom)) → \(Formatting.zoom(view.zoom))")
    }

    private mutating func undo() {
        guard let entry = history.popLast() else {
            setError("nothing to undo")
            return
        }
        redoHistory.append(HistoryEntry(view: view, change: entry.change))
        step(to: entry, saying: "undo")
    }

    /// `U`: the view the last undo left, again.
    private mutating func redo() {
        guard let entry = redoHistory.popLast() else {
            setError("nothing to redo")
            return
        }
        history.append(HistoryEntry(view: view, change: entry.change))
        step(to: entry, saying: "redo")
    }

    /// Goes to a kept view (undo, redo), saying what of the view it changed.
    private mutating func step(to entry: HistoryEntry, saying verb: String) {
        let old = view
        var previous = entry.view
        previous.resize(to: view.size)
        view = previous
        animation = animationsEnabled ? ViewAnimation(from: old, progress: 0) : nil
        lastAction = LastAction(
            name: verb == "undo" ? .undo : .redo, zoomBefore: old.zoom, zoomAfter: view.zoom, fallback: false)
        // Say what was undone, and what of the view it gave back.
        var text = "\(verb) \(entry.change): \(verb == "undo" ? "back to" : "again at")"
        if old.zoom != view.zoom { text += " zoom \(Formatting.zoom(view.zoom)) (from \(Formatting.zoom(old.zoom)))" }
        if old.center != view.center {
            text += (old.zoom != view.zoom ? "," : "") + " \(CoordinateFormat.hemispheres(view.center, decimals: 5))"
        }
        setMessage(text)
    }

    private mutating func toggleCircle() {
        if circle != nil {
            circle = nil
            setMessage("circle off")
            return
        }
        turnCircleOn(radius: radiusMeters, at: view.center)
    }

    private mutating func turnCircleOn(radius: Double, at center: Coordinate) {
        do {
            let geodesic = try GeodesicCircle(center: center, radiusMeters: radius)
            circle = CircleOverlay(circle: geodesic, ratio: CircleFit.defaultRatio)
            radiusMeters = radius
            lastAction = LastAction(
                name: .circle, zoomBefore: view.zoom, zoomAfter: view.zoom, fallback: false,
                circle: CircleStep(
                    radiusMeters: radius, geodesic: geodesic.groundRadii,
                    seed: SeedScreenCircle.groundRadii(center: geodesic.center, radiusMeters: radius)))
            setMessage(
                "circle \(Formatting.distance(radius)) at \(CoordinateFormat.hemispheres(geodesic.center, decimals: 5))"
            )
        } catch {
            setError(error.description)
        }
    }

    private mutating func fitCircle() {
        guard let overlay = circle else {
            setError("no circle to fit: press c or r first")
            return
        }
        let old = view
        let fitting: CircleFitting
        do {
            fitting = try view.fit(overlay.circle, ratio: overlay.ratio)
        } catch {
            setError(error.description)
            return
        }
        commit(from: old, change: "fit circle")
        // The seed's fit from the view before, and the circle's rows beyond its top and bottom edges.
        let seed = SeedCircleFit.camera(
            in: old, center: overlay.circle.center, radiusMeters: overlay.circle.radiusMeters,
            circleRatio: overlay.ratio)
        let circleDots = 2 * fitting.halfHeight * WebMercator.worldSize(zoom: seed.zoom)
        let cropped = max(0, Int(((circleDots - old.size.heightDots) / 4).rounded(.up)))
        lastAction = LastAction(
            name: .fitCircle, zoomBefore: old.zoom, zoomAfter: view.zoom, fallback: false,
            fit: FitStep(
                ratio: overlay.ratio, zoomX: fitting.zoomX, zoomY: fitting.zoomY, seedZoom: seed.zoom,
                seedCroppedRows: cropped, seedCenter: seed.center,
                ringCols: 2 * fitting.halfWidth * WebMercator.worldSize(zoom: view.zoom)
                    / Double(ViewSize.dotsPerCellX),
                ringRows: 2 * fitting.halfHeight * WebMercator.worldSize(zoom: view.zoom)
                    / Double(ViewSize.dotsPerCellY),
                viewCols: view.size.cols, viewRows: view.size.rows, zoom: view.zoom))
        setMessage(
            "fit circle \(Formatting.distance(overlay.circle.radiusMeters)): zoom \(Formatting.zoom(old.zoom)) → \(Formatting.zoom(view.zoom))"
        )
    }

    // MARK: Prompts

    private mutating func handlePromptKey(_ key: Key, places: PlaceSearching?) {
        guard var edited = prompt else { return }
        switch key {
        case .escape, .ctrlC:
            prompt = nil
            setMessage("cancelled")
        case .backspace:
            if !edited.text.isEmpty { edited.text.removeLast() }
            prompt = Self.withChoices(edited, places: places)
        case .up, .down:
            // ↑/↓ choose among a search's matches.
            guard !edited.choices.isEmpty else { return }
            let step = key == .up ? -1 : 1
            edited.chosen = (edited.chosen + step + edited.choices.count) % edited.choices.count
            prompt = edited
        case .enter:
            prompt = nil
            if edited.kind == .search, edited.chosen < edited.choices.count {
                frame(edited.choices[edited.chosen])
            } else {
                submit(edited, places: places)
            }
        case .char(let c):
            // Keep printable characters only; a long paste is cut (and then refused when submitted).
            // Past the cap nothing changes: no search again (a 20,000-character paste cost 18 s so).
            guard edited.text.utf8.count <= Prompt.maxLength * 4, edited.text.count <= Prompt.maxLength,
                c.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7f })
            else { return }
            // What matched nothing matches nothing longer: a paste that has stopped matching searches no more.
            let stillNothing =
                edited.kind == .search && edited.choices.isEmpty
                && MapSources.longerQueriesMatchNoMore(than: edited.text)
            edited.text.append(c)
            prompt = stillNothing ? edited : Self.withChoices(edited, places: places)
        default:
            break
        }
    }

    /// A search prompt with the matches of its text (the first chosen); other prompts as they are.
    private static func withChoices(_ prompt: Prompt, places: PlaceSearching?) -> Prompt {
        guard prompt.kind == .search else { return prompt }
        var p = prompt
        let query = p.text.trimmedOfWhitespace
        p.choices = query.isEmpty ? [] : places?.matches(query, limit: Prompt.maxChoices) ?? []
        p.chosen = 0
        return p
    }

    private mutating func submit(_ submitted: Prompt, places: PlaceSearching?) {
        if submitted.text.count > Prompt.maxLength {
            setError("input too long (at most \(Prompt.maxLength) characters); view unchanged")
            return
        }
        switch submitted.kind {
        case .zoomLevel:
            switch InputParsing.zoomLevel(submitted.text) {
            case .failure(let e): setError(e.description + "; view unchanged")
            case .success(let z): setZoomLevel(z)
            }
        case .radius:
            switch InputParsing.radius(submitted.text) {
            case .failure(let e): setError(e.description + "; circle unchanged")
            case .success(let meters):
                turnCircleOn(radius: meters, at: circle?.circle.center ?? view.center)
            }
        case .bookmarkName:
            let name = submitted.text.trimmedOfWhitespace
            guard !name.isEmpty, var list = bookmarks else {
                setError("a bookmark needs a name; nothing kept")
                return
            }
            let saved = list.save(Bookmark(name: name, coordinate: view.center, zoom: view.zoom))
            bookmarks = list
            setMessage("bookmark '\(name)' kept (\(list.bookmarks.count) in all; ' lists them)")
            pendingEffects.append(.changeBookmarks(.save(saved)))
        case .goTo:
            switch InputParsing.place(submitted.text) {
            case .failure(let e): setError(e.description + "; view unchanged")
            case .success(let p):
                goTo(p.coordinate, zoom: p.zoom, label: CoordinateFormat.hemispheres(p.coordinate, decimals: 5))
            }
        case .search:
            let query = submitted.text.trimmedOfWhitespace
            guard !query.isEmpty else {
                setError("type a place or street name")
                return
            }
            guard let places else {
                setError("no gazetteer loaded")
                return
            }
            guard let hit = places.search(query) else {
                setError("no place or street is called '\(query)'")
                return
            }
            frame(hit)
        }
    }

    /// `z`: seed 000's setCenter(_:zoomLevel:) in the standard convention; above 28 clamps and says so.
    private mutating func setZoomLevel(_ z: Double) {
        let old = view
        do {
            let outcome = try view.setCenter(view.center, zoomLevel: z)
            commit(from: old, change: "zoom level")
            // The category takes a whole level (NSUInteger), 0…28.
            let seedLevel = UInt(min(28, max(0, z.rounded(.down))))
            let seedSpan = SeedZoomLevelCategory.region(for: view.size, center: view.center, zoomLevel: seedLevel).span
            lastAction = LastAction(
                name: .setZoom, zoomBefore: old.zoom, zoomAfter: view.zoom, fallback: false,
                zoomLevel: ZoomLevelStep(
                    requested: z, standardLongitudeDelta: view.region.span.longitudeDelta,
                    seedLongitudeDelta: seedSpan.longitudeDelta,
                    seedEquivalentZoom: log2(
                        view.size.widthDots * 360 / (WebMercator.tileSize * seedSpan.longitudeDelta))))
            var text = "zoom level: \(Formatting.zoom(old.zoom)) → \(Formatting.zoom(view.zoom))"
            if outcome.wasClamped { text += " (\(CoordinateFormat.fixed(z, 2)) clamped to 28)" }
            setMessage(text)
        } catch {
            setError(error.description + "; view unchanged")
        }
    }

    /// A search result framed: the view fitted to the place's extent, whatever the zoom was.
    /// The ruler's numbers on the message line: legs, total, and a closed one's area and perimeter.
    private mutating func sayRuler(_ r: Ruler) {
        let units = imperialUnits
        var text =
            "ruler: \(r.legs.count) leg\(r.legs.count == 1 ? "" : "s"), \(RulerFormat.length(r.totalMeters, imperial: units))"
        if let last = r.legs.last {
            text +=
                " (last \(RulerFormat.length(last.meters, imperial: units)) at \(RulerFormat.bearing(last.bearing)))"
        }
        if let p = r.polygon {
            text =
                "ruler closed: area \(RulerFormat.area(p.area, imperial: units)), perimeter \(RulerFormat.length(p.perimeter, imperial: units))"
        }
        setMessage(text)
    }

    /// A key with the bookmark list open: a digit goes to that bookmark (or, after `d`, deletes it);
    /// `d` arms the deletion; anything else closes the list.
    private mutating func bookmarkListKey(_ key: Key) -> [Effect] {
        guard var list = bookmarks else { return [] }
        if key == .char("d") {
            deletingBookmark = true
            setMessage("delete which bookmark? (1–9)")
            return []
        }
        defer { deletingBookmark = false }
        guard case .char(let c) = key, let n = c.wholeNumberValue, n >= 1, n <= min(9, list.bookmarks.count) else {
            showBookmarks = false
            return []
        }
        let b = list.bookmarks[n - 1]
        if deletingBookmark {
            list.delete(n - 1)
            bookmarks = list
            setMessage("bookmark '\(b.name)' deleted")
            return [.changeBookmarks(.delete(name: b.name))]
        }
        showBookmarks = false
        goTo(b.coordinate, zoom: b.zoom, label: b.name)
        return []
    }

    /// What `y` then `n` copies: the view as an openstreetmap.org link (1), the centre as a geo: URI
    /// (2) or as coordinates (3); nil for another digit.
    func copyText(_ n: Int) -> String? {
        let c = view.center
        switch n {
        case 1: return LocationLinks.openStreetMap(center: c, zoom: view.zoom)
        case 2: return LocationLinks.geoURI(c)
        case 3:
            let wrapped = Coordinate(latitude: c.latitude, longitude: WebMercator.wrapLongitude(c.longitude))
            return "\(CoordinateFormat.fixed(wrapped.latitude, 6)), \(CoordinateFormat.fixed(wrapped.longitude, 6))"
        default: return nil
        }
    }

    /// Shows a place found by name as `/` does (`--center NAME`).
    public mutating func show(_ hit: SearchHit) { frame(hit) }

    private mutating func frame(_ hit: SearchHit) {
        let old = view
        do {
            try view.fit(try GeodesicCircle(center: hit.coordinate, radiusMeters: hit.radiusMeters))
        } catch {
            setError(error.description + "; view unchanged")
            return
        }
        commit(from: old, change: "search")
        lastAction = LastAction(name: .goTo, zoomBefore: old.zoom, zoomAfter: view.zoom, fallback: false)
        let what = (hit.label.isEmpty ? hit.name : hit.label) + (hit.detail.isEmpty ? "" : " (\(hit.detail))")
        setMessage("\(what): zoom \(Formatting.zoom(old.zoom)) → \(Formatting.zoom(view.zoom))")
    }

    /// Centres on `c`, at `zoom` when a link gave one (else the zoom stays).
    private mutating func goTo(_ c: Coordinate, zoom: Double? = nil, label: String) {
        let old = view
        do {
            try view.setCenter(c, zoomLevel: min(28, zoom ?? view.zoom))
        } catch {
            setError(error.description + "; view unchanged")
            return
        }
        commit(from: old, change: "go to")
        lastAction = LastAction(name: .goTo, zoomBefore: old.zoom, zoomAfter: view.zoom, fallback: false)
        setMessage("go to \(label)" + (zoom == nil ? "" : ", zoom \(Formatting.zoom(view.zoom))"))
    }

    // MARK: Mouse

    private mutating func handleMouse(_ m: MouseEvent) {
        guard prompt == nil, isLargeEnough else { return }
        let size = view.size
        func dot(_ col: Int, _ row: Int) -> DotPoint? {
            guard col >= 0, row >= 0, col < size.cols, row < size.rows else { return nil }
            return ViewTransform.cellCenter(col: col, row: row)
        }
        switch m {
        case .wheelUp(let col, let row), .wheelDown(let col, let row):
            guard let p = dot(col, row) else { return }
            let direction: ZoomDirection
            if case .wheelUp = m { direction = .zoomIn } else { direction = .zoomOut }
            let old = view
            var probe = view
            let step = probe.zoomButton(direction)
            view.setZoom(step.zoomAfter, around: p)
            commit(from: old, change: direction == .zoomIn ? "wheel zoom in" : "wheel zoom out", animate: false)
            lastAction = LastAction(
                name: direction == .zoomIn ? .wheelIn : .wheelOut, zoomBefore: old.zoom, zoomAfter: view.zoom,
                fallback: step.usedFallback)
            setMessage(
                "\(direction.rawValue) at pointer: zoom \(Formatting.zoom(old.zoom)) → \(Formatting.zoom(view.zoom))"
            )
        case .drag(let dx, let dy):
            // The map follows the pointer; one drag is one step of undo however many reports it took.
            let old = view
            view.pan(dx: Double(-dx * ViewSize.dotsPerCellX), dy: Double(-dy * ViewSize.dotsPerCellY))
            if lastAction?.name != .drag {
                commit(from: old, change: "drag", animate: false)
            }
            lastAction = LastAction(name: .drag, zoomBefore: old.zoom, zoomAfter: view.zoom, fallback: false)
            setMessage("drag to \(CoordinateFormat.hemispheres(view.center, decimals: 5))")
        case .click(let col, let row):
            guard let p = dot(col, row) else { return }
            let target = view.coordinate(at: p).wrapped
            goTo(target, label: CoordinateFormat.hemispheres(target, decimals: 5))
        }
    }

    mutating func setMessage(_ text: String) {
        message = text
        messageIsError = false
    }

    mutating func setError(_ text: String) {
        message = text
        messageIsError = true
    }
}
