import GeoCore
import MapFormats
import MapRender

/// What a GPS source has to say to the viewer (issue 49), posted by the program as it reads: the fix as
/// it stands (nil: none now), or why there is none, and the track being recorded.
public struct PositionUpdate: Equatable, Sendable {
    /// The position now; nil while the receiver has no fix. A source that went away keeps its last fix
    /// and says so in `status`.
    public var fix: GPSFix?
    /// Why there is no (fresh) fix: `no fix (3 satellites)`, `no gpsd at localhost:2947 (…)`; nil while
    /// fixes come.
    public var status: String?
    /// Lines or sentences that could not be read so far (counted, never fatal).
    public var badLines: Int
    /// The GPX file the positions are recorded to, nil when not recording; and why recording stopped.
    public var recording: String?
    public var recordingProblem: String?

    /// An update.
    public init(
        fix: GPSFix?, status: String? = nil, badLines: Int = 0, recording: String? = nil,
        recordingProblem: String? = nil
    ) {
        (self.fix, self.status, self.badLines) = (fix, status, badLines)
        (self.recording, self.recordingProblem) = (recording, recordingProblem)
    }
}

/// The live position as the viewer holds it: the last update, whether the map follows it (`F`), and
/// what the message line last said of it.
public struct LivePosition: Equatable, Sendable {
    /// The source as said (`gpsd localhost:2947`, `log.nmea`).
    public var source: String
    public var fix: GPSFix?
    public var status: String?
    public var badLines = 0
    /// True while the map keeps the position in view (`F`; a pan ends it).
    public var following = false
    /// The file being recorded to, nil when not.
    public var recording: String?
    /// The status the message line said last (said again only when it changes).
    var saidStatus: String?

    /// A source not heard from yet.
    public init(source: String) { self.source = source }

    /// The share of the view's width or height from an edge within which a followed marker makes the map
    /// recentre on it (Leaflet's `locate({setView})` recentres at once; a margin keeps the map still
    /// while the position moves about the middle).
    public static let followMargin = 0.2
    /// The zoom a followed first fix opens at, from a view wider than a city: streets and their names.
    public static let firstZoom = 16.0
}

extension ViewerState {
    /// The position's news: the marker moves, the map follows (`F`), a change of state is said once.
    mutating func showPosition(_ update: PositionUpdate) {
        guard var p = position else { return }
        let first = p.fix == nil
        p.fix = update.fix
        p.status = update.status
        p.badLines = update.badLines
        p.recording = update.recording
        if update.status != p.saidStatus {
            if let status = update.status {
                setMessage("GPS: " + status)
            } else if p.saidStatus != nil, let fix = update.fix {
                setMessage(
                    "GPS: \(fix.mode == 3 ? "3D" : "2D") fix at \(CoordinateFormat.hemispheres(fix.coordinate, decimals: 5))"
                )
            }
            p.saidStatus = update.status
        }
        if let problem = update.recordingProblem { setError(problem) }
        position = p
        guard p.following, let fix = p.fix else { return }
        if first && view.zoom < Self.streetZoom {
            // The first fix of a run that shows the world: the map opens on the street it is on.
            animation = nil
            _ = try? view.setCenter(fix.coordinate, zoomLevel: LivePosition.firstZoom)
        } else {
            keepInView(fix.coordinate)
        }
    }

    /// Recentres the map on `c` when it is within `followMargin` of the view's edge (or off it).
    mutating func keepInView(_ c: Coordinate) {
        let dot = view.dotPoint(for: c)
        let (w, h) = (view.size.widthDots, Double(view.size.rows * ViewSize.dotsPerCellY))
        let m = LivePosition.followMargin
        guard dot.x < w * m || dot.x > w * (1 - m) || dot.y < h * m || dot.y > h * (1 - m) else { return }
        animation = nil
        try? view.setCenter(c)
        followMoved = true
    }

    /// `F`: the map follows the position (recentred on it at once), or stops following.
    mutating func toggleFollow() {
        if position == nil, timeBar != nil {
            followsTrack.toggle()
            setMessage(
                followsTrack
                    ? "following a track's marker (1–9 chooses which; a pan stops it)" : "following the track off")
            followTrackMarker()
            return
        }
        guard var p = position else {
            setMessage("no position: give --gps (gpsd, an NMEA file or device; see docs/position.md)")
            return
        }
        p.following.toggle()
        position = p
        guard p.following else {
            setMessage("following the position off")
            return
        }
        guard let fix = p.fix else {
            setMessage("following the position once there is a fix" + (p.status.map { " (\($0))" } ?? ""))
            return
        }
        animation = nil
        try? view.setCenter(fix.coordinate)
        setMessage("following the position (a pan stops it; F again)")
    }

    /// A pan (a key, a drag, a click) ends following: the user has taken the map.
    mutating func stopFollowing(ifMovedFrom before: MapView) {
        guard position?.following == true || followsTrack, view.center != before.center, !followMoved else { return }
        position?.following = false
        followsTrack = false
        setMessage("following the position off (F follows again)")
    }

    /// `R`: asks the program to record the positions to a GPX track, or to stop.
    mutating func toggleRecording() -> [Effect] {
        if let refusal = recordingRefusal {
            setMessage("no recording: " + refusal)
            return []
        }
        guard let p = position else {
            setMessage("no position to record: give --gps (see docs/position.md)")
            return []
        }
        setMessage(p.recording == nil ? "recording the track…" : "recording stopped: \(p.recording ?? "")")
        return [.recordTrack(p.recording == nil)]
    }
}
