import FoundationEssentials
import Glibc

/// The size of the map area in terminal cells; each cell holds 2×4 braille dots, so dots are square.
public struct ViewSize: Equatable, Hashable, Sendable {
    /// Dots across one cell.
    public static let dotsPerCellX = 2
    /// Dots down one cell.
    public static let dotsPerCellY = 4

    /// Columns of cells.
    public let cols: Int
    /// Rows of cells.
    public let rows: Int

    /// A size of at least 1×1 cells.
    public init(cols: Int, rows: Int) throws(GeoError) {
        guard cols >= 1, rows >= 1, cols <= 100_000, rows <= 100_000 else {
            throw .invalidViewSize(cols: cols, rows: rows)
        }
        self.cols = cols
        self.rows = rows
    }

    /// Width in dots.
    public var widthDots: Double { Double(cols * Self.dotsPerCellX) }
    /// Height in dots.
    public var heightDots: Double { Double(rows * Self.dotsPerCellY) }
}

/// A position on the map area in dots, from its top-left corner (x right, y down).
public struct DotPoint: Equatable, Hashable, Sendable {
    /// Dots from the left edge.
    public var x: Double
    /// Dots from the top edge.
    public var y: Double

    /// A point in dots.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// What `setCenter(_:zoomLevel:)` applied: the level asked for and the level set.
public struct ZoomLevelOutcome: Equatable, Sendable {
    /// The level the caller asked for.
    public var requested: Double
    /// The level now in force (requested, or 28 when clamped).
    public var applied: Double
    /// True when the request was above 28 and was clamped, as the seed does.
    public var wasClamped: Bool { applied != requested }
}

/// A virtual map view: center, zoom and size, with MapKit-like region and conversions.
/// Zoom z shows a world 256·2^z dots wide (the convention of Google Maps, Leaflet and OSM tiles).
public struct MapView: Equatable, Sendable {
    /// The center; latitude within the Mercator limit, longitude in [-180, 180).
    public internal(set) var center: Coordinate
    /// The zoom level, 0…28.
    public internal(set) var zoom: Double
    /// The map area in cells.
    public private(set) var size: ViewSize

    /// A view at a center and zoom; the center is clamped/wrapped, the zoom must be 0…28.
    public init(center: Coordinate, zoom: Double, size: ViewSize) throws(GeoError) {
        self.center = Coordinate(latitude: 0, longitude: 0)
        self.zoom = 0
        self.size = size
        try setCenter(center, zoomLevel: zoom)
    }

    // MARK: Derived values

    /// World width in dots at the current zoom, 256·2^z.
    public var worldSize: Double { WebMercator.worldSize(zoom: zoom) }

    /// The center in the unit-square world.
    public var centerPoint: MercatorPoint { WebMercator.project(center) }

    /// The visible region: center and span between the edges (latitudes clamped to the Mercator limit).
    public var region: CoordinateRegion {
        let b = bounds
        return CoordinateRegion(
            center: center,
            span: CoordinateSpan(latitudeDelta: b.north - b.south, longitudeDelta: b.east - b.west))
    }

    /// The edges of the view; west/east unwrapped around the center, so east − west may exceed 360.
    public var bounds: CoordinateBounds {
        let p = centerPoint
        let halfH = size.heightDots / 2 / worldSize
        let top = WebMercator.unproject(MercatorPoint(x: p.x, y: max(0, p.y - halfH)))
        let bottom = WebMercator.unproject(MercatorPoint(x: p.x, y: min(1, p.y + halfH)))
        let halfLon = 360 * size.widthDots / 2 / worldSize
        return CoordinateBounds(
            north: WebMercator.clampLatitude(top.latitude),
            south: WebMercator.clampLatitude(bottom.latitude),
            west: center.longitude - halfLon,
            east: center.longitude + halfLon)
    }

    /// Ground metres per dot at the center's latitude.
    public var metersPerDot: Double {
        WebMercator.metersPerDot(latitude: center.latitude, zoom: zoom)
    }

    // MARK: Conversions

