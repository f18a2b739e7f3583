/// A piece of a feature's geometry: Multi forms and collections are several pieces.
public enum PieceType: UInt8, Sendable, CaseIterable {
    case point, lineString, polygon

    /// The RFC 7946 name (what `render --json` counts them by).
    public var name: String {
        switch self {
        case .point: "Point"
        case .lineString: "LineString"
        case .polygon: "Polygon"
        }
    }
}

/// Features as columns of Web Mercator points (the unit square, y down): each feature its pieces, each
/// piece points, lines or an area of rings, each ring its points. A map data file's chunk, a vector
/// tile's and a user's file (at a level of detail) are all this one shape, so that filling areas and
/// asking what lies at a cell is one piece of code for every source.
public protocol FeatureColumns {
    /// The points' x or y, read in place.
    associatedtype Coordinates: RandomAccessCollection<Double> where Coordinates.Index == Int
    /// The number of features.
    var featureCount: Int { get }
    /// Feature `feature`'s pieces.
    func pieces(of feature: Int) -> Range<Int>
    /// What piece `piece` is: points (each ring one), lines (each ring one) or an area (its rings
    /// together, even–odd).
    func pieceType(_ piece: Int) -> PieceType
    /// Piece `piece`'s rings.
    func rings(of piece: Int) -> Range<Int>
    /// Ring `ring`'s points.
    func points(ofRing ring: Int) -> Range<Int>
    /// Point `i`.
    func point(_ i: Int) -> (x: Double, y: Double)
    /// Feature `feature`'s box: minX, minY, maxX, maxY.
    func box(_ feature: Int) -> (Double, Double, Double, Double)
    /// The points' x and y read in place, for loops over many (valid only within `body`).
    func withCoordinates<R>(_ body: (Coordinates, Coordinates) throws -> R) rethrows -> R
}

extension FeatureColumns {
    /// Every point of piece `piece`.
    public func points(ofPiece piece: Int) -> Range<Int> {
        let rings = rings(of: piece)
        guard let first = rings.first, let last = rings.last else { return 0..<0 }
        return points(ofRing: first).lowerBound..<points(ofRing: last).upperBound
    }
}

/// A chunk's feature is one piece: its parts are the rings of an area, or lines, or points.
extension DecodedChunk: FeatureColumns {
    @inlinable public func pieces(of feature: Int) -> Range<Int> { feature..<(feature + 1) }

    @inlinable public func pieceType(_ piece: Int) -> PieceType {
        switch info.kind {
        case .areas: .polygon
        case .lines: .lineString
        case .points: .point
        }
    }

    @inlinable public func rings(of piece: Int) -> Range<Int> { featureStarts[piece]..<featureStarts[piece + 1] }

    @inlinable public func points(ofRing ring: Int) -> Range<Int> { starts[ring]..<starts[ring + 1] }

    @inlinable public func point(_ i: Int) -> (x: Double, y: Double) { (x[i], y[i]) }

    @inlinable
    public func withCoordinates<R>(_ body: (UnsafeBufferPointer<Double>, UnsafeBufferPointer<Double>) throws -> R)
        rethrows -> R
    {
        try x.withUnsafeBufferPointer { xs in try y.withUnsafeBufferPointer { ys in try body(xs, ys) } }
    }

    @inlinable public func box(_ feature: Int) -> (Double, Double, Double, Double) {
        let b = 4 * feature
        return (featureBoxes[b], featureBoxes[b + 1], featureBoxes[b + 2], featureBoxes[b + 3])
    }
}

extension UserLayerData: FeatureColumns {
    public var featureCount: Int { count }

    public func pieces(of feature: Int) -> Range<Int> { featurePieces[feature]..<featurePieces[feature + 1] }

    public func pieceType(_ piece: Int) -> PieceType { pieceTypes[piece] }

    public func rings(of piece: Int) -> Range<Int> { pieceRings[piece]..<pieceRings[piece + 1] }

    public func points(ofRing ring: Int) -> Range<Int> { ringStarts[ring]..<ringStarts[ring + 1] }

    public func point(_ i: Int) -> (x: Double, y: Double) { (x[i], y[i]) }

    @inlinable
    public func withCoordinates<R>(_ body: (CoordinateColumn.Values, CoordinateColumn.Values) throws -> R) rethrows
        -> R
    {
        try x.withValues { xs in try y.withValues { ys in try body(xs, ys) } }
    }
}
