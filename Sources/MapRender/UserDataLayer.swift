import GeoCore
import MapData
import MapFormats
import Raster
import Support

/// A name a layer will place once its features are drawn and its markers placed.
struct PendingLabel {
    var text: String
    var col: Int
    var row: Int
    /// Placed beside its cell, as a marker's name is (a line's name at the line's middle); else centred
    /// on it (an area's).
    var beside = false
}

/// One of the user's files on the map, above the base map: points as markers, lines, polygons as an
/// outline and a tint (a stipple without colour), in its look of the overlay palette, with
/// `name`/`title` labels through the label engine.
public struct UserDataLayer: MapLayer {
    /// The file.
    public let file: UserFile
    /// Its look in the overlay palette.
    public var look: Int
    /// Drawn (`o` toggles it).
    public var visible = true

    /// The zoom from which the file's lines are two dots wide (street level: where the map's own lines
    /// are many).
    public static let wideFromZoom = 12.0

    /// A layer of `file` in look `look`.
    public init(file: UserFile, look: Int, visible: Bool = true) {
        self.file = file
        self.look = look % StyleTable.overlayLooks
        self.visible = visible
    }

    public func isEqual(to other: any MapLayer) -> Bool {
        guard let o = other as? UserDataLayer else { return false }
        return o.file === file && o.look == look && o.visible == visible
    }

    public func draw(into c: inout LayerContext) {
        guard visible else { return }
        c.report.overlays.append(
            SourceReport(file, name: SourceNames.display(file.label), bounds: c.view.bounds, zoom: c.view.zoom))
        guard file.data.count > 0 else { return }
        var (ready, wanted) = file.detail(zoom: c.view.zoom)
        if let w = wanted, c.makesDetailAtOnce {
            file.prepare(w)
            ready = file.readyLevel(w)
            wanted = nil
        }
        if let wanted { c.report.missingDetail.append(DetailRequest(file: file, level: wanted)) }
        guard let level = ready else { return }
        var pass = DrawPass(layer: self, level: level, context: &c)
        let (w, h) = (c.view.size.widthDots, c.view.size.heightDots)
        for place in WorldPlacement.copies(c.transform) {
            // The view's rectangle in this copy's unit square.
            let (x0, y0, x1, y1) = place.unitRect(width: w, height: h)
            pass.drawDots(minX: x0, minY: y0, maxX: x1, maxY: y1, place, &c)
            level.index.features(minX: x0, minY: y0, maxX: x1, maxY: y1) { f in pass.drawFeature(f, place, &c) }
        }
        pass.placeMarkersAndNames(&c)
    }

    /// One drawing of the layer: what it has marked and named so far, over every world copy.
    struct DrawPass {
        let layer: UserDataLayer
        let level: UserLayerLevel
        /// The level's features (kept here: copying them out of the level at each call costs a retain
        /// of each of their columns).
        let data: UserLayerData
        let role: StyleRole
        let ink: UInt8
        /// Lines two dots wide (from `UserDataLayer.wideFromZoom`), so a track is not one more thin line
        /// among the streets.
        let wide: Bool
        let ws: Double
        let (w, h): (Double, Double)
        let cols: Int
        let pickLayer: Int
        let pickDust: Int
        var labels: [PendingLabel] = []
        /// At most one point a cell is marked: a million points at zoom 0 cost a pass, not a million labels.
        var marked: [Bool]
        var markers: [(col: Int, row: Int, color: Int16)] = []
        /// Each marked point's feature: its name is looked up only where there is room for it.
        /// (`whole`: a feature of the whole file, else of the level.)
        var markerNames: [(feature: Int, whole: Bool, col: Int, row: Int)] = []
        /// A feature's points in dots (kept between features: a million points are not a million arrays).
        var points: [(x: Double, y: Double)] = []

        init(layer: UserDataLayer, level: UserLayerLevel, context c: inout LayerContext) {
            self.layer = layer
            self.level = level
            data = level.data
            role = StyleRole.overlay(layer.look)
            ink = StyleTable.ink(role)
            wide = c.view.zoom >= UserDataLayer.wideFromZoom
            ws = c.transform.worldSize
            (w, h) = (c.view.size.widthDots, c.view.size.heightDots)
            cols = c.view.size.cols
            marked = [Bool](repeating: false, count: max(0, cols * c.view.size.rows))
            pickLayer = c.pick.register(.file(layer.file, level: level.data, feature: level.feature))
            pickDust =
                level.dust.count + level.points.count > 0
                ? c.pick.register(.file(layer.file, level: layer.file.data, feature: nil)) : pickLayer
        }

