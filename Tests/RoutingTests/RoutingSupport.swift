import Foundation
import GeoCore
import MapBuilders
import MapData
import MapFormats
import Routing
import TestSupport

/// The repository's root.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The bundled demo city's network, read once.
let demoNetwork: RoadNetwork = {
    do {
        let asset = try MapAsset(path: repositoryRoot.appendingPathComponent("assets/helsinki.tmap").path)
        guard let network = try asset.network() else { preconditionFailure("the demo city has no network") }
        return network
    } catch { preconditionFailure("\(error)") }
}()

let demoRouter = Router(demoNetwork)

/// The network an import of `pbf` keeps.
func importedNetwork(_ pbf: PBFBuilder) throws -> RoadNetwork {
    let (contents, _) = try OSMImporter.contents(
        pbf: pbf.bytes(), name: "town", source: "town.osm.pbf", classMinZoom: { _ in 0 })
    guard let network = contents.network else { throw RoutingTestError.noNetwork }
    return network
}

enum RoutingTestError: Error { case noNetwork, noRoute }

/// A town of nodes placed on a grid of 0.001° (about 111 m north–south, 56 m east–west at 60° N):
/// `at(col, row)` counts columns east and rows north of 60° N, 25° E.
struct Town {
    var pbf = PBFBuilder()
    var nextWay: Int64 = 1

    static func at(_ col: Int, _ row: Int) -> Coordinate {
        Coordinate(latitude: 60 + Double(row) * 0.001, longitude: 25 + Double(col) * 0.001)
    }

    /// The node at (`col`, `row`): its id is unique to the place.
    static func id(_ col: Int, _ row: Int) -> Int64 { Int64(1000 + col * 100 + row) }

    mutating func node(_ col: Int, _ row: Int) {
        let id = Self.id(col, row)
        guard !pbf.nodes.contains(where: { $0.id == id }) else { return }
        let c = Self.at(col, row)
        pbf.nodes.append(PBFBuilder.Node(id: id, latitude: c.latitude, longitude: c.longitude))
    }

    /// A way through grid points, tagged; its id.
    @discardableResult
    mutating func way(_ points: [(Int, Int)], _ tags: [(String, String)]) -> Int64 {
        for p in points { node(p.0, p.1) }
        let id = nextWay
        nextWay += 1
        pbf.ways.append(PBFBuilder.Way(id: id, nodes: points.map { Self.id($0.0, $0.1) }, tags: tags))
        return id
    }

    /// A turn restriction from way `from` via the node at `via` to way `to`.
    mutating func restrict(_ kind: String, from: Int64, via: (Int, Int), to: Int64) {
        pbf.relations.append(
            PBFBuilder.Relation(
                id: Int64(pbf.relations.count + 1),
                members: [(1, from, "from"), (0, Self.id(via.0, via.1), "via"), (1, to, "to")],
                tags: [("type", "restriction"), ("restriction", kind)]))
    }
}
