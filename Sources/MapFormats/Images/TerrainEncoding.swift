/// How an elevation tile's pixel colours give a height in metres (issue 48).
public enum TerrainEncoding: String, Sendable, CaseIterable {
    /// Terrarium (Mapzen's, the AWS open terrain tiles): `(R · 256 + G + B / 256) − 32768` m
    /// (github.com/tilezen/joerd, docs/formats.md).
    case terrarium
    /// Mapbox terrain-RGB (also MapTiler's): `−10000 + (R · 65536 + G · 256 + B) · 0.1` m
    /// (docs.mapbox.com, "Mapbox Terrain-RGB v1").
    case mapbox

    /// The encoding a tileset's `encoding` names (`terrarium`; `mapbox` or `terrain-rgb`), nil for
    /// anything else.
    public init?(named name: String) {
        switch name.lowercased() {
        case "terrarium": self = .terrarium
        case "mapbox", "terrain-rgb", "terrainrgb": self = .mapbox
        default: return nil
        }
    }

    /// The height of a pixel of this colour, in metres.
    @inlinable
    public func height(red: UInt8, green: UInt8, blue: UInt8) -> Double {
        switch self {
        case .terrarium:
            return Double(red) * 256 + Double(green) + Double(blue) / 256 - 32768
        case .mapbox:
            return -10000 + (Double(red) * 65536 + Double(green) * 256 + Double(blue)) * 0.1
        }
    }

    /// A height's Terrarium colour, clamped to what Terrarium can say (−32768 m to 32767.996 m, in
    /// steps of 1/256 m): `height + 32768 = R · 256 + G + B / 256`.
    public static func terrariumColor(_ h: Double) -> (UInt8, UInt8, UInt8) {
        let v = min(65_535.996, max(0, h + 32_768))
        let whole = Int(v.rounded(.down))
        return (
            UInt8(whole >> 8), UInt8(whole & 0xFF), UInt8(min(255, Int(((v - Double(whole)) * 256).rounded(.down))))
        )
    }

    /// Heights outside ±12,000 m are no place on Earth (the Mariana Trench is −10,935 m, Everest
    /// 8,849 m): a tileset giving them is likely imagery, not terrain.
    public static let plausible = -12000.0...12000.0
}
