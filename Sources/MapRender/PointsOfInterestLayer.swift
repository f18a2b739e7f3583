import MapData
import MapFormats
import Raster

/// A point of interest in view: its name, kind, cell and feature (as the pick buffer tags it).
struct PointOfInterest {
    var name: String?
    var kind: NameKind
    var col: Int
    var row: Int
    var feature: UInt32
}

/// Points of interest: a sign (a letter for the kind, `StyleTable.poiGlyph`) at each, and its name beside
/// it, placed by the label engine after the streets' names (they are less important), stations and
/// sights first. A point whose sign has no room is left out; a named point whose name has none keeps
/// its sign and counts in `poisOmitted` (MapLibre's symbol placement drops the label, not the map).
/// From zoom 16 stations, sights and hotels are shown, from 17 every kind.
public struct PointsOfInterestLayer: MapLayer, Equatable {
    /// The points of interest.
    public init() {}

    /// The zoom from which every kind is shown (from 16 to it: stations, sights and hotels).
    static let everyKindZoom = 17.0

    /// True when points of `kind` are shown at `zoom`: below 17 only stations, sights and hotels (a city
    /// centre's shops would crowd out its streets).
    static func shows(_ kind: NameKind, zoom: Double) -> Bool { zoom >= everyKindZoom || priority(kind) <= 2 }

    /// Which kinds are placed first.
    static func priority(_ kind: NameKind) -> Int {
        switch kind {
        case .station: 0
        case .sight: 1
        case .lodging: 2
        case .food, .drink: 3
        case .shop: 4
        default: 5
        }
    }

    public func draw(into c: inout LayerContext) {
        guard !c.pois.isEmpty else { return }
        // Stations first, then sights…; named ones before unnamed; then top to bottom, left to right, so
        // that a pan keeps the same order.
        let order = c.pois.indices.sorted { a, b in
            let (p, q) = (c.pois[a], c.pois[b])
            return (Self.priority(p.kind), p.name == nil ? 1 : 0, p.row, p.col) < (
                Self.priority(q.kind), q.name == nil ? 1 : 0, q.row, q.col
            )
        }
        for i in order {
            let poi = c.pois[i]
            let sign = MapLabel(
                text: String(StyleTable.poiGlyph(poi.kind)), col: poi.col, row: poi.row, role: .feature(.poi))
            if let name = poi.name, !name.isEmpty {
                c.report.poisNamed += 1
                let text = Transliteration.screenText(name, ascii: c.ascii)
                if c.labels.placeBeside(
                    text, role: .poiLabel, markerCol: poi.col, markerRow: poi.row, drawsMarker: false, canvas: c.canvas,
                    gap: true) != nil
                {
                    c.labels.nameLast(poi.feature)
                    c.labels.addSign(sign, feature: poi.feature)
                    continue
                }
                c.report.poisOmitted += 1
            }
            if c.labels.place(sign) { c.labels.nameLast(poi.feature) }
        }
    }
}
