import GeoCore
import MapFormats

/// The streets a profile reaches from a point within a time: whole edges, and the parts of the edges
/// at the limit, found by Dijkstra over junctions with seconds as cost (turn restrictions are not
/// applied: they lengthen a car's reach by a turn at most).
public struct Reach: Equatable, Sendable {
    /// The profile and the limit.
    public var profile: RouteProfile
    public var seconds: Double
    /// Where it is measured from.
    public var start: SnapPoint
    /// The reached parts: an edge, and metres along it from its `from` end.
    public var parts: [Part]

    /// A reached stretch of an edge.
    public struct Part: Equatable, Sendable {
        public var edge: Int
        public var from: Double
        public var to: Double
    }

    /// Metres of street reached.
    public var meters: Double { parts.reduce(0) { $0 + ($1.to - $1.from) } }
}

extension Router {
    /// Everything `profile` reaches from `start` within `seconds`.
    public func reach(from start: SnapPoint, seconds limit: Double, profile: RouteProfile) -> Reach {
        let g = graph
        let n = g.network
        var best = [Double](repeating: .infinity, count: n.nodeCount)
        var heap = BinaryHeap()
        let e0 = start.edge
        let len0 = Double(n.edgeMeters[e0])
        var parts: [Reach.Part] = []
        // The start's own edge, each way as far as the time goes.
        let metresIn = { (e: Int, s: Double) in max(0, s) * n.metresPerHour(profile, e) / 3600 }
        if n.allows(profile, e0, forward: true) {
            let t = g.seconds(profile, e0, metres: len0 - start.along)
            parts.append(.init(edge: e0, from: start.along, to: min(len0, start.along + metresIn(e0, limit))))
            if t <= limit {
                best[Int(n.edgeTo[e0])] = t
                heap.push(t, Int(n.edgeTo[e0]))
            }
        }
        if n.allows(profile, e0, forward: false) {
            let t = g.seconds(profile, e0, metres: start.along)
            parts.append(.init(edge: e0, from: max(0, start.along - metresIn(e0, limit)), to: start.along))
            if t <= limit, t < best[Int(n.edgeFrom[e0])] {
                best[Int(n.edgeFrom[e0])] = t
                heap.push(t, Int(n.edgeFrom[e0]))
            }
        }
        while let (t, v) = heap.pop() {
            guard t <= best[v] else { continue }
            for i in Int(g.firstOut[v])..<Int(g.firstOut[v + 1]) {
                let h = Int(g.outgoing[i])
                guard g.allows(profile, h) else { continue }
                let e = h >> 1
                let len = Double(n.edgeMeters[e])
                let forward = RoutingGraph.isForward(h)
                let go = min(len, metresIn(e, limit - t))
                parts.append(forward ? .init(edge: e, from: 0, to: go) : .init(edge: e, from: len - go, to: len))
                let arrive = t + g.seconds(profile, e, metres: len)
                let w = g.head(h)
                if arrive <= limit, arrive < best[w] {
                    best[w] = arrive
                    heap.push(arrive, w)
                }
            }
        }
        return Reach(
            profile: profile, seconds: limit, start: start, parts: Self.merged(parts.filter { $0.to > $0.from }))
    }

    /// Each edge's parts joined where they overlap.
    static func merged(_ parts: [Reach.Part]) -> [Reach.Part] {
        let sorted = parts.sorted { ($0.edge, $0.from) < ($1.edge, $1.from) }
        var out: [Reach.Part] = []
        for p in sorted {
            if let last = out.last, last.edge == p.edge, p.from <= last.to {
                out[out.count - 1].to = max(last.to, p.to)
            } else {
                out.append(p)
            }
        }
        return out
    }
}
