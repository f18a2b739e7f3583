import Foundation
import GeoCore
import MapData

/// A mouse event on a cell.
public enum MouseEvent: Equatable, Sendable {
    case wheelUp(col: Int, row: Int)
    case wheelDown(col: Int, row: Int)
    case click(col: Int, row: Int)
}

/// Everything that can happen to the viewer.
public enum InputEvent: Equatable, Sendable {
    case key(Key)
    case mouse(MouseEvent)
    case resize(cols: Int, rows: Int)
    /// Time passes (animations advance).
    case tick(seconds: Double)
}

/// The viewer's logic: pure functions of state and event.
public enum Viewer {
    /// Applies one event. `places` answers `/` searches (nil: no gazetteer).
    public static func update(_ state: inout ViewerState, _ event: InputEvent, places: CitySearching? = nil) {
        switch event {
        case .tick(let seconds):
            guard var a = state.animation, seconds.isFinite, seconds > 0 else { return }
            a.progress = min(1, a.progress + seconds / ViewAnimation.duration)
            state.animation = a.progress >= 1 ? nil : a
            return
        case .resize(let cols, let rows):
            state.resize(cols: cols, rows: rows)
            return
        case .mouse(let m):
            state.animation = nil
            handleMouse(&state, m)
            return
        case .key(let key):
            // A key during an animation finishes it at once, then applies.
            state.animation = nil
            if state.prompt != nil {
                handlePromptKey(&state, key, places: places)
                return
            }
            if state.showHelp {
                state.showHelp = false
                if key == .char("?") || key == .escape { return }
            }
            guard let command = Keymap.command(for: key) else {
                if key != .escape { setError(&state, "no command on key \(key.label); press ? for help") }
                return
            }
            run(&state, command)
        }
    }

    static func run(_ state: inout ViewerState, _ command: Command) {
        let panFraction = 0.25
        switch command {
        case .zoomIn: zoomButton(&state, .zoomIn)
        case .zoomOut: zoomButton(&state, .zoomOut)
        case .zoomPrompt: state.prompt = Prompt(kind: .zoomLevel, text: "")
        case .radiusPrompt: state.prompt = Prompt(kind: .radius, text: "")
        case .goToPrompt: state.prompt = Prompt(kind: .goTo, text: "")
        case .search: state.prompt = Prompt(kind: .search, text: "")
        case .toggleCircle: toggleCircle(&state)
        case .fitCircle: fitCircle(&state)
        case .panLeft: pan(&state, -panFraction, 0)
        case .panRight: pan(&state, panFraction, 0)
        case .panUp: pan(&state, 0, -panFraction)
        case .panDown: pan(&state, 0, panFraction)
        case .pageLeft: pan(&state, -1, 0)
        case .pageRight: pan(&state, 1, 0)
        case .pageUp: pan(&state, 0, -1)
        case .pageDown: pan(&state, 0, 1)
        case .world: world(&state)
        case .undo: undo(&state)
        case .toggleAnimations:
            state.animationsEnabled.toggle()
            setMessage(&state, "animations " + (state.animationsEnabled ? "on" : "off"))
        case .toggleGlyphs:
            state.glyphMode = state.glyphMode == .braille ? .ascii : .braille
            setMessage(&state, "glyphs: " + state.glyphMode.rawValue)
        case .help: state.showHelp = true
        case .redraw: state.fullRepaintRequested = true
        case .quit: state.quitRequested = true
        }
    }

    // MARK: View changes

    /// Records the old view for undo and starts an animation when enabled.
    static func commit(_ state: inout ViewerState, from old: MapView, animate: Bool = true) {
        guard old != state.view else { return }
        state.history.append(old)
        if state.history.count > ViewerState.historyLimit { state.history.removeFirst() }
        state.animation = state.animationsEnabled && animate ? ViewAnimation(from: old, progress: 0) : nil
    }

    static func zoomButton(_ state: inout ViewerState, _ direction: ZoomDirection) {
        let old = state.view
        let step = state.view.zoomButton(direction)
        commit(&state, from: old)
        state.lastAction = LastAction(
            name: direction == .zoomIn ? "zoomIn" : "zoomOut", zoomBefore: step.zoomBefore, zoomAfter: step.zoomAfter,
            fallback: step.usedFallback)
        let factor = direction == .zoomIn ? "×0.4" : "×3"
        var text =
            "\(direction.rawValue) \(factor): \(Formatting.distance(step.metersBefore.longitudinal)) → "
            + "\(Formatting.distance(step.metersRequested.longitudinal)), "
            + "zoom \(Formatting.zoom(step.zoomBefore)) → \(Formatting.zoom(step.zoomAfter))"
        if step.usedFallback {
            text += direction == .zoomIn ? " (fallback step +log2 2.5)" : " (fallback step −log2 3)"
        }
        if step.zoomAfter == step.zoomBefore {
            text += direction == .zoomIn ? " (at the zoom limit 28)" : " (at zoom 0)"
        }
        setMessage(&state, text)
    }

