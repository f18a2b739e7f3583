import GeoCore
import MapData
import MapFormats
import Raster
import Support

/// A rectangle in dots.
typealias DotRect = (x0: Double, y0: Double, x1: Double, y1: Double)

/// The centre lines of a view's cell rows and columns, in dots (the transform's cell centres).
let rowCentres = ScanlineFill.Lines(spacing: Double(ViewSize.dotsPerCellY), offset: ViewTransform.centerY(row: 0))
let columnCentres = ScanlineFill.Lines(spacing: Double(ViewSize.dotsPerCellX), offset: ViewTransform.centerX(col: 0))

/// The map data of the view (`FeatureSources` chooses which source draws which class where): lines by
/// their style row's look, areas filled and outlined. It tells the layers after it the named streets
/// in view and what each source gave and lacks.
public struct BaseMapLayer: MapLayer, Equatable {
    /// The base map.
    public init() {}

    public func draw(into context: inout LayerContext) {
        guard let sources = context.sources else { return }
        var drawing = FeatureLayer()
        do {
            try drawing.draw(&context, sources)
        } catch {
            context.report.dataError = error.description
        }
    }
}

/// What the base map is drawing: the named streets in view for the label engine.
struct FeatureLayer {
    var streets: [StreetCandidate] = []

    /// Draws every source's lines and areas in view (FeatureSources chooses which source draws which
    /// class where): lines by their style row's look, areas filled and outlined.
    mutating func draw(_ c: inout LayerContext, _ sources: MapSources) throws(MapDataError) {
        let view = c.view
        let bounds = view.bounds
        let results = try sources.features.query(bounds: bounds, zoom: view.zoom, metersPerDot: view.metersPerDot)
        let t = c.transform
        for result in results {
            var drawn = false
            if let land = StyleTable.row(.feature(.land)), result.source.classes.contains(.land),
                view.zoom >= land.minZoom, view.zoom < land.maxZoom
            {
                c.showsSea = true
            }
            defer {
                c.report.add(result, drawn: drawn, zoom: view.zoom)
                // Street-level data drawn here, or on its way (tiles loading).
                if drawn || !result.view.missing.isEmpty,
                    sources.features.details.contains(where: { $0 === result.source })
                {
                    c.report.streetDataInView = true
                }
            }
            guard !result.hits.isEmpty else { continue }
            // The boxes where finer sources draw a class, in dots.
            let excluded = result.excluded.mapValues { boxes in boxes.map { Self.dotRect($0, view) } }
            for hit in result.hits {
                let featureClass = hit.chunk.info.featureClass
                // The zoom ladder: a class is drawn from its row's zoom on.
                guard let row = StyleTable.row(.feature(featureClass)), view.zoom >= row.minZoom,
                    view.zoom < row.maxZoom
                else { continue }
                drawn = true
                let clip = excluded[featureClass] ?? []
                let pickChunk = c.pick.register(.chunk(hit, source: result.index, excluded: clip))
                if featureClass == .peak {
                    PeaksLayer.collect(hit, t, source: result.source, pickChunk: pickChunk, &c)
                    continue
                }
                if featureClass.isPoint {
                    Self.collectPoints(hit, t, source: result.source, pickChunk: pickChunk, &c)
                    continue
                }
                if !hit.namesOnly, let width = StyleTable.roadWidth(featureClass), view.zoom >= StyleTable.roadBandZoom
                {
                    Self.band(
                        hit, t, classWidthDots: width / view.metersPerDot, dotsPerMetre: 1 / view.metersPerDot,
                        ink: row.ink, pickChunk: pickChunk, &c)
                }
                // A background area's edge is another class's line (the coast, a lake's shore); a
                // building's block needs its outline only from zoom 17, where neighbours touch.
                let outlined =
                    !(featureClass.isFillOnly
                    || (featureClass == .building && view.zoom < StyleTable.buildingOutlineZoom))
                let filled = hit.chunk.info.kind == .areas && row.fill256 != nil
                guard outlined || filled else { continue }
                drawFeatures(
                    hit, t, row: row, outlined: outlined, filled: filled, excluded: clip, source: result.source,
                    pickChunk: pickChunk, &c)
            }
            if drawn && result.source.claimsShorelines { Self.drawEdge(of: result.source.coverage, &c) }
        }
        c.streets = streets
    }

