import Foundation
import GeoCore
import MapBuilders
import MapData
import MapFormats
import Routing
import TestSupport
import Testing

@testable import Viewer

/// Routes through small made-up towns whose answer is known: turn restrictions, the side of a turn,
/// roundabout exits, oneways.
struct SyntheticTownTests {
    /// A crossing at (2, 2) of West, East, North and South, with a two-way ring road from East's end
    /// round to North's end; `restrictions` are added to it.
    static func crossing(_ restrictions: (inout Town, [String: Int64]) -> Void = { _, _ in }) throws -> Router {
        var town = Town()
        let street = [("highway", "residential")]
        var ways: [String: Int64] = [:]
        ways["West"] = town.way([(0, 2), (1, 2), (2, 2)], street + [("name", "West")])
        ways["East"] = town.way([(2, 2), (3, 2), (4, 2)], street + [("name", "East")])
        ways["North"] = town.way([(2, 2), (2, 3), (2, 4)], street + [("name", "North")])
        ways["South"] = town.way([(2, 0), (2, 1), (2, 2)], street + [("name", "South")])
        ways["Ring"] = town.way([(4, 2), (4, 4), (2, 4)], street + [("name", "Ring")])
        restrictions(&town, ways)
        return Router(try importedNetwork(town.pbf))
    }

    static func path(_ router: Router, _ a: (Int, Int), _ b: (Int, Int), _ profile: RouteProfile) throws -> RoutePath {
        guard case .success(let path) = router.route(from: Town.at(a.0, a.1), to: Town.at(b.0, b.1), profile: profile)
        else { throw RoutingTestError.noRoute }
        return path
    }

    static func instructions(_ router: Router, _ a: (Int, Int), _ b: (Int, Int), _ profile: RouteProfile) throws
        -> [String]
    {
        RouteSteps.steps(try path(router, a, b, profile), router: router).map(\.instruction)
    }

