import FoundationEssentials
import GeoCore
import Glibc
import MapData
import MapRender
import Support

/// How the view changes: zoom buttons, pans, undo, the circle, going to a place; each change is kept
/// for undo and animated.
extension ViewerState {
    /// Records the old view for undo (with what changed it) and starts an animation when enabled.
    mutating func commit(from old: MapView, change: String, animate: Bool = true) {
        // Whatever moved the view, the world's edges stay at the screen's (no blank band at a pole).
        view.keepWorldEdgesOnScreen()
        guard old != view else { return }
        history.append(HistoryEntry(view: old, change: change))
        if history.count > ViewerState.historyLimit { history.removeFirst() }
        // A new change ends what undo gave back to redo.
        redoHistory = []
        animation = animationsEnabled && animate ? ViewAnimation(from: old, progress: 0) : nil
    }

    mutating func zoomButton(_ direction: ZoomDirection) {
        let old = view
        let step = view.zoomButton(direction)
        commit(from: old, change: direction.rawValue)
        lastAction = LastAction(
            name: direction == .zoomIn ? .zoomIn : .zoomOut, zoomBefore: step.zoomBefore, zoomAfter: step.zoomAfter,
            fallback: step.usedFallback, zoomStep: step)
        let factor = direction == .zoomIn ? "×0.4" : "×3"
        // The widths the status line gives the two views (the seed's own east–west chord, which its ×0.4
        // and ×3 apply to, is `e`'s to explain: across most of the world it is shorter).
        var text =
            "\(direction.rawValue) \(factor): \(Formatting.distance(old.extentMeters().longitudinal)) → "
            + "\(Formatting.distance(view.extentMeters().longitudinal)) wide, "
            + "zoom \(Formatting.zoom(step.zoomBefore)) → \(Formatting.zoom(step.zoomAfter))"
        if step.usedFallback {
            text += direction == .zoomIn ? " (fallback step +log2 2.5)" : " (fallback step −log2 3)"
        }
        if step.zoomAfter == step.zoomBefore {
            text += direction == .zoomIn ? " (at the zoom limit 28)" : " (at zoom 0)"
        }
        setMessage(text)
    }

    mutating func pan(_ fx: Double, _ fy: Double) {
        let old = view
        // Whole cells, so that the map moves by exact cells: the terminal can then scroll lines
        // instead of redrawing every braille pattern.
        let cols = (fx * Double(view.size.cols)).rounded()
        let rows = (fy * Double(view.size.rows)).rounded()
        view.pan(dx: cols * Double(ViewSize.dotsPerCellX), dy: rows * Double(ViewSize.dotsPerCellY))
        commit(from: old, change: "pan", animate: false)
        lastAction = LastAction(name: .pan, zoomBefore: old.zoom, zoomAfter: view.zoom, fallback: false)
        setMessage("pan to \(CoordinateFormat.hemispheres(view.center, decimals: 5))")
    }

    mutating func world() {
        let old = view
        let s = view.size
        let z = MapView.clampZoom(min(log2(s.widthDots / 256), log2(s.heightDots / 256)))
        _ = try? view.setCenter(Coordinate(latitude: 0, longitude: 0), zoomLevel: z)
        commit(from: old, change: "whole world")
        lastAction = LastAction(name: .world, zoomBefore: old.zoom, zoomAfter: view.zoom, fallback: false)
        setMessage("whole world: zoom \(Formatting.zoom(old.zoom)) → \(Formatting.zoom(view.zoom))")
    }

    mutating func undo() {
        guard let entry = history.popLast() else {
            setError("nothing to undo")
            return
        }
        redoHistory.append(HistoryEntry(view: view, change: entry.change))
        step(to: entry, saying: "undo")
    }

    /// `U`: the view the last undo left, again.
    mutating func redo() {
        guard let entry = redoHistory.popLast() else {
            setError("nothing to redo")
            return
        }
        history.append(HistoryEntry(view: view, change: entry.change))
        step(to: entry, saying: "redo")
    }

    /// Goes to a kept view (undo, redo), saying what of the view it changed.
    mutating func step(to entry: HistoryEntry, saying verb: String) {
        let old = view
        var previous = entry.view
        previous.resize(to: view.size)
        view = previous
        animation = animationsEnabled ? ViewAnimation(from: old, progress: 0) : nil
        lastAction = LastAction(
            name: verb == "undo" ? .undo : .redo, zoomBefore: old.zoom, zoomAfter: view.zoom, fallback: false)
        // Say what was undone, and what of the view it gave back.
        var text = "\(verb) \(entry.change): \(verb == "undo" ? "back to" : "again at")"
        if old.zoom != view.zoom { text += " zoom \(Formatting.zoom(view.zoom)) (from \(Formatting.zoom(old.zoom)))" }
        if old.center != view.center {
            text += (old.zoom != view.zoom ? "," : "") + " \(CoordinateFormat.hemispheres(view.center, decimals: 5))"
        }
        setMessage(text)
    }

    mutating func toggleCircle() {
        if circle != nil {
            circle = nil
            setMessage("circle off")
            return
        }
        turnCircleOn(radius: radiusMeters, at: view.center)
    }

