import FoundationEssentials
import GeoCore
import Glibc
import MapData
import MapRender
import Support

/// The mouse: the wheel zooms around the pointer, a click centres there, a drag moves the map.
extension ViewerState {
    mutating func handleMouse(_ m: MouseEvent) {
        guard prompt == nil, isLargeEnough else { return }
        let size = view.size
        func dot(_ col: Int, _ row: Int) -> DotPoint? {
            guard col >= 0, row >= 0, col < size.cols, row < size.rows else { return nil }
            return ViewTransform.cellCenter(col: col, row: row)
        }
        switch m {
        case .wheelUp(let col, let row), .wheelDown(let col, let row):
            guard let p = dot(col, row) else { return }
            let direction: ZoomDirection
            if case .wheelUp = m { direction = .zoomIn } else { direction = .zoomOut }
            let old = view
            var probe = view
            let step = probe.zoomButton(direction)
            view.setZoom(step.zoomAfter, around: p)
            commit(from: old, change: direction == .zoomIn ? "wheel zoom in" : "wheel zoom out", animate: false)
            lastAction = LastAction(
                name: direction == .zoomIn ? .wheelIn : .wheelOut, zoomBefore: old.zoom, zoomAfter: view.zoom,
                fallback: step.usedFallback)
            setMessage(
                "\(direction.rawValue) at pointer: zoom \(Formatting.zoom(old.zoom)) → \(Formatting.zoom(view.zoom))"
            )
        case .drag(let dx, let dy):
            // The map follows the pointer; one drag is one step of undo however many reports it took.
            let old = view
            view.pan(dx: Double(-dx * ViewSize.dotsPerCellX), dy: Double(-dy * ViewSize.dotsPerCellY))
            if lastAction?.name != .drag {
                commit(from: old, change: "drag", animate: false)
            }
            lastAction = LastAction(name: .drag, zoomBefore: old.zoom, zoomAfter: view.zoom, fallback: false)
            setMessage("drag to \(CoordinateFormat.hemispheres(view.center, decimals: 5))")
        case .click(let col, let row):
            guard let p = dot(col, row) else { return }
            let target = view.coordinate(at: p).wrapped
            goTo(target, label: CoordinateFormat.hemispheres(target, decimals: 5))
        }
    }
}
