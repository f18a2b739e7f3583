import FoundationEssentials
import GeoCore
import MapFormats
import Routing
import Support

/// A route asked for and found, in the words and numbers people and scripts read: the profile, its
/// length and time, how far each asked point was from the street it snapped to, the steps and the line.
public struct Directions: Equatable, Sendable {
    /// How it goes.
    public var profile: RouteProfile
    /// Its length and time.
    public var meters: Double
    public var seconds: Double
    /// Metres from each asked point (start, vias, end) to the street it snapped to.
    public var snapped: [Double]
    /// What to do, street by street.
    public var steps: [RouteStep]
    /// The line, start to end.
    public var geometry: [Coordinate]

    /// Snap distances over this are said (`snapped 42 m from the start`).
    public static let snapNotice = 30.0

    /// `on foot · 2.31 km · 28 min`.
    public var summary: String {
        var text = "\(Self.words(profile)) · \(Self.distance(meters)) · \(Self.duration(seconds))"
        let far = snapped.enumerated().filter { $0.element > Self.snapNotice }
        for (i, d) in far {
            let which = i == 0 ? "start" : i == snapped.count - 1 ? "end" : "via \(i)"
            text += " · \(which) \(Self.distance(d)) from the street"
        }
        return text
    }

    /// `on foot`, `by bike`, `by car`.
    public static func words(_ profile: RouteProfile) -> String {
        switch profile {
        case .foot: return "on foot"
        case .bike: return "by bike"
        case .car: return "by car"
        }
    }

    /// `350 m`, `2.31 km`, `14 km`.
    public static func distance(_ meters: Double) -> String {
        if meters < 995 { return "\(Int(meters.rounded())) m" }
        if meters < 9950 { return fixedDecimals(meters / 1000, 2) + " km" }
        return "\(Int((meters / 1000).rounded())) km"
    }

    /// `28 min`, `1 h 05 min`, `40 s`.
    public static func duration(_ seconds: Double) -> String {
        if seconds < 60 { return "\(Int(seconds.rounded())) s" }
        let minutes = Int((seconds / 60).rounded())
        if minutes < 60 { return "\(minutes) min" }
        let m = minutes % 60
        return "\(minutes / 60) h \(m < 10 ? "0" : "")\(m) min"
    }

    /// Minutes from `10`, `10min`, `25 m` or `1h`; nil for anything else, or past a day.
    public static func minutes(_ text: String) -> Double? {
        let t = text.lowercased().filter { $0 != " " }
        let hours = t.hasSuffix("h")
        let number = t.hasSuffix("min") ? t.dropLast(3) : hours || t.hasSuffix("m") ? t.dropLast(1) : Substring(t)
        guard let v = Double(number), v.isFinite, v > 0, v * (hours ? 60 : 1) <= 24 * 60 else { return nil }
        return v * (hours ? 60 : 1)
    }

    /// The route through `points` (start, vias, end) by `profile` on `router`'s network, legs joined;
    /// why not in words when there is none.
    public static func plan(_ points: [Coordinate], profile: RouteProfile, router: Router) -> Result<
        Directions, DirectionsError
    > {
        guard points.count >= 2 else { return .failure(DirectionsError("a route needs a start and an end")) }
        var out = Directions(profile: profile, meters: 0, seconds: 0, snapped: [], steps: [], geometry: [])
        var snaps: [SnapPoint] = []
        for (i, p) in points.enumerated() {
            guard let s = router.snap(p, profile: profile) else {
                return .failure(DirectionsError("no route \(words(profile)): no street \(words(profile)) here"))
            }
            if i > 0, i == points.count - 1, s == snaps.last, Geodesic.distance(points[i - 1], p) < 1 {
                return .failure(DirectionsError("no route: the start and the end are the same point"))
            }
            snaps.append(s)
            out.snapped.append(s.distance)
        }
        for i in 1..<snaps.count {
            switch router.route(from: snaps[i - 1], to: snaps[i], profile: profile) {
            case .failure:
                return .failure(DirectionsError(unreachable(profile, snaps[i - 1], snaps[i], router: router)))
            case .success(let path):
                out.meters += path.meters
                out.seconds += path.seconds
                // Street names come from the file: the one sanitiser before any output.
                var steps = RouteSteps.steps(path, router: router).map {
                    var s = $0
                    (s.instruction, s.name) = (SafeText.forScreen(s.instruction), SafeText.forScreen(s.name))
                    return s
                }
                if i < snaps.count - 1 { steps[steps.count - 1].instruction = "pass via \(i)" }
                out.steps += steps
                let line = router.geometry(path)
                out.geometry += out.geometry.last == line.first ? Array(line.dropFirst()) : line
            }
        }
        return .success(out)
    }

