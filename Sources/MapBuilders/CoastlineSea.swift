import GeoCore
import Glibc
import MapData
import Support

/// The sea of an extract, made from its coastline ways and its box, as OSMCoastline makes the world's
/// (osmcode.org/osmcoastline): OpenStreetMap has no sea polygons, only coastline ways with the land on
/// their left and the water on their right (wiki.openstreetmap.org/wiki/Tag:natural=coastline).
///
/// Each open piece is cut to the box (an end that stops short of the box, as an extract leaves it, is
/// taken straight to the nearest side); from where a piece leaves the box the sea follows the box
/// clockwise (the box's inside on the right) to where the next piece enters, and so on round. Closed
/// rings inside the box are islands (land on the left: anticlockwise) or enclosed water (clockwise).
/// Coordinates are taken as plane x = longitude, y = latitude: within an extract's box that keeps every
/// side and turn of the map's Mercator projection (both are monotonic in each coordinate).
public enum CoastlineSea {
    /// The sea's rings (filled even–odd), and what could not be used.
    public struct Result: Equatable, Sendable {
        /// Rings of the sea, each closed (first point repeated last).
        public var rings: [[Coordinate]] = []
        /// Coastline ends farther than `maxGap` inside the box: their pieces are left out of the sea,
        /// and the world's coast decides land and sea in `unknown` instead.
        public var endsInside = 0
        /// Around each piece left out (its box, `maxGap` wider, within the box): where neither land nor
        /// sea is known.
        public var unknown: [CoordinateBounds] = []
        /// Coastline pieces in the box.
        public var pieces = 0
    }

    /// How far inside the box (metres) a coastline may end and still be taken to its side: extracts
    /// stop a way at its last node inside the box, up to a node spacing short of the edge.
    public static let maxGap = 250.0

    /// Metres in a degree of latitude on a sphere of the mean Earth radius (IUGG, 6,371,008.8 m): close
    /// enough for `maxGap`.
    static let metresPerDegree = 6_371_008.8 * .pi / 180

    /// The sea in `box` of the coastline `lines` (each in its way's direction, joined or not).
    public static func sea(lines: [[Coordinate]], box: CoordinateBounds) -> Result {
        var result = Result()
        guard box.east > box.west, box.north > box.south else { return result }
        let chains = join(lines.filter { $0.count >= 2 })
        var pieces: [Piece] = []
        var closed: [[Coordinate]] = []
        for chain in chains {
            if chain.first == chain.last, chain.count >= 4, chain.allSatisfy({ inside($0, box) }) {
                closed.append(chain)
                continue
            }
            guard let cut = clip(chain, box) else {
                result.endsInside += 1
                result.unknown.append(around(chain, box))
                continue
            }
            pieces += cut
        }
        result.pieces = pieces.count + closed.count
        var rings = walk(pieces, box)
        if rings.isEmpty && result.endsInside == 0 && closed.contains(where: { signedArea($0) > 0 }) {
            // Only islands: all the box round them is sea.
            rings = [boxRing(box)]
        }
        let seaRings = rings
        for ring in closed {
            let island = signedArea(ring) > 0
            let inSea = seaRings.contains { Rings.contains($0, point: ring[0]) }
            // An island inside the sea is a hole in it; water closed in by land is sea of its own.
            if island == inSea { rings.append(ring) }
        }
        result.rings = rings
        return result
    }

    /// The box of `chain`'s points, `maxGap` wider on every side, within `box`.
    static func around(_ chain: [Coordinate], _ box: CoordinateBounds) -> CoordinateBounds {
        let lat = chain.map(\.latitude)
        let lon = chain.map(\.longitude)
        let dLat = maxGap / metresPerDegree
        let dLon = dLat / max(0.01, cos((lat.first ?? 0) * .pi / 180))
        return CoordinateBounds(
            north: min(box.north, (lat.max() ?? 0) + dLat), south: max(box.south, (lat.min() ?? 0) - dLat),
            west: max(box.west, (lon.min() ?? 0) - dLon), east: min(box.east, (lon.max() ?? 0) + dLon))
    }

