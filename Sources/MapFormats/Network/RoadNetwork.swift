import GeoCore

/// The routable streets of an import as a graph (format version 6's network section): junctions, the
/// edges between them with their length, shape and way, and which profile may use each edge which way.
/// Kept as parallel arrays: 16 to 24 bytes an edge in memory, so a city's network costs a few MB.
public struct RoadNetwork: Equatable, Sendable {
    /// A junction's position in 1e-7° (OpenStreetMap's resolution).
    public var nodeLatitudes: [Int32] = []
    public var nodeLongitudes: [Int32] = []
    /// Each edge's end junctions: it is drawn from `edgeFrom` to `edgeTo`.
    public var edgeFrom: [UInt32] = []
    public var edgeTo: [UInt32] = []
    /// Each edge's geodesic length in metres (the sum of its segments', WGS84).
    public var edgeMeters: [Float] = []
    /// Each edge's way (an index into `ways`).
    public var edgeWay: [UInt32] = []
    /// Who may use each edge which way: `AccessBits` of the three profiles, and whether a bike is pushed
    /// there (steps: walking speed).
    public var edgeAccess: [UInt8] = []
    /// A car's speed on each edge (km/h, from `maxspeed` or its class); bikes and feet have one speed.
    public var edgeCarKmh: [UInt8] = []
    /// Each edge's points between its ends, in 1e-7°: edge `e`'s are `shapeStart[e]..<shapeStart[e + 1]`.
    public var shapeStart: [UInt32] = [0]
    public var shapeLatitudes: [Int32] = []
    public var shapeLongitudes: [Int32] = []
    /// The OpenStreetMap ways the edges come from, as columns: id, name and ref (indexes into `texts`),
    /// `highway` class (an index into `classes`) and flags (1: a roundabout). `way(_:)` gives one whole.
    public var wayOSM: [Int64] = []
    public var wayName: [UInt32] = []
    public var wayRef: [UInt32] = []
    public var wayClass: [UInt8] = []
    public var wayFlags: [UInt8] = []
    /// The ways' names and refs, each once (0 is the empty text), and their classes.
    public var texts: [String] = [""]
    public var classes: [String] = []
    private var textIndex: [String: UInt32] = ["": 0]
    /// Turn restrictions (for cars).
    public var restrictions: [TurnRestriction] = []

    /// An OpenStreetMap way of the network: its id, name, `ref`, `highway` class and whether it is a
    /// roundabout.
    public struct Way: Equatable, Sendable {
        public var osmID: Int64
        public var name: String
        public var ref: String
        public var highway: String
        public var roundabout: Bool

        /// A way.
        public init(osmID: Int64, name: String = "", ref: String = "", highway: String, roundabout: Bool = false) {
            (self.osmID, self.name, self.ref, self.highway, self.roundabout) = (osmID, name, ref, highway, roundabout)
        }
    }

    /// A turn restriction through a junction: from a way onto another, forbidden (`no_*`) or the only
    /// way on (`only_*`).
    public struct TurnRestriction: Equatable, Sendable {
        public var fromWay: UInt32
        public var via: UInt32
        public var toWay: UInt32
        public var only: Bool

        /// A restriction.
        public init(fromWay: UInt32, via: UInt32, toWay: UInt32, only: Bool) {
            (self.fromWay, self.via, self.toWay, self.only) = (fromWay, via, toWay, only)
        }
    }

    /// An empty network.
    public init() {}

    public static func == (a: RoadNetwork, b: RoadNetwork) -> Bool {
        a.nodeLatitudes == b.nodeLatitudes && a.nodeLongitudes == b.nodeLongitudes && a.edgeFrom == b.edgeFrom
            && a.edgeTo == b.edgeTo && a.edgeMeters == b.edgeMeters && a.edgeWay == b.edgeWay
            && a.edgeAccess == b.edgeAccess && a.edgeCarKmh == b.edgeCarKmh
            && a.shapeStart == b.shapeStart && a.shapeLatitudes == b.shapeLatitudes
            && a.shapeLongitudes == b.shapeLongitudes && a.wayOSM == b.wayOSM && a.wayName == b.wayName
            && a.wayRef == b.wayRef && a.wayClass == b.wayClass && a.wayFlags == b.wayFlags && a.texts == b.texts
            && a.classes == b.classes && a.restrictions == b.restrictions
    }

    /// Ways.
    public var wayCount: Int { wayOSM.count }

    /// Way `i` whole.
    public func way(_ i: Int) -> Way {
        Way(
            osmID: wayOSM[i], name: texts[Int(wayName[i])], ref: texts[Int(wayRef[i])],
            highway: classes[Int(wayClass[i])], roundabout: wayFlags[i] & 1 != 0)
    }

    /// Whether way `i` is a roundabout.
    public func isRoundabout(_ i: Int) -> Bool { wayFlags[i] & 1 != 0 }

