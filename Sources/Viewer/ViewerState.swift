import GeoCore
import MapData
import MapFormats
import MapRender

/// How map lines are drawn.
public enum GlyphMode: String, Sendable { case braille, ascii }

/// A question on the message line; its text is edited key by key.
public enum PromptKind: String, Sendable {
    case zoomLevel, radius, goTo, search, bookmarkName, reachMinutes

    /// The question shown before the input.
    public var question: String {
        switch self {
        case .zoomLevel: return "zoom level (0–28): "
        case .radius: return "circle radius (e.g. 500, 2km, 1.5mi, 800ft): "
        case .goTo: return "go to (lat, lon, a map link or a place): "
        case .bookmarkName: return "bookmark this view as: "
        case .search: return "search place or street: "
        case .reachMinutes: return "reach within how many minutes (e.g. 10, 1h): "
        }
    }
}

/// An open prompt and what has been typed.
public struct Prompt: Equatable, Sendable {
    /// The question.
    public var kind: PromptKind
    /// The input so far.
    public var text: String
    /// A search's matches while typing (up to `maxChoices`), and the one ↑/↓ chose.
    public var choices: [SearchHit] = []
    public var chosen = 0
    /// Longest input kept (a pasted link can be long; a longer paste is cut, then refused as invalid).
    public static let maxLength = 2000
    /// Most matches listed while typing a search.
    public static let maxChoices = 5
}

/// The inverted circle: where it is anchored and how big it is (a layer over the map).
public typealias CircleOverlay = CircleLayer

/// The view changes that `--json` reports as `lastAction.name`.
public enum ActionName: String, Equatable, Sendable, Encodable {
    case zoomIn, zoomOut, setZoom, fitCircle, pan, world, undo, redo, goTo, wheelIn, wheelOut, drag, circle
}

/// What the last key did to the view, for the status line and `--json`.
public struct LastAction: Equatable, Sendable {
    /// Which change it was.
    public var name: ActionName
    /// Zoom before.
    public var zoomBefore: Double
    /// Zoom after.
    public var zoomAfter: Double
    /// True when the zoom button used its fixed fallback step.
    public var fallback: Bool
    /// A zoom button's whole derivation (for `e` and `render --json`).
    public var zoomStep: ZoomStep? = nil
    /// What `z` asked for, beside what seed 000's category would have shown.
    public var zoomLevel: ZoomLevelStep? = nil
    /// How `f` fitted the circle, beside seed 002's width-only fit.
    public var fit: FitStep? = nil
    /// The circle `c` or `r` drew, beside seed 002 A's screen-space one.
    public var circle: CircleStep? = nil
}

/// `c`'s and `r`'s numbers: how far the geodesic circle and the seed's screen-space circle reach on the
/// ground toward north, south, east and west.
public struct CircleStep: Equatable, Sendable {
    public var radiusMeters: Double
    public var geodesic: GroundRadii
    public var seed: GroundRadii
}

/// `f`'s numbers: the ratio, the zooms at which the circle's width and height take it, and the zoom of
/// seed 002 B's fit (sized from the view's width alone) with the rows of the circle it would crop.
public struct FitStep: Equatable, Sendable {
    public var ratio: Double
    public var zoomX: Double
    public var zoomY: Double
    public var seedZoom: Double
    public var seedCroppedRows: Int
    /// Where the seed's camera would have centred (the ring's box's middle in Mercator).
    public var seedCenter: Coordinate
    /// The ring's extent at the zoom chosen, in cells, and the view's size.
    public var ringCols = 0.0
    public var ringRows = 0.0
    public var viewCols = 0
    public var viewRows = 0
    /// The zoom chosen.
    public var zoom = 0.0
    /// Which of the view's sides decided the zoom.
    public var limitedBy: String { zoomX <= zoomY ? "width" : "height" }
}

/// `z`'s numbers: the level asked for, the span it shows in the standard convention, and the span seed
/// 000's `MKMapView` category gives for it (its 512·2^z pixel world shows web zoom z + 1).
public struct ZoomLevelStep: Equatable, Sendable {
    /// The level typed.
    public var requested: Double
    /// The longitude span shown (standard web zoom).
    public var standardLongitudeDelta: Double
    /// The category's span for the level (its zoom is a whole number: the level's integer part).
    public var seedLongitudeDelta: Double
    /// The standard zoom that shows the category's span.
    public var seedEquivalentZoom: Double
}

