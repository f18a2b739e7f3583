/// How one kind of traveller may use an OpenStreetMap way: on foot, by bike, by car (issue 46's
/// tables). A profile is one table of tags: a new one is a case and its rules here.
public enum RouteProfile: String, CaseIterable, Sendable {
    case foot, bike, car

    /// What a profile may do on one way: whether it may go along the way's drawing (forward) and
    /// against it (backward), and at what speed.
    public struct Use: Equatable, Sendable {
        public var forward: Bool
        public var backward: Bool
        /// Kilometres an hour.
        public var speedKmh: Double

        public init(forward: Bool, backward: Bool, speedKmh: Double) {
            (self.forward, self.backward, self.speedKmh) = (forward, backward, speedKmh)
        }
    }

    /// Walking speed, and a bike's (pushed up steps at walking speed).
    public static let walkingKmh = 5.0
    public static let cyclingKmh = 16.0

    /// A car's speed by class when the way has no `maxspeed` (km/h).
    static let carSpeeds: [String: Double] = [
        "motorway": 100, "trunk": 80, "primary": 60, "secondary": 50, "tertiary": 40, "unclassified": 30,
        "residential": 30, "living_street": 10, "service": 15,
    ]

    /// Roads anyone may use: what foot and bike share with cars (links are their roads').
    static let roads: Set<String> = [
        "primary", "secondary", "tertiary", "unclassified", "residential", "service", "living_street",
    ]

    /// How this profile may use a way of `tags`; nil when it may not.
    public func use(_ tags: [String: String]) -> Use? {
        guard var highway = tags["highway"] else { return nil }
        // A link is its road (`primary_link` is primary).
        if highway.hasSuffix("_link") { highway = String(highway.dropLast(5)) }
        switch self {
        case .foot: return Self.foot(highway, tags)
        case .bike: return Self.bike(highway, tags)
        case .car: return Self.car(highway, tags)
        }
    }

    static func isNo(_ v: String?) -> Bool { v == "no" || v == "private" }

    /// On foot: paths and roads but motorways and trunks (unless `foot=yes`), not where `foot=no`, nor
    /// where access is denied unless foot is allowed; oneway does not apply.
    static func foot(_ highway: String, _ tags: [String: String]) -> Use? {
        let foot = tags["foot"]
        let allowed = foot == "yes" || foot == "designated" || foot == "permissive"
        let ways: Set<String> = ["footway", "path", "pedestrian", "steps", "track", "cycleway"]
        guard ways.contains(highway) || roads.contains(highway) || (["motorway", "trunk"].contains(highway) && allowed)
        else { return nil }
        guard foot != "no", !isNo(tags["access"]) || allowed else { return nil }
        return Use(forward: true, backward: true, speedKmh: walkingKmh)
    }

    /// By bike: cycleways, tracks, paths and footways where bicycles are allowed, roads but motorways and
    /// trunks; oneway obeyed unless it spares bicycles; steps pushed at walking speed.
    static func bike(_ highway: String, _ tags: [String: String]) -> Use? {
        let bicycle = tags["bicycle"]
        let allowed = bicycle == "yes" || bicycle == "designated"
        var ok = ["cycleway", "track"].contains(highway) || roads.contains(highway)
        if ["path", "footway", "pedestrian", "steps"].contains(highway) { ok = allowed || highway == "steps" }
        guard ok, !isNo(bicycle), !isNo(tags["access"]) || allowed else { return nil }
        let spared = tags["oneway:bicycle"] == "no" || tags["cycleway"]?.hasPrefix("opposite") == true
        let (forward, backward) = spared ? (true, true) : directions(tags)
        return Use(
            forward: forward, backward: backward, speedKmh: highway == "steps" ? walkingKmh : cyclingKmh)
    }

    /// By car: motorways to service roads and living streets, oneway obeyed (roundabouts too), not where
    /// access, motor vehicles or cars are refused; `maxspeed` (km/h, or `mph`) else the class's speed.
    static func car(_ highway: String, _ tags: [String: String]) -> Use? {
        guard let classSpeed = carSpeeds[highway] else { return nil }
        guard !isNo(tags["access"]), !isNo(tags["motor_vehicle"]), !isNo(tags["motorcar"]) else { return nil }
        let (forward, backward) = directions(tags)
        return Use(forward: forward, backward: backward, speedKmh: maxspeed(tags["maxspeed"]) ?? classSpeed)
    }

    /// Forward and backward as `oneway` says; a roundabout, a motorway and its links are one way without
    /// it (as OSRM's car profile takes them).
    static func directions(_ tags: [String: String]) -> (Bool, Bool) {
        switch tags["oneway"] {
        case "yes", "1", "true": return (true, false)
        case "-1", "reverse": return (false, true)
        case "no", "false", "0": return (true, true)
        default:
            let implied = tags["junction"] == "roundabout" || tags["highway"]?.hasPrefix("motorway") == true
            return (true, !implied)
        }
    }

    /// A `maxspeed` value in km/h: a number (km/h), or a number and `mph`; nil for anything else
    /// (`none`, `signals`, a country code's zone).
    static func maxspeed(_ value: String?) -> Double? {
        guard let v = value?.trimmingCharacters(in: " ") else { return nil }
        if v.hasSuffix("mph"), let mph = Double(String(v.dropLast(3)).trimmingCharacters(in: " ")), mph > 0 {
            return mph * 1.609344
        }
        if let kmh = Double(v), kmh > 0, kmh.isFinite { return kmh }
        return nil
    }
}