    mutating func turnCircleOn(radius: Double, at center: Coordinate) {
        do {
            let geodesic = try GeodesicCircle(center: center, radiusMeters: radius)
            circle = CircleOverlay(circle: geodesic, ratio: CircleFit.defaultRatio)
            radiusMeters = radius
            lastAction = LastAction(
                name: .circle, zoomBefore: view.zoom, zoomAfter: view.zoom, fallback: false,
                circle: CircleStep(
                    radiusMeters: radius, geodesic: geodesic.groundRadii,
                    seed: SeedScreenCircle.groundRadii(center: geodesic.center, radiusMeters: radius)))
            setMessage(
                "circle \(Formatting.distance(radius)) at \(CoordinateFormat.hemispheres(geodesic.center, decimals: 5))"
            )
        } catch {
            setError(error.description)
        }
    }

    mutating func fitCircle() {
        guard let overlay = circle else {
            setError("no circle to fit: press c or r first")
            return
        }
        let old = view
        let fitting: CircleFitting
        do {
            fitting = try view.fit(overlay.circle, ratio: overlay.ratio)
        } catch {
            setError(error.description)
            return
        }
        commit(from: old, change: "fit circle")
        // The seed's fit from the view before, and the circle's rows beyond its top and bottom edges.
        let seed = SeedCircleFit.camera(
            in: old, center: overlay.circle.center, radiusMeters: overlay.circle.radiusMeters,
            circleRatio: overlay.ratio)
        let circleDots = 2 * fitting.halfHeight * WebMercator.worldSize(zoom: seed.zoom)
        let cropped = max(0, Int(((circleDots - old.size.heightDots) / 4).rounded(.up)))
        lastAction = LastAction(
            name: .fitCircle, zoomBefore: old.zoom, zoomAfter: view.zoom, fallback: false,
            fit: FitStep(
                ratio: overlay.ratio, zoomX: fitting.zoomX, zoomY: fitting.zoomY, seedZoom: seed.zoom,
                seedCroppedRows: cropped, seedCenter: seed.center,
                ringCols: 2 * fitting.halfWidth * WebMercator.worldSize(zoom: view.zoom)
                    / Double(ViewSize.dotsPerCellX),
                ringRows: 2 * fitting.halfHeight * WebMercator.worldSize(zoom: view.zoom)
                    / Double(ViewSize.dotsPerCellY),
                viewCols: view.size.cols, viewRows: view.size.rows, zoom: view.zoom))
        setMessage(
            "fit circle \(Formatting.distance(overlay.circle.radiusMeters)): zoom \(Formatting.zoom(old.zoom)) → \(Formatting.zoom(view.zoom))"
        )
    }

    /// The ruler's numbers on the message line: legs, total, and a closed one's area and perimeter.
    mutating func sayRuler(_ r: Ruler) {
        let units = imperialUnits
        var text =
            "ruler: \(r.legs.count) leg\(r.legs.count == 1 ? "" : "s"), \(RulerFormat.length(r.totalMeters, imperial: units))"
        if let last = r.legs.last {
            text +=
                " (last \(RulerFormat.length(last.meters, imperial: units)) at \(RulerFormat.bearing(last.bearing)))"
        }
        if let p = r.polygon {
            text =
                "ruler closed: area \(RulerFormat.area(p.area, imperial: units)), perimeter \(RulerFormat.length(p.perimeter, imperial: units))"
        }
        setMessage(text)
    }

    /// Shows a place found by name as `/` does (`--center NAME`).
    public mutating func show(_ hit: SearchHit) { frame(hit) }

    /// A search result framed: the view fitted to the place's extent, whatever the zoom was.
    mutating func frame(_ hit: SearchHit) {
        let old = view
        do {
            try view.fit(try GeodesicCircle(center: hit.coordinate, radiusMeters: hit.radiusMeters))
        } catch {
            setError(error.description + "; view unchanged")
            return
        }
        commit(from: old, change: "search")
        lastAction = LastAction(name: .goTo, zoomBefore: old.zoom, zoomAfter: view.zoom, fallback: false)
        let what = (hit.label.isEmpty ? hit.name : hit.label) + (hit.detail.isEmpty ? "" : " (\(hit.detail))")
        setMessage("\(what): zoom \(Formatting.zoom(old.zoom)) → \(Formatting.zoom(view.zoom))")
    }

    /// Centres on `c`, at `zoom` when a link gave one (else the zoom stays).
    mutating func goTo(_ c: Coordinate, zoom: Double? = nil, label: String) {
        let old = view
        do {
            try view.setCenter(c, zoomLevel: min(28, zoom ?? view.zoom))
        } catch {
            setError(error.description + "; view unchanged")
            return
        }
        commit(from: old, change: "go to")
        lastAction = LastAction(name: .goTo, zoomBefore: old.zoom, zoomAfter: view.zoom, fallback: false)
        setMessage("go to \(label)" + (zoom == nil ? "" : ", zoom \(Formatting.zoom(view.zoom))"))
    }
}
