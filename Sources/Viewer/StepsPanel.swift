import MapRender
import Raster
import Support

extension Renderer {
    /// The steps panel (`D`): the route's summary as its title, then its steps with their lengths, the
    /// chosen one marked, scrolled to keep it in view; at the map's top right.
    static func drawSteps(_ frame: inout Frame, _ state: ViewerState, mapRows: Int, style: MapStyle) {
        guard let route = state.directions.route else { return }
        let marker = style.ascii ? ">" : "▸"
        let lines = route.steps.enumerated().map { i, s in
            (i == state.directions.selected ? marker : " ") + " " + s.instruction
                + (s.meters > 0 ? " · " + Directions.distance(s.meters) : "")
        }
        let room = max(1, mapRows - 3)
        let first = max(0, min(state.directions.selected - room / 2, lines.count - room))
        let shown = Array(lines[first..<min(lines.count, first + room)])
        let footer = "↑↓ choose · Enter centres · D closes"
        drawPanel(
            &frame, shown + [footer], widest: min(frame.cols / 2, (shown + [footer]).map(\.columns).max() ?? 0),
            mapRows: mapRows, ascii: style.ascii, mode: style.mode, theme: state.theme, topRight: true,
            title: route.summary)
    }
}