        /// The ink of a colour of the file's own (simplestyle), which wins over the layer's look.
        func ink(own: Int16) -> UInt8 { own >= 0 ? StyleTable.ink(.userColor(Int(own))) : ink }

        /// Marks a point's cell (once a cell) for a marker and, where there is room, its name.
        mutating func mark(x: Double, y: Double, feature f: Int, whole: Bool, color: Int16) {
            let (col, row) = (Int(x) / ViewSize.dotsPerCellX, Int(y) / ViewSize.dotsPerCellY)
            guard row * cols + col < marked.count, !marked[row * cols + col] else { return }
            marked[row * cols + col] = true
            markers.append((col, row, color))
            markerNames.append((f, whole, col, row))
        }

        /// The dust (lines and areas that fit in a dot) a dot each, the points a dot and a marker each (one
        /// a cell), in the file's look or their own colour.
        mutating func drawDots(
            minX: Double, minY: Double, maxX: Double, maxY: Double, _ place: WorldPlacement, _ c: inout LayerContext
        ) {
            let (ox, oy) = (place.offsetX, place.offsetY)
            guard let (rows, columns) = UserLayerDots.squares(minX: minX, minY: minY, maxX: maxX, maxY: maxY) else {
                return
            }
            for (dots, marks) in [(level.dust, false), (level.points, true)] {
                for row in rows {
                    for i in dots.dots(row: row, from: columns.lowerBound, to: columns.upperBound) {
                        let (x, y) = (dots.x[i] * ws + ox, dots.y[i] * ws + oy)
                        guard x >= 0, y >= 0, x < w, y < h else { continue }
                        let f = Int(dots.feature[i])
                        let own = layer.file.data.strokeColors[f]
                        c.canvas.tag = c.pick.tag(set: pickDust, feature: f)
                        c.canvas.set(x: BrailleCanvas.dot(x), y: BrailleCanvas.dot(y), ink: ink(own: own))
                        if marks { mark(x: x, y: y, feature: f, whole: true, color: own) }
                    }
                }
            }
            c.canvas.tag = 0
        }

        /// A feature of the level: its areas filled, its lines and rings stroked, its points marked
        /// (`FeatureDrawing`, as the map's features are), in its own colours or the file's look; its name
        /// noted.
        mutating func drawFeature(_ f: Int, _ place: WorldPlacement, _ c: inout LayerContext) {
            let own = data.strokeColors[f]
            let ink = ink(own: own)
            let fillColor = data.fillColors[f]
            var drawing = FeatureDrawing(
                stroke: StrokeStyle(ink: ink, place: place, wide: wide),
                fillInk: fillColor >= 0 ? StyleTable.ink(.userColor(Int(fillColor))) : ink, set: pickLayer,
                place: ChunkPlacement(place, c.transform))
            guard drawing.inView(data, f) else { return }
            let tag = c.pick.tag(set: pickLayer, feature: f)
            if !points.isEmpty { points.removeAll(keepingCapacity: true) }
            // A line's name stands at its middle (of its longest part), on the line, not at its box's.
            let isLine = data.pieceTypes[data.featurePieces[f]] == .lineString
            var middle: (point: DotPoint, length: Double)?
            data.withCoordinates { xs, ys in
                drawing.draw(data, f, xs, ys, tag: tag, &c, named: isLine, points: &points) { along in
                    let m = Self.middle(of: along)
                    if m.length > middle?.length ?? -1 { middle = m }
                }
            }
            for (x, y) in points where x >= 0 && y >= 0 && x < w && y < h {
                // The marker's cell is drawn with the file's ink, so the pick names it.
                c.canvas.tag = tag
                c.canvas.set(x: BrailleCanvas.dot(x), y: BrailleCanvas.dot(y), ink: ink)
                c.canvas.tag = 0
                mark(x: x, y: y, feature: f, whole: false, color: own)
            }
            let (ox, oy) = (place.offsetX, place.offsetY)
            noteName(of: f, box: data.box(f), ox: ox, oy: oy, middle: middle?.point)
        }

