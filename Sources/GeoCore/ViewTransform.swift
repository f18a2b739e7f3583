/// The one place where the unit-square world becomes dots of a view and back (Leaflet's
/// `CRS.transformation`): dot = (p − center) · worldSize + half the view; dots become cells (2 × 4 a
/// cell, a cell's centre at (2·col + 1, 4·row + 2)), and the world repeats east and west. Lines,
/// areas, labels, the circle, the grid and the mouse all go through it.
public struct ViewTransform: Equatable, Sendable {
    /// The view's center in the unit square.
    public let center: MercatorPoint
    /// The world's width in dots, 256·2^z.
    public let worldSize: Double
    /// Half the view's width in dots.
    public let halfWidth: Double
    /// Half the view's height in dots.
    public let halfHeight: Double

    /// The transform of `view`.
    public init(_ view: MapView) {
        center = view.centerPoint
        worldSize = view.worldSize
        halfWidth = view.size.widthDots / 2
        halfHeight = view.size.heightDots / 2
    }

    /// The same map seen from `cols` cells further left and `rows` cells further up (negative: right
    /// and down): a dot of this transform is a dot of the shifted one, moved by whole cells.
    public func shifted(cols: Int, rows: Int) -> ViewTransform {
        ViewTransform(
            center: center, worldSize: worldSize, halfWidth: halfWidth + Double(cols * ViewSize.dotsPerCellX),
            halfHeight: halfHeight + Double(rows * ViewSize.dotsPerCellY))
    }

    private init(center: MercatorPoint, worldSize: Double, halfWidth: Double, halfHeight: Double) {
        self.center = center
        self.worldSize = worldSize
        self.halfWidth = halfWidth
        self.halfHeight = halfHeight
    }

    /// Dot x of a unit-square x.
    @inline(__always) public func dotX(_ x: Double) -> Double { (x - center.x) * worldSize + halfWidth }
    /// Dot y of a unit-square y.
    @inline(__always) public func dotY(_ y: Double) -> Double { (y - center.y) * worldSize + halfHeight }

    /// For many points of one world copy: dot x = x · worldSize + `originX(copy:)` (the world's left
    /// edge in dots, `copy` worlds to the east).
    @inline(__always) public func originX(copy: Int) -> Double { (Double(copy) - center.x) * worldSize + halfWidth }
    /// For many points: dot y = y · worldSize + `originY` (the world's top edge in dots).
    public var originY: Double { -center.y * worldSize + halfHeight }

    /// A unit-square point in dots.
    public func dot(_ p: MercatorPoint) -> DotPoint { DotPoint(x: dotX(p.x), y: dotY(p.y)) }

    /// A coordinate in dots, in the world copy nearest the view's center.
    public func dot(for coordinate: Coordinate) -> DotPoint {
        let p = WebMercator.project(coordinate)
        return DotPoint(x: nearestDotX(p.x), y: dotY(p.y))
    }

    /// The coordinate under a dot (its longitude unwrapped: it may leave [-180, 180)).
    public func coordinate(at dot: DotPoint) -> Coordinate { WebMercator.unproject(mercator(at: dot)) }

    // MARK: Cells

    /// The centre of a cell, in dots.
    @inlinable
    public static func cellCenter(col: Int, row: Int) -> DotPoint {
        DotPoint(x: centerX(col: col), y: centerY(row: row))
    }

    /// The x of the centres of column `col`'s cells, and the y of row `row`'s.
    @inlinable public static func centerX(col: Int) -> Double { Double(col * ViewSize.dotsPerCellX) + 1 }
    @inlinable public static func centerY(row: Int) -> Double { Double(row * ViewSize.dotsPerCellY) + 2 }

    /// The unit-square point under a dot.
    public func mercator(at dot: DotPoint) -> MercatorPoint {
        MercatorPoint(x: center.x + (dot.x - halfWidth) / worldSize, y: center.y + (dot.y - halfHeight) / worldSize)
    }

    /// Dot x of the world copy of a unit-square x nearest the view's center.
    @inline(__always) public func nearestDotX(_ x: Double) -> Double {
        var dx = x - center.x
        dx -= dx.rounded()
        return dx * worldSize + halfWidth
    }

    /// Which world copies a unit-square x range [minX, maxX] shows in: the copies k for which
    /// [minX + k, maxX + k] meets the view (none: an empty range).
    public func copies(minX: Double, maxX: Double) -> Range<Int> {
        let view = (center.x - halfWidth / worldSize)...(center.x + halfWidth / worldSize)
        guard minX <= maxX, let k = WorldCopies.meeting(minX...maxX, view, period: 1) else { return 0..<0 }
        return k.lowerBound..<(k.upperBound + 1)
    }
}

/// The world repeats east and west: where a span of longitudes (or of unit-square x) meets another,
/// copy by copy. Views, chunk queries, tiles and coverage all ask it.
public enum WorldCopies {
    /// The copies k (shifts by k periods) for which `a` shifted meets `b`, or nil when none does.
    @inline(__always)
    public static func meeting(_ a: ClosedRange<Double>, _ b: ClosedRange<Double>, period: Double = 360)
        -> ClosedRange<Int>?
    {
        let first = ((b.lowerBound - a.upperBound) / period).rounded(.up)
        let last = ((b.upperBound - a.lowerBound) / period).rounded(.down)
        guard first <= last, first.isFinite, last.isFinite, abs(first) < 1e15, abs(last) < 1e15 else { return nil }
        return Int(first)...Int(last)
    }

    /// True when some copy of `outer` holds all of `inner`.
    public static func contains(_ outer: ClosedRange<Double>, _ inner: ClosedRange<Double>, period: Double = 360)
        -> Bool
    {
        if outer.upperBound - outer.lowerBound >= period { return true }
        let k = ((inner.lowerBound - outer.lowerBound) / period).rounded(.down)
        return outer.lowerBound + k * period <= inner.lowerBound && outer.upperBound + k * period >= inner.upperBound
    }

    /// A column of a grid of `n` columns a world, anywhere east or west: the column within the world,
    /// and the copy it is in.
    @inline(__always)
    public static func wrap(_ column: Int, _ n: Int) -> (column: Int, copy: Int) {
        let wrapped = ((column % n) + n) % n
        return (wrapped, (column - wrapped) / n)
    }
}

extension MapView {
    /// This view's coordinate ↔ dot transform.
    public var transform: ViewTransform { ViewTransform(self) }
}