    /// A piece of coastline inside the box: from where it enters (on the box) to where it leaves.
    struct Piece {
        var points: [Coordinate]
        /// Where it enters and leaves, as a position round the box (`perimeter`).
        var entry: Double
        var exit: Double
    }

    /// Joins lines whose end is another's start (ways of one coastline, in their direction).
    static func join(_ lines: [[Coordinate]]) -> [[Coordinate]] {
        var pending = lines
        var out: [[Coordinate]] = []
        while var chain = pending.popLast() {
            var grew = true
            while grew && chain.first != chain.last {
                grew = false
                if let i = pending.firstIndex(where: { $0.first == chain.last }) {
                    chain += pending.remove(at: i).dropFirst()
                    grew = true
                } else if let i = pending.firstIndex(where: { $0.last == chain.first }) {
                    chain = pending.remove(at: i) + chain.dropFirst()
                    grew = true
                }
            }
            out.append(chain)
        }
        return out
    }

    /// The pieces of `chain` inside `box`, each from the box's side to the box's side; nil when an end
    /// of the chain lies farther than `maxGap` inside.
    static func clip(_ chain: [Coordinate], _ box: CoordinateBounds) -> [Piece]? {
        var pieces: [Piece] = []
        var current: [Coordinate] = []
        var entry = 0.0
        if inside(chain[0], box) {
            guard let start = snap(chain[0], box) else { return nil }
            current = [start.point, chain[0]]
            entry = start.at
        }
        for i in 1..<chain.count {
            let a = chain[i - 1]
            let b = chain[i]
            let (ina, inb) = (inside(a, box), inside(b, box))
            if ina && inb {
                current.append(b)
                continue
            }
            guard
                let (t0, t1) = LineClipper.interval(
                    a.longitude, a.latitude, b.longitude, b.latitude, minX: box.west, minY: box.south, maxX: box.east,
                    maxY: box.north)
            else { continue }
            func at(_ t: Double) -> Coordinate {
                Coordinate(
                    latitude: a.latitude + t * (b.latitude - a.latitude),
                    longitude: a.longitude + t * (b.longitude - a.longitude))
            }
            if !ina {
                let p = onSide(at(t0), box)
                entry = perimeter(p, box)
                current = [p]
            }
            if inb {
                current.append(b)
            } else {
                let p = onSide(at(t1), box)
                current.append(p)
                pieces.append(Piece(points: current, entry: entry, exit: perimeter(p, box)))
                current = []
            }
        }
        if let last = chain.last, inside(last, box), !current.isEmpty {
            guard let end = snap(last, box) else { return nil }
            current.append(end.point)
            pieces.append(Piece(points: current, entry: entry, exit: end.at))
        }
        return pieces
    }

    /// The sea's rings: from each piece's exit clockwise round the box to the next entry.
    static func walk(_ pieces: [Piece], _ box: CoordinateBounds) -> [[Coordinate]] {
        var used = [Bool](repeating: false, count: pieces.count)
        var rings: [[Coordinate]] = []
        for start in pieces.indices where !used[start] {
            var ring: [Coordinate] = []
            var current = start
            while true {
                used[current] = true
                ring += pieces[current].points
                let from = pieces[current].exit
                // The next entry clockwise from here (the start's own closes the ring).
                var next = -1
                var best = Double.infinity
                for j in pieces.indices where !used[j] || j == start {
                    var d = pieces[j].entry - from
                    if d < 0 { d += 4 }
                    if d < best { (best, next) = (d, j) }
                }
                guard next >= 0 else { break }
                // The box's corners passed on the way.
                for k in 1...4 {
                    let corner = (from.rounded(.down) + Double(k)).truncatingRemainder(dividingBy: 4)
                    var d = corner - from
                    if d <= 0 { d += 4 }
                    if d < best { ring.append(cornerPoint(Int(corner), box)) }
                }
                if next == start { break }
                current = next
            }
            if let first = ring.first { ring.append(first) }
            if ring.count >= 4 { rings.append(ring) }
        }
        return rings
    }