    /// Where a coordinate falls on the map area, in dots; its longitude is taken nearest the center.
    public func dotPoint(for coordinate: Coordinate) -> DotPoint { transform.dot(for: coordinate) }

    /// The coordinate under a dot position (longitude unwrapped: it may leave [-180, 180)).
    public func coordinate(at dot: DotPoint) -> Coordinate { transform.coordinate(at: dot) }

    /// The coordinate under the middle of a cell.
    public func coordinate(col: Int, row: Int) -> Coordinate {
        coordinate(at: ViewTransform.cellCenter(col: col, row: row))
    }

    // MARK: Changing the view

    /// Standard `setCenter(_:zoomLevel:)`: afterwards the center is `center` (clamped/wrapped) and the zoom
    /// exactly `zoomLevel`; above 28 it clamps to 28 as the seed does; negative or non-finite is refused.
    @discardableResult
    public mutating func setCenter(_ center: Coordinate, zoomLevel: Double) throws(GeoError) -> ZoomLevelOutcome {
        let valid = try center.validated()
        guard zoomLevel.isFinite, zoomLevel >= 0 else { throw .invalidZoom(zoomLevel) }
        let applied = min(zoomLevel, WebMercator.zoomRange.upperBound)
        self.center = Self.normalized(valid)
        self.zoom = applied
        return ZoomLevelOutcome(requested: zoomLevel, applied: applied)
    }

    /// Moves the center, keeping the zoom.
    public mutating func setCenter(_ center: Coordinate) throws(GeoError) {
        self.center = Self.normalized(try center.validated())
    }

    /// Changes the map area's size, keeping center and zoom.
    public mutating func resize(to size: ViewSize) {
        self.size = size
    }

    /// MapKit's `regionThatFits` without snapping: the largest zoom whose view holds the whole region,
    /// before clamping to 0…28 (may be ±infinity for a zero or enormous span).
    public func unclampedZoomThatFits(_ region: CoordinateRegion) -> Double {
        let z = zoomsThatFit(region)
        return min(z.x, z.y)
    }

    /// The zooms at which the region's width (`x`) and its height (`y`) just fill the view; the smaller
    /// one holds the whole region.
    public func zoomsThatFit(_ region: CoordinateRegion) -> (x: Double, y: Double) {
        let c = Self.normalized(region.center)
        let zoomX = log2(size.widthDots * 360 / (WebMercator.tileSize * region.span.longitudeDelta))
        let north = WebMercator.clampLatitude(c.latitude + region.span.latitudeDelta / 2)
        let south = WebMercator.clampLatitude(c.latitude - region.span.latitudeDelta / 2)
        let yc = WebMercator.project(c).y
        let yn = WebMercator.project(Coordinate(latitude: north, longitude: 0)).y
        let ys = WebMercator.project(Coordinate(latitude: south, longitude: 0)).y
        let halfHeight = max(abs(yn - yc), abs(ys - yc))
        let zoomY = log2(size.heightDots / (2 * halfHeight * WebMercator.tileSize))
        return (zoomX, zoomY)
    }

    /// `unclampedZoomThatFits` clamped to 0…28.
    public func zoomThatFits(_ region: CoordinateRegion) -> Double {
        Self.clampZoom(unclampedZoomThatFits(region))
    }

    /// MapKit's `setRegion`: center on the region's center at the largest zoom that shows all of it.
    public mutating func setRegion(_ region: CoordinateRegion) throws(GeoError) {
        let c = try region.center.validated()
        let span = region.span
        guard span.latitudeDelta.isFinite, span.longitudeDelta.isFinite,
            span.latitudeDelta >= 0, span.longitudeDelta >= 0,
            span.latitudeDelta > 0 || span.longitudeDelta > 0
        else {
            throw .invalidSpan(latitudeDelta: span.latitudeDelta, longitudeDelta: span.longitudeDelta)
        }
        let z = zoomThatFits(CoordinateRegion(center: c, span: span))
        self.center = Self.normalized(c)
        self.zoom = z
    }

