import GeoCore
import MapFormats

/// One instruction of a route: what to do where, and how far and long it goes until the next.
public struct RouteStep: Equatable, Sendable {
    /// `turn left onto Mannerheimintie`, `at the roundabout take the 2nd exit onto Hämeentie`.
    public var instruction: String
    /// The street it goes onto (its name, else its ref, else its class).
    public var name: String
    /// Metres and seconds until the next step.
    public var meters: Double
    public var seconds: Double
    /// The bearing it leaves the point at (degrees clockwise from north).
    public var bearing: Double
    /// Where it happens.
    public var at: Coordinate
}

/// Turns a route's edges into steps: a step where the street's name changes, its side and sharpness
/// from the angle between the edges (`turnWords`), roundabout exits counted.
public enum RouteSteps {
    /// The steps of `path`.
    public static func steps(_ path: RoutePath, router: Router) -> [RouteStep] {
        let n = router.graph.network
        let pieces = router.pieces(path).filter { abs($0.to - $0.from) > 0.01 || path.halfEdges.isEmpty }
        guard !pieces.isEmpty else { return [arrive(path)] }
        var steps: [RouteStep] = []
        var roundaboutExits = 0
        for (i, piece) in pieces.enumerated() {
            let line = router.slice(piece.edge, from: piece.from, to: piece.to)
            let metres = abs(piece.to - piece.from)
            let seconds = router.graph.seconds(path.profile, piece.edge, metres: metres)
            let way = n.way(Int(n.edgeWay[piece.edge]))
            let outBearing = bearing(line, atEnd: false)
            if i == 0 {
                let verb = way.roundabout ? "go round the roundabout on" : "head \(compass(outBearing)) on"
                steps.append(step("\(verb) \(label(way))", way, outBearing, line[0]))
            } else {
                let previous = pieces[i - 1]
                let before = n.way(Int(n.edgeWay[previous.edge]))
                let prevLine = router.slice(previous.edge, from: previous.from, to: previous.to)
                let turn = angle(from: bearing(prevLine, atEnd: true), to: outBearing)
                if before.roundabout && way.roundabout {
                    // Passing an exit of the roundabout: count it when the profile could leave there.
                    roundaboutExits += exits(router, at: line[0], piece: piece, path.profile)
                } else if way.roundabout {
                    roundaboutExits = 0
                    steps.append(step("enter the roundabout", way, outBearing, line[0]))
                } else if before.roundabout {
                    let nth = ordinal(roundaboutExits + 1)
                    let text = "at the roundabout take the \(nth) exit onto \(label(way))"
                    if steps.last?.instruction == "enter the roundabout" { steps.removeLast() }
                    steps.append(step(text, way, outBearing, line[0]))
                } else if sameStreet(before, way, turn) {
                    // The name goes on: so does the step.
                } else {
                    steps.append(step("\(turnWords(turn)) \(label(way))", way, outBearing, line[0]))
                }
            }
            steps[steps.count - 1].meters += metres
            steps[steps.count - 1].seconds += seconds
        }
        return simplified(steps) + [arrive(path)]
    }

    /// Steps shorter than `shortStep` (a crossing of a street between two sidewalks, a jog) fold into the
    /// step before them, and a step onto the street the one before already follows joins it: a walk
    /// along separately drawn sidewalks reads as the streets it follows.
    static func simplified(_ steps: [RouteStep]) -> [RouteStep] {
        var out: [RouteStep] = []
        for (i, step) in steps.enumerated() {
            let last = i == steps.count - 1
            if var previous = out.last,
                (step.meters < shortStep && !last) || (previous.name == step.name && !step.name.hasPrefix("the ")),
                !step.instruction.hasPrefix("at the roundabout"), !step.instruction.hasPrefix("enter the roundabout")
            {
                previous.meters += step.meters
                previous.seconds += step.seconds
                out[out.count - 1] = previous
            } else {
                out.append(step)
            }
        }
        return out
    }

    /// Metres under which a step is folded into the one before.
    static let shortStep = 10.0