/// A view change being shown gradually: from one view to another over `duration` seconds.
public struct ViewAnimation: Equatable, Sendable {
    /// Where it started.
    public var from: MapView
    /// How far along, 0…1.
    public var progress: Double
    /// Seconds for the whole change (setRegion(animated:) takes about 250 ms).
    public static let duration = 0.25
}

/// The whole viewer: everything the screen shows comes from here.
public struct ViewerState: Equatable, Sendable {
    /// Terminal columns.
    public private(set) var terminalCols: Int
    /// Terminal rows.
    public private(set) var terminalRows: Int
    /// The map view (its size is the map area: the terminal less the status rows).
    public var view: MapView
    /// The key bindings (the standard ones unless a configuration changes them).
    public var keymap = Keymap.standard
    /// The commands added to the built-in ones (`add(_:)`), in the order they came.
    public internal(set) var addedCommands: [CommandRow] = []
    /// The layers drawn over the map, lowest first: the circle, the seeds' picture.
    public var layers = LayerList()
    /// The inverted circle, when on (a layer: the lowest of those over the map).
    public var circle: CircleOverlay? {
        get { layers.first(CircleLayer.self) }
        set { layers.set(CircleLayer.self, newValue, at: 0) }
    }
    /// The radius the next circle gets.
    public var radiusMeters: Double = GeodesicCircle.defaultRadius
    /// Braille or ASCII.
    public var glyphMode: GlyphMode = .braille
    /// The palette for a dark or a light terminal background.
    public var theme: Theme = .dark
    /// An open prompt.
    public var prompt: Prompt?
    /// The message line.
    public var message: String = ""

