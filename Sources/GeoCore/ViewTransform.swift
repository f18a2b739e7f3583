/// The one place where the unit-square world becomes dots of a view and back (Leaflet's
/// `CRS.transformation`): dot = (p − center) · worldSize + half the view. Lines, areas, labels, the
/// circle, the grid and the mouse all go through it.
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
    /// [minX + k, maxX + k] meets the view.
    public func copies(minX: Double, maxX: Double) -> ClosedRange<Int> {
        let first = Int((center.x - halfWidth / worldSize - maxX).rounded(.down))
        let last = Int((center.x + halfWidth / worldSize - minX).rounded(.up))
        return first...max(first, last)
    }
}

extension MapView {
    /// This view's coordinate ↔ dot transform.
    public var transform: ViewTransform { ViewTransform(self) }
}
