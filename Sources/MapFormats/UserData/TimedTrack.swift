import GeoCore

/// A track with a time at each vertex (issue 49), played on the time bar: a line of the user's file
/// whose times the file gives (GPX `<time>` of each point, KML `gx:Track` `<when>`s, GeoJSON
/// `coordinateProperties.times` as togeojson writes it, or `times`), or the layer's points that have a
/// `time` (CSV rows, live lines, GeoJSON points) in time order.
public struct TimedTrack: Equatable, Sendable {
    /// The line's feature in its layer; nil for the layer's timed points.
    public var feature: Int?
    /// Its name, if it has one.
    public var name: String?
    /// Seconds since 1970 (UTC), never decreasing.
    public var times: [Double]
    public var coordinates: [Coordinate]

    /// A track of `coordinates` at `times` (never decreasing).
    public init(feature: Int?, name: String?, times: [Double], coordinates: [Coordinate]) {
        (self.feature, self.name, self.times, self.coordinates) = (feature, name, times, coordinates)
    }

    /// When it starts and ends.
    public var start: Double { times.first ?? 0 }
    public var end: Double { times.last ?? 0 }

    /// How many vertices are done at `t` (their time is at or before it).
    public func doneCount(at t: Double) -> Int {
        var (lo, hi) = (0, times.count)
        while lo < hi {
            let mid = (lo + hi) / 2
            if times[mid] <= t { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Where it is at `t`: between the vertices around `t`, along the geodesic between them at the share
    /// of their time gone by (WGS 84, Karney's geodesics through PROJ; straight in degrees where PROJ
    /// is missing); its end after it ends; nil before it starts.
    public func position(at t: Double) -> Coordinate? {
        guard let first = times.first, t >= first, let last = coordinates.last else { return nil }
        let i = doneCount(at: t)
        guard i < times.count else { return last }
        let (a, b) = (coordinates[i - 1], coordinates[i])
        let span = times[i] - times[i - 1]
        let share = span > 0 ? (t - times[i - 1]) / span : 0
        let g = Geodesic.inverse(a, b)
        if g.distance.isFinite, g.initialAzimuth.isFinite {
            return g.distance == 0
                ? a : Geodesic.destination(from: a, bearing: g.initialAzimuth, distance: g.distance * share)
        }
        return Coordinate(
            latitude: a.latitude + (b.latitude - a.latitude) * share,
            longitude: a.longitude + (b.longitude - a.longitude) * share)
    }
}

/// The timed tracks of a user's layer, and what was said about them.
public enum TimedTracks {
    /// Property names that give a point its time.
    static let pointTimeKeys = ["time", "timestamp", "datetime"]

    /// The layer's tracks: each line with a time for every vertex, then its timed points as one track;
    /// and lines to say once (times going backwards, sorted; times that do not match the vertices).
    public static func of(_ data: UserLayerData) -> (tracks: [TimedTrack], notes: [String]) {
        let lineKeys = ["when", "coordinateProperties", "times"].filter { data.columns.contains($0) }
        let pointKey = pointTimeKeys.first { data.columns.contains($0) }
        guard !lineKeys.isEmpty || pointKey != nil else { return ([], []) }
        var tracks: [TimedTrack] = []
        var notes: [String] = []
        var points: [(Double, Coordinate)] = []
        for f in 0..<data.count {
            let range = data.points(of: f)
            if range.count == 1 {
                if let key = pointKey, let t = data.property(key, of: f).flatMap(ISOTime.seconds) {
                    points.append((t, coordinate(data, range.lowerBound)))
                }
                continue
            }
            guard
                let times = lineKeys.lazy.compactMap({ key in data.property(key, of: f).flatMap { times(key, $0) } })
                    .first
            else { continue }
            let name = data.name(of: f)
            guard times.count == range.count, times.allSatisfy({ $0 != nil }) else {
                notes.append(
                    "\(name ?? "line \(f + 1)"): \(times.count) times for \(range.count) points; not played")
                continue
            }
            var pairs = zip(times.compactMap { $0 }, range.map { coordinate(data, $0) }).map { ($0, $1) }
            if sortIfBackwards(&pairs) { notes.append("\(name ?? "line \(f + 1)"): times going backwards; sorted") }
            tracks.append(TimedTrack(feature: f, name: name, times: pairs.map(\.0), coordinates: pairs.map(\.1)))
        }
        if points.count >= 2 {
            if sortIfBackwards(&points) { notes.append("its points' times go backwards; sorted") }
            tracks.append(TimedTrack(feature: nil, name: nil, times: points.map(\.0), coordinates: points.map(\.1)))
        }
        return (tracks, notes)
    }

    /// Sorts by time (stable) when a time is earlier than the one before; true when it did.
    static func sortIfBackwards(_ pairs: inout [(Double, Coordinate)]) -> Bool {
        guard zip(pairs, pairs.dropFirst()).contains(where: { $0.0 > $1.0 }) else { return false }
        pairs = pairs.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.map(\.element)
        return true
    }

    static func coordinate(_ data: UserLayerData, _ i: Int) -> Coordinate {
        WebMercator.unproject(MercatorPoint(x: data.x[i], y: data.y[i]))
    }

    /// The times a property gives: `when` (space-separated, KML's and GPX's here), `times` (a JSON
    /// array), `coordinateProperties` (a JSON object whose `times` is an array, or an array of arrays for
    /// several lines); nil when it gives none. A time that does not read is nil in its place.
    static func times(_ key: String, _ text: String) -> [Double?]? {
        if key == "when" { return text.split(separator: " ").map { ISOTime.seconds($0) } }
        var tree = Array(text.utf8).withUnsafeBufferPointer { b -> JSONTree? in
            var scanner = JSONScanner(b)
            return try? scanner.value()
        }
        if key == "coordinateProperties" { tree = tree?["times"] }
        guard case .array(let items)? = tree else { return nil }
        let flat = items.flatMap { item -> [JSONTree] in
            if case .array(let inner) = item { return inner }
            return [item]
        }
        return flat.map { item in
            switch item {
            case .string(let s): return ISOTime.seconds(s)
            // Epoch milliseconds, as some trackers write them.
            case .number(let ms, _) where ms.isFinite: return ms / 1000
            default: return nil
            }
        }
    }
}