    static func step(_ instruction: String, _ way: RoadNetwork.Way, _ bearing: Double, _ at: Coordinate) -> RouteStep {
        RouteStep(instruction: instruction, name: label(way), meters: 0, seconds: 0, bearing: bearing, at: at)
    }

    static func arrive(_ path: RoutePath) -> RouteStep {
        RouteStep(instruction: "arrive", name: "", meters: 0, seconds: 0, bearing: 0, at: path.end.point)
    }

    /// Whether the way after a junction is the same street: the same name (or ref), or both unnamed and
    /// no real turn between them (a footway on into steps says nothing worth a step).
    static func sameStreet(_ a: RoadNetwork.Way, _ b: RoadNetwork.Way, _ turn: Double) -> Bool {
        let (la, lb) = (a.name.isEmpty ? a.ref : a.name, b.name.isEmpty ? b.ref : b.name)
        if !la.isEmpty || !lb.isEmpty { return la == lb }
        return abs(turn) < 20
    }

    /// A street's words: its name, else its ref, else its class (`the footway`).
    public static func label(_ way: RoadNetwork.Way) -> String {
        if !way.name.isEmpty { return way.name }
        if !way.ref.isEmpty { return way.ref }
        return "the " + way.highway.replacing("_link", with: " link").replacing("_", with: " ")
    }

    /// The words of a turn by its angle (degrees, positive to the right): under 20° straight on, under
    /// 45° slight, under 120° a turn, beyond that sharp.
    public static func turnWords(_ turn: Double) -> String {
        let side = turn > 0 ? "right" : "left"
        switch abs(turn) {
        case ..<20: return "go straight onto"
        case ..<45: return "slight \(side) onto"
        case ..<120: return "turn \(side) onto"
        default: return "sharp \(side) onto"
        }
    }

    /// The signed angle from bearing `a` to bearing `b`, in (−180, 180] (positive: clockwise, right).
    public static func angle(from a: Double, to b: Double) -> Double {
        var d = (b - a).truncatingRemainder(dividingBy: 360)
        if d > 180 { d -= 360 }
        if d <= -180 { d += 360 }
        return d
    }

    /// The bearing of a line's first segment, or of its last (`atEnd`), on the ellipsoid.
    static func bearing(_ line: [Coordinate], atEnd: Bool) -> Double {
        guard line.count >= 2 else { return 0 }
        let (a, b) = atEnd ? (line[line.count - 2], line[line.count - 1]) : (line[0], line[1])
        let inv = Geodesic.inverse(a, b)
        let azimuth = atEnd ? inv.finalAzimuth : inv.initialAzimuth
        guard azimuth.isFinite else { return 0 }
        return azimuth < 0 ? azimuth + 360 : azimuth
    }

    /// North, north-east … of a bearing.
    static func compass(_ bearing: Double) -> String {
        let names = ["north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west"]
        return names[Int(((bearing + 22.5) / 45).rounded(.down)) % 8]
    }

    /// 1st, 2nd, 3rd, 4th.
    static func ordinal(_ n: Int) -> String {
        let suffix = (n % 100 >= 11 && n % 100 <= 13) ? "th" : [1: "st", 2: "nd", 3: "rd"][n % 10] ?? "th"
        return "\(n)\(suffix)"
    }

    /// 1 when a profile could leave the roundabout at the junction where `piece` starts (a way there
    /// that is not the roundabout), else 0.
    static func exits(
        _ router: Router, at: Coordinate, piece: (edge: Int, forward: Bool, from: Double, to: Double),
        _ profile: RouteProfile
    ) -> Int {
        let g = router.graph
        let n = g.network
        let v = Int(piece.forward ? n.edgeFrom[piece.edge] : n.edgeTo[piece.edge])
        for i in Int(g.firstOut[v])..<Int(g.firstOut[v + 1]) {
            let h = Int(g.outgoing[i])
            if g.allows(profile, h), !n.isRoundabout(Int(n.edgeWay[h >> 1])) { return 1 }
        }
        return 0
    }
}