    /// The message line's welcome, short enough to leave room for the world's credit beside it on an
    /// 80-column terminal (`© Natural Earth · GeoNames`, 26 columns).
    public static let welcome = "+/- zoom  arrows pan  / find a place  ? help  q quit"
    /// The welcome of a shared demo account (`--kiosk`).
    public static let kioskWelcome = "demo: +/- zoom  arrows pan  / find  ? help  q leave"
    /// True when the message is an error.
    public var messageIsError = false
    /// What the last view change did (the seeds' picture shows the seed's fit while it is an `f`).
    public var lastAction: LastAction?
    /// Earlier views, newest last (for `u`), each with what left it.
    public var history: [HistoryEntry] = []
    /// Views undo left, for redo (`U`), the latest last; a new change empties it.
    public var redoHistory: [HistoryEntry] = []
    /// The legend (`w`) is shown: each class on screen with its look.
    public var showLegend = false
    /// The layer list (`o`): the user's files.
    public var showLayers = false
    /// The geodesic ruler (`M`), drawn as a layer over the map; nil when off.
    public var ruler: Ruler? {
        get { layers.layers.compactMap { $0 as? RulerLayer }.first?.ruler }
        set {
            let imperial = imperialUnits
            layers.set(
                RulerLayer.self,
                newValue.map {
                    RulerLayer(ruler: $0, legLabels: $0.legs.map { RulerFormat.leg($0, imperial: imperial) })
                })
        }
    }
    /// Routes and reach (`d`, `D`).
    public var directions = DirectionsState()
    /// The reach's streets as lines (kept to draw it again when the layer is made anew).
    var reachLines: [[Coordinate]] = []
    /// Lengths and areas in miles and feet (`--units imperial`).
    public var imperialUnits = false
    /// The viewer takes the mouse (`p` and `--no-mouse` leave it to the terminal, to select text).
    public var mouseCaptured = true
    /// The what-is-here panel (`i`) is open, scrolled down by `infoScroll` lines: it answers for the
    /// crosshair's cell of every frame, so a pan asks the next cell.
    public var showInfo = false
    public var infoScroll = 0
    /// The crosshair marks the centre: while something asks of it (the panel, the ruler, `y`'s menu).
    public var showsCrosshair: Bool {
        showInfo || ruler != nil || showCopyMenu || (directions.start != nil && directions.route == nil)
    }
    /// `y`'s menu is open: the next digit copies.
    public var showCopyMenu = false
    /// The bookmarks (`b`, `'`); nil where they are off (kiosk mode, no home), `bookmarksOff` saying why.
    public var bookmarks: BookmarkList?
    public var bookmarksOff = "bookmarks are off"
    /// The bookmark list (`'`) is open; `d` was pressed in it (the next digit deletes).
    public var showBookmarks = false
    public var deletingBookmark = false
    /// Effects a prompt's answer asked for, handed on by the same `update` (never kept past it).
    var pendingEffects: [Effect] = []
    /// True while files read later decide the view (no --center or --zoom, and the user has not moved).
    public var fitsToFiles = false
    /// The zoom a fit to the files keeps (`--zoom` without `--center`: the files give the centre only).
    public var fitKeepsZoom: Double?
    /// Bad lines of each stream said so far.
    var streamBadLines: [String: Int] = [:]
    /// What the last view showed of street data, when it is worth a hint: said on entering it (over a
    /// key's routine message), not again while the views stay in it.
    public var streetDataHint: StreetDataHint?
    /// True while the message line shows that hint: the next key clears it.
    var showsStreetDataHint = false
    /// False in kiosk mode: a shared demo account's visitor cannot add data.
    public var suggestsStreetData = true
    /// Why Ctrl-Z cannot suspend here (kiosk mode, no job control), said instead; nil: it suspends.
    public var suspendRefusal: String?
    /// The zoom from which a view without street data says how to get some.
    public static let streetZoom = 12.0
    /// What it says.
    public static let noStreetDataHint = StreetDataHint.noneHere.text
    /// The latitude/longitude grid is drawn (`#`).
    public var showGrid = true
    /// The imagery is drawn (`I`), when the run has one.
    public var showImagery = true
    /// The imagery's name (nil: the run has no raster tileset).
    public var imageryName: String?
    /// The live position, when the run has a GPS source (`--gps`; issue 49).
    public var position: LivePosition?
    /// Why `R` may not record a track here (a kiosk writes no file), nil when it may.
    public var recordingRefusal: String?
    /// The time bar, while open (`T`); and whether the map follows the first track's marker (`F`).
    public var timeBar: TimeBar?
    public var followsTrack = false
    /// Which played track the map follows (its number on the bar, from 0).
    public var followedTrack = 0
    /// True when following moved the view in this update (a pan by the user ends following; this does not).
    var followMoved = false
    /// The terrain's hillshade is drawn (`H`), when the run has terrain.
    public var showHillshade = true
    /// The terrain's name (nil: the run has no elevation tiles).
    public var terrainName: String?
    /// The file whose track's elevation profile is shown (`p` then its number in the layers panel).
    public var profileFile: Int?
    /// True after `p` in the layers panel: the next digit chooses the file.
    public var choosingProfile = false
    /// The help overlay is shown.
    public var showHelp = false
    /// True while the explain panel (`e`) is shown.
    public var showExplain = false
    /// True while the seeds' own picture is drawn over the map (`v`): a layer above the circle.
    public var showSeedOverlay: Bool {
        get { layers.first(SeedOverlayLayer.self) != nil }
        set {
            guard newValue != showSeedOverlay else { return }
            layers.set(SeedOverlayLayer.self, newValue ? SeedOverlayLayer(fit: nil) : nil)
        }
    }

    /// The layers over the map as they are drawn: the seeds' picture shows the seed's fit while the
    /// last step is an `f` (read from `lastAction` here, not written into the layer when it changes).
    public var overlays: [any MapLayer] {
        layers.layers.map { layer in
            guard var seed = layer as? SeedOverlayLayer else { return layer }
            seed.fit = Self.seedFit(lastAction)
            return seed
        } + (timeBar == nil ? [] : [timeTracksLayer]) + (position?.fix.map { [PositionLayer(fix: $0)] } ?? [])
    }

    /// Everything drawn on the screen besides the base map: the layers over it, then the open panels.
    public var screenLayers: [any ScreenLayer] {
        overlays + (showHelp ? [Panel.help] : []) + (showExplain ? [Panel.explain] : [])
            + (showLegend ? [Panel.legend] : [])
    }

    /// A panel over the map (the help, the explain panel): it stays where it is when the map moves.
    public enum Panel: ScreenLayer {
        case help, explain, legend
        public var movesWithMap: Bool { false }
    }

