/// Turns a terminal's raw pointer reports into the viewer's mouse events: a press and its release with
/// no motion between is a click (given on the release, at the press's cell); motion while the button
/// is down drags the map cell by cell. A release never arrives late because of it: the terminal layer
/// asks for presses, releases and motion only.
public struct PointerGestures: Sendable {
    /// What the terminal reported.
    public enum Report: Sendable { case press, release, motion }

    private var pressedAt: (col: Int, row: Int)?
    private var last: (col: Int, row: Int)?
    private var dragged = false

    public init() {}

    /// The mouse event a report makes, if any.
    public mutating func next(_ report: Report, col: Int, row: Int) -> MouseEvent? {
        switch report {
        case .press:
            pressedAt = (col, row)
            last = (col, row)
            dragged = false
            return nil
        case .motion:
            guard pressedAt != nil, let l = last, l.col != col || l.row != row else { return nil }
            last = (col, row)
            dragged = true
            return .drag(dx: col - l.col, dy: row - l.row)
        case .release:
            defer {
                pressedAt = nil
                last = nil
            }
            guard let p = pressedAt else { return nil }
            // A release elsewhere without motion reports (a terminal that sends none): a drag to there.
            if !dragged, let l = last, l.col != col || l.row != row {
                return .drag(dx: col - l.col, dy: row - l.row)
            }
            return dragged ? nil : .click(col: p.col, row: p.row)
        }
    }
}
