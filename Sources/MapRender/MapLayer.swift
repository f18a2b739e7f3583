import GeoCore
import Raster

/// Something drawn on the screen: a map layer, or a panel over the map.
public protocol ScreenLayer: Sendable {
    /// True when what it draws is fixed to the ground, so that a pan moves it with the map (and the
    /// terminal can move what it shows); false for what stays on the screen (a panel, a crosshair).
    var movesWithMap: Bool { get }
}

/// Something drawn on the map (ratatui's `Shape`: anything that can draw itself): the base map, the
/// grid, places, street names, the circle, the seeds' picture, and whatever a user adds. Layers are
/// drawn in order into one `LayerContext`; where two share a cell, the canvas keeps the higher ink
/// (`StyleTable`), and the pick buffer the feature that drew it.
public protocol MapLayer: ScreenLayer {
    /// Draws the layer.
    func draw(into context: inout LayerContext)
    /// True when `other` is the same layer drawn the same way (layers are part of the viewer's state,
    /// which is compared).
    func isEqual(to other: any MapLayer) -> Bool
}

extension MapLayer {
    public var movesWithMap: Bool { true }
}

extension MapLayer where Self: Equatable {
    public func isEqual(to other: any MapLayer) -> Bool { (other as? Self) == self }
}

/// An ordered list of layers, compared layer by layer.
public struct LayerList: Equatable, Sendable {
    /// The layers, lowest first.
    public var layers: [any MapLayer]

    /// A list.
    public init(_ layers: [any MapLayer] = []) { self.layers = layers }

    public static func == (a: LayerList, b: LayerList) -> Bool {
        a.layers.count == b.layers.count && zip(a.layers, b.layers).allSatisfy { $0.isEqual(to: $1) }
    }

    /// The first layer of type `T` (a plain loop, inlined where asked: the state asks for its circle at
    /// every frame).
    @inlinable
    public func first<T: MapLayer>(_ type: T.Type) -> T? {
        for layer in layers { if let found = layer as? T { return found } }
        return nil
    }

    /// Replaces the first layer of type `T` with `layer` (nil removes it); a new one goes to `index`
    /// (the end when nil).
    public mutating func set<T: MapLayer>(_ type: T.Type, _ layer: T?, at index: Int? = nil) {
        if let i = layers.firstIndex(where: { $0 is T }) {
            if let layer { layers[i] = layer } else { layers.remove(at: i) }
        } else if let layer {
            layers.insert(layer, at: min(index ?? layers.count, layers.count))
        }
    }
}

/// What a layer draws into, and what layers tell the ones after them and the compositor: the canvas,
/// each cell's area fill, the one transform from the map to the view's dots, the label engine and
/// the pick buffer.
public struct LayerContext {
    /// The view drawn.
    public let view: MapView
    /// Map ↔ dots of the view (Leaflet's `CRS.transformation`: every layer goes through it).
    public let transform: ViewTransform
    /// The map data.
    public let sources: MapSources?
    /// True when the glyphs are ASCII (text must be transliterated).
    public let ascii: Bool
    /// The dots.
    public var canvas: BrailleCanvas
    /// Per map cell, the style-table ink of the area whose inside holds its centre (0: none); the higher
    /// ink wins.
    public var fills: [UInt8]
    /// Where text goes.
    public var labels: LabelEngine
    /// Which feature drew each cell.
    public var pick: PickBuffer
    /// A level of detail of a user's file the view lacks is made while drawing (else reported).
    public var makesDetailAtOnce = true

    // What the base map found, for the layers after it and the compositor.
    /// Named streets in view (for the street names).
    var streets: [StreetCandidate] = []
    /// Points of interest in view (for their signs and names).
    var pois: [PointOfInterest] = []
    /// Peaks and passes in view (for their signs and heights).
    var peaks: [Peak] = []
    /// True when the world's land is drawn: cells outside it are sea.
    var showsSea = false
    /// Cells outside the circle (empty without one).
    var shade: [Bool] = []
    /// The circle drawn, for the seeds' picture beside it.
    var circle: GeodesicCircle?
    /// What the sources gave the view.
    var report = SourceReports()
    /// The imagery's colour of each half-cell (cell `i`'s upper half at `2i`, lower at `2i + 1`; 0:
    /// none, else `1 << 24 | rgb`); empty when no imagery is drawn.
    var imagery: [UInt32] = []
    /// How lit each cell's ground is (0–1, NaN: no height there), when hillshade is drawn; else empty.
    var hillshade: [Float] = []
    /// True when the imagery is also wanted as a picture (a terminal that draws pictures).
    var wantsPicture: PictureCell?
    /// The imagery as a picture, when wanted and there is some.
    var picture: MapPicture?

    /// A context for `view` with nothing drawn yet.
    public init(view: MapView, sources: MapSources?, ascii: Bool) {
        self.view = view
        transform = view.transform
        self.sources = sources
        self.ascii = ascii
        let cols = view.size.cols
        let rows = view.size.rows
        canvas = BrailleCanvas(cols: cols, rows: rows)
        fills = [UInt8](repeating: 0, count: cols * rows)
        labels = LabelEngine(cols: cols, rows: rows)
        pick = PickBuffer(cols: cols, rows: rows)
    }

    /// Draws with `draw` as the feature `feature`: the cells its dots reach (where no higher ink is) name
    /// it as theirs. For a layer of its own features (a user's file, a test's point).
    public mutating func drawing(_ feature: PickedFeature, _ draw: (inout BrailleCanvas) -> Void) {
        let tag = pick.register(feature)
        canvas.tag = tag
        draw(&canvas)
        canvas.tag = 0
    }
}
