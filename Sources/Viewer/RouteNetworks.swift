import GeoCore
import MapData
import MapFormats
import MapRender
import Routing
import Synchronization

/// The street networks of the loaded imports, each made ready to route on the first time it is asked
/// (and kept): which one holds a route's points, or why none does.
public final class RouteNetworks: Sendable {
    private let assets: [MapAsset]
    private let routers = Mutex([Int: Router]())

    /// Snapping farther than this from the asked point is no route (a point in the sea, another town).
    public static let maxSnapMeters = 1000.0

    /// The networks of `sources`' street-level files.
    public init(_ sources: MapSources) {
        assets = sources.features.details.compactMap { $0 as? MapAsset }
    }

    /// The router of the network whose area holds every one of `points`; why not in one line.
    public func router(for points: [Coordinate]) -> Result<Router, DirectionsError> {
        let withNetwork = assets.indices.filter { assets[$0].hasNetwork }
        guard !withNetwork.isEmpty else {
            if let old = assets.first {
                let file = old.name.split(separator: "/").last.map(String.init) ?? old.name
                return .failure(
                    DirectionsError(
                        "no route: \(file) has no street network (an older import): import its extract again "
                            + "with termmap data import-osm"))
            }
            return .failure(
                DirectionsError(
                    "no route: no street network here; import an OpenStreetMap extract of the area with termmap data "
                        + "import-osm FILE.osm.pbf (vector tiles are cut at tile edges and carry no junctions)"))
        }
        guard
            let i = withNetwork.first(where: { i in
                points.allSatisfy { Self.contains(assets[i].coverage, $0) }
            })
        else {
            return .failure(DirectionsError(outsideWords(points, withNetwork)))
        }
        if let hit = routers.withLock({ $0[i] }) { return .success(hit) }
        do {
            guard let network = try assets[i].network() else { return .failure(DirectionsError("no route")) }
            let router = Router(network)
            routers.withLock { $0[i] = router }
            return .success(router)
        } catch {
            return .failure(DirectionsError("no route: \(error)"))
        }
    }

    /// Why no import holds `points`: the first one outside them all and the areas there are, or that
    /// the ends lie in different imports.
    func outsideWords(_ points: [Coordinate], _ withNetwork: [Int]) -> String {
        func inside(_ p: Coordinate) -> Bool { withNetwork.contains { Self.contains(assets[$0].coverage, p) } }
        guard let outside = points.indices.first(where: { !inside(points[$0]) }) else {
            return "no route: the ends are in different imports (a route stays within one)"
        }
        let which = outside == 0 ? "the start" : outside == points.count - 1 ? "the end" : "via point \(outside)"
        let areas = withNetwork.prefix(3).map { i -> String in
            let b = assets[i].coverage
            let file = assets[i].name.split(separator: "/").last.map(String.init) ?? assets[i].name
            return "\(file): \(Self.degrees(b.south))–\(Self.degrees(b.north)) N, "
                + "\(Self.degrees(b.west))–\(Self.degrees(b.east)) E"
        }
        let p = points[outside]
        return "no route: \(which) \(Self.degrees(p.latitude)),\(Self.degrees(p.longitude)) is outside every import "
            + "with a street network (\(areas.joined(separator: "; ")))"
    }

    static func degrees(_ v: Double) -> String { CoordinateFormat.fixed(v, 4) }

    /// Whether `b` holds `c` (`FeatureSources.contains`, with the point as a box).
    static func contains(_ b: CoordinateBounds, _ c: Coordinate) -> Bool {
        FeatureSources.contains(
            b, CoordinateBounds(north: c.latitude, south: c.latitude, west: c.longitude, east: c.longitude))
    }

    /// The route through `points` by `profile`, or why there is none, in one line.
    public func directions(_ points: [Coordinate], profile: RouteProfile) -> Result<Directions, DirectionsError> {
        switch router(for: points) {
        case .failure(let e): return .failure(e)
        case .success(let router):
            for (i, p) in points.enumerated() {
                guard let s = router.snap(p, profile: profile) else { continue }
                if s.distance > Self.maxSnapMeters {
                    let which = i == 0 ? "start" : i == points.count - 1 ? "end" : "via point \(i)"
                    return .failure(
                        DirectionsError(
                            "no route \(Directions.words(profile)): the \(which) is \(Directions.distance(s.distance)) "
                                + "from the nearest street \(Directions.words(profile)) (in the water, or outside the town?)"
                        ))
                }
            }
            return Directions.plan(points, profile: profile, router: router)
        }
    }
}
