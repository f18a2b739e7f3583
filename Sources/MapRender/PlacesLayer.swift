import FoundationEssentials
import GeoCore
import Glibc
import MapData
import MapFormats
import Raster

/// Places: largest first, a dot at each city and its name beside it, never overlapping another label.
/// Which places a zoom names is set by the zoom alone (a population floor), and where names go by who
/// came first: a count budget made names come and go all over the screen whenever a pan brought a
/// larger place into view.
public struct PlacesLayer: MapLayer, Equatable {
    /// The places.
    public init() {}

    public func draw(into c: inout LayerContext) {
        guard let sources = c.sources else { return }
        try? place(&c, sources)
    }

    /// The smallest city (by rank) a zoom names: 4 million people for the world at zoom 0, half that a
    /// zoom step further in, every city of the gazetteer (15,000 and more) from zoom 7.
    static func populationFloor(zoom: Double) -> Int {
        guard zoom < 7 else { return 0 }
        return Int(4_000_000 * exp2(-max(0, zoom)))
    }

    func place(_ c: inout LayerContext, _ sources: MapSources) throws(MapDataError) {
        let view = c.view
        let cols = view.size.cols
        let rows = view.size.rows
        let floor = Self.populationFloor(zoom: view.zoom)
        // Below zoom 7 only the places above the next whole zoom's floor are decoded (the floor formula,
        // not cut to 0 at zoom 7).
        let tier = Int(view.zoom.rounded(.down))
        let t = c.transform
        let places: RankedPlaces
        if floor > 0 {
            // Above the floor are few places (1,500 at zoom 4): all of them, in rank order, until the floor.
            places = try sources.topPlaces(tier: tier, floor: Int(4_000_000 * exp2(-Double(tier + 1))))
        } else {
            // One cell of margin: a place's label may start just outside the map's edge.
            let margin = 4 / t.worldSize
            let halfX = t.halfWidth / t.worldSize + margin
            let halfY = t.halfHeight / t.worldSize + margin
            // Past the Mercator limits, to the poles (places there are drawn at the edge).
            let top = t.center.y - halfY
            let bottom = t.center.y + halfY
            places = try sources.placesNear(
                south: bottom >= 1 ? -90 : WebMercator.unproject(MercatorPoint(x: 0, y: bottom)).latitude,
                north: top <= 0 ? 90 : WebMercator.unproject(MercatorPoint(x: 0, y: top)).latitude,
                west: (t.center.x - halfX) * 360 - 180, east: (t.center.x + halfX) * 360 - 180)
        }
        var named = false
        // Most important first (places are kept in rank order).
        for i in places.id.indices {
            // Suburbs from zoom 13, neighbourhoods from 15 (cities come first in the list, so these only
            // take room that no city wants).
            let kind = places.kind[i]
            // Cities come first, in rank order: past the floor (below zoom 7) none is left to name.
            if floor > 0 && (!kind.isCity || places.rank[i] < floor) { break }
            if kind == .suburb && view.zoom < 13 || kind == .neighbourhood && view.zoom < 15 { continue }
            let xd = t.nearestDotX(places.x[i])
            let yd = t.dotY(places.y[i])
            // Most places are off screen: reject them on the Doubles before any rounding.
            guard xd > -1, yd > -1, xd < view.size.widthDots, yd < view.size.heightDots else { continue }
            let x = BrailleCanvas.dot(xd)
            let y = BrailleCanvas.dot(yd)
            guard x >= 0, y >= 0, x < cols * 2, y < rows * 4 else { continue }
            let id = places.id[i]
            let name = sources.labelText(id, ascii: c.ascii)
            let role: StyleRole = kind == .capital ? .capitalLabel : kind.isCity ? .cityLabel : .placeLabel
            guard
                c.labels.placeBeside(
                    name, role: role, markerCol: x / 2, markerRow: y / 4, drawsMarker: kind.isCity, canvas: c.canvas)
                    != nil
            else { continue }
            let feature = PickBuffer.placeTag(id)
            c.labels.nameLast(feature)
            if id < sources.features.base.placeCount { named = true }
            if kind.isCity {
                c.canvas.tag = feature
                c.canvas.set(x: x, y: y, ink: StyleTable.ink(.city))
                c.canvas.tag = 0
            }
        }
        // The gazetteer's data is credited where its names are shown.
        if named { c.report.credit(sources.features.base.placeCredits) }
    }
}
