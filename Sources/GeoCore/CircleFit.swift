import Foundation

/// Seed 002 part B, corrected: the view that shows a circle at a given share of the view.
public enum CircleFit {
    /// The seed's example ratio, 300/360: the circle's diameter as a share of the view.
    public static let defaultRatio = 300.0 / 360.0

    /// The largest zoom (0…28) at which every ring point lies within ratio × (half width, half height)
    /// of the circle's center, on a view of `size` centered on the circle. Ring latitudes beyond the
    /// Mercator limit count at the limit, so a circle around a pole fits up to the edge of the map.
    public static func zoom(for circle: GeodesicCircle, size: ViewSize, ratio: Double = defaultRatio) throws(GeoError)
        -> Double
    {
        guard ratio.isFinite, ratio > 0, ratio <= 1 else { throw .invalidRatio(ratio) }
        let c = WebMercator.project(circle.center)
        var maxDX = 0.0
        var maxDY = 0.0
        for point in circle.ring() {
            let p = WebMercator.project(point)
            maxDX = max(maxDX, abs(p.x - c.x))
            maxDY = max(maxDY, abs(p.y - c.y))
        }
        // A ring around a pole winds once round the world: it needs the full width.
        if circle.containsNorthPole || circle.containsSouthPole { maxDX = max(maxDX, 0.5) }
        let zoomX = log2(ratio * size.widthDots / 2 / (maxDX * WebMercator.tileSize))
        let zoomY = log2(ratio * size.heightDots / 2 / (maxDY * WebMercator.tileSize))
        return MapView.clampZoom(min(zoomX, zoomY))
    }
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
    /// Centers on the circle at the zoom of `CircleFit.zoom` (seed 002 B, corrected).
    public mutating func fit(_ circle: GeodesicCircle, ratio: Double = CircleFit.defaultRatio) throws(GeoError) {
        let z = try CircleFit.zoom(for: circle, size: size, ratio: ratio)
        try setCenter(circle.center, zoomLevel: z)
    }
}
