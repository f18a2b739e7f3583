/// The elevation profile of a line (issue 48): heights sampled every `step` metres along its geodesic
/// legs, and what hikers ask of it: total ascent and descent, the lowest and highest points, the
/// steepest 100 m.
public struct ElevationProfile: Equatable, Sendable {
    /// Each sample's distance along the line, metres (0, 10, 20, … and the line's end).
    public let meters: [Double]
    /// Each sample's height, metres (NaN where none is known).
    public let heights: [Double]
    /// Climbing and descending summed with a hysteresis of `hysteresis` metres: a change counts once
    /// the height has moved that far from the last height counted, so that noise of a metre or two
    /// adds nothing (the dead band GPS trackers apply to barometric and DEM heights).
    public let ascent: Double, descent: Double
    /// The lowest and highest known heights.
    public let minimum: Double?, maximum: Double?
    /// The steepest grade over 100 m (`window` metres) of the line, in percent: |Δh| / 100 m.
    public let steepestPercent: Double?

    /// Samples every 10 m; the dead band 2 m; the steepest stretch 100 m.
    public static let step = 10.0, hysteresis = 2.0, window = 100.0

    /// The places to sample `line` at: every `step` metres along each geodesic leg from its start, and
    /// the line's end, with their distances along the line.
    public static func samples(along line: [Coordinate], every step: Double = step) -> [(
        meters: Double, at: Coordinate
    )] {
        guard let first = line.first else { return [] }
        var out: [(Double, Coordinate)] = [(0, first)]
        var along = 0.0
        var next = step
        for (a, b) in zip(line, line.dropFirst()) {
            let leg = Geodesic.inverse(a, b)
            guard leg.distance.isFinite, leg.distance > 0 else { continue }
            while next < along + leg.distance {
                out.append(
                    (next, Geodesic.destination(from: a, bearing: leg.initialAzimuth, distance: next - along)))
                next += step
            }
            along += leg.distance
        }
        if along > 0, out.last.map({ $0.0 < along }) ?? true { out.append((along, line[line.count - 1])) }
        return out
    }

    /// The profile of heights `heights` at distances `meters` (in order, as `samples` gives them).
    public init(meters: [Double], heights: [Double]) {
        self.meters = meters
        self.heights = heights
        var (up, down) = (0.0, 0.0)
        var counted: Double?
        for h in heights where h.isFinite {
            guard let last = counted else {
                counted = h
                continue
            }
            if h - last >= Self.hysteresis {
                up += h - last
                counted = h
            } else if last - h >= Self.hysteresis {
                down += last - h
                counted = h
            }
        }
        (ascent, descent) = (up, down)
        let known = heights.filter(\.isFinite)
        (minimum, maximum) = (known.min(), known.max())
        // Over each stretch of `window` metres between two samples (the line's last sample may be
        // nearer than a step: a stretch ending there is as long as it is).
        var steepest: Double?
        var j = 0
        for i in meters.indices where heights[i].isFinite {
            j = max(j, i)
            while j < meters.count - 1, meters[j] - meters[i] < Self.window - 1e-9 { j += 1 }
            guard meters[j] - meters[i] >= Self.window - 1e-9, heights[j].isFinite else { continue }
            let grade = abs(heights[j] - heights[i]) / (meters[j] - meters[i]) * 100
            steepest = max(steepest ?? 0, grade)
        }
        steepestPercent = steepest
    }
}
