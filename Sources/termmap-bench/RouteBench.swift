import Foundation
import GeoCore
import MapData
import MapFormats
import Routing
import Viewer

// MARK: Routes (issue 46)

/// A seeded generator (splitmix64): the same pairs every run.
struct SplitMix {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(1, n))) }
}

/// The demo city's network laid `k` × `k` times side by side (each copy one extract's box further north
/// or east), neighbours joined by two-way streets between their 20 nearest pairs of junctions across the
/// seam: a city `k²` times the demo's, as one import of a larger extract would be.
func tiledNetwork(_ n: RoadNetwork, _ k: Int) -> RoadNetwork {
    var out = RoadNetwork()
    let (dLat, dLon) = (Int32(150_000), Int32(185_000))  // 0.015° × 0.0185°: the extract's box and a gap
    var first: [[Int]] = Array(repeating: Array(repeating: 0, count: k), count: k)
    for i in 0..<k {
        for j in 0..<k {
            let base = out.nodeCount
            first[i][j] = base
            // Each copy's ways are ways of their own, as a larger extract's would be.
            let wayBase = UInt32(out.wayCount)
            for w in 0..<n.wayCount { out.addWay(n.way(w)) }
            out.nodeLatitudes += n.nodeLatitudes.map { $0 + Int32(i) * dLat }
            out.nodeLongitudes += n.nodeLongitudes.map { $0 + Int32(j) * dLon }
            for e in 0..<n.edgeCount {
                let interior = Array(n.points(e).dropFirst().dropLast()).map {
                    Coordinate(
                        latitude: $0.latitude + Double(i) * 0.015, longitude: $0.longitude + Double(j) * 0.0185)
                }
                out.addEdge(
                    from: n.edgeFrom[e] + UInt32(base), to: n.edgeTo[e] + UInt32(base), interior: interior,
                    meters: Double(n.edgeMeters[e]), way: n.edgeWay[e] + wayBase, access: n.edgeAccess[e],
                    carKmh: n.edgeCarKmh[e], bikePushed: false)  // (the access byte has it)
            }
        }
    }
    // Seams: the 20 junctions of a copy nearest its eastern (northern) edge, each joined to the nearest of
    // the next copy's western (southern) ones; junctions of the cars' largest part, so that every profile
    // crosses (cars have the fewest streets).
    let all = connectedJunctions(Router(n), .car)
    let east = all.sorted { n.nodeLongitudes[$0] > n.nodeLongitudes[$1] }.prefix(20)
    let west = all.sorted { n.nodeLongitudes[$0] < n.nodeLongitudes[$1] }.prefix(20)
    let north = all.sorted { n.nodeLatitudes[$0] > n.nodeLatitudes[$1] }.prefix(20)
    let south = all.sorted { n.nodeLatitudes[$0] < n.nodeLatitudes[$1] }.prefix(20)
    let seamWay = out.addWay(RoadNetwork.Way(osmID: 0, name: "seam", highway: "residential"))
    func join(_ a: Int, _ candidates: [Int]) {
        let pa = out.node(a)
        guard let b = candidates.min(by: { Geodesic.distance(pa, out.node($0)) < Geodesic.distance(pa, out.node($1)) })
        else { return }
        out.addEdge(
            from: UInt32(a), to: UInt32(b), interior: [], meters: Geodesic.distance(pa, out.node(b)), way: seamWay,
            access: 0x3F, carKmh: 30, bikePushed: false)
    }
    for i in 0..<k {
        for j in 0..<k {
            if j + 1 < k { for a in east { join(first[i][j] + a, west.map { first[i][j + 1] + $0 }) } }
            if i + 1 < k { for a in north { join(first[i][j] + a, south.map { first[i + 1][j] + $0 }) } }
        }
    }
    return out
}