    /// The points of interest of a chunk in view, for the layer that signs and names them.
    static func collectPoints(
        _ hit: ChunkHit, _ t: ViewTransform, source: any ChunkSource, pickChunk: Int, _ c: inout LayerContext
    ) {
        let chunk = hit.chunk
        let place = ChunkPlacement(hit, t)
        let (ws, offsetX, offsetY) = (place.ws, place.offsetX, place.offsetY)
        let (w, h) = (c.view.size.widthDots, c.view.size.heightDots)
        for f in 0..<chunk.featureCount {
            let kind = NameKind(.poi, detail: chunk.detail(f))
            // Kinds this zoom does not show are left before their name is read.
            guard PointsOfInterestLayer.shows(kind, zoom: c.view.zoom) else { continue }
            // Each point of a MultiPoint is a sign of its own, named as the feature is.
            var name: String??
            for part in chunk.featureStarts[f]..<chunk.featureStarts[f + 1] {
                let i = chunk.starts[part]
                let (x, y) = (chunk.x[i] * ws + offsetX, chunk.y[i] * ws + offsetY)
                guard x >= 0, y >= 0, x < w, y < h else { continue }
                if let r = place.clip, !(x >= r.x0 && x < r.x1 && y >= r.y0 && y < r.y1) {
                    continue  // a neighbour's buffer: that tile draws it
                }
                if name == nil { name = chunk.nameIndex[f] >= 0 ? source.featureName(chunk.nameIndex[f]) : nil }
                c.pois.append(
                    PointOfInterest(
                        name: name ?? nil, kind: kind == .unknown ? .amenity : kind,
                        col: Int(x) / ViewSize.dotsPerCellX,
                        row: Int(y) / ViewSize.dotsPerCellY, feature: c.pick.tag(set: pickChunk, feature: f)))
            }
        }
    }

    /// A road's band about its centre line, as wide as its `width`/`lanes` tags say (the import's detail,
    /// in decimetres) or else `classWidthDots`: the cells whose centre lies within it take the road's
    /// ink (each segment's rectangle; the centre line's dots are drawn over it).
    static func band(
        _ hit: ChunkHit, _ t: ViewTransform, classWidthDots: Double, dotsPerMetre: Double, ink: UInt8, pickChunk: Int,
        _ c: inout LayerContext
    ) {
        let chunk = hit.chunk
        let place = ChunkPlacement(hit, t)
        let (ws, offsetX, offsetY, mapCols, mapRows, clip) = (
            place.ws, place.offsetX, place.offsetY, place.mapCols, place.mapRows, place.clip
        )
        guard mapCols > 0, mapRows > 0 else { return }
        var crossings: [Double] = []
        for f in 0..<chunk.featureCount {
            let tagged = chunk.detail(f)
            let half = (tagged > 0 ? Double(tagged) / 10 * dotsPerMetre : classWidthDots) / 2
            // A band narrower than a cell is the centre line itself.
            guard half >= 1 else { continue }
            let b = 4 * f
            guard chunk.featureBoxes[b + 2] * ws + offsetX >= -half,
                chunk.featureBoxes[b] * ws + offsetX <= Double(mapCols * 2) + half,
                chunk.featureBoxes[b + 3] * ws + offsetY >= -half,
                chunk.featureBoxes[b + 1] * ws + offsetY <= Double(mapRows * 4) + half
            else { continue }
            let tag = c.pick.tag(set: pickChunk, feature: f)
            for part in chunk.featureStarts[f]..<chunk.featureStarts[f + 1] {
                for i in chunk.starts[part]..<(chunk.starts[part + 1] - 1) {
                    let (px, py) = (chunk.x[i] * ws + offsetX, chunk.y[i] * ws + offsetY)
                    let (qx, qy) = (chunk.x[i + 1] * ws + offsetX, chunk.y[i + 1] * ws + offsetY)
                    let length = ((qx - px) * (qx - px) + (qy - py) * (qy - py)).squareRoot()
                    guard length > 0 else { continue }
                    // The segment's rectangle, lengthened by half the width at each end (so that bends join).
                    let (ux, uy) = ((qx - px) / length * half, (qy - py) / length * half)
                    // The corners in order round the rectangle (a tuple, not an array: no allocation a segment).
                    let quad = (
                        (px - ux - uy, py - uy + ux), (qx + ux - uy, qy + uy + ux), (qx + ux + uy, qy + uy - ux),
                        (px - ux + uy, py - uy - ux)
                    )
                    let ys = (quad.0.1, quad.1.1, quad.2.1, quad.3.1)
                    let top = max(0, rowCentres.first(from: min(min(ys.0, ys.1), min(ys.2, ys.3))))
                    let bottom = min(mapRows - 1, rowCentres.first(from: max(max(ys.0, ys.1), max(ys.2, ys.3))) - 1)
                    guard top <= bottom else { continue }
                    // Off screen sideways: nothing to fill.
                    let xs = (quad.0.0, quad.1.0, quad.2.0, quad.3.0)
                    guard max(max(xs.0, xs.1), max(xs.2, xs.3)) >= 0,
                        min(min(xs.0, xs.1), min(xs.2, xs.3)) <= Double(mapCols * 2)
                    else { continue }
                    for row in top...bottom {
                        crossings.removeAll(keepingCapacity: true)
                        for (a, b) in [(quad.0, quad.1), (quad.1, quad.2), (quad.2, quad.3), (quad.3, quad.0)] {
                            ScanlineFill.crossings(a.1, a.0, b.1, b.0, lines: rowCentres, within: row...row) { _, x in
                                crossings.append(x)
                            }
                        }
                        crossings.sort()
                        let y = ViewTransform.centerY(row: row)
                        ScanlineFill.spans(crossings, lines: columnCentres, within: 0...(mapCols - 1)) { from, to in
                            for col in from...to where c.fills[row * mapCols + col] <= ink {
                                if let r = clip {
                                    let x = ViewTransform.centerX(col: col)
                                    guard x >= r.x0, x < r.x1, y >= r.y0, y < r.y1 else { continue }
                                }
                                c.fills[row * mapCols + col] = ink
                                c.pick.fillTags[row * mapCols + col] = tag
                            }
                        }
                    }
                }
            }
        }
    }

