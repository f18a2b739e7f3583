import Foundation

@testable import MapData
@testable import MapFormats

/// The fixtures of `Tools/make_tile_fixtures.py` and what the Python readers (pmtiles, sqlite3,
/// mapbox-vector-tile) read from them, in `reference.json`.
enum TileFixtures {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Fixtures/tiles")

    static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    static func bytes(_ name: String) -> [UInt8] {
        (try? [UInt8](Data(contentsOf: folder.appendingPathComponent(name)))) ?? []
    }

    /// `files[name]` of the reference.
    static func reference(_ name: String) -> [String: Any] {
        let json =
            (try? JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("reference.json"))))
            as? [String: Any]
        return (json?["files"] as? [String: Any])?[name] as? [String: Any] ?? [:]
    }

    /// The reference's tiles of a file.
    static func tiles(_ name: String) -> [[String: Any]] { reference(name)["tiles"] as? [[String: Any]] ?? [] }

    static func tileID(_ entry: [String: Any]) -> TileID {
        TileID(z: entry["z"] as? Int ?? -1, x: entry["x"] as? Int ?? -1, y: entry["y"] as? Int ?? -1)
    }

    static func archive(_ name: String) throws -> PMTilesArchive {
        try PMTilesArchive(source: LocalFileSource(path: path(name)))
    }
}
