import GeoCore
import MapFormats
import MapRender
import Raster

/// The time bar (issue 49, `T`): one clock for every timed track of the user's files, played at a
/// speed, stepped, aligned by absolute time or by each track's start (`t`).
public struct TimeBar: Equatable, Sendable {
    /// The clock: seconds since 1970 (UTC). Aligned by starts, the earliest track's time; each other
    /// track is as far into itself as that one is.
    public var now: Double
    /// Seconds of track time a second of play.
    public var speed: Double = 1
    public var playing = false
    /// Every track starts together (a race run on different days).
    public var alignStarts = false

    /// The speeds `[` and `]` step through.
    public static let speeds: [Double] = [1, 10, 60, 600]
    /// The steps ← and → take: a fiftieth of the span.
    public static let stepsAcross = 50.0

    /// A bar at `now`.
    public init(now: Double) { self.now = now }
}

/// A timed track as the bar plays it: which file it is in, and the track.
public struct PlayedTrack: Equatable, Sendable {
    public var layer: Int
    public var title: String
    public var track: TimedTrack
}

extension ViewerState {
    /// Every timed track of the visible user's files, in their order.
    public var playedTracks: [PlayedTrack] {
        userLayers.enumerated().filter { $0.element.visible }.flatMap { i, layer in
            layer.file.timedTracks.map { t in
                PlayedTrack(layer: i, title: t.name ?? layer.file.displayName, track: t)
            }
        }
    }

    /// The span the bar covers: the earliest start to the latest end (aligned by starts: the earliest
    /// start plus the longest track's length).
    public func timeSpan(_ tracks: [PlayedTrack]) -> ClosedRange<Double>? {
        guard let start = tracks.map(\.track.start).min(), let end = tracks.map(\.track.end).max() else { return nil }
        guard timeBar?.alignStarts == true else { return start...max(start, end) }
        return start...(start + (tracks.map { $0.track.end - $0.track.start }.max() ?? 0))
    }

    /// The time of `track` when the bar says `now`.
    public func trackTime(_ track: TimedTrack, now: Double, earliest: Double) -> Double {
        timeBar?.alignStarts == true ? track.start + (now - earliest) : now
    }

    /// `T`: opens the bar at the tracks' start (or says which layers have no times), or closes it.
    mutating func toggleTimeBar() {
        if timeBar != nil {
            timeBar = nil
            setMessage("time bar closed")
            return
        }
        let tracks = playedTracks
        guard let span = timeSpan(tracks) else {
            let names = userLayers.map(\.file.displayName)
            setMessage(
                names.isEmpty
                    ? "no tracks to play: open a GPX, KML, GeoJSON or CSV file with times"
                    : "no times in \(names.prefix(3).joined(separator: ", ")): nothing to play (GPX <time>, KML gx:Track)"
            )
            return
        }
        timeBar = TimeBar(now: span.lowerBound)
        let layers = Set(tracks.map(\.layer)).sorted().map { userLayers[$0].file.displayName }
        let untimed = userLayers.map(\.file.displayName).filter { !layers.contains($0) }
        // What was said of the times (sorted, not matching their line) comes first: said once, here.
        let notes = userLayers.flatMap { l in l.file.timeNotes.map { "\(l.file.displayName): \($0)" } }
        setMessage(
            notes.map { $0 + "; " }.joined()
                + "\(tracks.count) track\(tracks.count == 1 ? " plays" : "s play"): \(layers.prefix(3).joined(separator: ", "))"
                + (untimed.isEmpty ? "" : "; no times in \(untimed.prefix(2).joined(separator: ", "))")
                + "  (Space plays, ←→ step, [ ] speed, t aligns starts)")
    }

    /// The bar's keys while it is open: true when `key` was one of them.
    mutating func timeBarKey(_ key: Key) -> Bool {
        guard var bar = timeBar, let span = timeSpan(playedTracks) else { return false }
        let step = max(1, (span.upperBound - span.lowerBound) / TimeBar.stepsAcross)
        switch key {
        case .left: bar.now = max(span.lowerBound, bar.now - step)
        case .right: bar.now = min(span.upperBound, bar.now + step)
        case .char(" "):
            if !bar.playing && bar.now >= span.upperBound { bar.now = span.lowerBound }
            bar.playing.toggle()
        case .char("["): bar.speed = TimeBar.speeds.last { $0 < bar.speed } ?? bar.speed
        case .char("]"): bar.speed = TimeBar.speeds.first { $0 > bar.speed } ?? bar.speed
        case .char("t"):
            bar.alignStarts.toggle()
            setMessage(bar.alignStarts ? "tracks aligned by their starts" : "tracks on one clock (absolute time)")
        case .escape:
            timeBar = nil
            return true
        case .char(let c) where c.wholeNumberValue.map { (1...min(9, playedTracks.count)).contains($0) } == true:
            // A track's number: the map follows its marker.
            followedTrack = (c.wholeNumberValue ?? 1) - 1
            followsTrack = true
            setMessage("following \(playedTracks[followedTrack].title) (a pan stops it)")
        default: return false
        }
        timeBar = bar
        followTrackMarker()
        return true
    }