    /// Why `profile` finds no way from `a` to `b`: the streets it may use do not join up (oneways, a
    /// pedestrian area, private roads); by bike or car, the nearest point it reaches and the walk from
    /// there, or the walk's length when the profile reaches nothing nearer.
    static func unreachable(_ profile: RouteProfile, _ a: SnapPoint, _ b: SnapPoint, router: Router) -> String {
        let head = "no route \(words(profile)): "
        guard profile != .foot else {
            return head + "the start and the end are on streets that do not join up in this import"
        }
        let why = head + "the streets it may use do not join up here (oneways, a pedestrian area or private roads)"
        // Everywhere the profile gets from the start (a day's travel), and of that the point nearest the end.
        let reach = router.reach(from: a, seconds: 86_400, profile: profile)
        let reached = reach.parts.flatMap { p in [p.from, p.to].map { router.slice(p.edge, from: $0, to: $0)[0] } }
        guard let nearest = reached.min(by: { Geodesic.distance($0, b.point) < Geodesic.distance($1, b.point) }),
            let there = router.snap(nearest, profile: .foot),
            case .success(let walk) = router.route(from: there, to: b, profile: .foot)
        else {
            if case .success(let walk) = router.route(from: a, to: b, profile: .foot) {
                return why + "; on foot it is \(distance(walk.meters))"
            }
            return why
        }
        return why + "; the nearest it gets is \(CoordinateFormat.fixed(nearest.latitude, 5)),"
            + "\(CoordinateFormat.fixed(nearest.longitude, 5)), then \(distance(walk.meters)) on foot"
    }
}

/// Why no route: one line.
public struct DirectionsError: Error, Equatable, CustomStringConvertible {
    public var description: String
    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}

extension Directions: Encodable {
    enum Key: String, CodingKey { case profile, meters, seconds, snapped, steps, geometry }

    struct Step: Encodable {
        var instruction: String
        var name: String
        var meters: Double
        var seconds: Double
        var bearing: Double
        var lat: Double
        var lon: Double
    }

    /// `{profile, meters, seconds, snapped, steps: [{instruction, name, meters, seconds, bearing, lat,
    /// lon}], geometry: [[lat, lon]]}`.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(profile.rawValue, forKey: .profile)
        try c.encode(meters, forKey: .meters)
        try c.encode(seconds, forKey: .seconds)
        try c.encode(snapped, forKey: .snapped)
        try c.encode(
            steps.map {
                Step(
                    instruction: $0.instruction, name: $0.name, meters: $0.meters, seconds: $0.seconds,
                    bearing: $0.bearing, lat: $0.at.latitude, lon: $0.at.longitude)
            }, forKey: .steps)
        try c.encode(geometry.map { [$0.latitude, $0.longitude] }, forKey: .geometry)
    }

    /// The route as a GPX 1.1 route (`rte`, a `rtept` a step, named by its instruction).
    public var gpx: String {
        var lines = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<gpx version=\"1.1\" creator=\"termmap\" xmlns=\"http://www.topografix.com/GPX/1/1\">",
            "  <rte>", "    <name>\(xmlEscaped(summary))</name>",
        ]
        for s in steps {
            lines.append(
                "    <rtept lat=\"\(s.at.latitude)\" lon=\"\(s.at.longitude)\"><name>\(xmlEscaped(s.instruction))</name></rtept>"
            )
        }
        lines += ["  </rte>", "  <trk><name>\(xmlEscaped(summary))</name><trkseg>"]
        for c in geometry { lines.append("    <trkpt lat=\"\(c.latitude)\" lon=\"\(c.longitude)\"/>") }
        lines += ["  </trkseg></trk>", "</gpx>"]
        return lines.joined(separator: "\n") + "\n"
    }

    func xmlEscaped(_ s: String) -> String {
        s.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
            .replacing("\"", with: "&quot;")
    }
}