    static func pan(_ state: inout ViewerState, _ fx: Double, _ fy: Double) {
        let old = state.view
        // Whole cells, so that the map moves by exact cells: the terminal can then scroll lines
        // instead of redrawing every braille pattern.
        let cols = (fx * Double(state.view.size.cols)).rounded()
        let rows = (fy * Double(state.view.size.rows)).rounded()
        state.view.pan(dx: cols * Double(ViewSize.dotsPerCellX), dy: rows * Double(ViewSize.dotsPerCellY))
        commit(&state, from: old, animate: false)
        state.lastAction = LastAction(name: "pan", zoomBefore: old.zoom, zoomAfter: state.view.zoom, fallback: false)
        setMessage(&state, "pan to \(CoordinateFormat.hemispheres(state.view.center, decimals: 5))")
    }

    static func world(_ state: inout ViewerState) {
        let old = state.view
        let s = state.view.size
        let z = MapView.clampZoom(min(log2(s.widthDots / 256), log2(s.heightDots / 256)))
        _ = try? state.view.setCenter(Coordinate(latitude: 0, longitude: 0), zoomLevel: z)
        commit(&state, from: old)
        state.lastAction = LastAction(name: "world", zoomBefore: old.zoom, zoomAfter: state.view.zoom, fallback: false)
        setMessage(&state, "whole world: zoom \(Formatting.zoom(old.zoom)) → \(Formatting.zoom(state.view.zoom))")
    }

    static func undo(_ state: inout ViewerState) {
        guard var previous = state.history.popLast() else {
            setError(&state, "nothing to undo")
            return
        }
        let old = state.view
        previous.resize(to: state.view.size)
        state.view = previous
        state.animation = state.animationsEnabled ? ViewAnimation(from: old, progress: 0) : nil
        state.lastAction = LastAction(name: "undo", zoomBefore: old.zoom, zoomAfter: state.view.zoom, fallback: false)
        setMessage(&state, "undo: zoom \(Formatting.zoom(old.zoom)) → \(Formatting.zoom(state.view.zoom))")
    }

    static func toggleCircle(_ state: inout ViewerState) {
        if state.circle != nil {
            state.circle = nil
            setMessage(&state, "circle off")
            return
        }
        turnCircleOn(&state, radius: state.radiusMeters, at: state.view.center)
    }

    static func turnCircleOn(_ state: inout ViewerState, radius: Double, at center: Coordinate) {
        do {
            let circle = try GeodesicCircle(center: center, radiusMeters: radius)
            state.circle = CircleOverlay(circle: circle, ratio: CircleFit.defaultRatio)
            state.radiusMeters = radius
            setMessage(
                &state,
                "circle \(Formatting.distance(radius)) at \(CoordinateFormat.hemispheres(circle.center, decimals: 5))")
        } catch {
            setError(&state, error.description)
        }
    }

    static func fitCircle(_ state: inout ViewerState) {
        guard let overlay = state.circle else {
            setError(&state, "no circle to fit: press c or r first")
            return
        }
        let old = state.view
        do {
            try state.view.fit(overlay.circle, ratio: overlay.ratio)
        } catch {
            setError(&state, error.description)
            return
        }
        commit(&state, from: old)
        state.lastAction = LastAction(
            name: "fitCircle", zoomBefore: old.zoom, zoomAfter: state.view.zoom, fallback: false)
        setMessage(
            &state,
            "fit circle \(Formatting.distance(overlay.circle.radiusMeters)): zoom \(Formatting.zoom(old.zoom)) → \(Formatting.zoom(state.view.zoom))"
        )
    }

    // MARK: Prompts

