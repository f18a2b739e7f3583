import GeoCore
import Glibc
import MapFormats

/// Where a point meets the network: the nearest edge a profile may use, the foot of the perpendicular
/// on it, and how far along the edge (from its `from` end) that is.
public struct SnapPoint: Equatable, Sendable {
    /// The edge.
    public var edge: Int
    /// Metres along the edge from its `from` end to the snapped point (geodesic, like the edge's length).
    public var along: Double
    /// The snapped point.
    public var point: Coordinate
    /// Metres from the asked point to the snapped one (geodesic).
    public var distance: Double
}

/// Finds the nearest usable edge to a point through a grid of edges by box (cells of 0.005°, about
/// 500 m): rings of cells outward until no nearer edge can be left.
public struct SnapIndex: Sendable {
    static let cellDegrees = 0.005
    /// Edges whose box spans more cells than this (a ferry, a damaged file's world-wide edge) are kept in
    /// a list every query reads, not in each cell.
    static let maxEdgeCells = 4096
    /// Rings searched before the rest is one pass over every edge (a point far from a dense network).
    static let maxRings = 100
    private let cells: [Int64: [UInt32]]
    private let wide: [UInt32]
    private let range: (minX: Int, maxX: Int, minY: Int, maxY: Int)

    /// The index of `network`'s edges.
    public init(_ network: RoadNetwork) {
        var cells: [Int64: [UInt32]] = [:]
        var wide: [UInt32] = []
        var range = (minX: Int.max, maxX: Int.min, minY: Int.max, maxY: Int.min)
        for e in 0..<network.edgeCount {
            let pts = network.points(e)
            let xs = pts.map { Self.cell($0.longitude) }
            let ys = pts.map { Self.cell($0.latitude) }
            guard let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(), let y1 = ys.max() else { continue }
            range = (min(range.minX, x0), max(range.maxX, x1), min(range.minY, y0), max(range.maxY, y1))
            guard (x1 - x0 + 1) * (y1 - y0 + 1) <= Self.maxEdgeCells else {
                wide.append(UInt32(e))
                continue
            }
            for y in y0...y1 { for x in x0...x1 { cells[Self.key(x, y), default: []].append(UInt32(e)) } }
        }
        self.cells = cells
        self.wide = wide
        self.range = range
    }

    static func cell(_ degrees: Double) -> Int { Int((degrees / cellDegrees).rounded(.down)) }
    static func key(_ x: Int, _ y: Int) -> Int64 {
        Int64(x) << 32 | Int64(UInt32(bitPattern: Int32(truncatingIfNeeded: y)))
    }

    /// The nearest point of an edge `usable` accepts to `p`; nil when there is none.
    public func nearest(to p: Coordinate, in network: RoadNetwork, usable: (Int) -> Bool) -> SnapPoint? {
        guard range.minX <= range.maxX else { return nil }
        let cx = Self.cell(p.longitude)
        let cy = Self.cell(p.latitude)
        let metresPerCell = Self.cellDegrees * 111_000 * max(0.01, cos(p.latitude * .pi / 180))
        var best: (edge: Int, d2: Double, along: Double, point: Coordinate)?
        var seen = Set<UInt32>()
        let farthest = max(
            abs(cx - range.minX), abs(cx - range.maxX), abs(cy - range.minY), abs(cy - range.maxY))
        func consider(_ e: Int) {
            let (d2, along, point) = Self.project(p, onto: network.points(e))
            if d2 < best?.d2 ?? .infinity { best = (e, d2, along, point) }
        }
        for e in wide where usable(Int(e)) { consider(Int(e)) }
        // Far outside the network every edge is about as far: one pass over them all, not rings.
        let outside = cx < range.minX - 2 || cx > range.maxX + 2 || cy < range.minY - 2 || cy > range.maxY + 2
        var settled = false
        for ring in stride(from: 0, through: outside ? -1 : min(farthest, Self.maxRings), by: 1) {
            for (x, y) in Self.ring(cx, cy, ring) {
                for e in cells[Self.key(x, y)] ?? [] where seen.insert(e).inserted && usable(Int(e)) {
                    consider(Int(e))
                }
            }
            // Every edge nearer than `ring` cells has been seen.
            if let b = best, b.d2.squareRoot() <= Double(ring) * metresPerCell {
                settled = true
                break
            }
        }
        if !settled && (outside || farthest > Self.maxRings) {
            for e in 0..<network.edgeCount where usable(e) { consider(e) }
        }
        guard let b = best else { return nil }
        return SnapPoint(
            edge: b.edge, along: b.along * Double(network.edgeMeters[b.edge]), point: b.point,
            distance: Geodesic.distance(p, b.point))
    }

    /// The cells of the square ring `r` around (`cx`, `cy`).
    static func ring(_ cx: Int, _ cy: Int, _ r: Int) -> [(Int, Int)] {
        guard r > 0 else { return [(cx, cy)] }
        var out: [(Int, Int)] = []
        for x in (cx - r)...(cx + r) { out += [(x, cy - r), (x, cy + r)] }
        for y in (cy - r + 1)...(cy + r - 1) { out += [(cx - r, y), (cx + r, y)] }
        return out
    }

    /// The squared distance in local metres from `p` to the polyline `pts`, the fraction of the line's
    /// length at the foot of the perpendicular, and that point (an equirectangular plane around `p`: a
    /// street's few hundred metres bend it by far less than a dot).
    static func project(_ p: Coordinate, onto pts: [Coordinate]) -> (Double, Double, Coordinate) {
        let kx = 111_320 * cos(p.latitude * .pi / 180)
        let ky = 110_574.0
        func xy(_ c: Coordinate) -> (Double, Double) {
            ((c.longitude - p.longitude) * kx, (c.latitude - p.latitude) * ky)
        }
        var total = 0.0
        var best = (d2: Double.infinity, at: 0.0, point: pts[0])
        for i in 0..<(pts.count - 1) {
            let (ax, ay) = xy(pts[i])
            let (bx, by) = xy(pts[i + 1])
            let (dx, dy) = (bx - ax, by - ay)
            let len2 = dx * dx + dy * dy
            let t = len2 > 0 ? min(1, max(0, -(ax * dx + ay * dy) / len2)) : 0
            let (qx, qy) = (ax + t * dx, ay + t * dy)
            let d2 = qx * qx + qy * qy
            let len = len2.squareRoot()
            if d2 < best.d2 {
                let c = Coordinate(
                    latitude: pts[i].latitude + t * (pts[i + 1].latitude - pts[i].latitude),
                    longitude: pts[i].longitude + t * (pts[i + 1].longitude - pts[i].longitude))
                best = (d2, total + t * len, c)
            }
            total += len
        }
        return (best.d2, total > 0 ? best.at / total : 0, best.point)
    }
}