    /// Appends a way (its texts kept once); its index.
    @discardableResult
    public mutating func addWay(_ w: Way) -> UInt32 {
        let i = UInt32(wayOSM.count)
        wayOSM.append(w.osmID)
        wayName.append(text(w.name))
        wayRef.append(text(w.ref))
        if let c = classes.firstIndex(of: w.highway) {
            wayClass.append(UInt8(c))
        } else {
            wayClass.append(UInt8(min(255, classes.count)))
            if classes.count < 256 { classes.append(w.highway) }
        }
        wayFlags.append(w.roundabout ? 1 : 0)
        return i
    }

    /// Takes a decoded file's texts and classes (each text once, the empty one first).
    mutating func adoptTexts(_ all: [String], classes: [String]) {
        texts = all
        self.classes = classes
        textIndex = Dictionary(
            all.enumerated().map { ($0.element, UInt32($0.offset)) }, uniquingKeysWith: { a, _ in a })
    }

    /// The index of `t` in `texts`, added when new.
    mutating func text(_ t: String) -> UInt32 {
        if let i = textIndex[t] { return i }
        let i = UInt32(texts.count)
        texts.append(t)
        textIndex[t] = i
        return i
    }

    /// Junctions.
    public var nodeCount: Int { nodeLatitudes.count }
    /// Edges.
    public var edgeCount: Int { edgeFrom.count }

    /// A junction's position.
    public func node(_ i: Int) -> Coordinate {
        Coordinate(latitude: Double(nodeLatitudes[i]) * 1e-7, longitude: Double(nodeLongitudes[i]) * 1e-7)
    }

    /// Every point of edge `e` from its `from` end to its `to` end.
    public func points(_ e: Int) -> [Coordinate] {
        var out = [node(Int(edgeFrom[e]))]
        for i in Int(shapeStart[e])..<Int(shapeStart[e + 1]) {
            out.append(
                Coordinate(latitude: Double(shapeLatitudes[i]) * 1e-7, longitude: Double(shapeLongitudes[i]) * 1e-7))
        }
        out.append(node(Int(edgeTo[e])))
        return out
    }

    /// Whether `profile` may use edge `e` along its drawing (`forward`) or against it.
    public func allows(_ profile: RouteProfile, _ e: Int, forward: Bool) -> Bool {
        edgeAccess[e] & AccessBits.bit(profile, forward: forward) != 0
    }

    /// Metres an hour `profile` goes on edge `e`.
    public func metresPerHour(_ profile: RouteProfile, _ e: Int) -> Double {
        switch profile {
        case .foot: return RouteProfile.walkingKmh * 1000
        case .bike:
            return (edgeAccess[e] & AccessBits.bikePushed != 0 ? RouteProfile.walkingKmh : RouteProfile.cyclingKmh)
                * 1000
        case .car: return Double(max(1, edgeCarKmh[e])) * 1000
        }
    }

    /// Appends an edge (its points from end to end, at least two).
    public mutating func addEdge(
        from: UInt32, to: UInt32, interior: [Coordinate], meters: Double, way: UInt32, access: UInt8, carKmh: UInt8,
        bikePushed: Bool
    ) {
        edgeFrom.append(from)
        edgeTo.append(to)
        edgeMeters.append(Float(meters))
        edgeWay.append(way)
        edgeAccess.append(access | (bikePushed ? AccessBits.bikePushed : 0))
        edgeCarKmh.append(carKmh)
        for c in interior {
            shapeLatitudes.append(Int32((c.latitude * 1e7).rounded()))
            shapeLongitudes.append(Int32((c.longitude * 1e7).rounded()))
        }
        shapeStart.append(UInt32(shapeLatitudes.count))
    }

    /// Bytes the graph holds in memory without its shapes: junctions, edges, ways (each text counted at
    /// its UTF-8 length and a String's 16) and restrictions.
    public var graphBytes: Int {
        nodeCount * 8 + edgeCount * (4 + 4 + 4 + 4 + 1 + 1) + restrictions.count * MemoryLayout<TurnRestriction>.stride
            + wayCount * (8 + 4 + 4 + 1 + 1) + texts.reduce(0) { $0 + 16 + $1.utf8.count }
    }

    /// Bytes of the edges' shapes (drawing and snapping; the search never reads them).
    public var shapeBytes: Int { shapeStart.count * 4 + shapeLatitudes.count * 8 }
}

/// The bits of `RoadNetwork.edgeAccess`: per profile, forward then backward; then a bike pushed.
public enum AccessBits {
    /// A bike is pushed here (steps): walking speed.
    public static let bikePushed: UInt8 = 1 << 6

    /// The bit saying `profile` may go along (`forward`) or against an edge.
    public static func bit(_ profile: RouteProfile, forward: Bool) -> UInt8 {
        let base: UInt8
        switch profile {
        case .foot: base = 0
        case .bike: base = 2
        case .car: base = 4
        }
        return 1 << (base + (forward ? 0 : 1))
    }

    /// The bits of `profile`'s use of a way.
    public static func bits(_ profile: RouteProfile, _ use: RouteProfile.Use?) -> UInt8 {
        guard let use else { return 0 }
        return (use.forward ? bit(profile, forward: true) : 0) | (use.backward ? bit(profile, forward: false) : 0)
    }
}
