import Glibc

/// The view that shows a box of the unit square whole (Leaflet's `fitBounds`): centred on the box, at
/// the largest zoom at which the box takes at most `share` of the view's width and height.
public enum BoundsFit {
    /// The share of the view a fitted box takes (a margin of 5 % each side).
    public static let defaultShare = 0.9
    /// The deepest zoom a fit goes to (a single point, or a few metres of data, is shown at street level).
    public static let deepestZoom = 17.0

    /// The camera for the unit-square box [minX, maxX] × [minY, maxY] (maxX may pass 1: a box across the
    /// antimeridian), at most `deepestZoom`.
    public static func camera(
        minX: Double, minY: Double, maxX: Double, maxY: Double, size: ViewSize, share: Double = defaultShare
    )
        -> (center: Coordinate, zoom: Double)
    {
        let mid = MercatorPoint(x: (minX + maxX) / 2, y: (minY + maxY) / 2)
        var center = WebMercator.unproject(mid)
        center.longitude = WebMercator.unwrap(center.longitude, near: 0)
        // worldSize(z) = tileSize · 2^z dots a world: the box's width in dots is (maxX − minX) · that.
        let zoomX = log2(share * size.widthDots / max(1e-12, (maxX - minX) * WebMercator.tileSize))
        let zoomY = log2(share * size.heightDots / max(1e-12, (maxY - minY) * WebMercator.tileSize))
        return (center, MapView.clampZoom(min(deepestZoom, zoomX, zoomY)))
    }

    /// The shortest span of unit-square x that holds every x of `lists` (0…1), as [minX, maxX] with maxX
    /// possibly past 1: the complement of the widest gap between them, on a circle (so data on both
    /// sides of the antimeridian is spanned across it). Found on a grid of `bins` (the span is widened
    /// to whole bins' edges only where the gap is measured; the ends are the data's own).
    @inlinable
    public static func shortestSpan<Column: Collection<Double>>(_ lists: [Column], bins: Int = 3600) -> (
        minX: Double, maxX: Double
    )? {
        var occupied = [Bool](repeating: false, count: bins)
        var lowest = [Double](repeating: .infinity, count: bins)
        var highest = [Double](repeating: -.infinity, count: bins)
        var any = false
        // Arrays one by one (a flattened lazy sequence costs a generic call a point: seconds for millions).
        for xs in lists {
            for x in xs where x.isFinite {
                let v = x - x.rounded(.down)
                let b = min(bins - 1, Int(v * Double(bins)))
                occupied[b] = true
                lowest[b] = min(lowest[b], v)
                highest[b] = max(highest[b], v)
                any = true
            }
        }
        guard any else { return nil }
        // The widest run of empty bins, going round.
        var bestStart = 0
        var bestLength = 0
        var b = 0
        while b < 2 * bins {
            if occupied[b % bins] {
                b += 1
                continue
            }
            let start = b
            while b < 2 * bins && !occupied[b % bins] && b - start < bins { b += 1 }
            if b - start > bestLength { (bestStart, bestLength) = (start, b - start) }
        }
        if bestLength == 0 {
            return (0, 1)
        }
        // The data starts at the first occupied bin after the gap and ends at the last before it.
        let first = (bestStart + bestLength) % bins
        let last = (bestStart - 1 + bins) % bins
        let minX = lowest[first]
        var maxX = highest[last]
        if maxX < minX { maxX += 1 }
        return (minX, maxX)
    }
}
