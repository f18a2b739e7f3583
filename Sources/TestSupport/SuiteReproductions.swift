/// Tiles that reproduce what other projects' files showed termmap (their originals are not ours to
/// copy): written with `ProtoBuilder`, each named after the file it stands for. Wrap one in
/// `PMTilesWriter.archive` to read it as a tileset.
public enum SuiteReproductions {
    /// A feature: geometry type, commands, string properties.
    public typealias Feature = (type: UInt64, geometry: [UInt64], properties: [String: String])

    /// vector-tile-js `test/fixtures/14-8801-5371.vector.pbf`, a real Berlin z14 tile (OpenMapTiles
    /// layers): 975 buildings, one of which has a ClosePath of count 2, beside roads and water. Here:
    /// 975 small square buildings in a grid, the 488th closed with count 2; eight primary roads across;
    /// a lake amid them.
    public static let berlinTileID = (z: 14, x: 8801, y: 5371)
    public static func berlinZ14WithABadBuilding() -> [UInt8] {
        var buildings: [Feature] = []
        for i in 0..<975 {
            let x = Int64(64 + (i % 39) * 100)
            let y = Int64(64 + (i / 39) * 160)
            var ring = ProtoBuilder.commands([(x, y), (x + 40, y), (x + 40, y + 40), (x, y + 40)], close: true)
            if i == 487 { ring[ring.count - 1] = 2 << 3 | 7 }  // ClosePath of count 2
            buildings.append((3, ring, [:]))
        }
        return ProtoBuilder.tile(layer: "transportation", features: roads())
            + ProtoBuilder.tile(layer: "building", features: buildings)
            + ProtoBuilder.tile(layer: "water", features: [lake(closePathFirst: false, offset: 700)])
    }

    /// A real z12 tile whose one water feature's geometry starts with ClosePath (before any MoveTo),
    /// beside roads: the same roads, and a lake whose commands begin with ClosePath.
    public static let waterTileID = (z: 12, x: 2200, y: 1342)
    public static func z12WithWaterStartingWithClosePath() -> [UInt8] {
        ProtoBuilder.tile(layer: "transportation", features: roads())
            + ProtoBuilder.tile(
                layer: "water", features: [lake(closePathFirst: true), lake(closePathFirst: false, offset: 400)])
    }

    /// Eight primary roads across the tile, west to east.
    static func roads() -> [Feature] {
        (0..<8).map { i in
            let y = Int64(i * 512 + 256)
            return (2, ProtoBuilder.commands([(0, y), (4096, y)], close: false), ["class": "primary"])
        }
    }

    /// A square lake in the south-east quarter (`offset` moves it west), optionally with a ClosePath first.
    static func lake(closePathFirst: Bool, offset: Int64 = 0) -> Feature {
        let x = 2600 - offset
        let y = 2600 - offset
        let ring = ProtoBuilder.commands([(x, y), (x + 300, y), (x + 300, y + 300), (x, y + 300)], close: true)
        return (3, (closePathFirst ? [1 << 3 | 7] : []) + ring, ["class": "lake"])
    }
}
