import GeoCore
import Glibc
import MapFormats

extension Router {
    /// The points of a route from its start to its end.
    public func geometry(_ path: RoutePath) -> [Coordinate] {
        var out: [Coordinate] = []
        for piece in pieces(path) {
            for c in slice(piece.edge, from: piece.from, to: piece.to) where c != out.last { out.append(c) }
        }
        return out
    }

    /// The part of edge `e` between `from` and `to` metres along it (from its `from` end), in the order
    /// asked (reversed when `to` < `from`).
    public func slice(_ e: Int, from: Double, to: Double) -> [Coordinate] {
        let pts = graph.network.points(e)
        let len = max(Double(graph.network.edgeMeters[e]), 1e-9)
        let (a, b) = (min(from, to) / len, max(from, to) / len)
        // Fractions of the line's length in the plane `SnapIndex.project` measures in.
        let kx: Double = cos(pts[0].latitude * Double.pi / 180)
        var lengths = [0.0]
        for i in 1..<pts.count {
            let dx = (pts[i].longitude - pts[i - 1].longitude) * kx
            let dy = pts[i].latitude - pts[i - 1].latitude
            lengths.append(lengths[i - 1] + (dx * dx + dy * dy).squareRoot())
        }
        let total = max(lengths[pts.count - 1], 1e-15)
        func point(_ f: Double) -> Coordinate {
            let at = f * total
            var i = 1
            while i < pts.count - 1 && lengths[i] < at { i += 1 }
            let span = lengths[i] - lengths[i - 1]
            let t = span > 0 ? min(1, max(0, (at - lengths[i - 1]) / span)) : 0
            return Coordinate(
                latitude: pts[i - 1].latitude + t * (pts[i].latitude - pts[i - 1].latitude),
                longitude: pts[i - 1].longitude + t * (pts[i].longitude - pts[i - 1].longitude))
        }
        var out = [point(a)]
        for i in pts.indices where lengths[i] > a * total && lengths[i] < b * total { out.append(pts[i]) }
        out.append(point(b))
        return to < from ? out.reversed() : out
    }
}