        /// The point halfway along `line` (in dots), and the line's length.
        static func middle(of line: [DotPoint]) -> (point: DotPoint, length: Double) {
            guard var last = line.first else { return (DotPoint(x: 0, y: 0), 0) }
            var length = 0.0
            for p in line.dropFirst() {
                length += ((p.x - last.x) * (p.x - last.x) + (p.y - last.y) * (p.y - last.y)).squareRoot()
                last = p
            }
            var walked = 0.0
            last = line[0]
            for p in line.dropFirst() {
                let step = ((p.x - last.x) * (p.x - last.x) + (p.y - last.y) * (p.y - last.y)).squareRoot()
                if walked + step >= length / 2, step > 0 {
                    let t = (length / 2 - walked) / step
                    return (DotPoint(x: last.x + t * (p.x - last.x), y: last.y + t * (p.y - last.y)), length)
                }
                walked += step
                last = p
            }
            return (last, length)
        }

        /// An area's name at the middle of its box, a line's beside its `middle`, where it is on screen, when
        /// the feature is at least as long as its name (its extent in cells: a name is counted only where
        /// one could fit).
        mutating func noteName(
            of f: Int, box: (Double, Double, Double, Double), ox: Double, oy: Double, middle: DotPoint?
        ) {
            let extent = max(
                (box.2 - box.0) * ws / Double(ViewSize.dotsPerCellX),
                (box.3 - box.1) * ws / Double(ViewSize.dotsPerCellY))
            guard extent >= 1, data.pieceTypes[data.featurePieces[f]] != .point, let name = data.name(of: f),
                extent >= Double(name.columns)
            else { return }
            if let m = middle {
                if m.x >= 0, m.y >= 0, m.x < w, m.y < h {
                    labels.append(
                        PendingLabel(
                            text: name, col: Int(m.x) / ViewSize.dotsPerCellX, row: Int(m.y) / ViewSize.dotsPerCellY,
                            beside: true))
                }
                return
            }
            let mx = (box.0 + box.2) / 2 * ws + ox
            let my = (box.1 + box.3) / 2 * ws + oy
            if mx >= 0, my >= 0, mx < w, my < h {
                let col = Int(mx) / ViewSize.dotsPerCellX - name.columns / 2
                labels.append(PendingLabel(text: name, col: max(0, col), row: Int(my) / ViewSize.dotsPerCellY))
            }
        }

        /// Markers first, over the map's own names (each is where its point is); then their names beside
        /// them where there is room, then the names of lines and areas.
        func placeMarkersAndNames(_ c: inout LayerContext) {
            // The map's names give way where they would cover the file's lines and points (drawn with the
            // highest inks): a thin track is not eaten by street and grid names.
            let firstUserInk = StyleTable.ink(.overlay(0))
            c.labels.giveWay(to: c.canvas.inks.map { $0 >= firstUserInk })
            let markerGlyph = StyleTable.overlayMarker(layer.look, ascii: c.ascii)
            for m in markers {
                c.labels.addMarker(
                    markerGlyph, col: m.col, row: m.row, role: m.color >= 0 ? .userColor(Int(m.color)) : role)
            }
            var pointLabels: [PendingLabel] = []
            for m in markerNames {
                // Only where the cell beside the marker is free (most are not, on a crowded map).
                guard
                    c.labels.isFree(col: m.col + 1, row: m.row, width: 1)
                        || c.labels.isFree(col: m.col, row: m.row - 1, width: 1)
                        || c.labels.isFree(col: m.col, row: m.row + 1, width: 1)
                        || c.labels.isFree(col: m.col - 2, row: m.row, width: 1),
                    let name = m.whole ? layer.file.data.name(of: m.feature) : data.name(of: m.feature)
                else { continue }
                pointLabels.append(PendingLabel(text: name, col: m.col, row: m.row, beside: true))
            }
            // The points' names first (beside their markers), then the lines' and areas'.
            for l in pointLabels + labels {
                let text = Transliteration.screenText(l.text, ascii: c.ascii)
                let w = text.columns
                // Beside a marker or a line's middle: right, left, above and below from its cell, then
                // above and below centred on it, then the four corners (its own lines are not to be
                // covered, so the name needs more places to try); an area's name from its box's middle.
                let places =
                    l.beside
                    ? [
                        (l.col + 1, l.row), (l.col - w, l.row), (l.col, l.row - 1), (l.col, l.row + 1),
                        (l.col - w / 2, l.row - 1), (l.col - w / 2, l.row + 1), (l.col - w, l.row - 1),
                        (l.col - w, l.row + 1), (l.col + 1, l.row - 1), (l.col + 1, l.row + 1),
                    ] : [(l.col + 1, l.row), (l.col - w, l.row), (l.col, l.row - 1), (l.col, l.row + 1)]
                for (col, row) in places where c.labels.place(MapLabel(text: text, col: col, row: row, role: role)) {
                    break
                }
            }
        }
    }
}
