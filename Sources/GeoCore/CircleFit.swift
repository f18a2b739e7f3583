import FoundationEssentials
import Glibc

/// Seed 002 part B, corrected: the view that shows a circle at a given share of the view.
public enum CircleFit {
    /// The seed's example ratio, 300/360: the circle's diameter as a share of the view.
    public static let defaultRatio = 300.0 / 360.0

    /// The largest zoom (0…28) at which every ring point lies within ratio × (half width, half height)
    /// of the view's center (see `camera`).
    public static func zoom(for circle: GeodesicCircle, size: ViewSize, ratio: Double = defaultRatio) throws(GeoError)
        -> Double
    {
        try camera(for: circle, size: size, ratio: ratio).zoom
    }

    /// The view that shows the circle: centered on the circle, at the largest zoom (0…28) at which every
    /// ring point lies within ratio × (half width, half height) of the center. A circle around a pole
    /// winds round the whole world and reaches the Mercator limit: then the view frames the ring's box,
    /// from the limit to the ring's far edge, instead of wasting half the screen beyond the limit.
    public static func camera(for circle: GeodesicCircle, size: ViewSize, ratio: Double = defaultRatio) throws(GeoError)
        -> (center: Coordinate, zoom: Double)
    {
        let fit = try fitting(circle, size: size, ratio: ratio)
        return (fit.center, fit.zoom)
    }

    /// How `camera` decides (see `CircleFitting`).
    public static func fitting(_ circle: GeodesicCircle, size: ViewSize, ratio: Double = defaultRatio) throws(GeoError)
        -> CircleFitting
    {
        guard ratio.isFinite, ratio > 0, ratio <= 1 else { throw .invalidRatio(ratio) }
        let c = WebMercator.project(circle.center)
        let ring = circle.ring().map { WebMercator.project($0) }
        var center = circle.center
        var maxDX = 0.0
        var maxDY = 0.0
        if circle.containsNorthPole || circle.containsSouthPole {
            // The box from the limit (y = 0 or 1) to the ring's far edge, the whole world wide.
            let far = circle.containsNorthPole ? (ring.map(\.y).max() ?? 1) : (ring.map(\.y).min() ?? 0)
            let limit = circle.containsNorthPole ? 0.0 : 1.0
            let middle = WebMercator.unproject(MercatorPoint(x: c.x, y: (far + limit) / 2))
            center = Coordinate(latitude: middle.latitude, longitude: circle.center.longitude)
            maxDX = 0.5
            maxDY = abs(far - limit) / 2
        } else {
            for p in ring {
                maxDX = max(maxDX, abs(p.x - c.x))
                maxDY = max(maxDY, abs(p.y - c.y))
            }
        }
        let zoomX = log2(ratio * size.widthDots / 2 / (maxDX * WebMercator.tileSize))
        let zoomY = log2(ratio * size.heightDots / 2 / (maxDY * WebMercator.tileSize))
        return CircleFitting(center: center, zoomX: zoomX, zoomY: zoomY, halfWidth: maxDX, halfHeight: maxDY)
    }
}

/// How a circle is fitted: the center, the zooms at which the circle's width (`zoomX`) and height
/// (`zoomY`) take the ratio of the view, and the ring's half height in the unit square.
public struct CircleFitting: Equatable, Sendable {
    public var center: Coordinate
    public var zoomX: Double
    public var zoomY: Double
    /// The ring's half width and half height in the unit square (its extent from the center).
    public var halfWidth: Double
    public var halfHeight: Double
    /// The zoom chosen: the smaller, clamped to 0…28.
    public var zoom: Double { MapView.clampZoom(min(zoomX, zoomY)) }
}

/// Seed 002 part B as written (`animateToFitCircleOn(center:radius:circleRatio:)`), for comparison:
/// half-width = radius / ratio metres, half-height from the view's aspect ratio, corners along the
/// half-diagonal in screen space, then `GMSCameraUpdate.fit(bounds, withPadding: 0)`.
/// It sizes the box from the view *width*, so a landscape view crops the circle top and bottom.
public enum SeedCircleFit {
    /// The camera the seed animates to: the bounds' center and the zoom that fits the bounds.
    public static func camera(in view: MapView, center: Coordinate, radiusMeters: Double, circleRatio: Double)
        -> (center: Coordinate, zoom: Double)
    {
        let w = view.size.widthDots
        let h = view.size.heightDots
        let centerPoint = view.dotPoint(for: center)
        let halfWidth = radiusMeters / circleRatio
        let halfHeight = halfWidth / (w / h)
        let halfCross = (halfWidth * halfWidth + halfHeight * halfHeight).squareRoot()
        let radiusInView = halfCross / WebMercator.metersPerDot(latitude: center.latitude, zoom: view.zoom)
        let beta = atan(halfHeight / halfWidth)
        let alpha = beta - .pi
        let topLeft = view.coordinate(
            at: DotPoint(x: centerPoint.x + radiusInView * cos(alpha), y: centerPoint.y + radiusInView * sin(alpha)))
        let bottomRight = view.coordinate(
            at: DotPoint(x: centerPoint.x + radiusInView * cos(beta), y: centerPoint.y + radiusInView * sin(beta)))
        // fit(bounds, withPadding: 0): the bounds' Mercator box centered, largest zoom that holds it.
        let a = WebMercator.project(topLeft)
        let b = WebMercator.project(bottomRight)
        let zoomX = log2(w / (abs(b.x - a.x) * WebMercator.tileSize))
        let zoomY = log2(h / (abs(b.y - a.y) * WebMercator.tileSize))
        let mid = WebMercator.unproject(MercatorPoint(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2))
        return (mid, min(zoomX, zoomY))
    }
}

extension MapView {
    /// Moves to `CircleFit.camera` (seed 002 B, corrected); returns how the zoom was decided.
    @discardableResult
    public mutating func fit(_ circle: GeodesicCircle, ratio: Double = CircleFit.defaultRatio) throws(GeoError)
        -> CircleFitting
    {
        let fitting = try CircleFit.fitting(circle, size: size, ratio: ratio)
        try setCenter(fitting.center, zoomLevel: fitting.zoom)
        return fitting
    }
}
