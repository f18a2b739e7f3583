import GeoCore
import MapFormats
import MapRender
import Raster
import Support

/// What an elevation profile is of (issue 48): the ruler's line, the route's, or a file's track.
public struct ProfileLine: Equatable, Sendable {
    /// `the ruler`, `the route`, `track.gpx`.
    public var title: String
    /// The line, start to end.
    public var line: [Coordinate]
}

extension ViewerState {
    /// The line whose elevation profile the panel shows, while the run has terrain: the ruler once it
    /// has a leg, else the route, else the file chosen with `p` in the layers panel.
    public var profileLine: ProfileLine? {
        guard terrainName != nil else { return nil }
        if let ruler, ruler.vertices.count >= 2 {
            let line = ruler.closed ? ruler.vertices + ruler.vertices.prefix(1) : ruler.vertices
            return ProfileLine(title: "the ruler", line: line)
        }
        if let route = directions.route, route.geometry.count >= 2 {
            return ProfileLine(title: "the route", line: route.geometry)
        }
        if let n = profileFile, userLayers.indices.contains(n), let line = userLayers[n].file.data.longestLine,
            line.count >= 2
        {
            return ProfileLine(title: userLayers[n].file.displayName, line: line)
        }
        return nil
    }
}

extension Renderer {
    /// The chart's rows of braille (each four dots of height).
    static let profileChartRows = 5

    /// The elevation profile panel at the map's bottom: a braille chart of height against distance
    /// (the lowest and highest heights beside it, the length under it), then the climbing and
    /// descending, the lowest and highest points and the steepest 100 m.
    static func drawProfile(
        _ frame: inout Frame, of line: ProfileLine, _ profile: ElevationProfile, mapRows: Int, style: MapStyle
    ) {
        let known = zip(profile.meters, profile.heights).filter { $0.1.isFinite }
        let length = profile.meters.last ?? 0
        let title = "profile of \(line.title) · \(Directions.distance(length))"
        guard let low = profile.minimum, let high = profile.maximum, known.count >= 2 else {
            drawPanel(
                &frame, ["no heights here yet (the terrain's tiles are loading, or do not cover it)"], widest: 40,
                mapRows: mapRows, ascii: style.ascii, mode: style.mode, theme: style.theme, atBottom: true,
                title: title)
            return
        }
        let axis = max(Self.heightText(low).count, Self.heightText(high).count) + 1
        let chartCols = max(10, min(frame.cols - 6, 90) - axis)
        // A flat line still spans the chart's middle: a metre's range at least.
        let (bottom, top) = high - low < 1 ? (low - 0.5, low + 0.5) : (low, high)
        var canvas = BrailleCanvas(cols: chartCols, rows: Self.profileChartRows)
        let (w, h) = (Double(canvas.widthDots - 1), Double(canvas.heightDots - 1))
        var last: (x: Double, y: Double)?
        for (i, height) in profile.heights.enumerated() {
            guard height.isFinite else {
                last = nil
                continue
            }
            let x = length > 0 ? profile.meters[i] / length * w : 0
            let y = (1 - (height - bottom) / (top - bottom)) * h
            if let p = last {
                canvas.line(p.x + 0.5, p.y + 0.5, x + 0.5, y + 0.5, ink: 1)
            } else {
                canvas.set(x: Int(x), y: Int(y), ink: 1)
            }
            last = (x, y)
        }
        var lines: [String] = []
        for row in 0..<Self.profileChartRows {
            let label =
                row == 0 ? Self.heightText(top) : row == Self.profileChartRows - 1 ? Self.heightText(bottom) : ""
            let dots = (0..<chartCols).map { col -> Character in
                let p = canvas.pattern(col: col, row: row)
                return Character(style.ascii ? AsciiGlyphs.glyph(p) : BrailleCanvas.brailleGlyph(p))
            }
            lines.append(String(repeating: " ", count: axis - label.count) + label + String(dots))
        }
        let end = Directions.distance(length)
        lines.append(
            String(repeating: " ", count: axis) + "0" + String(repeating: " ", count: max(1, chartCols - 1 - end.count))
                + end)
        var stats = ["↑ \(Self.heightText(profile.ascent))", "↓ \(Self.heightText(profile.descent))"]
        stats.append("lowest \(Self.heightText(low)) · highest \(Self.heightText(high))")
        if let steep = profile.steepestPercent { stats.append("steepest 100 m \(Int(steep.rounded())) %") }
        lines.append(stats.joined(separator: "  "))
        drawPanel(
            &frame, lines, widest: axis + chartCols, mapRows: mapRows, ascii: style.ascii, mode: style.mode,
            theme: style.theme, atBottom: true, title: title)
    }

    /// `312 m`.
    static func heightText(_ meters: Double) -> String { "\(Int(meters.rounded())) m" }
}

extension UserLayerData {
    /// Its longest line (by length on the map), as coordinates: a track's profile is that line's.
    public var longestLine: [Coordinate]? {
        var best: (length: Double, ring: Int)?
        for piece in pieceTypes.indices where pieceTypes[piece] == .lineString {
            let ring = pieceRings[piece]
            var length = 0.0
            for k in (ringStarts[ring] + 1)..<max(ringStarts[ring] + 1, ringStarts[ring + 1]) {
                let (dx, dy) = (x[k] - x[k - 1], y[k] - y[k - 1])
                length += (dx * dx + dy * dy).squareRoot()
            }
            if length > best?.length ?? 0 { best = (length, ring) }
        }
        guard let ring = best?.ring else { return nil }
        return (ringStarts[ring]..<ringStarts[ring + 1]).map {
            WebMercator.unproject(MercatorPoint(x: x[$0], y: y[$0]))
        }
    }
}
