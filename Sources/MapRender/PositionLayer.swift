import GeoCore
import MapFormats

/// The live position (issue 49): a marker, an arrow along the course while moving, and the horizontal
/// error as a geodesic circle (as the seed's `c` is drawn) when it reaches beyond the marker's cell.
public struct PositionLayer: MapLayer, Equatable {
    public var fix: GPSFix

    /// The layer of `fix`.
    public init(fix: GPSFix) { self.fix = fix }

    /// Below this speed (m/s, a slow walk's 1.8 km/h) the course is noise: the marker shows no direction.
    public static let movingSpeed = 0.5

    /// The marker: an arrow of the eight directions nearest the course while moving, else a dot.
    public static func glyph(course: Double?, speed: Double?, ascii: Bool) -> Character {
        guard let course, course.isFinite, let speed, speed >= movingSpeed else { return ascii ? "@" : "◉" }
        let arrows: [Character] =
            ascii ? ["^", "/", ">", "\\", "v", "/", "<", "\\"] : ["↑", "↗", "→", "↘", "↓", "↙", "←", "↖"]
        let octant = Int(((course.truncatingRemainder(dividingBy: 360) + 360 + 22.5) / 45).rounded(.down)) % 8
        return arrows[octant]
    }

    public func draw(into c: inout LayerContext) {
        let at = fix.coordinate
        let cellMeters =
            WebMercator.metersPerDot(latitude: at.latitude, zoom: c.view.zoom) * Double(ViewSize.dotsPerCellX)
        if let error = fix.horizontalError, error.isFinite, error > cellMeters,
            let circle = try? GeodesicCircle(center: at, radiusMeters: min(error, GeodesicCircle.maximumRadius))
        {
            let ring = circle.ring(pointCount: 90).map { c.transform.dot(for: $0) }
            for (p, q) in zip(ring, ring.dropFirst() + ring.prefix(1)) where abs(p.x - q.x) < c.transform.worldSize / 2
            {
                c.canvas.line(p.x, p.y, q.x, q.y, ink: StyleTable.ink(.route))
            }
        }
        let dot = c.transform.dot(for: at)
        let col = Int((dot.x / Double(ViewSize.dotsPerCellX)).rounded(.down))
        let row = Int((dot.y / Double(ViewSize.dotsPerCellY)).rounded(.down))
        c.labels.addMarker(
            Self.glyph(course: fix.course, speed: fix.speed, ascii: c.ascii), col: col, row: row, role: .route)
    }
}
