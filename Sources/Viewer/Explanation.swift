import GeoCore

/// A value of `lastAction.explain`: a number (an infinite one is `null`) or a word.
enum ExplainValue: Encodable, Equatable {
    case number(Double)
    case text(String)

    func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .number(let n): if n.isFinite { try c.encode(n) } else { try c.encodeNil() }
        case .text(let t): try c.encode(t)
        }
    }
}

/// What the last step computed, in order and with units: the lines of the explain panel (`e`) and the
/// numbers of `render --json`'s `lastAction.explain`.
enum Explanation {
    /// The numbers of a zoom button's step, by their JSON names.
    static func numbers(_ step: ZoomStep) -> [String: Double] {
        [
            "factor": step.direction.metersFactor,
            "latitudinalMeters": step.metersBefore.latitudinal,
            "longitudinalMeters": step.metersBefore.longitudinal,
            "newLatitudinalMeters": step.metersRequested.latitudinal,
            "newLongitudinalMeters": step.metersRequested.longitudinal,
            "latitudeDelta": step.requestedSpan.latitudeDelta,
            "longitudeDelta": step.requestedSpan.longitudeDelta,
            "zoomX": step.zoomX,
            "zoomY": step.zoomY,
        ]
    }

    /// The numbers of `z`, by their JSON names.
    static func numbers(_ z: ZoomLevelStep) -> [String: Double] {
        [
            "requested": z.requested, "standardLongitudeDelta": z.standardLongitudeDelta,
            "seedLongitudeDelta": z.seedLongitudeDelta, "seedEquivalentZoom": z.seedEquivalentZoom,
        ]
    }

    /// The numbers of `f`, by their JSON names.
    static func values(_ f: FitStep) -> [String: ExplainValue] {
        [
            "ratio": .number(f.ratio), "zoomX": .number(f.zoomX), "zoomY": .number(f.zoomY),
            "limitedBy": .text(f.limitedBy), "seedZoom": .number(f.seedZoom),
            "seedCroppedRows": .number(Double(f.seedCroppedRows)),
        ]
    }

    /// The numbers of `c` and `r`, by their JSON names.
    static func numbers(_ c: CircleStep) -> [String: Double] {
        ["radiusMeters": c.radiusMeters, "seedNorthMeters": c.seed.north, "seedSouthMeters": c.seed.south]
    }

    /// The last action's values for `render --json`, or nil.
    static func values(_ action: LastAction) -> [String: ExplainValue]? {
        if let f = action.fit { return values(f) }
        if let c = action.circle { return numbers(c).mapValues { .number($0) } }
        return (action.zoomStep.map(numbers) ?? action.zoomLevel.map(numbers))?.mapValues { .number($0) }
    }

    /// The panel's lines for `f`.
    static func lines(_ f: FitStep) -> [String] {
        let limited = f.limitedBy
        return [
            "fit the circle (seed 002 B, corrected)",
            "ratio \(CoordinateFormat.fixed(f.ratio, 3)): the circle's share of the view's width and height",
            "zoomX \(Formatting.zoom(f.zoomX)), zoomY \(Formatting.zoom(f.zoomY)): the smaller, limited by the \(limited)",
            "zoom \(Formatting.zoom(f.zoom)): the ring spans \(CoordinateFormat.fixed(f.ringCols, 1)) × "
                + "\(CoordinateFormat.fixed(f.ringRows, 1)) cells of the \(f.viewCols) × \(f.viewRows) view",
            "the seed fits the width alone: zoom \(Formatting.zoom(f.seedZoom)), "
                + (f.seedCroppedRows > 0 ? "crops \(f.seedCroppedRows) rows of the circle" : "crops nothing here"),
        ]
    }

    /// The panel's lines for `z`.
    static func lines(_ z: ZoomLevelStep) -> [String] {
        let level = CoordinateFormat.fixed(z.requested, 2)
        var lines = [
            "zoom level \(level) (seed 000, the MKMapView category)",
            "standard web zoom: Δlon \(CoordinateFormat.fixed(z.standardLongitudeDelta, 6))°",
            "the category, level \(Int(min(28, max(0, z.requested.rounded(.down))))): a 512·2^z pixel world, "
                + "Δlon \(CoordinateFormat.fixed(z.seedLongitudeDelta, 6))°",
        ]
        if z.seedLongitudeDelta > 0, z.seedEquivalentZoom.isFinite {
            lines.append("so the seed shows web zoom \(Formatting.zoom(z.seedEquivalentZoom)): one level closer")
        } else {
            lines.append("its round() makes that span zero: the seed cannot show this level")
        }
        return lines
    }