    /// Pans by a number of dots (x right, y down); the view stops where the world's edge meets the
    /// screen's (`keepingWorldEdges`).
    public mutating func pan(dx: Double, dy: Double) {
        guard dx.isFinite, dy.isFinite else { return }
        var p = centerPoint
        p.x += dx / worldSize
        p.y = Self.keepingWorldEdges(p.y + dy / worldSize, worldSize: worldSize, heightDots: size.heightDots)
        center = Self.normalized(WebMercator.unproject(p))
    }

    /// Moves the center as little as it takes for the world's north and south edges (the Mercator limit,
    /// ±85.05°) to stay at or beyond the screen's, as MapKit and Leaflet's `maxBounds` keep them: no
    /// blank band above the Arctic or below the Antarctic while the world is taller than the view.
    public mutating func keepWorldEdgesOnScreen() {
        var p = centerPoint
        let y = Self.keepingWorldEdges(p.y, worldSize: worldSize, heightDots: size.heightDots)
        guard y != p.y else { return }
        p.y = y
        center = Self.normalized(WebMercator.unproject(p))
    }

    /// A center's Mercator y (0 at the north limit, 1 at the south) kept at least half a view from
    /// either limit when the world is taller than the view; within the world otherwise.
    static func keepingWorldEdges(_ y: Double, worldSize: Double, heightDots: Double) -> Double {
        let half = heightDots / 2 / worldSize
        let (top, bottom) = half < 0.5 ? (half, 1 - half) : (0.0, 1.0)
        return min(max(y, top), bottom)
    }

    /// Leaflet's `setZoomAround`: changes the zoom keeping the coordinate under `dot` where it is on screen.
    public mutating func setZoom(_ newZoom: Double, around dot: DotPoint) {
        guard newZoom.isFinite, dot.x.isFinite, dot.y.isFinite else { return }
        let z = Self.clampZoom(newZoom)
        let offsetX = dot.x - size.widthDots / 2
        let offsetY = dot.y - size.heightDots / 2
        let c = centerPoint
        let anchorX = c.x + offsetX / worldSize
        let anchorY = c.y + offsetY / worldSize
        let newWorld = WebMercator.worldSize(zoom: z)
        let p = MercatorPoint(
            x: anchorX - offsetX / newWorld,
            y: Self.keepingWorldEdges(anchorY - offsetY / newWorld, worldSize: newWorld, heightDots: size.heightDots))
        zoom = z
        center = Self.normalized(WebMercator.unproject(p))
    }

    /// Zoom limited to 0…28 (NaN becomes 0).
    public static func clampZoom(_ z: Double) -> Double {
        guard !z.isNaN else { return 0 }
        return min(max(z, WebMercator.zoomRange.lowerBound), WebMercator.zoomRange.upperBound)
    }

    /// A center the view can hold: latitude within the Mercator limit, longitude wrapped.
    static func normalized(_ c: Coordinate) -> Coordinate {
        Coordinate(latitude: WebMercator.clampLatitude(c.latitude), longitude: WebMercator.wrapLongitude(c.longitude))
    }
}

extension MapView {
    /// The view's size on the ground: its width along the center's parallel, N(φ)·cos φ·Δλ (the
    /// parallel is a circle of that radius on the WGS84 ellipsoid; Torge & Müller, *Geodesy*, §4.1), and
    /// its height along the center's meridian between its top and bottom edges (a geodesic: meridians
    /// are). Both grow with the window, unlike the seed's east–west chord (`regionMeters`), which is
    /// shortest the other way round the world once a view passes 180°.
    public func extentMeters() -> RegionMeters {
        let phi = center.latitude * .pi / 180
        let parallelRadius = WGS84.primeVerticalRadius(latitude: center.latitude) * cos(phi)
        let longitudeSpan = 2 * .pi * size.widthDots / worldSize
        let b = bounds
        // The meridian arc in closed form: the geodesic between two points of one meridian, without
        // loading PROJ for a plain view.
        let latitudinal = abs(WGS84.meridianDistance(latitude: b.north) - WGS84.meridianDistance(latitude: b.south))
        return RegionMeters(latitudinal: latitudinal, longitudinal: parallelRadius * longitudeSpan)
    }
}
