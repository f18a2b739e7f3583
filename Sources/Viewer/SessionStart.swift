import GeoCore
import MapData
import MapFormats
import MapRender

/// What a session starts from, whoever starts it: the viewer and `render` (from their options), the
/// bench, the fuzzer and the conformance runner (from their scenes). One value, one way to the first
/// state: the view, the look, the keys and commands, the inverted circle and the user's files.
public struct SessionStart: Sendable {
    /// The terminal's size in cells.
    public var cols: Int
    public var rows: Int
    /// The view: its centre and zoom.
    public var center: Coordinate
    public var zoom: Double
    /// The inverted circle's radius, and whether it is on at the start.
    public var radiusMeters = GeodesicCircle.defaultRadius
    public var circle = false
    /// Miles and feet, not metres.
    public var imperialUnits = false
    /// ASCII where the terminal has no braille.
    public var glyphMode = GlyphMode.braille
    /// The colours.
    public var theme = Theme.dark
    /// View changes animated (off for scripts that want each key's view at once).
    public var animations = true
    /// The mouse taken from the terminal.
    public var mouse = true
    /// The what-is-here panel open at the start.
    public var whatIsHere = false
    /// The keys (the standard ones unless a configuration changes them).
    public var keymap = Keymap.standard
    /// Commands added to the built-in ones (a capability's, a test's).
    public var commands: [CommandRow] = []
    /// A place found by name to show first (`--center NAME`), as `/` shows it, at `zoom` when
    /// `zoomGiven`.
    public var place: SearchHit?
    public var zoomGiven = false
    /// The view a last session ended on (`--resume`), or why there is none to say.
    public var lastView: Result<(center: Coordinate, zoom: Double), LastViewProblem>?
    /// The user's files, drawn in this order over the map.
    public var files: [UserFile] = []
    /// True when the view was given (a centre, a zoom, a region): the files do not move it.
    public var viewGiven = true
    /// True when the centre was given (`--center`): with only `--zoom`, the files give the centre.
    public var centerGiven = true
    /// The imagery's name, when the run has a raster tileset (`I` shows or hides it).
    public var imagery: String?
    /// The terrain's name, when the run has elevation tiles (`H` shows or hides its hillshade).
    public var terrain: String?
    /// The GPS source's name, when the run has one (`--gps`); the map follows it unless the view is given.
    public var position: String?

    /// A start at `center` and `zoom` in a terminal of `cols` × `rows`, everything else as by default.
    public init(cols: Int, rows: Int, center: Coordinate, zoom: Double) {
        (self.cols, self.rows, self.center, self.zoom) = (cols, rows, center, zoom)
    }

    /// The first state; the zoom is taken to at most 28 (with a message saying so).
    public func state() throws(GeoError) -> ViewerState {
        var state = try ViewerState(cols: cols, rows: rows, center: center, zoom: min(zoom, 28))
        state.radiusMeters = radiusMeters
        state.imperialUnits = imperialUnits
        state.glyphMode = glyphMode
        state.theme = theme
        state.animationsEnabled = animations
        state.mouseCaptured = mouse
        state.keymap = keymap
        state.imageryName = imagery
        state.terrainName = terrain
        if let position {
            state.position = LivePosition(source: position)
            state.position?.following = !viewGiven
        }
        for row in commands { state.add(row) }
        if circle {
            state.circle = CircleOverlay(
                circle: try GeodesicCircle(center: state.view.center, radiusMeters: radiusMeters),
                ratio: CircleFit.defaultRatio)
        }
        if zoom > 28 { state.message = "zoom \(zoom) is past the deepest level: clamped to 28" }
        if let place {
            state.show(place)
            if zoomGiven { _ = try? state.view.setCenter(place.coordinate, zoomLevel: min(zoom, 28)) }
            state.message = ""
        }
        switch lastView {
        case .success(let last)?: _ = try? state.view.setCenter(last.center, zoomLevel: last.zoom)
        case .failure(let problem)?:
            state.message = problem.description
            state.messageIsError = true
        case nil: break
        }
        if !centerGiven && zoomGiven && place == nil { state.fitKeepsZoom = min(zoom, 28) }
        state.add(files: files, viewGiven: viewGiven && (centerGiven || place != nil || lastView != nil))
        if whatIsHere { state.showInfo = true }
        // A centre near a pole starts where the world's edge is the screen's (as a pan there ends).
        state.view.keepWorldEdgesOnScreen()
        return state
    }
}

/// Why a last view cannot be resumed, as one line.
public struct LastViewProblem: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

extension ViewerState {
    /// Adds the user's files as layers over the map, each with its look; unless the view was given,
    /// the view is fitted to them.
    public mutating func add(files: [UserFile], viewGiven: Bool) {
        for (i, f) in files.enumerated() { layers.layers.append(UserDataLayer(file: f, look: i)) }
        if !viewGiven { fitToUserData() }
    }
}
