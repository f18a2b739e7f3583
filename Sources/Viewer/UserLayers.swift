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
            for y in d.y {
                minY = min(minY, y)
                maxY = max(maxY, y)
            }
        }
        guard let span = BoundsFit.shortestSpan(files.map(\.x)) else { return }
        let camera = BoundsFit.camera(minX: span.minX, minY: minY, maxX: span.maxX, maxY: maxY, size: view.size)
        _ = try? view.setCenter(camera.center, zoomLevel: fitKeepsZoom ?? camera.zoom)
    }

    /// A file read (or a stream's new state) into its layer, which keeps its look and visibility; the
    /// view is fitted to the files while they decide it.
    mutating func showUserFile(_ update: UserFileUpdate) {
        let file = update.file
        if let share = file.progress {
            // Still being read: said on the message line; the layer keeps what it had.
            setMessage("reading \(file.displayName) \(Int(share * 100)) %")
            return
        }
        let isNew: Bool
        if let i = layers.layers.firstIndex(where: { ($0 as? UserDataLayer)?.file.file == file.file }),
            let old = layers.layers[i] as? UserDataLayer
        {
            isNew = old.file.data.count == 0 && file.data.count > 0
            layers.layers[i] = UserDataLayer(file: file, look: old.look, visible: old.visible)
        } else {
            isNew = file.data.count > 0
            layers.layers.append(UserDataLayer(file: file, look: userLayers.count))
        }
        if isNew && fitsToFiles { fitToUserData() }
        let name = file.displayName
        if let error = file.error {
            // Several failed files are counted, and the layer list says each one's reason.
            let failed = userLayers.filter { $0.file.error != nil }.count
            setError(failed > 1 ? "\(failed) files failed: o lists each" : error)
        } else if update.ended && file.format == .stream {
            // Its end is said whatever else it last said; its layer stays.
            let bad = update.badLines > 0 ? ", \(update.badLines) bad line\(update.badLines == 1 ? "" : "s")" : ""
            streamBadLines[file.file] = update.badLines
            setMessage("\(name): stream ended, \(file.data.count) feature\(file.data.count == 1 ? "" : "s")\(bad)")
        } else if update.badLines > streamBadLines[file.file, default: 0] {
            streamBadLines[file.file] = update.badLines
            setError("\(name): \(update.badLines) bad line\(update.badLines == 1 ? "" : "s")")
        } else if file.format != .stream, message.hasPrefix("reading ") {
            let skipped =
                file.data.skipped > 0 ? " (\(file.data.skipped) left out: \(file.data.firstSkipReason ?? ""))" : ""
            let notes = file.data.notes.phrases.map { "; " + $0 }.joined()
            setMessage("\(name): \(file.data.count) feature\(file.data.count == 1 ? "" : "s")" + skipped + notes)
        }
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
