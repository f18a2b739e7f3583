import GeoCore
import MapData
import Raster
import Support

/// A file of the user's own, read: its name as given, its format, its features, or why it failed.
public final class UserFile: Sendable {
    /// The file as the command line gave it (`-` for standard input).
    public let file: String
    /// Its format.
    public let format: UserDataFormat
    /// Its features (empty when it failed).
    public let data: UserLayerData
    /// Why it could not be read (one line), if it could not.
    public let error: String?

    /// A file read.
    public init(file: String, format: UserDataFormat, data: UserLayerData, error: String? = nil) {
        self.file = file
        self.format = format
        self.data = data
        self.error = error
    }

    /// The file's name without its folders (for the layer list and labels).
    public var displayName: String { file == "-" ? "standard input" : file.split(separator: "/").last.map(String.init) ?? file }
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
        guard visible, file.data.count > 0 else { return }
        let data = file.data
        let role = StyleRole.overlay(look)
        let ink = StyleTable.ink(role)
        let t = c.transform
        let ws = t.worldSize
        let (w, h) = (c.view.size.widthDots, c.view.size.heightDots)
        let cols = c.view.size.cols
        let marker = String(StyleTable.overlayMarker(look, ascii: c.ascii))
        var labels: [(text: String, col: Int, row: Int, marker: Bool)] = []
        // At most one point a cell is marked: a million points at zoom 0 cost a pass, not a million labels.
        var marked = Set<Int>()
        for f in 0..<data.count {
            let box = (data.boxes[4 * f], data.boxes[4 * f + 1], data.boxes[4 * f + 2], data.boxes[4 * f + 3])
            let copies = t.copies(minX: box.0, maxX: box.2)
            guard !copies.isEmpty else { continue }
            let y0 = box.1 * ws + t.originY
            let y1 = box.3 * ws + t.originY
            guard y1 >= -2, y0 <= h + 2 else { continue }
            let picked = PickedFeature(className: "file \(file.displayName)", name: data.names[f], reference: FeatureReference(source: nil, feature: .own(f)))
            for copy in copies {
                let ox = t.originX(copy: copy)
                let oy = t.originY
                c.drawing(picked) { canvas in
                    for p in data.featurePieces[f]..<data.featurePieces[f + 1] {
                        let rings = data.pieceRings[p]..<data.pieceRings[p + 1]
                        switch data.pieceTypes[p] {
                        case .point:
                            let i = data.ringStarts[rings.lowerBound]
                            let (x, y) = (data.x[i] * ws + ox, data.y[i] * ws + oy)
                            guard x >= 0, y >= 0, x < w, y < h else { continue }
                            let (col, row) = (Int(x) / ViewSize.dotsPerCellX, Int(y) / ViewSize.dotsPerCellY)
                            // The marker's cell is drawn with the file's ink, so the pick names it.
                            canvas.line(x, y, x, y, ink: ink)
                            if marked.insert(row * cols + col).inserted {
                                labels.append((marker, col, row, true))
                                if let name = data.names[f] { labels.append((name, col, row, false)) }
                            }
                        case .lineString, .polygon:
                            for r in rings {
                                let (start, end) = (data.ringStarts[r], data.ringStarts[r + 1])
                                var px = data.x[start] * ws + ox
                                var py = data.y[start] * ws + oy
                                for i in (start + 1)..<end {
                                    let qx = data.x[i] * ws + ox
                                    let qy = data.y[i] * ws + oy
                                    // Within a dot of the last point drawn to: nothing a dot can show.
                                    if i < end - 1 && abs(qx - px) < 1 && abs(qy - py) < 1 { continue }
                                    if let (a, b) = LineClipper.interval(px, py, qx, qy, minX: 0, minY: 0, maxX: w - 1, maxY: h - 1) {
                                        let (dx, dy) = (qx - px, qy - py)
                                        canvas.line(px + a * dx, py + a * dy, px + b * dx, py + b * dy, ink: ink)
                                    }
                                    px = qx
                                    py = qy
                                }
                            }
                        }
                    }
                }
                for p in data.featurePieces[f]..<data.featurePieces[f + 1] where data.pieceTypes[p] == .polygon {
                    fill(data, piece: p, ox: ox, oy: oy, ink: ink, picked: picked, &c)
                }
                if let name = data.names[f], data.pieceTypes[data.featurePieces[f]] != .point {
                    // A line's or area's name at the middle of its box, where it is on screen.
                    let mx = (box.0 + box.2) / 2 * ws + ox
                    let my = (box.1 + box.3) / 2 * ws + oy
                    if mx >= 0, my >= 0, mx < w, my < h {
                        let col = Int(mx) / ViewSize.dotsPerCellX - name.count / 2
                        labels.append((name, max(0, col), Int(my) / ViewSize.dotsPerCellY, false))
                    }
                }
            }
        }
        // Markers first, over the map's own names (each is where its point is); then their names beside
        // them where there is room.
        for l in labels where l.marker {
            c.labels.placeOver(MapLabel(text: l.text, col: l.col, row: l.row, role: role))
        }
        for l in labels where !l.marker {
            let text = Transliteration.screenText(l.text, ascii: c.ascii)
            for (col, row) in [(l.col + 1, l.row), (l.col - text.count, l.row), (l.col, l.row - 1), (l.col, l.row + 1)]
            where c.labels.place(MapLabel(text: text, col: col, row: row, role: role)) {
                break
            }
        }
    }

    /// Marks the cells whose centre lies inside polygon piece `p` (its rings together, even–odd).
    func fill(_ data: UserLayerData, piece p: Int, ox: Double, oy: Double, ink: UInt8, picked: PickedFeature, _ c: inout LayerContext) {
        let ws = c.transform.worldSize
        let (cols, rows) = (c.view.size.cols, c.view.size.rows)
        guard cols > 0, rows > 0 else { return }
        var crossings = [[Double]](repeating: [], count: rows)
        var touched: [Int] = []
        for r in data.pieceRings[p]..<data.pieceRings[p + 1] {
            let (start, end) = (data.ringStarts[r], data.ringStarts[r + 1])
            for i in start..<end {
                let j = i + 1 < end ? i + 1 : start
                ScanlineFill.crossings(
                    data.y[i] * ws + oy, data.x[i] * ws + ox, data.y[j] * ws + oy, data.x[j] * ws + ox, lines: rowCentres,
                    within: 0...(rows - 1)
                ) { row, x in
                    if crossings[row].isEmpty { touched.append(row) }
                    crossings[row].append(x)
                }
            }
        }
        let tag = c.pick.register(picked)
        for row in touched {
            crossings[row].sort()
            ScanlineFill.spans(crossings[row], lines: columnCentres, within: 0...(cols - 1)) { from, to in
                FeatureLayer.mark(&c, row: row, cols: cols, from...to, ink: ink, tag: tag)
            }
        }
    }
}