    /// Where seed 002 B's fit would have put the camera, after an `f`.
    static func seedFit(_ action: LastAction?) -> SeedOverlayLayer.Fit? {
        action?.fit.map { SeedOverlayLayer.Fit(zoom: $0.seedZoom, center: $0.seedCenter) }
    }
    /// The tour, when one is playing or paused.
    public var tour: TourMode = .off
    /// The help page shown (when the help does not fit at once).
    public var helpPage = 0
    /// View changes are animated.
    public var animationsEnabled = true
    /// The change being animated, if any.
    public var animation: ViewAnimation?
    /// Per source, the tiles last asked for that have not arrived.
    public internal(set) var requestedTiles: [Int: [TileID]] = [:]
    /// Per source, the tiles that arrived for the view drawn (`tilesView`): a view that lacks one of
    /// them again (a cache too small for the view let it go) does not ask for it again.
    var arrivedTiles: [Int: Set<TileID>] = [:]
    var tilesView: MapView?

    /// Rows under the map: the status line and the message line.
    public static let statusRows = 2
    /// Below this size the screen says so instead of drawing the map.
    public static let minimumCols = 20
    /// Below this size the screen says so instead of drawing the map.
    public static let minimumRows = 6
    /// An earlier view and what changed it (`pan`, `zoom in`…), so that undo can say what it undid.
    public struct HistoryEntry: Equatable, Sendable {
        public var view: MapView
        public var change: String
    }

    /// Views kept for undo.
    public static let historyLimit = 100

    /// A viewer for a terminal of `cols × rows` showing `center` at `zoom`.
    public init(cols: Int, rows: Int, center: Coordinate, zoom: Double) throws(GeoError) {
        terminalCols = max(1, cols)
        terminalRows = max(1, rows)
        view = try MapView(center: center, zoom: zoom, size: Self.mapSize(cols: cols, rows: rows))
    }

    /// The map area for a terminal size (at least 1×1 so that the model stays valid).
    public static func mapSize(cols: Int, rows: Int) -> ViewSize {
        (try? ViewSize(cols: max(1, cols), rows: max(1, rows - statusRows))) ?? Self.oneCell
    }

    private static let oneCell: ViewSize = {
        do { return try ViewSize(cols: 1, rows: 1) } catch { preconditionFailure("1×1 is a valid size") }
    }()

    /// True when the terminal is large enough to draw the map.
    public var isLargeEnough: Bool { terminalCols >= Self.minimumCols && terminalRows >= Self.minimumRows }

    /// Changes the terminal size, keeping center and zoom.
    public mutating func resize(cols: Int, rows: Int) {
        terminalCols = max(1, cols)
        terminalRows = max(1, rows)
        view.resize(to: Self.mapSize(cols: cols, rows: rows))
        if let a = animation {
            var from = a.from
            from.resize(to: view.size)
            animation = ViewAnimation(from: from, progress: a.progress)
        }
    }

    /// The view to draw now: the animation's in-between view, or the view itself.
    public var displayedView: MapView {
        guard let a = animation, a.progress < 1 else { return view }
        return ViewInterpolation.between(a.from, view, t: a.progress)
    }
}

/// In-between views for animations: zoom linear, center linear in Mercator along the shorter way.
public enum ViewInterpolation {
    /// The view at fraction `t` (0…1) of the way from `a` to `b`, at `b`'s size.
    public static func between(_ a: MapView, _ b: MapView, t: Double) -> MapView {
        let s = t * t * (3 - 2 * t)  // smoothstep: starts and ends gently
        let pa = a.centerPoint
        var pb = b.centerPoint
        if pb.x - pa.x > 0.5 { pb.x -= 1 }
        if pa.x - pb.x > 0.5 { pb.x += 1 }
        let p = MercatorPoint(x: pa.x + (pb.x - pa.x) * s, y: pa.y + (pb.y - pa.y) * s)
        var v = b
        let center = WebMercator.unproject(p)
        let zoom = a.zoom + (b.zoom - a.zoom) * s
        _ = try? v.setCenter(
            Coordinate(latitude: WebMercator.clampLatitude(center.latitude), longitude: center.longitude),
            zoomLevel: zoom)
        return v
    }
}

/// A hint about street-level data that a view earns: its edge is in view, or a street view has none.
public enum StreetDataHint: Sendable, Equatable {
    case endsHere, noneHere

    /// What the message line says.
    public var text: String {
        switch self {
        case .endsHere: "no street data beyond here"
        case .noneHere: "no street data here: termmap --tiles openfreemap, or termmap data get"
        }
    }
}
