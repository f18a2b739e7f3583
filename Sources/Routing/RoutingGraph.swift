import GeoCore
import Glibc
import MapFormats

/// A road network ready to search: each junction's outgoing half-edges in one array (compressed sparse
/// rows), each profile's cost of a half-edge, and the turn restrictions by junction.
///
/// A half-edge is an edge taken one way: `2e` along its drawing (from `edgeFrom` to `edgeTo`), `2e + 1`
/// against it.
public struct RoutingGraph: Sendable {
    /// The network searched.
    public let network: RoadNetwork
    /// Junction `n`'s outgoing half-edges are `outgoing[firstOut[n]..<firstOut[n + 1]]`.
    let firstOut: [UInt32]
    let outgoing: [UInt32]
    /// The restrictions through each junction that has any.
    let restrictionsAt: [UInt32: [RoadNetwork.TurnRestriction]]
    /// The fastest speed of each profile anywhere (metres a second): the A* bound's divisor.
    let topSpeed: [RouteProfile: Double]

    /// The graph of `network`.
    public init(_ network: RoadNetwork) {
        self.network = network
        var counts = [UInt32](repeating: 0, count: network.nodeCount + 1)
        for e in 0..<network.edgeCount {
            counts[Int(network.edgeFrom[e]) + 1] += 1
            counts[Int(network.edgeTo[e]) + 1] += 1
        }
        for n in 0..<network.nodeCount { counts[n + 1] += counts[n] }
        var fill = counts
        var out = [UInt32](repeating: 0, count: network.edgeCount * 2)
        for e in 0..<network.edgeCount {
            let f = Int(network.edgeFrom[e])
            out[Int(fill[f])] = UInt32(2 * e)
            fill[f] += 1
            let t = Int(network.edgeTo[e])
            out[Int(fill[t])] = UInt32(2 * e + 1)
            fill[t] += 1
        }
        firstOut = counts
        outgoing = out
        restrictionsAt = Dictionary(grouping: network.restrictions, by: \.via)
        var top: [RouteProfile: Double] = [:]
        for p in RouteProfile.allCases {
            var best = 0.0
            for e in 0..<network.edgeCount where network.edgeAccess[e] & AccessBits.mask(p) != 0 {
                best = max(best, network.metresPerHour(p, e))
            }
            top[p] = max(best, 1) / 3600
        }
        topSpeed = top
    }

    /// The edge of half-edge `h`.
    @inline(__always) static func edge(_ h: Int) -> Int { h >> 1 }
    /// Whether half-edge `h` goes along its edge's drawing.
    @inline(__always) static func isForward(_ h: Int) -> Bool { h & 1 == 0 }

    /// The junction half-edge `h` leaves.
    @inline(__always) func tail(_ h: Int) -> Int {
        Int(Self.isForward(h) ? network.edgeFrom[h >> 1] : network.edgeTo[h >> 1])
    }
    /// The junction half-edge `h` arrives at.
    @inline(__always) func head(_ h: Int) -> Int {
        Int(Self.isForward(h) ? network.edgeTo[h >> 1] : network.edgeFrom[h >> 1])
    }

    /// Whether `profile` may take half-edge `h`.
    @inline(__always) func allows(_ profile: RouteProfile, _ h: Int) -> Bool {
        network.allows(profile, h >> 1, forward: Self.isForward(h))
    }

    /// What `metres` of edge `e` cost `profile`: foot routes minimise length (metres), bike and car
    /// routes time (seconds).
    @inline(__always) func cost(_ profile: RouteProfile, _ e: Int, metres: Double) -> Double {
        profile == .foot ? metres : metres / network.metresPerHour(profile, e) * 3600
    }

    /// Seconds `profile` takes for `metres` of edge `e`.
    public func seconds(_ profile: RouteProfile, _ e: Int, metres: Double) -> Double {
        metres / network.metresPerHour(profile, e) * 3600
    }

    /// A lower bound of the cost from `a` to `b`: the distance on a sphere of the ellipsoid's least
    /// radius of curvature (the meridian's at the equator, a(1 − e²) = 6,335,439 m, less 0.1 %), which
    /// no geodesic between them undercuts, over the profile's top speed.
    func lowerBound(_ profile: RouteProfile, _ a: Coordinate, _ b: Coordinate) -> Double {
        let metres = Self.sphericalDistance(a, b)
        return profile == .foot ? metres : metres / (topSpeed[profile] ?? 1)
    }

    /// The least radius of curvature of WGS84 less 0.1 % (see `lowerBound`).
    static let boundRadius = 6_335_439.0 * 0.999

    /// Haversine distance on the sphere of `boundRadius`.
    static func sphericalDistance(_ a: Coordinate, _ b: Coordinate) -> Double {
        let rad = Double.pi / 180
        let dLat = (b.latitude - a.latitude) * rad
        let dLon = (b.longitude - a.longitude) * rad
        let h =
            sin(dLat / 2) * sin(dLat / 2)
            + cos(a.latitude * rad) * cos(b.latitude * rad) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * boundRadius * asin(min(1, h.squareRoot()))
    }

    /// Whether a turn from half-edge `inbound` onto `outbound` at their junction is allowed for
    /// `profile` (turn restrictions bind cars).
    @inline(__always) func turnAllowed(_ profile: RouteProfile, from inbound: Int, to outbound: Int) -> Bool {
        guard profile == .car, let rules = restrictionsAt[UInt32(head(inbound))] else { return true }
        let fromWay = network.edgeWay[inbound >> 1]
        let toWay = network.edgeWay[outbound >> 1]
        for r in rules where r.fromWay == fromWay {
            if r.only ? r.toWay != toWay : r.toWay == toWay { return false }
        }
        return true
    }

    /// How many half-edges `profile` may take from junction `v`.
    func usableOut(_ profile: RouteProfile, _ v: Int) -> Int {
        var count = 0
        for i in Int(firstOut[v])..<Int(firstOut[v + 1]) where allows(profile, Int(outgoing[i])) { count += 1 }
        return count
    }

    /// Bytes the search structure holds besides the network: the rows and the half-edges.
    public var memoryBytes: Int { firstOut.count * 4 + outgoing.count * 4 }
}

extension AccessBits {
    /// Both of `profile`'s bits.
    public static func mask(_ profile: RouteProfile) -> UInt8 {
        bit(profile, forward: true) | bit(profile, forward: false)
    }
}
