import GeoCore
import MapFormats

/// A route found: the half-edges taken between the two snapped points, with the first and last taken in
/// part, and what it costs.
public struct RoutePath: Equatable, Sendable {
    /// The profile it is for.
    public var profile: RouteProfile
    /// Where it starts and ends on the network.
    public var start: SnapPoint
    public var end: SnapPoint
    /// The half-edges in order (empty when start and end lie on one edge and it goes straight there).
    public var halfEdges: [Int]
    /// Its length in metres and its time in seconds.
    public var meters: Double
    public var seconds: Double
}

/// Why no route was found.
public enum RouteFailure: Error, Equatable, Sendable {
    /// No edge the profile may use anywhere near (`which`: "start" or "end").
    case noEdge(which: String)
    /// Both ends are on the network but no way leads from one to the other.
    case unreachable
}

/// Shortest routes by A* over half-edges (the edge-based form obeys turn restrictions, which a search
/// over junctions cannot): foot routes minimise metres, bike and car routes seconds; the bound is the
/// spherical distance over the profile's top speed (`RoutingGraph.lowerBound`), never more than the
/// real cost, so the first route settled is the best.
public struct Router: Sendable {
    /// The graph searched.
    public let graph: RoutingGraph
    /// Metres from an edge's end within which a snapped point is at that end's junction.
    static let atJunction = 0.01
    /// Its edges by place, for snapping.
    public let snapIndex: SnapIndex

    /// A router over `network`.
    public init(_ network: RoadNetwork) {
        graph = RoutingGraph(network)
        snapIndex = SnapIndex(network)
    }

    /// The nearest point of an edge `profile` may use (either way) to `p`.
    public func snap(_ p: Coordinate, profile: RouteProfile) -> SnapPoint? {
        let network = graph.network
        let mask = AccessBits.mask(profile)
        return snapIndex.nearest(to: p, in: network) { network.edgeAccess[$0] & mask != 0 }
    }

    /// The best route from `a` to `b` for `profile`.
    public func route(from a: Coordinate, to b: Coordinate, profile: RouteProfile) -> Result<RoutePath, RouteFailure> {
        guard let start = snap(a, profile: profile) else { return .failure(.noEdge(which: "start")) }
        guard let end = snap(b, profile: profile) else { return .failure(.noEdge(which: "end")) }
        return route(from: start, to: end, profile: profile)
    }