/// The junctions `profile` can go to and come back from one another (the largest such part found from 20
/// seeded junctions): random pairs of them have a route (others' searches fail, having searched all).
func connectedJunctions(_ router: Router, _ profile: RouteProfile) -> [Int] {
    let n = router.graph.network
    var forward = [[Int]](repeating: [], count: n.nodeCount)
    var backward = [[Int]](repeating: [], count: n.nodeCount)
    for e in 0..<n.edgeCount {
        let (a, b) = (Int(n.edgeFrom[e]), Int(n.edgeTo[e]))
        if n.allows(profile, e, forward: true) { (forward[a], backward[b]) = (forward[a] + [b], backward[b] + [a]) }
        if n.allows(profile, e, forward: false) { (forward[b], backward[a]) = (forward[b] + [a], backward[a] + [b]) }
    }
    func reached(from s: Int, _ next: [[Int]]) -> Set<Int> {
        var seen: Set<Int> = [s]
        var queue = [s]
        while let v = queue.popLast() { for w in next[v] where seen.insert(w).inserted { queue.append(w) } }
        return seen
    }
    // The largest such part around 20 seeded junctions.
    var random = SplitMix(state: 7)
    var best: Set<Int> = []
    for _ in 0..<20 {
        let s = random.below(n.nodeCount)
        guard !forward[s].isEmpty else { continue }
        let part = reached(from: s, forward).intersection(reached(from: s, backward))
        if part.count > best.count { best = part }
    }
    return best.sorted()
}

/// Milliseconds of `count` seeded random routes (snapping included) between junctions of one part.
func routeTimes(_ router: Router, _ profile: RouteProfile, count: Int, seed: UInt64) -> (
    times: [Double], failed: Int, among: Int
) {
    let junctions = connectedJunctions(router, profile)
    var random = SplitMix(state: seed)
    var times: [Double] = []
    var failed = 0
    let n = router.graph.network
    // One route first, not counted: the first search's pages and allocations are the process's, not a route's.
    if let j = junctions.first { _ = router.route(from: n.node(j), to: n.node(j), profile: profile) }
    for _ in 0..<count {
        let a = n.node(junctions[random.below(junctions.count)])
        let b = n.node(junctions[random.below(junctions.count)])
        let t0 = nowSeconds()
        if case .failure = router.route(from: a, to: b, profile: profile) { failed += 1 }
        times.append((nowSeconds() - t0) * 1000)
    }
    return (times, failed, junctions.count)
}

/// The route figures as lines: each network's size and memory, and each profile's route times.
func routeLines() throws -> [String] {
    let city = try MapAsset(path: packageRoot.appendingPathComponent("assets/helsinki.tmap").path)
    guard let demo = try city.network() else { return ["routes: the demo city has no network"] }
    var lines = ["routes: 100 seeded random pairs of junctions per profile, snapping included (milliseconds)"]
    let sizes: [(String, () -> RoadNetwork)] = [
        ("demo city", { demo }), ("16× the demo city (4 × 4 copies)", { tiledNetwork(demo, 4) }),
        ("256× the demo city (16 × 16 copies)", { tiledNetwork(demo, 16) }),
    ]
    for (name, make) in sizes {
        let network = make()
        let t0 = nowSeconds()
        let router = Router(network)
        let build = (nowSeconds() - t0) * 1000
        let searchBytes = network.graphBytes + router.graph.memoryBytes
        let edges = Double(max(1, network.edgeCount))
        lines.append(
            "  \(name): \(network.nodeCount) junctions, \(network.edgeCount) edges, "
                + "\(network.shapeLatitudes.count) shape points; made ready in \(CoordinateFormat.fixed(build, 1)) ms")
        lines.append(
            "    memory: the graph searched \(searchBytes / 1024) KB = \(CoordinateFormat.fixed(Double(searchBytes) / edges, 1)) B "
                + "an edge (the issue's limit: 3 × 16 = 48); with the shapes \((searchBytes + network.shapeBytes) / 1024) KB = "
                + "\(CoordinateFormat.fixed(Double(searchBytes + network.shapeBytes) / edges, 1)) B an edge")
        for profile in RouteProfile.allCases {
            let (times, failed, among) = routeTimes(router, profile, count: 100, seed: 46)
            lines.append(
                "    \(profile.rawValue) (among \(among) junctions): p50 \(CoordinateFormat.fixed(median(times), 2)), p95 "
                    + "\(CoordinateFormat.fixed(percentile(times, 0.95), 2)), max "
                    + "\(CoordinateFormat.fixed(times.max() ?? 0, 2))" + (failed > 0 ? " (\(failed) no route)" : ""))
        }
    }
    return lines
}
