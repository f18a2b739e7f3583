import GeoCore
import MapData
import MapFormats
import MapRender
import Raster
import Support

/// What the what-is-here panel (`i`) says: where the crosshair is, at which zoom, and the features the
/// drawn map has in its cell (the topmost first).
public struct InfoReport: Equatable, Sendable {
    /// The crosshair's place: the view's centre.
    public var coordinate: Coordinate
    public var zoom: Double
    public var features: [FeatureDetails]
    /// The height under the crosshair, when the run has terrain and its tile is at hand (issue 48).
    public var height: (meters: Double, source: String)?
    /// On a timed track (issue 49): its point nearest the crosshair, its time and speed there.
    public var trackPoints: [String] = []

    public static func == (a: InfoReport, b: InfoReport) -> Bool {
        a.coordinate == b.coordinate && a.zoom == b.zoom && a.features == b.features && a.trackPoints == b.trackPoints
            && a.height?.meters == b.height?.meters && a.height?.source == b.height?.source
    }

    /// The report for the map drawn for `state`; nil while the panel is closed or nothing was drawn.
    public static func of(_ state: ViewerState, map: MapRendering?) -> InfoReport? {
        guard state.showInfo, let map else { return nil }
        let view = state.displayedView
        let cell = crosshairCell(view.size)
        let features = map.pick.features(atCol: cell.col, row: cell.row)
        var report = InfoReport(coordinate: view.center, zoom: view.zoom, features: features, height: map.centerHeight)
        report.trackPoints = trackPoints(state, features, at: view.center)
        return report
    }

    /// For each timed track under the crosshair: `track NAME: 10:15:23Z · 43 km/h` at its vertex nearest
    /// `c` (the speed over the legs on either side of it, geodesic).
    static func trackPoints(_ state: ViewerState, _ features: [FeatureDetails], at c: Coordinate) -> [String] {
        let tracks = state.playedTracks
        let layers = state.userLayers
        return features.compactMap { f -> String? in
            guard case .own(let index) = f.reference.feature,
                let played = tracks.first(where: {
                    $0.track.feature == index && f.className == "file " + layers[$0.layer].file.displayName
                })
            else { return nil }
            let t = played.track
            let p = WebMercator.project(c)
            let nearest = t.coordinates.indices.min { a, b in
                let (pa, pb) = (WebMercator.project(t.coordinates[a]), WebMercator.project(t.coordinates[b]))
                return (pa.x - p.x) * (pa.x - p.x) + (pa.y - p.y) * (pa.y - p.y)
                    < (pb.x - p.x) * (pb.x - p.x) + (pb.y - p.y) * (pb.y - p.y)
            }
            guard let i = nearest else { return nil }
            let (a, b) = (max(0, i - 1), min(t.times.count - 1, i + 1))
            var text = "track \(played.title): \(ISOTime.text(t.times[i]))"
            if t.times[b] > t.times[a] {
                let meters =
                    Geodesic.distance(t.coordinates[a], t.coordinates[i])
                    + Geodesic.distance(t.coordinates[i], t.coordinates[b])
                if meters.isFinite { text += " · \(Int((meters / (t.times[b] - t.times[a]) * 3.6).rounded())) km/h" }
            }
            return text
        }
    }

    /// The cell holding the view's centre (its dot `widthDots / 2`, `heightDots / 2`).
    public static func crosshairCell(_ size: ViewSize) -> (col: Int, row: Int) { (size.cols / 2, size.rows / 2) }

    /// The panel's fixed lines (where and how to use it), then its lines that scroll (each feature: its
    /// class and name, its id, then a property a line).
    func lines() -> (header: [String], body: [String]) {
        let header =
            [
                "what is here (↑↓ scroll, i or Esc closes)",
                "\(CoordinateFormat.fixed(coordinate.latitude, 6)), \(CoordinateFormat.fixed(WebMercator.wrapLongitude(coordinate.longitude), 6))"
                    + " at zoom \(Formatting.zoom(zoom))",
                CoordinateFormat.degreesMinutesSeconds(coordinate),
            ] + (height.map { ["height \(Int($0.meters.rounded())) m (\($0.source))"] } ?? []) + trackPoints
        guard !features.isEmpty else { return (header, ["nothing here"]) }
        var body: [String] = []
        for f in features {
            body.append(f.className + (f.name.map { "  " + $0 } ?? ""))
            if let identity = f.identity {
                if let id = identity.id {
                    switch f.reference.feature {
                    case .tile: body.append("  feature \(id)" + (identity.layer.map { " of layer \($0)" } ?? ""))
                    case .own: body.append("  feature \(id) of the file")
                    default: body.append("  " + id)
                    }
                } else if let layer = identity.layer {
                    body.append("  layer \(layer)")
                }
                for p in identity.properties { body.append("  \(p.key)=\(p.value)") }
            }
        }
        return (header, body)
    }
}

extension Renderer {
    /// The crosshair over the centre cell, over whatever the map drew there (`X` in ASCII, whose lines
    /// are drawn with `+`).
    static func drawCrosshair(_ frame: inout Frame, _ view: MapView, style: MapStyle) {
        let cell = InfoReport.crosshairCell(view.size)
        guard cell.col < frame.cols, cell.row < view.size.rows else { return }
        frame.write(
            style.ascii ? "X" : "┼", col: cell.col, row: cell.row,
            style: StyleTable.style(.circleOutline, mode: style.mode, theme: style.theme))
    }

    /// The what-is-here panel at the top right, in the right half (clear of the crosshair), scrolled
    /// down by the state's `infoScroll`; the furthest it can scroll.
    static func drawInfo(_ frame: inout Frame, _ report: InfoReport, scroll: Int, mapRows: Int, style: MapStyle) -> Int
    {
        let (header, text) = report.lines()
        func screen(_ line: String) -> String { Transliteration.screenText(line, ascii: style.ascii) }
        let widest = min((header + text).map { screen($0).columns }.max() ?? 0, frame.cols / 2 - 6)
        let ellipsis = screen("…")
        // Lines wider than the panel go on below at word boundaries, indented two more than they are; a
        // word wider than the panel is shortened.
        func wrapped(_ line: String) -> [String] {
            let text = screen(line)
            let lead = text.prefix { $0 == " " }.count
            guard text.columns > widest, widest - lead - 2 >= 12 else { return [text] }
            return TextWrap.lines(String(text.dropFirst(lead)), width: widest - lead - 2).enumerated().map { i, part in
                let line = String(repeating: " ", count: i == 0 ? lead : lead + 2) + part
                return line.columns > widest ? line.prefix(columns: max(0, widest - ellipsis.columns)) + ellipsis : line
            }
        }
        let body = text.flatMap(wrapped)
        let head = header.dropFirst().flatMap(wrapped)
        // The first header line is the title, in the top border.
        let room = max(1, min(mapRows, frame.rows) - 2 - head.count)
        let limit = max(0, body.count - room)
        let first = min(scroll, limit)
        var shown = Array(body[first..<min(body.count, first + room)])
        if first + room < body.count, !shown.isEmpty {
            shown[shown.count - 1] = screen("… \(body.count - first - room + 1) more lines (↓)")
        }
        let lines = head + shown
        // The title without its keys when the panel is too narrow for them (never cut mid-phrase).
        var title = screen(header[0])
        if title.columns > widest, let open = title.firstIndex(of: "(") {
            title = String(title[..<open]).trimmedOfWhitespace
        }
        drawPanel(
            &frame, lines, widest: widest, mapRows: mapRows, ascii: style.ascii, mode: style.mode, theme: style.theme,
            topRight: true, title: title)
        return limit
    }
}
