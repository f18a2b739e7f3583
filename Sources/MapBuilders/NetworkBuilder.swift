import GeoCore
import MapFormats

/// Builds the routable graph of an import (issue 46): every node two routable ways share, and every
/// way's ends, become junctions; the ways between junctions become edges with their geodesic length
/// (PROJ's Karney geodesics, summed over the segments), shape, way and each profile's use.
struct NetworkBuilder {
    /// A way some profile may use, with its use by each.
    struct RoutableWay {
        /// Its index in the collector's ways.
        var index: Int
        var access: UInt8
        var carKmh: UInt8
        var bikePushed: Bool
        var ref: String
        var highway: String
        var roundabout: Bool
    }

    /// A restriction as the file has it (OSM ids), before its ways and node are found in the network.
    struct Restriction {
        var fromWay: Int64
        var via: Int64
        var toWay: Int64
        var only: Bool
    }

    private(set) var network = RoadNetwork()
    private var nodeIndex: [Int64: UInt32] = [:]
    private var wayIndex: [Int64: UInt32] = [:]
    /// Restrictions whose ways or node the network lacks (clipped extracts, via ways).
    private(set) var droppedRestrictions = 0

    /// The profiles' use of a way's tags, or nil when no profile may use it.
    static func routable(_ tags: [String: String], index: Int) -> RoutableWay? {
        guard let highway = tags["highway"] else { return nil }
        let uses = RouteProfile.allCases.map { ($0, $0.use(tags)) }
        let access = uses.reduce(UInt8(0)) { $0 | AccessBits.bits($1.0, $1.1) }
        guard access != 0 else { return nil }
        let car = uses[2].1.map { UInt8(clamping: Int($0.speedKmh.rounded())) } ?? 0
        let pushed = (uses[1].1?.speedKmh ?? RouteProfile.cyclingKmh) < RouteProfile.cyclingKmh
        return RoutableWay(
            index: index, access: access, carKmh: max(car, 1), bikePushed: pushed, ref: tags["ref"] ?? "",
            highway: highway, roundabout: tags["junction"] == "roundabout")
    }

    /// A turn restriction relation's from way, via node and to way (`type=restriction`, `no_*` or
    /// `only_*`, for cars); nil for anything else (a via way is not kept).
    static func restriction(_ r: OSMRelation) -> Restriction? {
        guard r.tags["type"] == "restriction" else { return nil }
        guard let kind = r.tags["restriction"] ?? r.tags["restriction:motorcar"] ?? r.tags["restriction:motor_vehicle"]
        else { return nil }
        if let except = r.tags["except"], except.split(separator: ";").contains("motorcar") { return nil }
        guard kind.hasPrefix("no_") || kind.hasPrefix("only_") else { return nil }
        let from = r.members.filter { $0.role == "from" && $0.type == .way }
        let via = r.members.filter { $0.role == "via" }
        let to = r.members.filter { $0.role == "to" && $0.type == .way }
        guard from.count == 1, to.count == 1, via.count == 1, via[0].type == .node else { return nil }
        return Restriction(fromWay: from[0].ref, via: via[0].ref, toWay: to[0].ref, only: kind.hasPrefix("only_"))
    }

    /// How many routable ways use each node (2 or more: a junction).
    static func nodeUse(_ ways: [[Int64]]) -> [Int64: UInt8] {
        var use: [Int64: UInt8] = [:]
        for refs in ways { for ref in refs { use[ref] = min(2, (use[ref] ?? 0) + 1) } }
        return use
    }

    /// Adds a way's edges: `refs` and their positions (nil where the extract lacks the node: the way
    /// stops there and starts again after it).
    mutating func add(
        _ way: RoutableWay, osmID: Int64, name: String?, refs: [Int64], positions: [Coordinate?], use: [Int64: UInt8]
    ) {
        let w = network.addWay(
            RoadNetwork.Way(
                osmID: osmID, name: name ?? "", ref: way.ref, highway: way.highway, roundabout: way.roundabout))
        wayIndex[osmID] = wayIndex[osmID] ?? w
        var start: (node: UInt32, at: Coordinate)?
        var interior: [Coordinate] = []
        var meters = 0.0
        for i in refs.indices {
            guard let c = positions[i] else {
                start = nil
                continue
            }
            guard let s = start else {
                start = (node(refs[i], c), c)
                (interior, meters) = ([], 0)
                continue
            }
            // A segment PROJ cannot measure (a forged position) counts nothing, never NaN.
            let step = Geodesic.distance(interior.last ?? s.at, c)
            meters += step.isFinite ? step : 0
            let end = i == refs.count - 1 || positions[i + 1] == nil
            guard end || use[refs[i], default: 0] >= 2 else {
                interior.append(c)
                continue
            }
            let to = node(refs[i], c)
            network.addEdge(
                from: s.node, to: to, interior: interior, meters: meters, way: w, access: way.access,
                carKmh: way.carKmh, bikePushed: way.bikePushed)
            start = (to, c)
            (interior, meters) = ([], 0)
        }
    }

    /// The junction of OSM node `id` at `c` (made on first use).
    private mutating func node(_ id: Int64, _ c: Coordinate) -> UInt32 {
        if let i = nodeIndex[id] { return i }
        let i = UInt32(network.nodeCount)
        nodeIndex[id] = i
        network.nodeLatitudes.append(Int32((c.latitude * 1e7).rounded()))
        network.nodeLongitudes.append(Int32((c.longitude * 1e7).rounded()))
        return i
    }

    /// Adds the restrictions whose ways and node are in the network.
    mutating func add(_ restrictions: [Restriction]) {
        for r in restrictions {
            guard let from = wayIndex[r.fromWay], let via = nodeIndex[r.via], let to = wayIndex[r.toWay] else {
                droppedRestrictions += 1
                continue
            }
            network.restrictions.append(RoadNetwork.TurnRestriction(fromWay: from, via: via, toWay: to, only: r.only))
        }
    }
}