    @Test func noLeftTurnSendsTheCarRoundTheRing() throws {
        let free = try Self.crossing()
        let direct = try Self.path(free, (1, 2), (2, 3), .car)
        #expect(
            try Self.instructions(free, (1, 2), (2, 3), .car) == [
                "head east on West", "turn left onto North", "arrive",
            ])
        let restricted = try Self.crossing { town, ways in
            town.restrict("no_left_turn", from: ways["West"] ?? 0, via: (2, 2), to: ways["North"] ?? 0)
        }
        let around = try Self.path(restricted, (1, 2), (2, 3), .car)
        #expect(around.meters > direct.meters + 300)
        #expect(!(try Self.instructions(restricted, (1, 2), (2, 3), .car)).contains("turn left onto North"))
        // Restrictions bind cars: on foot the turn is taken.
        #expect(abs(try Self.path(restricted, (1, 2), (2, 3), .foot).meters - direct.meters) < 0.01)
    }

    @Test func onlyStraightOnForbidsTheTurn() throws {
        let free = try Self.crossing()
        let direct = try Self.path(free, (2, 1), (3, 2), .car)
        #expect(
            try Self.instructions(free, (2, 1), (3, 2), .car) == [
                "head north on South", "turn right onto East", "arrive",
            ])
        let restricted = try Self.crossing { town, ways in
            town.restrict("only_straight_on", from: ways["South"] ?? 0, via: (2, 2), to: ways["North"] ?? 0)
        }
        let around = try Self.path(restricted, (2, 1), (3, 2), .car)
        #expect(around.meters > direct.meters + 300)
        #expect(try Self.instructions(restricted, (2, 1), (3, 2), .car).first == "head north on South")
    }

    @Test func turnsSayTheirSide() throws {
        let town = try Self.crossing()
        #expect(
            try Self.instructions(town, (0, 2), (2, 4), .foot) == [
                "head east on West", "turn left onto North", "arrive",
            ])
        #expect(
            try Self.instructions(town, (0, 2), (2, 0), .foot) == [
                "head east on West", "turn right onto South", "arrive",
            ])
        #expect(
            try Self.instructions(town, (0, 2), (4, 2), .foot) == [
                "head east on West", "go straight onto East", "arrive",
            ])
        #expect(RouteSteps.turnWords(-30) == "slight left onto")
        #expect(RouteSteps.turnWords(150) == "sharp right onto")
    }

    /// A roundabout drawn anticlockwise (right-hand traffic) with four roads: from the south, the east
    /// road is the first exit, the north the second, the west the third.
    @Test(arguments: [((13, 10), "1st", "East Road"), ((10, 13), "2nd", "North Road"), ((7, 10), "3rd", "West Road")])
    func roundaboutExitsAreCounted(_ to: (Int, Int), _ nth: String, _ road: String) throws {
        var town = Town()
        let named = { (name: String) in [("highway", "tertiary"), ("name", name)] }
        town.way(
            [(10, 9), (11, 10), (10, 11), (9, 10), (10, 9)], [("highway", "tertiary"), ("junction", "roundabout")])
        town.way([(10, 7), (10, 8), (10, 9)], named("South Road"))
        town.way([(11, 10), (12, 10), (13, 10)], named("East Road"))
        town.way([(10, 11), (10, 12), (10, 13)], named("North Road"))
        town.way([(9, 10), (8, 10), (7, 10)], named("West Road"))
        let router = Router(try importedNetwork(town.pbf))
        let steps = try Self.instructions(router, (10, 7), to, .car)
        #expect(steps == ["head north on South Road", "at the roundabout take the \(nth) exit onto \(road)", "arrive"])
    }

    @Test func carsKeepToOnewaysAndFeetDoNot() throws {
        var town = Town()
        town.way([(0, 0), (1, 0), (2, 0)], [("highway", "residential"), ("oneway", "yes"), ("name", "One")])
        let router = Router(try importedNetwork(town.pbf))
        #expect(try Self.path(router, (0, 0), (2, 0), .car).meters > 100)
        guard case .failure(.unreachable) = router.route(from: Town.at(2, 0), to: Town.at(0, 0), profile: .car) else {
            Issue.record("a car went against the oneway")
            return
        }
        #expect(try Self.path(router, (2, 0), (0, 0), .foot).meters > 100)
    }

    /// Two streets joined by a footway: no car gets across; the answer names where a car gets nearest
    /// and the walk from there.
    @Test func noCarRouteNamesTheNearestPointAndTheWalk() throws {
        var town = Town()
        town.way([(0, 0), (1, 0), (2, 0)], [("highway", "residential"), ("name", "First")])
        town.way([(2, 0), (3, 0), (4, 0)], [("highway", "footway")])
        town.way([(4, 0), (5, 0), (6, 0)], [("highway", "residential"), ("name", "Second")])
        let router = Router(try importedNetwork(town.pbf))
        guard case .failure(let e) = Directions.plan([Town.at(1, 0), Town.at(5, 0)], profile: .car, router: router)
        else {
            Issue.record("a car crossed a footway")
            return
        }
        #expect(e.description.hasPrefix("no route by car: the streets it may use do not join up"), "\(e)")
        #expect(e.description.hasSuffix("the nearest it gets is 60.00000,25.00200, then 167 m on foot"), "\(e)")
        guard case .success(let walk) = Directions.plan([Town.at(1, 0), Town.at(5, 0)], profile: .foot, router: router)
        else { throw RoutingTestError.noRoute }
        #expect(abs(walk.meters - 4 * Geodesic.distance(Town.at(0, 0), Town.at(1, 0))) < 0.01)
    }

    /// Street names are outside text: every hostile one of the corpus reaches steps, JSON and GPX only
    /// through the sanitiser (no control character, no escape).
    @Test func hostileStreetNamesAreSanitised() throws {
        for (i, name) in HostileText.corpus.enumerated() {
            var town = Town()
            town.way([(0, 0), (1, 0), (2, 0)], [("highway", "residential"), ("name", "West \(i)")])
            town.way([(2, 0), (2, 1), (2, 2)], [("highway", "residential"), ("name", name)])
            let router = Router(try importedNetwork(town.pbf))
            guard
                case .success(let d) = Directions.plan([Town.at(0, 0), Town.at(2, 2)], profile: .foot, router: router)
            else { throw RoutingTestError.noRoute }
            let texts = d.steps.flatMap { [$0.instruction, $0.name] } + [d.gpx, d.summary]
            for text in texts {
                let bad = text.unicodeScalars.filter {
                    ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value)
                }
                #expect(bad.isEmpty, "corpus \(i): \(text.debugDescription)")
            }
        }
    }

    @Test func networkSectionRoundTripsAndRefusesDamage() throws {
        let network = demoNetwork
        let bytes = RoadNetworkCoding.encode(network)
        let decoded = bytes.withUnsafeBytes { RoadNetworkCoding.decode($0) }
        #expect(decoded == network)
        var damaged = bytes
        damaged[damaged.count / 2] ^= 0x55
        #expect(damaged.withUnsafeBytes { RoadNetworkCoding.decode($0) } == nil)
        #expect(Array(bytes.prefix(3)).withUnsafeBytes { RoadNetworkCoding.decode($0) } == nil)
        // The bundled world (an older version, no network) reads, and says it has none.
        let world = try MapAsset(path: repositoryRoot.appendingPathComponent("assets/world.tmap").path)
        let none = try world.network()
        #expect(world.version < 6 && !world.hasNetwork && none == nil)
    }
}
