import GeoCore
import MapData
import MapRender

extension ViewerState {
    /// The user's own layers, in the order drawn.
    public var userLayers: [UserDataLayer] { layers.layers.compactMap { $0 as? UserDataLayer } }

    /// Fits the view to every feature of the user's layers (both axes, a margin of 5 % a side; across
    /// the antimeridian the shorter way). Nothing happens without features.
    public mutating func fitToUserData() {
        let files = userLayers.map(\.file.data).filter { $0.count > 0 }
        guard !files.isEmpty else { return }
        var minY = Double.infinity
        var maxY = -Double.infinity
        for d in files {
            for f in 0..<d.count {
                minY = min(minY, d.boxes[4 * f + 1])
                maxY = max(maxY, d.boxes[4 * f + 3])
            }
        }
        guard let span = BoundsFit.shortestSpan(files.lazy.flatMap(\.x)) else { return }
        let camera = BoundsFit.camera(minX: span.minX, minY: minY, maxX: span.maxX, maxY: maxY, size: view.size)
        _ = try? view.setCenter(camera.center, zoomLevel: camera.zoom)
    }

    /// Shows or hides user layer `n` (0-based, in the order drawn).
    public mutating func toggleUserLayer(_ n: Int) {
        var seen = 0
        for (i, layer) in layers.layers.enumerated() {
            guard var user = layer as? UserDataLayer else { continue }
            if seen == n {
                user.visible.toggle()
                layers.layers[i] = user
                return
            }
            seen += 1
        }
    }
}
