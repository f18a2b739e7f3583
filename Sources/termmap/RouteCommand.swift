import FoundationEssentials
import GeoCore
import MapFormats
import MapRender
import Routing
import Support
import SystemSupport
import Viewer

/// `termmap route FROM TO`: directions over an import's streets, as text, JSON or GPX; with `--reach`,
/// the streets within a time of FROM.
enum RouteCommand {
    static func run(_ args: [String], environment: [String: String]) throws -> Int32 {
        let p = try ParsedArguments(args, for: .route)
        let profile = try profileOption(p.value(.profile))
        guard !(p.has(.json) && p.has(.gpx)) else { throw UsageError("route: --json and --gpx: choose one") }
        let reach = try p.value(.reach).map(minutes)
        let wanted = reach == nil ? 2 : 1
        guard p.operands.count == wanted else {
            throw UsageError(
                reach == nil
                    ? "route: expected FROM and TO (LAT,LON, a link or a place's name), e.g. "
                        + "termmap route 60.1699,24.9384 'Kauppatori'"
                    : "route --reach: expected one FROM")
        }
        var skipped: [DataLoading.Skipped] = []
        let sources = try DataLoading.load(dataDir: p.value(.data), environment: environment, skipped: &skipped)
        let named = p.operands.prefix(1) + p.allValues(.via) + p.operands.dropFirst()
        let points = try named.map { try place($0, sources) }
        let networks = RouteNetworks(sources)
        if let minutes = reach {
            return try printReach(networks, from: points[0], minutes: minutes, profile: profile, json: p.has(.json))
        }
        switch networks.directions(points, profile: profile) {
        case .failure(let e): throw DataFailure(e.description)
        case .success(let d):
            if p.has(.json) {
                printLine(try StateJSON.text(d))
            } else if p.has(.gpx) {
                printLine(d.gpx, terminator: "")
            } else {
                printLine(d.summary)
                for s in d.steps {
                    printLine(
                        "  " + s.instruction
                            + (s.meters > 0 ? " · " + Directions.distance(s.meters) : ""))
                }
            }
            return 0
        }
    }

    /// `--profile`'s value: foot, bike or car (a near miss suggested).
    static func profileOption(_ value: String?) throws(UsageError) -> RouteProfile {
        guard let value else { return .foot }
        if let p = RouteProfile(rawValue: value.lowercased()) { return p }
        let names = RouteProfile.allCases.map(\.rawValue)
        let hint = Suggestion.closest(to: value, among: names).map { " (did you mean '\($0)'?)" } ?? ""
        throw UsageError("--profile '\(InputParsing.excerpt(value))': expected foot, bike or car\(hint)")
    }

    /// `15`, `15min`, `1h`, `90 min` in minutes.
    static func minutes(_ text: String) throws(UsageError) -> Double {
        guard let minutes = Directions.minutes(text) else {
            throw UsageError(
                "--reach '\(InputParsing.excerpt(text))': give minutes, e.g. 15, 15min or 1h (at most 24 h)")
        }
        return minutes
    }

    /// A point: `LAT,LON`, a link, or a place's name as `/` finds it.
    static func place(_ text: String, _ sources: MapSources) throws -> Coordinate {
        switch InputParsing.place(text) {
        case .success(let place): return place.coordinate
        case .failure(let e):
            guard !text.contains(where: \.isNumber) || text.contains(where: \.isLetter) else {
                throw UsageError("'\(InputParsing.excerpt(text))': \(e)")
            }
            guard let hit = sources.search(text) else {
                throw DataFailure(
                    "'\(InputParsing.excerpt(text))': no place is called that (give LAT,LON, a link, or a place's name)"
                )
            }
            return hit.coordinate
        }
    }

    /// The streets within `minutes` of `from`.
    static func printReach(
        _ networks: RouteNetworks, from: Coordinate, minutes: Double, profile: RouteProfile, json: Bool
    ) throws -> Int32 {
        let router: Router
        switch networks.router(for: [from]) {
        case .failure(let e): throw DataFailure(e.description)
        case .success(let r): router = r
        }
        guard let start = router.snap(from, profile: profile), start.distance <= RouteNetworks.maxSnapMeters else {
            throw DataFailure("no reach \(Directions.words(profile)): no street within 1 km of \(from)")
        }
        let reach = router.reach(from: start, seconds: minutes * 60, profile: profile)
        if json {
            struct Doc: Encodable {
                var profile: String
                var minutes: Double
                var lat: Double
                var lon: Double
                var meters: Double
                var lines: [[[Double]]]
            }
            let lines = reach.parts.map { part in
                router.slice(part.edge, from: part.from, to: part.to).map { [$0.latitude, $0.longitude] }
            }
            let doc = Doc(
                profile: profile.rawValue, minutes: minutes, lat: from.latitude, lon: from.longitude,
                meters: reach.meters, lines: lines)
            printLine(try StateJSON.text(doc))
        } else {
            printLine(
                "\(Directions.words(profile)) within \(Directions.duration(minutes * 60)): "
                    + "\(Directions.distance(reach.meters)) of streets, \(Set(reach.parts.map(\.edge)).count) of "
                    + "\(router.graph.network.edgeCount) edges")
        }
        return 0
    }
}
