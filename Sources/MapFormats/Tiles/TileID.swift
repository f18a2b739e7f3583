import GeoCore
import Glibc

/// A tile of the web map pyramid: zoom z, column x from the west, row y from the north (XYZ, as
/// Leaflet and the vector tile services number them).
public struct TileID: Hashable, Sendable, CustomStringConvertible {
    public var z: Int
    public var x: Int
    public var y: Int

    /// The tile z/x/y.
    public init(z: Int, x: Int, y: Int) {
        self.z = z
        self.x = x
        self.y = y
    }

    /// Deepest zoom a tile may have (PMTiles ids of zoom 31 would pass 64 bits).
    public static let maxZoom = 30

    /// `z/x/y`.
    public var description: String { "\(z)/\(x)/\(y)" }

    /// True when x and y lie within the zoom's 2^z × 2^z tiles.
    public var isValid: Bool {
        z >= 0 && z <= Self.maxZoom && x >= 0 && y >= 0 && x < 1 << z && y < 1 << z
    }

    /// The tile's square in the Mercator unit square: x from `minX` to `minX + size`, y likewise.
    public var unitSquare: (minX: Double, minY: Double, size: Double) {
        let size = 1 / Double(1 << z)
        return (Double(x) * size, Double(y) * size, size)
    }

    /// The tile whose square `unitSquare` is, or nil when it is no tile's (sizes are powers of 2).
    public init?(unitSquare s: (minX: Double, minY: Double, size: Double)) {
        guard s.size > 0, s.size <= 1 else { return nil }
        let z = Int(log2(1 / s.size).rounded())
        guard z <= Self.maxZoom, exp2(-Double(z)) == s.size else { return nil }
        self.init(z: z, x: Int((s.minX / s.size).rounded()), y: Int((s.minY / s.size).rounded()))
    }

    /// The PMTiles v3 tile id (protomaps/PMTiles spec/v3/spec.md, "Tile IDs"): the number of tiles of
    /// every lower zoom, (4^z − 1)/3, plus the tile's position along the zoom's Hilbert curve
    /// (the xy2d of en.wikipedia.org/wiki/Hilbert_curve).
    public var pmtilesID: UInt64 {
        var id = ((UInt64(1) << (2 * UInt64(z))) - 1) / 3
        var x = UInt64(x)
        var y = UInt64(y)
        var s = (UInt64(1) << UInt64(z)) >> 1
        while s > 0 {
            let rx: UInt64 = x & s != 0 ? 1 : 0
            let ry: UInt64 = y & s != 0 ? 1 : 0
            id += s * s * ((3 * rx) ^ ry)
            // Rotate the quadrant so that the curve inside it runs the same way as the whole.
            if ry == 0 {
                if rx == 1 {
                    x = s &- 1 &- x
                    y = s &- 1 &- y
                }
                swap(&x, &y)
            }
            s >>= 1
        }
        return id
    }

    /// The tile of a PMTiles v3 tile id (the inverse of `pmtilesID`), nil past zoom 30.
    public init?(pmtilesID id: UInt64) {
        var z = 0
        var base: UInt64 = 0
        while true {
            guard z <= Self.maxZoom else { return nil }
            let count = UInt64(1) << (2 * UInt64(z))
            if id < base + count { break }
            base += count
            z += 1
        }
        var d = id - base
        var x: UInt64 = 0
        var y: UInt64 = 0
        var s: UInt64 = 1
        let n = UInt64(1) << UInt64(z)
        while s < n {
            let rx = 1 & (d / 2)
            let ry = 1 & (d ^ rx)
            if ry == 0 {
                if rx == 1 {
                    x = s - 1 - x
                    y = s - 1 - y
                }
                swap(&x, &y)
            }
            x += s * rx
            y += s * ry
            d /= 4
            s *= 2
        }
        self.init(z: z, x: Int(x), y: Int(y))
    }

    /// The tiles of zoom `z` that meet a view box (longitudes may pass ±180°: the tiles wrap; latitudes
    /// are clamped to the square), each with the world copy it is drawn in.
    public static func covering(_ bounds: CoordinateBounds, zoom z: Int) -> [(tile: TileID, shift: Int)] {
        let n = 1 << z
        let nw = WebMercator.project(Coordinate(latitude: bounds.north, longitude: bounds.west))
        let se = WebMercator.project(Coordinate(latitude: bounds.south, longitude: bounds.east))
        let x0 = Int((nw.x * Double(n)).rounded(.down))
        let x1 = Int((se.x * Double(n)).rounded(.down))
        let y0 = max(0, min(n - 1, Int((nw.y * Double(n)).rounded(.down))))
        let y1 = max(0, min(n - 1, Int((se.y * Double(n)).rounded(.down))))
        // A whole world at most: a view wider than the world repeats the same tiles.
        guard x1 >= x0, y1 >= y0, (x1 - x0 + 1) * (y1 - y0 + 1) <= 4096 else { return [] }
        var out: [(TileID, Int)] = []
        for gx in x0...x1 {
            let (x, copy) = WorldCopies.wrap(gx, n)
            for gy in y0...y1 { out.append((TileID(z: z, x: x, y: gy), copy)) }
        }
        return out
    }
}
