import GeoCore
import MapFormats

/// Where a world copy lies in a view: a unit-square point (x, y) is at dot (x · ws + offsetX,
/// y · ws + offsetY). Every layer places its points so (`ViewTransform.originX(copy:)`).
struct WorldPlacement {
    /// The world's size in dots.
    let ws: Double
    /// The copy's left and top edges in dots.
    let offsetX: Double
    let offsetY: Double

    /// A placement of these numbers.
    init(ws: Double, offsetX: Double, offsetY: Double) {
        (self.ws, self.offsetX, self.offsetY) = (ws, offsetX, offsetY)
    }

    /// World copy `copy` (0: the unit square itself) in the view of `t`.
    init(_ t: ViewTransform, copy: Int) {
        ws = t.worldSize
        offsetX = t.originX(copy: copy)
        offsetY = t.originY
    }

    /// The world copies the view of `t` shows (a wide view at zoom 0 shows several).
    static func copies(_ t: ViewTransform) -> [WorldPlacement] {
        t.copies(minX: 0, maxX: 1).map { WorldPlacement(t, copy: $0) }
    }

    /// The view's rectangle in the unit square of this copy: minX, minY, maxX, maxY.
    func unitRect(width: Double, height: Double) -> (Double, Double, Double, Double) {
        (-offsetX / ws, -offsetY / ws, (width - offsetX) / ws, (height - offsetY) / ws)
    }
}

/// Where a chunk lies in a view: the world's size and the copy's origin in dots, the map's cells, and
/// for a tile's chunk its square in dots (nil for map data files), which its features are drawn within.
struct ChunkPlacement {
    let ws: Double
    let offsetX: Double
    let offsetY: Double
    let mapCols: Int
    let mapRows: Int
    let clip: DotRect?

    init(_ hit: ChunkHit, _ t: ViewTransform) {
        self.init(WorldPlacement(t, copy: hit.shift), t, tile: hit.tile)
    }

    /// Features placed at `place` in the view of `t`, drawn within `tile`'s square when given.
    init(_ place: WorldPlacement, _ t: ViewTransform, tile: (minX: Double, minY: Double, size: Double)? = nil) {
        (ws, offsetX, offsetY) = (place.ws, place.offsetX, place.offsetY)
        mapCols = Int(2 * t.halfWidth) / ViewSize.dotsPerCellX
        mapRows = Int(2 * t.halfHeight) / ViewSize.dotsPerCellY
        clip = tile.map { [ws, offsetX, offsetY] s in
            (
                s.minX * ws + offsetX, s.minY * ws + offsetY, (s.minX + s.size) * ws + offsetX,
                (s.minY + s.size) * ws + offsetY
            )
        }
    }

    /// The copy it is placed in.
    var placement: WorldPlacement { WorldPlacement(ws: ws, offsetX: offsetX, offsetY: offsetY) }
}
