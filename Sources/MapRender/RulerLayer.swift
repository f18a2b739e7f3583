import GeoCore

/// The geodesic ruler over the map: its legs drawn as geodesics (a long leg is a curve on a Mercator
/// map, not a straight screen line), its vertices, and each leg's length and initial bearing beside
/// the leg's middle.
public struct RulerLayer: MapLayer, Equatable {
    public var ruler: Ruler
    /// Each leg's label (its length and bearing, as the viewer writes them).
    public var legLabels: [String]

    public init(ruler: Ruler, legLabels: [String]) {
        self.ruler = ruler
        self.legLabels = legLabels
    }

    /// Points along a leg every 10 km (at least the two ends, at most 256 pieces): from `a` along the
    /// geodesic's initial bearing (Karney's direct problem), so that the drawing is the geodesic itself.
    static func geodesicPoints(_ a: Coordinate, _ b: Coordinate) -> [Coordinate] {
        let inv = Geodesic.inverse(a, b)
        guard inv.distance.isFinite, inv.distance > 10_000 else { return [a, b] }
        let n = min(256, Int(inv.distance / 10_000))
        return (0...n).map { k in
            k == n
                ? b
                : Geodesic.destination(
                    from: a, bearing: inv.initialAzimuth, distance: inv.distance * Double(k) / Double(n))
        }
    }

    public func draw(into c: inout LayerContext) {
        let t = c.transform
        let ws = t.worldSize
        let ink = StyleTable.ink(.circleOutline)
        let ends = ruler.closed ? ruler.vertices + [ruler.vertices[0]] : ruler.vertices
        guard let start = ends.first else { return }
        // Dots from the first vertex's nearest copy on, longitudes unwrapped along the way (a leg across
        // ±180° continues, not jumps).
        let origin = t.dot(for: start)
        let originX = WebMercator.projectX(longitude: start.longitude)
        var previousLon = start.longitude
        func dot(_ p: Coordinate) -> DotPoint {
            let lon = WebMercator.unwrap(p.longitude, near: previousLon)
            previousLon = lon
            return DotPoint(x: origin.x + (WebMercator.projectX(longitude: lon) - originX) * ws, y: t.dot(for: p).y)
        }
        var vertexDots: [DotPoint] = [origin]
        var middles: [(DotPoint, String)] = []
        for (i, (a, b)) in zip(ends, ends.dropFirst()).enumerated() {
            let points = Self.geodesicPoints(a, b).map(dot)
            for (p, q) in zip(points, points.dropFirst()) { c.canvas.line(p.x, p.y, q.x, q.y, ink: ink) }
            if let last = points.last { vertexDots.append(last) }
            if i < legLabels.count { middles.append((points[points.count / 2], legLabels[i])) }
        }
        // The vertices as markers, then each leg's numbers beside its middle where there is room.
        let (cols, rows) = (c.view.size.cols, c.view.size.rows)
        for v in vertexDots {
            let (col, row) = (
                Int((v.x / Double(ViewSize.dotsPerCellX)).rounded(.down)),
                Int((v.y / Double(ViewSize.dotsPerCellY)).rounded(.down))
            )
            if col >= 0, row >= 0, col < cols, row < rows {
                c.labels.addMarker(c.ascii ? "+" : "◆", col: col, row: row, role: .circleOutline)
            }
        }
        for (m, text) in middles {
            let (col, row) = (
                Int((m.x / Double(ViewSize.dotsPerCellX)).rounded(.down)),
                Int((m.y / Double(ViewSize.dotsPerCellY)).rounded(.down))
            )
            for (x, y) in [
                (col + 1, row), (col - text.count - 1, row), (col - text.count / 2, row - 1),
                (col - text.count / 2, row + 1),
            ]
            where c.labels.place(MapLabel(text: text, col: x, row: y, role: .circleOutline)) {
                break
            }
        }
    }
}