    /// The panel's lines for `c` and `r`.
    static func lines(_ c: CircleStep) -> [String] {
        func reach(_ r: GroundRadii) -> String {
            [r.north, r.south, r.east, r.west].map(Formatting.distance).joined(separator: " / ")
        }
        return [
            "circle \(Formatting.distance(c.radiusMeters)) (seed 002 A, corrected)",
            "ground reach north / south / east / west:",
            "geodesic circle:    \(reach(c.geodesic))",
            "seed screen circle: \(reach(c.seed))",
            "the seed's circle is round on the Mercator screen, not on the ground",
        ]
    }

    /// The panel's lines for the last action (a zoom button's around `latitude`, the center's), or nil
    /// when it has nothing to explain.
    static func lines(_ action: LastAction, latitude: Double) -> [String]? {
        if let f = action.fit { return lines(f) }
        if let c = action.circle { return lines(c) }
        if let z = action.zoomLevel { return lines(z) }
        guard let s = action.zoomStep else { return nil }
        func deg(_ v: Double) -> String { CoordinateFormat.fixed(v, 5) + "°" }
        func z(_ v: Double) -> String { v.isFinite ? Formatting.zoom(v) : (v > 0 ? "∞" : "−∞") }
        let factor = s.direction == .zoomIn ? "×0.4" : "×3"
        var lines = [
            "\(s.direction.rawValue) \(factor) (the zoom button of seed 004)",
            "1 region before: Δlat \(deg(s.spanBefore.latitudeDelta)), Δlon \(deg(s.spanBefore.longitudeDelta))",
            "2 geodesics between edge midpoints: N–S \(Formatting.distance(s.metersBefore.latitudinal)), "
                + "E–W chord \(Formatting.distance(s.metersBefore.longitudinal))",
            "3 \(factor): \(Formatting.distance(s.metersRequested.latitudinal)) × "
                + "\(Formatting.distance(s.metersRequested.longitudinal))",
            // MapKit's region from metres: Δlat = m / M(φ), Δlon = m / (N(φ)·cos φ), in radians.
            "4 region from metres with M(φ) \(CoordinateFormat.fixed(WGS84.meridionalRadius(latitude: latitude) / 1000, 1)) km, "
                + "N(φ) \(CoordinateFormat.fixed(WGS84.primeVerticalRadius(latitude: latitude) / 1000, 1)) km at φ \(CoordinateFormat.fixed(latitude, 2))°:",
            "  Δlat \(deg(s.requestedSpan.latitudeDelta)), Δlon \(deg(s.requestedSpan.longitudeDelta))",
            "5 regionThatFits: zoomX \(z(s.zoomX)), zoomY \(z(s.zoomY)), the smaller holds it",
        ]
        if s.usedFallback {
            let step = s.direction == .zoomIn ? "+log2 2.5" : "−log2 3"
            let fitted = min(s.zoomX, s.zoomY)
            let why: String
            if !(s.metersBefore.longitudinal > 0) {
                why = "the east–west chord is 0 m (the view's edges meet across the world)"
            } else if fitted.isFinite {
                why =
                    "zoom \(z(fitted)) is no step \(s.direction == .zoomIn ? "in" : "out") (the chord of a wide view is short)"
            } else {
                why = "the metres give no finite region"
            }
            lines += ["6 fallback, \(why):", "  the fixed step \(step) instead"]
        }
        let clamped = !s.usedFallback && abs(min(s.zoomX, s.zoomY) - s.zoomAfter) > 1e-9
        lines.append(
            "zoom \(Formatting.zoom(s.zoomBefore)) → \(Formatting.zoom(s.zoomAfter))"
                + (clamped ? " (kept within 0–28)" : ""))
        return lines
    }
}