    /// Time passes while playing: the clock moves at its speed and stops at the span's end.
    mutating func advanceClock(_ seconds: Double) {
        guard var bar = timeBar, bar.playing, seconds.isFinite, seconds > 0, let span = timeSpan(playedTracks) else {
            return
        }
        bar.now = min(span.upperBound, bar.now + seconds * bar.speed)
        if bar.now >= span.upperBound { bar.playing = false }
        timeBar = bar
        followTrackMarker()
    }

    /// Opens the bar at `time` (`render --at`); false when no track has times.
    public mutating func openTimeBar(at time: Double) -> Bool {
        if timeBar == nil { toggleTimeBar() }
        guard timeBar != nil else { return false }
        timeBar?.now = time
        followTrackMarker()
        return true
    }

    /// Steps the clock by a step of the bar (`<time-forward>`, `<time-back>` in scripts), opening it.
    mutating func stepClock(_ direction: Double) {
        if timeBar == nil { toggleTimeBar() }
        _ = timeBarKey(direction > 0 ? .right : .left)
    }

    /// The markers at the clock's time: each played track's position and time (nil before it starts).
    public var trackMarkers: [(track: PlayedTrack, at: Coordinate, time: Double)?] {
        guard let bar = timeBar else { return [] }
        let tracks = playedTracks
        let earliest = tracks.map(\.track.start).min() ?? bar.now
        return tracks.map { p in
            let t = trackTime(p.track, now: bar.now, earliest: earliest)
            return p.track.position(at: t).map { (p, $0, min(t, p.track.end)) }
        }
    }

    /// Following (`F` with the bar open, or a track's number): that track's marker is kept in view.
    mutating func followTrackMarker() {
        let markers = trackMarkers
        guard followsTrack, markers.indices.contains(followedTrack), let marker = markers[followedTrack] else { return }
        keepInView(marker.at)
    }
}

extension ViewerState {
    /// The layer of the tracks' parts done at the clock, and their markers.
    var timeTracksLayer: TimeTracksLayer {
        TimeTracksLayer(
            done: trackMarkers.compactMap { m in
                m.map { m in
                    let look = userLayers.indices.contains(m.track.layer) ? userLayers[m.track.layer].look : 0
                    return (look, Array(m.track.track.coordinates.prefix(m.track.track.doneCount(at: m.time))) + [m.at])
                }
            })
    }
}

extension Renderer {
    /// The time bar: one row over the map's last, `▶ 10× 10:15:23 ━━━━●──── 10:45:00 · 2 tracks`.
    static func drawTimeBar(_ frame: inout Frame, _ state: ViewerState, mapRows: Int, style: MapStyle) {
        guard let bar = state.timeBar, mapRows >= 2 else { return }
        let tracks = state.playedTracks
        guard let span = state.timeSpan(tracks) else { return }
        let clock = { (t: Double) -> String in String(ISOTime.text(t).dropFirst(11).prefix(8)) }
        let speed = bar.speed == bar.speed.rounded() ? "\(Int(bar.speed))" : "\(bar.speed)"
        let head =
            "\(bar.playing ? (style.ascii ? ">" : "▶") : (style.ascii ? "||" : "‖")) \(speed)× \(clock(bar.now)) "
        let tail =
            " \(clock(span.upperBound)) · \(tracks.count) track\(tracks.count == 1 ? "" : "s")"
            + (bar.alignStarts ? " · from their starts" : "")
        let width = max(4, frame.cols - head.count - tail.count)
        let length = span.upperBound - span.lowerBound
        let at = length > 0 ? Int(((bar.now - span.lowerBound) / length * Double(width - 1)).rounded()) : 0
        let slider = (0..<width).map { i -> String in
            i == at ? (style.ascii ? "o" : "●") : i < at ? (style.ascii ? "=" : "━") : (style.ascii ? "-" : "─")
        }.joined()
        let row = mapRows - 1
        frame.write(
            String(repeating: " ", count: frame.cols), col: 0, row: row,
            style: StyleTable.style(.status, mode: style.mode, theme: style.theme), keepBackground: false)
        frame.write(
            head + slider + tail, col: 0, row: row,
            style: StyleTable.style(.status, mode: style.mode, theme: style.theme),
            keepBackground: false)
    }
}