    static func handlePromptKey(_ state: inout ViewerState, _ key: Key, places: CitySearching?) {
        guard var prompt = state.prompt else { return }
        switch key {
        case .escape, .ctrlC:
            state.prompt = nil
            setMessage(&state, "cancelled")
        case .backspace:
            if !prompt.text.isEmpty { prompt.text.removeLast() }
            state.prompt = prompt
        case .enter:
            state.prompt = nil
            submit(&state, prompt, places: places)
        case .char(let c):
            // Keep printable characters only; a long paste is cut (and then refused when submitted).
            if prompt.text.count < Prompt.maxLength + 1,
                c.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7f })
            {
                prompt.text.append(c)
            }
            state.prompt = prompt
        default:
            state.prompt = prompt
        }
    }

    static func submit(_ state: inout ViewerState, _ prompt: Prompt, places: CitySearching?) {
        if prompt.text.count > Prompt.maxLength {
            setError(&state, "input too long (at most \(Prompt.maxLength) characters); view unchanged")
            return
        }
        switch prompt.kind {
        case .zoomLevel:
            switch InputParsing.zoomLevel(prompt.text) {
            case .failure(let e): setError(&state, e.description + "; view unchanged")
            case .success(let z): setZoomLevel(&state, z)
            }
        case .radius:
            switch InputParsing.radius(prompt.text) {
            case .failure(let e): setError(&state, e.description + "; circle unchanged")
            case .success(let meters):
                turnCircleOn(&state, radius: meters, at: state.circle?.circle.center ?? state.view.center)
            }
        case .goTo:
            switch InputParsing.coordinate(prompt.text) {
            case .failure(let e): setError(&state, e.description + "; view unchanged")
            case .success(let c): goTo(&state, c, label: CoordinateFormat.hemispheres(c, decimals: 5))
            }
        case .search:
            let query = prompt.text.trimmingCharacters(in: .whitespaces)
            guard !query.isEmpty else {
                setError(&state, "type a city name")
                return
            }
            guard let places else {
                setError(&state, "no gazetteer loaded")
                return
            }
            guard let city = places.firstCity(matching: query) else {
                setError(&state, "no city starts with '\(query)'")
                return
            }
            goTo(
                &state, city.coordinate, label: "\(city.name), \(city.countryCode) (pop. \(city.population))",
                minimumZoom: 10)
        }
    }

    /// `z`: seed 000's setCenter(_:zoomLevel:) in the standard convention; above 28 clamps and says so.
    static func setZoomLevel(_ state: inout ViewerState, _ z: Double) {
        let old = state.view
        do {
            let outcome = try state.view.setCenter(state.view.center, zoomLevel: z)
            commit(&state, from: old)
            state.lastAction = LastAction(
                name: "setZoom", zoomBefore: old.zoom, zoomAfter: state.view.zoom, fallback: false)
            var text = "zoom level: \(Formatting.zoom(old.zoom)) → \(Formatting.zoom(state.view.zoom))"
            if outcome.wasClamped { text += " (\(CoordinateFormat.fixed(z, 2)) clamped to 28, as the seed does)" }
            setMessage(&state, text)
        } catch {
            setError(&state, error.description + "; view unchanged")
        }
    }

    static func goTo(_ state: inout ViewerState, _ c: Coordinate, label: String, minimumZoom: Double = 0) {
        let old = state.view
        do {
            try state.view.setCenter(c, zoomLevel: max(state.view.zoom, minimumZoom))
        } catch {
            setError(&state, error.description + "; view unchanged")
            return
        }
        commit(&state, from: old)
        state.lastAction = LastAction(name: "goTo", zoomBefore: old.zoom, zoomAfter: state.view.zoom, fallback: false)
        setMessage(&state, "go to \(label)")
    }

    // MARK: Mouse

    static func handleMouse(_ state: inout ViewerState, _ m: MouseEvent) {
        guard state.prompt == nil, state.isLargeEnough else { return }
        let size = state.view.size
        func dot(_ col: Int, _ row: Int) -> DotPoint? {
            guard col >= 0, row >= 0, col < size.cols, row < size.rows else { return nil }
            return DotPoint(x: (Double(col) + 0.5) * 2, y: (Double(row) + 0.5) * 4)
        }
        switch m {
        case .wheelUp(let col, let row), .wheelDown(let col, let row):
            guard let p = dot(col, row) else { return }
            let direction: ZoomDirection
            if case .wheelUp = m { direction = .zoomIn } else { direction = .zoomOut }
            let old = state.view
            var probe = state.view
            let step = probe.zoomButton(direction)
            state.view.setZoom(step.zoomAfter, around: p)
            commit(&state, from: old, animate: false)
            state.lastAction = LastAction(
                name: direction == .zoomIn ? "wheelIn" : "wheelOut", zoomBefore: old.zoom, zoomAfter: state.view.zoom,
                fallback: step.usedFallback)
            setMessage(
                &state,
                "\(direction.rawValue) at pointer: zoom \(Formatting.zoom(old.zoom)) → \(Formatting.zoom(state.view.zoom))"
            )
        case .click(let col, let row):
            guard let p = dot(col, row) else { return }
            let target = state.view.coordinate(at: p).wrapped
            goTo(&state, target, label: CoordinateFormat.hemispheres(target, decimals: 5))
        }
    }

    static func setMessage(_ state: inout ViewerState, _ text: String) {
        state.message = text
        state.messageIsError = false
    }

    static func setError(_ state: inout ViewerState, _ text: String) {
        state.message = text
        state.messageIsError = true
    }
}

/// Finds a place by name prefix (the gazetteer behind `/`).
public protocol CitySearching {
    /// The largest place whose name starts with `prefix` (case and accents ignored).
    func firstCity(matching prefix: String) -> City?
}
