import GeoCore
import MapData
import MapFormats
import Raster

/// How a source stands for a view: everything there, tiles loading, tiles that failed (counted), or
/// out of reach.
public struct SourceStatus: Equatable, Sendable {
    /// `ok`, `loading`, `failed`, or `offline`.
    public enum State: String, Sendable { case ok, loading, failed, offline }
    /// Tiles of the view still to come.
    public var loading = 0
    /// Tiles of the view that could not be read.
    public var failed = 0
    /// Tiles of the view not to be had without a network (everything cached is drawn).
    public var offline = 0
    /// Features of the view's tiles left out for a malformed geometry (the rest of each tile is drawn).
    public var skipped = 0
    /// Tiles of the view at hand (drawn): offline, what is cached.
    public var cached = 0

    /// A status.
    public init(loading: Int = 0, failed: Int = 0, offline: Int = 0, skipped: Int = 0, cached: Int = 0) {
        self.loading = loading
        self.failed = failed
        self.offline = offline
        self.skipped = skipped
        self.cached = cached
    }

    /// The state in a word: loading while any tile is to come, offline when some want a network,
    /// failed when some could not be read.
    public var state: State { loading > 0 ? .loading : offline > 0 ? .offline : failed > 0 ? .failed : .ok }
}

/// One data source as a render saw it.
public struct SourceReport: Equatable, Sendable {
    /// Its name in words (`OpenStreetMap (helsinki)`, `Natural Earth`; a second source of one name
    /// `NAME (2)`).
    public var name: String
    /// Where it comes from.
    public var kind: SourceKind
    /// What its data must be credited with.
    public var credits: [Credit]
    /// True when the view asked it for data (it covers the view at this zoom).
    public var inView: Bool
    /// The detail it gave the view.
    public var detail: SourceDetail?
    /// Its tiles for the view.
    public var status: SourceStatus
}

extension SourceReport {
    /// `source` as a view at `zoom` over `bounds` sees it: in view when its coverage meets the view
    /// (with the detail it gives there), its tiles' state `status`.
    init(
        _ source: any FeatureSource, name: String, bounds: CoordinateBounds, zoom: Double,
        status: SourceStatus = SourceStatus()
    ) {
        let inView = FeatureSources.meets(source.coverage, bounds)
        self.init(
            name: name, kind: source.kind, credits: source.credits, inView: inView,
            detail: inView ? source.detail(atZoom: zoom) : nil, status: status)
    }
}

/// What the sources gave a view, gathered while the base map draws.
struct SourceReports {
    /// Per source that the view asked, in view order (finest first): what it gave.
    var asked: [(index: Int, detail: SourceDetail, status: SourceStatus)] = []
    /// The credits of the data drawn, in the order first drawn.
    var credits: [Credit] = []
    /// Tiles views lack, per source.
    var missing: [TileBatch] = []
    /// The imagery as the view saw it (nil: the run has none, or `I` hides it).
    var imagery: SourceReport?
    /// The terrain as the view saw it, and the height under its centre.
    var terrain: SourceReport?
    var centerHeight: (meters: Double, source: String)?
    /// Levels of detail of the user's files the view wants and lacks.
    var missingDetail: [DetailRequest] = []
    /// The sources drawn over the map (the user's shown files), in their layers' order: listed after
    /// the map's own.
    var overlays: [SourceReport] = []
    /// Why the data could not be drawn, if it could not.
    var dataError: String?
    /// The view shows where a street-level source's data ends.
    var streetDataEnds = false
    /// Street-level data is drawn in the view (or its tiles are loading).
    var streetDataInView = false
    /// Named points of interest in view, and those whose name found no room.
    var poisNamed = 0, poisOmitted = 0

    mutating func add(_ result: SourceHits, drawn: Bool, zoom: Double) {
        asked.append(
            (
                result.index, result.source.detail(atZoom: zoom),
                SourceStatus(
                    loading: result.view.missing.count, failed: result.view.failed, offline: result.view.offline,
                    skipped: result.view.skipped, cached: result.view.cached)
            ))
        if !result.view.missing.isEmpty { missing.append(TileBatch(source: result.index, tiles: result.view.missing)) }
        if drawn { credit(result.source.credits) }
    }

    /// Credits `list` (once each).
    mutating func credit(_ list: [Credit]) {
        for c in list where !credits.contains(c) { credits.append(c) }
    }
}

/// A label placed on the map, with the feature it names.
public struct PlacedLabel: Equatable, Sendable {
    /// What it says, as shown.
    public var text: String
    /// Where its first character is.
    public var col: Int
    public var row: Int
    /// The feature it names (nil for the grid's labels).
    public var feature: PickedFeature?
}

/// What a render drew besides its cells, so that it can be asked: the labels and the feature behind
/// each cell, the credits of the data shown, each source's state, and the tiles it lacked.
public struct MapRendering {
    /// The height under the view's centre (the crosshair), when the run has terrain and its tile is at
    /// hand: metres, and the source.
    public var centerHeight: (meters: Double, source: String)?
    /// The elevation profile drawn (issue 48), and what it is of; set by the viewer, which knows the line.
    public var profile: (of: String, profile: ElevationProfile)?
    /// The labels as the engine placed them, and whether they are shown in ASCII.
    let placed: [MapLabel]
    let ascii: Bool
    /// The feature behind each map cell.
    public var pick: Pick
    /// The credits of the data drawn, in the order first drawn.
    public var credits: [Credit]
    /// Every source of the run, in view order (finest first).
    public var sources: [SourceReport]
    /// Tiles the view lacked, per source (a program loads them and draws again).
    public var missing: [TileBatch]
    /// Levels of detail of the user's files the view lacked (a program makes them and draws again).
    public var missingDetail: [DetailRequest] = []
    /// Why the data could not be drawn, if it could not.
    public var dataError: String?
    /// The view shows where a street-level source's data ends (its box's side, drawn faint).
    public var streetDataEnds = false
    /// Street-level data is drawn in the view, or its tiles are loading.
    public var streetDataInView = false
    /// Named points of interest in view, and how many of them have no name on screen (no room).
    public var poisNamed = 0, poisOmitted = 0
    /// The imagery as a picture, when the style asked for one and there is imagery in view.
    public var picture: MapPicture?
    /// The feature classes drawn on screen (by their ink, lowest first), and the kinds of the points of
    /// interest signed, for the legend.
    public var shownClasses: [FeatureClass] = []
    public var shownPointKinds: [NameKind] = []

    /// The labels placed, in the order placed, each with its feature (worked out when asked).
    public var labels: [PlacedLabel] {
        placed.map {
            PlacedLabel(
                text: Transliteration.screenText($0.text, ascii: ascii), col: $0.col, row: $0.row,
                feature: $0.feature == 0 ? nil : pick.resolve($0.feature))
        }
    }

    /// The sources the view asked, in view order.
    public var sourcesInView: [SourceReport] { sources.filter(\.inView) }

    /// Tiles of the view still to come and tiles that failed, over every source.
    public var tiles: SourceStatus {
        sources.reduce(SourceStatus()) {
            SourceStatus(
                loading: $0.loading + $1.status.loading, failed: $0.failed + $1.status.failed,
                offline: $0.offline + $1.status.offline, skipped: $0.skipped + $1.status.skipped,
                cached: $0.cached + $1.status.cached)
        }
    }
}
