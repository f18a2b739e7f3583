import FoundationEssentials
import Glibc

/// Which zoom button was pressed.
public enum ZoomDirection: String, Equatable, Sendable {
    case zoomIn = "zoom in"
    case zoomOut = "zoom out"

    /// The seed's factor on the region's metres: in m − 0.6·m (×0.4), out m + 2·m (×3).
    public var metersFactor: Double { self == .zoomIn ? 0.4 : 3 }

    /// The zoom change used when the seed's arithmetic gives no step in this direction:
    /// the level change its factor would give on a small view, +log2(2.5) or −log2(3).
    public var fallbackZoomDelta: Double { self == .zoomIn ? log2(2.5) : -log2(3) }
}

/// The region's size in metres measured as seed 004's `getCurrentMapLocation` does.
public struct RegionMeters: Equatable, Sendable {
    /// North–south metres: for `regionMeters`, the geodesic between the midpoints of the bottom and top
    /// edges; for `extentMeters`, the same along the center's meridian.
    public var latitudinal: Double
    /// East–west metres: for `regionMeters`, the geodesic between the midpoints of the left and right
    /// edges (a chord, not the parallel); for `extentMeters`, the length along the center's parallel.
    public var longitudinal: Double

    /// Metres in both directions.
    public init(latitudinal: Double, longitudinal: Double) {
        self.latitudinal = latitudinal
        self.longitudinal = longitudinal
    }

    /// Both values times a factor (the seed's `getUpdatedMapLocation`).
    public func scaled(by factor: Double) -> RegionMeters {
        RegionMeters(latitudinal: latitudinal * factor, longitudinal: longitudinal * factor)
    }
}

/// What one press of a zoom button did, so the screen can explain it.
public struct ZoomStep: Equatable, Sendable {
    /// The button.
    public var direction: ZoomDirection
    /// Zoom before the press.
    public var zoomBefore: Double
    /// Zoom after the press.
    public var zoomAfter: Double
    /// The region's metres measured before the press.
    public var metersBefore: RegionMeters
    /// The metres the seed asked for (before × 0.4 or × 3).
    public var metersRequested: RegionMeters
    /// The span in degrees before the press.
    public var spanBefore: CoordinateSpan
    /// The span in degrees after the press.
    public var spanAfter: CoordinateSpan
    /// True when the seed's arithmetic gave no step in the button's direction and the fixed step was used.
    public var usedFallback: Bool
    /// The region the seed rebuilt from the requested metres (`MKCoordinateRegionMakeWithDistance`).
    public var requestedSpan: CoordinateSpan
    /// The zooms at which that region's width and height fill the view (`regionThatFits` takes the
    /// smaller; unclamped, possibly infinite).
    public var zoomX: Double
    public var zoomY: Double
}

extension MapView {
    /// Seed 004's `getCurrentMapLocation`: geodesic metres between the midpoints of opposite edges,
    /// taken as center ± half the span (latitudes clamped to ±90).
    public func regionMeters() -> RegionMeters {
        let r = region
        let c = r.center
        let south = Coordinate(latitude: max(-90, c.latitude - r.span.latitudeDelta / 2), longitude: c.longitude)
        let north = Coordinate(latitude: min(90, c.latitude + r.span.latitudeDelta / 2), longitude: c.longitude)
        let west = Coordinate(latitude: c.latitude, longitude: c.longitude - r.span.longitudeDelta / 2)
        let east = Coordinate(latitude: c.latitude, longitude: c.longitude + r.span.longitudeDelta / 2)
        return RegionMeters(
            latitudinal: Geodesic.distance(south, north),
            longitudinal: Geodesic.distance(west, east))
    }

    /// Seed 004's `updateZoomLevel`: scale the measured metres, rebuild the region around the same center
    /// from metres, and `setRegion`. Where that gives no step in the button's direction (or no finite span),
    /// the zoom moves by `direction.fallbackZoomDelta` instead. The result is clamped to 0…28.
    @discardableResult
    public mutating func zoomButton(_ direction: ZoomDirection) -> ZoomStep {
        let before = self
        let measured = regionMeters()
        let requested = measured.scaled(by: direction.metersFactor)
        let target = CoordinateRegion(
            center: center, latitudinalMeters: requested.latitudinal, longitudinalMeters: requested.longitudinal)
        let fits = zoomsThatFit(target)
        let seedZoom = min(fits.x, fits.y)
        let rightWay = direction == .zoomIn ? seedZoom > zoom : seedZoom < zoom
        let usable =
            rightWay && !seedZoom.isNaN && requested.latitudinal > 0 && requested.longitudinal > 0
            && requested.latitudinal.isFinite && requested.longitudinal.isFinite
        let newZoom = usable ? seedZoom : zoom + direction.fallbackZoomDelta
        zoom = Self.clampZoom(newZoom)
        return ZoomStep(
            direction: direction, zoomBefore: before.zoom, zoomAfter: zoom,
            metersBefore: measured, metersRequested: requested,
            spanBefore: before.region.span, spanAfter: region.span, usedFallback: !usable,
            requestedSpan: target.span, zoomX: fits.x, zoomY: fits.y)
    }
}