    /// Where street-level data ends: its box's sides in view, dotted in the edge's faint ink.
    static func drawEdge(of coverage: CoordinateBounds, _ c: inout LayerContext) {
        guard coverage.east - coverage.west < 360, !FeatureSources.contains(coverage, c.view.bounds) else { return }
        let r = dotRect(coverage, c.view)
        let (w, h) = (c.view.size.widthDots, c.view.size.heightDots)
        let ink = StyleTable.ink(.edge)
        var shown = false
        for (x0, y0, x1, y1) in [
            (r.x0, r.y0, r.x1, r.y0), (r.x1, r.y0, r.x1, r.y1), (r.x0, r.y1, r.x1, r.y1), (r.x0, r.y0, r.x0, r.y1),
        ] {
            guard LineClipper.clip(x0, y0, x1, y1, minX: 0, minY: 0, maxX: w - 1, maxY: h - 1) != nil else { continue }
            c.canvas.line(x0, y0, x1, y1, ink: ink, every: 2)
            shown = true
        }
        if shown { c.report.streetDataEnds = true }
    }

    /// A box in the dots of `view`, longitudes taken nearest the view's center.
    static func dotRect(_ b: CoordinateBounds, _ view: MapView) -> (x0: Double, y0: Double, x1: Double, y1: Double) {
        let t = view.transform
        if b.east - b.west >= 360 {
            let north = t.dotY(WebMercator.project(Coordinate(latitude: b.north, longitude: 0)).y)
            let south = t.dotY(WebMercator.project(Coordinate(latitude: b.south, longitude: 0)).y)
            return (-.infinity, north, .infinity, south)
        }
        let west = WebMercator.unwrap(b.west, near: view.center.longitude)
        let nw = WebMercator.project(Coordinate(latitude: b.north, longitude: west))
        let se = WebMercator.project(Coordinate(latitude: b.south, longitude: west + (b.east - b.west)))
        return (t.dotX(nw.x), t.dotY(nw.y), t.dotX(se.x), t.dotY(se.y))
    }

    /// Draws a chunk's features in view (`FeatureDrawing`): its areas filled and its lines and outlines
    /// stroked as its style row says (dotted, dashed, two dots wide), outside the excluded rectangles,
    /// and collects the named streets for labels.
    mutating func drawFeatures(
        _ hit: ChunkHit, _ t: ViewTransform, row: StyleRow, outlined: Bool, filled: Bool, excluded: [DotRect],
        source: any ChunkSource, pickChunk: Int, _ c: inout LayerContext
    ) {
        let chunk = hit.chunk
        let place = ChunkPlacement(hit, t)
        let stroke = StrokeStyle(
            ink: row.ink, every: row.dotEvery, on: row.dashOn, place: place.placement,
            wide: c.view.zoom >= row.wideFromZoom, excluded: excluded, clip: place.clip,
            outline: chunk.info.kind == .areas, inkless: hit.namesOnly)
        var drawing = FeatureDrawing(
            stroke: stroke, strokes: outlined, fillInk: filled ? row.ink : nil, set: pickChunk, place: place,
            excluded: excluded)
        let featureClass = chunk.info.featureClass
        let named = outlined && (featureClass.isRoad || featureClass == .path)
        var points: [(x: Double, y: Double)] = []
        chunk.withCoordinates { xs, ys in
            for f in 0..<chunk.featureCount where drawing.inView(chunk, f) {
                let name = named && chunk.nameIndex[f] >= 0 ? source.featureName(chunk.nameIndex[f]) : nil
                // An area only filled takes its tag when some cell is inside it (`AreaFill`).
                let tag = outlined ? c.pick.tag(set: pickChunk, feature: f) : 0
                drawing.draw(chunk, f, xs, ys, tag: tag, &c, named: name != nil, points: &points) { line in
                    streets.append(
                        StreetCandidate(name: name ?? "", featureClass: featureClass, points: line, feature: tag))
                }
            }
        }
    }
}
