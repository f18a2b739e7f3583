import GeoCore

/// The timed tracks at the time bar's clock (issue 49): each track's part done so far drawn bold over
/// its file's line, and a marker where it is now.
public struct TimeTracksLayer: MapLayer, Equatable {
    /// Per track: the vertices done, then the marker's place (the last of them).
    public var done: [[Coordinate]]

    /// The layer of these tracks' done parts.
    public init(done: [[Coordinate]]) { self.done = done }

    public func draw(into c: inout LayerContext) {
        let ink = StyleTable.ink(.route)
        for line in done {
            let dots = line.map { c.transform.dot(for: $0) }
            for (p, q) in zip(dots, dots.dropFirst()) where abs(p.x - q.x) < c.transform.worldSize / 2 {
                c.canvas.line(p.x, p.y, q.x, q.y, ink: ink)
                // Bold: the line again a dot lower and a dot to the right.
                c.canvas.line(p.x + 1, p.y + 1, q.x + 1, q.y + 1, ink: ink)
            }
            guard let at = dots.last else { continue }
            c.labels.addMarker(
                c.ascii ? "o" : "●", col: Int((at.x / Double(ViewSize.dotsPerCellX)).rounded(.down)),
                row: Int((at.y / Double(ViewSize.dotsPerCellY)).rounded(.down)), role: .route)
        }
    }
}