    /// A position round the box, clockwise from its north-west corner: 0–1 the north side, 1–2 the
    /// east, 2–3 the south, 3–4 the west.
    static func perimeter(_ p: Coordinate, _ box: CoordinateBounds) -> Double {
        let w = box.east - box.west
        let h = box.north - box.south
        let e = 1e-12
        if abs(p.latitude - box.north) < e && p.longitude < box.east { return (p.longitude - box.west) / w }
        if abs(p.longitude - box.east) < e && p.latitude > box.south { return 1 + (box.north - p.latitude) / h }
        if abs(p.latitude - box.south) < e && p.longitude > box.west { return 2 + (box.east - p.longitude) / w }
        return 3 + (p.latitude - box.south) / h
    }

    /// Corner `k` (0 north-west, 1 north-east, 2 south-east, 3 south-west).
    static func cornerPoint(_ k: Int, _ box: CoordinateBounds) -> Coordinate {
        switch k {
        case 0: return Coordinate(latitude: box.north, longitude: box.west)
        case 1: return Coordinate(latitude: box.north, longitude: box.east)
        case 2: return Coordinate(latitude: box.south, longitude: box.east)
        default: return Coordinate(latitude: box.south, longitude: box.west)
        }
    }

    /// The box as a clockwise ring.
    static func boxRing(_ box: CoordinateBounds) -> [Coordinate] {
        [0, 1, 2, 3, 0].map { cornerPoint($0, box) }
    }

    /// The point of the box's side nearest to `p` and its position round the box, if within `maxGap`.
    static func snap(_ p: Coordinate, _ box: CoordinateBounds) -> (point: Coordinate, at: Double)? {
        let perDegree = metresPerDegree
        let perLon = perDegree * cos(p.latitude * .pi / 180)
        let sides: [(Double, Coordinate)] = [
            ((box.north - p.latitude) * perDegree, Coordinate(latitude: box.north, longitude: p.longitude)),
            ((box.east - p.longitude) * perLon, Coordinate(latitude: p.latitude, longitude: box.east)),
            ((p.latitude - box.south) * perDegree, Coordinate(latitude: box.south, longitude: p.longitude)),
            ((p.longitude - box.west) * perLon, Coordinate(latitude: p.latitude, longitude: box.west)),
        ]
        guard let nearest = sides.min(by: { $0.0 < $1.0 }), nearest.0 <= maxGap else { return nil }
        return (nearest.1, perimeter(nearest.1, box))
    }

    /// `p` put exactly on the box's nearest side (a clipped point off by rounding).
    static func onSide(_ p: Coordinate, _ box: CoordinateBounds) -> Coordinate {
        let d = [
            abs(p.latitude - box.north), abs(p.longitude - box.east), abs(p.latitude - box.south),
            abs(p.longitude - box.west),
        ]
        switch d.indices.min(by: { d[$0] < d[$1] }) ?? 0 {
        case 0: return Coordinate(latitude: box.north, longitude: p.longitude)
        case 1: return Coordinate(latitude: p.latitude, longitude: box.east)
        case 2: return Coordinate(latitude: box.south, longitude: p.longitude)
        default: return Coordinate(latitude: p.latitude, longitude: box.west)
        }
    }

    static func inside(_ p: Coordinate, _ box: CoordinateBounds) -> Bool {
        p.latitude > box.south && p.latitude < box.north && p.longitude > box.west && p.longitude < box.east
    }

    /// Twice the ring's signed area in the plane (longitude, latitude): positive anticlockwise (the
    /// shoelace formula).
    static func signedArea(_ ring: [Coordinate]) -> Double {
        var sum = 0.0
        for i in 0..<(ring.count - 1) {
            sum += ring[i].longitude * ring[i + 1].latitude - ring[i + 1].longitude * ring[i].latitude
        }
        return sum
    }

}