    /// The best route between two snapped points.
    public func route(from start: SnapPoint, to end: SnapPoint, profile: RouteProfile) -> Result<
        RoutePath, RouteFailure
    > {
        let g = graph
        let n = g.network
        let target = end.point
        var best = Double.infinity
        var bestLast = -1  // the half-edge arriving where the end's edge is taken, or -1 for the direct way
        var bestEndForward = true
        // Start and end on one edge, the end ahead in a direction the profile may go.
        if start.edge == end.edge {
            let forward = end.along >= start.along
            if n.allows(profile, start.edge, forward: forward) {
                best = g.cost(profile, start.edge, metres: abs(end.along - start.along))
                bestEndForward = forward
            }
        }
        let count = n.edgeCount * 2
        var cost = [Double](repeating: .infinity, count: count)
        var parent = [Int32](repeating: -1, count: count)
        // The bound is consistent (an edge is never shorter than the spherical chord between its ends), so
        // a half-edge's first pop is its best: later ones are stale.
        var settled = [Bool](repeating: false, count: count)
        var heap = BinaryHeap()
        func push(_ h: Int, _ c: Double, from p: Int) {
            guard c < cost[h] else { return }
            cost[h] = c
            parent[h] = Int32(p)
            heap.push(c + g.lowerBound(profile, n.node(g.head(h)), target), h)
        }
        let e0 = start.edge
        let len0 = Double(n.edgeMeters[e0])
        // A point at an end of its edge is at that junction: leaving it takes no stretch of the edge, so
        // the edge's direction does not matter there.
        let atEnd = { (along: Double, len: Double) in (along <= Self.atJunction, len - along <= Self.atJunction) }
        let (startAtFrom, startAtTo) = atEnd(start.along, len0)
        if n.allows(profile, e0, forward: true) || startAtTo {
            push(2 * e0, g.cost(profile, e0, metres: len0 - start.along), from: -1)
        }
        if n.allows(profile, e0, forward: false) || startAtFrom {
            push(2 * e0 + 1, g.cost(profile, e0, metres: start.along), from: -1)
        }
        // Starting at a junction is not arriving there along the edge: its restrictions do not bind.
        let freeStart = (startAtTo ? 2 * e0 : -1, startAtFrom ? 2 * e0 + 1 : -1)
        func turnAllowed(_ h: Int, _ next: Int) -> Bool {
            h == freeStart.0 || h == freeStart.1 || g.turnAllowed(profile, from: h, to: next)
        }
        let eEnd = end.edge
        let lenEnd = Double(n.edgeMeters[eEnd])
        let (endAtFrom, endAtTo) = atEnd(end.along, lenEnd)
        while let (key, h) = heap.pop() {
            guard key < best else { break }
            guard !settled[h] else { continue }
            settled[h] = true
            let c = cost[h]
            let v = g.head(h)
            // Onto the end's edge from this junction, in part.
            if Int(n.edgeFrom[eEnd]) == v, endAtFrom || g.allows(profile, 2 * eEnd),
                endAtFrom || turnAllowed(h, 2 * eEnd)
            {
                let total = c + g.cost(profile, eEnd, metres: end.along)
                if total < best { (best, bestLast, bestEndForward) = (total, h, true) }
            }
            if Int(n.edgeTo[eEnd]) == v, endAtTo || g.allows(profile, 2 * eEnd + 1),
                endAtTo || turnAllowed(h, 2 * eEnd + 1)
            {
                let total = c + g.cost(profile, eEnd, metres: lenEnd - end.along)
                if total < best { (best, bestLast, bestEndForward) = (total, h, false) }
            }
            for i in Int(g.firstOut[v])..<Int(g.firstOut[v + 1]) {
                let next = Int(g.outgoing[i])
                guard g.allows(profile, next), turnAllowed(h, next) else { continue }
                // A car turns back only where the street ends (OSRM's rule too): not on a through road.
                if profile == .car, next == h ^ 1, g.usableOut(profile, v) > 1 { continue }
                let e = next >> 1
                push(next, c + g.cost(profile, e, metres: Double(n.edgeMeters[e])), from: h)
            }
        }
        guard best < .infinity else { return .failure(.unreachable) }
        var halfEdges: [Int] = []
        var h = bestLast
        while h >= 0 {
            halfEdges.append(h)
            h = Int(parent[h])
        }
        halfEdges.reverse()
        if bestLast >= 0 { halfEdges.append(2 * eEnd + (bestEndForward ? 0 : 1)) }
        var path = RoutePath(profile: profile, start: start, end: end, halfEdges: halfEdges, meters: 0, seconds: 0)
        (path.meters, path.seconds) = measure(path)
        return .success(path)
    }

    /// The metres of each half-edge of `path` taken (the first and last in part), in order; a route on
    /// one edge is one piece.
    public func pieces(_ path: RoutePath) -> [(edge: Int, forward: Bool, from: Double, to: Double)] {
        let n = graph.network
        guard !path.halfEdges.isEmpty else {
            return [(path.start.edge, path.end.along >= path.start.along, path.start.along, path.end.along)]
        }
        return path.halfEdges.enumerated().map { i, h in
            let e = h >> 1
            let forward = RoutingGraph.isForward(h)
            let len = Double(n.edgeMeters[e])
            var from = forward ? 0 : len
            var to = forward ? len : 0
            if i == 0 { from = path.start.along }
            if i == path.halfEdges.count - 1 { to = path.end.along }
            return (e, forward, from, to)
        }
    }

    /// The metres and seconds of a path.
    func measure(_ path: RoutePath) -> (Double, Double) {
        var metres = 0.0
        var seconds = 0.0
        for piece in pieces(path) {
            let m = abs(piece.to - piece.from)
            metres += m
            seconds += graph.seconds(path.profile, piece.edge, metres: m)
        }
        return (metres, seconds)
    }
}
