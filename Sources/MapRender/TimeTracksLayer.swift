import GeoCore

/// The timed tracks at the time bar's clock (issue 49): each track's part done so far drawn bold (two
/// dots wide, in its file's colour) over its file's line, and a marker where it is now.
public struct TimeTracksLayer: MapLayer, Equatable {
    /// Per track: its file's look (`StyleRole.overlay`), the vertices done, then the marker's place (the
    /// last of them).
    public var done: [(look: Int, line: [Coordinate])]

    /// The layer of these tracks' done parts.
    public init(done: [(look: Int, line: [Coordinate])]) { self.done = done }

    public static func == (a: TimeTracksLayer, b: TimeTracksLayer) -> Bool {
        a.done.count == b.done.count && zip(a.done, b.done).allSatisfy { $0.look == $1.look && $0.line == $1.line }
    }

    /// The dots a bold line's pen covers around its centre line.
    static let pen: [(Double, Double)] = [(0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)]

    public func draw(into c: inout LayerContext) {
        for (look, line) in done {
            let ink = StyleTable.ink(.overlay(look))
            let dots = line.map { c.transform.dot(for: $0) }
            for (p, q) in zip(dots, dots.dropFirst()) where abs(p.x - q.x) < c.transform.worldSize / 2 {
                // Bold: three dots wide, over the file's own line (two wide at street level).
                for (dx, dy) in Self.pen { c.canvas.line(p.x + dx, p.y + dy, q.x + dx, q.y + dy, ink: ink) }
            }
            guard let at = dots.last else { continue }
            c.labels.addMarker(
                c.ascii ? "o" : "●", col: Int((at.x / Double(ViewSize.dotsPerCellX)).rounded(.down)),
                row: Int((at.y / Double(ViewSize.dotsPerCellY)).rounded(.down)), role: .overlay(look))
        }
    }
}
