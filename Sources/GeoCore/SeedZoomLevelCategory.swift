import FoundationEssentials
import Glibc

/// A faithful Double-precision port of seed 000, the `MKMapView (ZoomLevel)` category
/// (troybrant.net, 2010), kept for comparison with the product's `setCenter(_:zoomLevel:)`.
///
/// Its pixel space is 2·268435456 = 512·2^20 pixels wide, so its "zoom z" shows the world
/// 512·2^z view pixels wide: the usual web-map zoom z + 1. Its `round()` calls quantise
/// positions to zoom-20 pixels, which makes spans zero at very high zoom.
public enum SeedZoomLevelCategory {
    /// `MERCATOR_OFFSET`: half the world width in zoom-20 pixels of the seed.
    public static let mercatorOffset = 268_435_456.0
    /// `MERCATOR_RADIUS`: the offset divided by π.
    public static let mercatorRadius = 85_445_659.44705395

    /// `longitudeToPixelSpaceX:`.
    public static func longitudeToPixelSpaceX(_ longitude: Double) -> Double {
        (mercatorOffset + mercatorRadius * longitude * .pi / 180.0).rounded()
    }

    /// `latitudeToPixelSpaceY:` (the seed calls `logf`/`sinf`; this port keeps Double).
    public static func latitudeToPixelSpaceY(_ latitude: Double) -> Double {
        let s = sin(latitude * .pi / 180.0)
        return (mercatorOffset - mercatorRadius * log((1 + s) / (1 - s)) / 2.0).rounded()
    }

    /// `pixelSpaceXToLongitude:`.
    public static func pixelSpaceXToLongitude(_ pixelX: Double) -> Double {
        ((pixelX.rounded() - mercatorOffset) / mercatorRadius) * 180.0 / .pi
    }

    /// `pixelSpaceYToLatitude:`.
    public static func pixelSpaceYToLatitude(_ pixelY: Double) -> Double {
        (.pi / 2.0 - 2.0 * atan(exp((pixelY.rounded() - mercatorOffset) / mercatorRadius))) * 180.0 / .pi
    }

    /// `coordinateSpanWithMapView:centerCoordinate:andZoomLevel:` for a view of `width`×`height` points
    /// (here: dots). The seed's zoom is an unsigned integer clamped to 28.
    public static func coordinateSpan(width: Double, height: Double, center: Coordinate, zoomLevel: UInt)
        -> CoordinateSpan
    {
        let zoomLevel = min(zoomLevel, 28)
        let centerPixelX = longitudeToPixelSpaceX(center.longitude)
        let centerPixelY = latitudeToPixelSpaceY(center.latitude)
        let zoomExponent = 20 - Int(zoomLevel)
        let zoomScale = pow(2.0, Double(zoomExponent))
        let scaledMapWidth = width * zoomScale
        let scaledMapHeight = height * zoomScale
        let topLeftPixelX = centerPixelX - scaledMapWidth / 2
        let topLeftPixelY = centerPixelY - scaledMapHeight / 2
        let minLng = pixelSpaceXToLongitude(topLeftPixelX)
        let maxLng = pixelSpaceXToLongitude(topLeftPixelX + scaledMapWidth)
        let minLat = pixelSpaceYToLatitude(topLeftPixelY)
        let maxLat = pixelSpaceYToLatitude(topLeftPixelY + scaledMapHeight)
        return CoordinateSpan(latitudeDelta: -1 * (maxLat - minLat), longitudeDelta: maxLng - minLng)
    }

    /// The region the seed's `setCenterCoordinate:zoomLevel:animated:` passes to `setRegion`.
    public static func region(for size: ViewSize, center: Coordinate, zoomLevel: UInt) -> CoordinateRegion {
        CoordinateRegion(
            center: center,
            span: coordinateSpan(width: size.widthDots, height: size.heightDots, center: center, zoomLevel: zoomLevel))
    }
}
