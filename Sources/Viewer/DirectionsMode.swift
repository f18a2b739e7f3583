import GeoCore
import MapFormats
import MapRender
import Routing

/// What `d` and `D` have set up (issue 46): a route's start while its end is chosen, the route with its
/// steps panel, or the reach of a profile from a point; and the networks they are found on.
public struct DirectionsState: Equatable, Sendable {
    /// How it goes.
    public var profile: RouteProfile = .foot
    /// The start (the crosshair when `d` was pressed) and, once routed, the end.
    public var start: Coordinate?
    public var end: Coordinate?
    /// The route found.
    public var route: Directions?
    /// The reach shown: from where, in how many minutes.
    public var reach: (center: Coordinate, minutes: Double)?
    /// The steps panel (`D`) is open with step `selected` chosen.
    public var showsSteps = false
    public var selected = 0
    /// The imports' networks, made ready once (not compared: they are what the data is).
    var networks: RouteNetworks?

    /// Minutes of reach unless `r` says otherwise.
    public static let defaultMinutes = 15.0

    public static func == (a: DirectionsState, b: DirectionsState) -> Bool {
        a.profile == b.profile && a.start == b.start && a.end == b.end && a.route == b.route
            && a.reach?.center == b.reach?.center && a.reach?.minutes == b.reach?.minutes
            && a.showsSteps == b.showsSteps && a.selected == b.selected
    }
}

extension ViewerState {
    /// The networks of `places` (the loaded sources), made once.
    mutating func routeNetworks(_ places: PlaceSearching?) -> RouteNetworks? {
        if let n = directions.networks { return n }
        guard let sources = places as? MapSources else { return nil }
        let n = RouteNetworks(sources)
        directions.networks = n
        return n
    }

    /// `d`: the start at the crosshair, then the end, and the route between them.
    mutating func routePoint(places: PlaceSearching?) {
        let here = view.center
        guard let start = directions.start, directions.route == nil else {
            directions.start = here
            (directions.end, directions.route, directions.reach, directions.showsSteps) = (nil, nil, nil, false)
            setMessage("route from here: move to the end, d again (Tab: foot/bike/car · Esc: clear)")
            showRoute()
            return
        }
        directions.end = here
        routeAgain(from: start, to: here, places: places)
    }

    /// Finds the route between the set ends by the chosen profile, and says it or why not.
    mutating func routeAgain(from start: Coordinate, to end: Coordinate, places: PlaceSearching?) {
        guard let networks = routeNetworks(places) else {
            setError("no route: no map data loaded")
            return
        }
        switch networks.directions([start, end], profile: directions.profile) {
        case .success(let d):
            directions.route = d
            directions.selected = 0
            setMessage(d.summary + " · D steps · Tab profile · Esc clears")
        case .failure(let e):
            directions.route = nil
            directions.end = nil
            setError(e.description)
        }
        showRoute()
    }

    /// Tab: the next profile (foot, bike, car), and the route or reach again.
    mutating func nextProfile(places: PlaceSearching?) {
        let all = RouteProfile.allCases
        directions.profile = all[((all.firstIndex(of: directions.profile) ?? 0) + 1) % all.count]
        if let start = directions.start, let end = directions.end {
            routeAgain(from: start, to: end, places: places)
        } else if let reach = directions.reach {
            showReach(from: reach.center, minutes: reach.minutes, places: places)
        } else {
            setMessage("routes \(Directions.words(directions.profile))")
        }
    }

    /// `D`: the steps of the route open or shut; without a route, the reach from the crosshair.
    mutating func directionsPanel(places: PlaceSearching?) {
        if directions.route != nil {
            directions.showsSteps.toggle()
            return
        }
        if directions.reach != nil {
            clearDirections()
            return
        }
        showReach(from: view.center, minutes: DirectionsState.defaultMinutes, places: places)
    }

    /// The reach of the profile from `center` within `minutes`, or why none.
    mutating func showReach(from center: Coordinate, minutes: Double, places: PlaceSearching?) {
        guard let networks = routeNetworks(places) else {
            setError("no reach: no map data loaded")
            return
        }
        let profile = directions.profile
        switch networks.router(for: [center]) {
        case .failure(let e): setError(e.description.replacing("no route", with: "no reach"))
        case .success(let router):
            guard let start = router.snap(center, profile: profile), start.distance <= RouteNetworks.maxSnapMeters
            else {
                setError("no reach \(Directions.words(profile)): no street within 1 km")
                return
            }
            let reach = router.reach(from: start, seconds: minutes * 60, profile: profile)
            directions.reach = (center, minutes)
            (directions.start, directions.end, directions.route) = (nil, nil, nil)
            reachLines = reach.parts.map { router.slice($0.edge, from: $0.from, to: $0.to) }
            setMessage(
                "\(Directions.words(profile)) within \(Directions.duration(minutes * 60)): "
                    + "\(Directions.distance(reach.meters)) of streets · r minutes · Tab profile · Esc clears")
        }
        showRoute()
    }

    /// `r`'s answer with a reach shown: minutes (`10`, `25min`, `1h`), and the reach again.
    mutating func reachMinutes(_ text: String, places: PlaceSearching?) {
        guard let minutes = Directions.minutes(text) else {
            setError("give minutes, e.g. 10, 25min or 1h (at most 24 h); reach unchanged")
            return
        }
        showReach(from: directions.reach?.center ?? view.center, minutes: minutes, places: places)
    }

    /// Esc: the steps panel shut, else the route or reach cleared.
    mutating func clearDirections() {
        if directions.showsSteps {
            directions.showsSteps = false
            return
        }
        let networks = directions.networks
        directions = DirectionsState()
        (directions.networks, directions.profile) = (networks, directions.profile)
        reachLines = []
        showRoute()
        setMessage("route cleared")
    }

    /// The route layer as the state now has it.
    mutating func showRoute() {
        let d = directions
        guard d.start != nil || d.reach != nil else {
            layers.set(RouteLayer.self, nil)
            return
        }
        var steps: [(instruction: String, line: [Coordinate])] = []
        if let route = d.route {
            // Each step's stretch: the geometry from its point to the next step's.
            var from = 0
            for (i, step) in route.steps.enumerated() where i + 1 < route.steps.count {
                let next = route.steps[i + 1].at
                let to = route.geometry[from...].firstIndex(of: next) ?? route.geometry.count - 1
                steps.append((step.instruction, Array(route.geometry[from...max(from, to)])))
                from = to
            }
        }
        layers.set(
            RouteLayer.self,
            RouteLayer(
                steps: steps, start: d.start, end: d.route == nil ? nil : d.end,
                reach: d.reach == nil ? nil : reachLines))
    }

    /// A key while a route or reach is up: Tab the profile, Esc clears, `r` the reach's minutes; with the
    /// steps open ↑ ↓ choose one and Enter centres it. Other keys go on to the map.
    mutating func directionsKey(_ key: Key, places: PlaceSearching?) -> [Effect]? {
        switch key {
        case .tab: nextProfile(places: places)
        case .escape: clearDirections()
        case .char("r") where directions.reach != nil: prompt = Prompt(kind: .reachMinutes, text: "")
        case .up where directions.showsSteps, .down where directions.showsSteps:
            let count = directions.route?.steps.count ?? 0
            directions.selected = max(0, min(count - 1, directions.selected + (key == .down ? 1 : -1)))
        case .enter where directions.showsSteps:
            guard let steps = directions.route?.steps, directions.selected < steps.count else { return [] }
            let step = steps[directions.selected]
            goTo(step.at, label: step.instruction)
        default: return nil
        }
        return []
    }
}
