import GeoCore
import MapData

/// Removes edges that sources add to close rings but that are not coastline: runs along the ±180°
/// meridian (Natural Earth, GSHHG), along the south pole's parallel (Antarctica), and jumps across
/// the antimeridian. Lines are split there; each piece keeps at least two points.
public enum ArtificialEdges {
    /// Pieces of `points` without artificial edges.
    public static func split(_ points: [Coordinate]) -> [[Coordinate]] {
        var pieces: [[Coordinate]] = []
        var current: [Coordinate] = []
        for p in points {
            if let last = current.last, isArtificial(last, p) {
                if current.count >= 2 { pieces.append(current) }
                current = []
            }
            current.append(p)
        }
        if current.count >= 2 { pieces.append(current) }
        return pieces
    }

    /// True for an edge that follows ±180°, lies at the south pole, or jumps more than 180° of longitude.
    public static func isArtificial(_ a: Coordinate, _ b: Coordinate) -> Bool {
        let onAntimeridian = abs(abs(a.longitude) - 180) < 1e-6 && abs(abs(b.longitude) - 180) < 1e-6
        let atSouthPole = a.latitude <= -89.999 && b.latitude <= -89.999
        let jump = abs(a.longitude - b.longitude) > 180
        return onAntimeridian || atSouthPole || jump
    }
}
