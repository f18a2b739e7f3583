/// GPX's driver: XML whose root is `gpx` (any prefix) or names Topografix's namespace; `.gpx`.
public struct GPXDriver: FormatDriver {
    public let format = UserDataFormat.gpx
    public let title = "GPX"
    public let extensions = ["gpx"]
    public init() {}
    public func claims(content head: ArraySlice<UInt8>, extension ext: String) -> Bool {
        head.first == UInt8(ascii: "<") && UserDataReader.xmlFormat(Array(head.prefix(65_536))) == .gpx
    }
    public func read(_ bytes: UnsafeBufferPointer<UInt8>, file: String, progress: ReadProgress?) throws(MapDataError)
        -> UserLayerData
    { try GPXReader.read(bytes, file: file, progress: progress) }
    public let fuzzSample = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><wpt lat="60.17" lon="24.94"><name>Torni</name>\
        <ele>12.5</ele></wpt><trk><name>walk &amp; run</name><trkseg><trkpt lat=" 60.1" lon="24.9"><time>2026-01-01T00:00:00Z\
        </time></trkpt><trkpt lat="60.2" lon="025.0"/></trkseg></trk><rte><rtept lat="1" lon="2"/></rte></gpx>
        """
    public let fuzzTokens = ["<", ">", "</", "&", "<!ENTITY a \"x\">", "\"", "=", "\r\n", "\0"]
}

/// Reads GPX 1.0 and 1.1 (topografix.com/GPX/1/1): waypoints as points, each track as one feature of
/// its segments' lines, each route as a line followed by its named points (`rtept` with a `name`: a
/// route's stops, as gpxpy reads them); names, descriptions, types, first times and elevations as
/// properties.
public enum GPXReader: BufferReader {
    /// The layer of `bytes`, the contents of `file`.
    public static func read(_ bytes: UnsafeBufferPointer<UInt8>, file: String, progress: ReadProgress? = nil)
        throws(MapDataError) -> UserLayerData
    {
        // A legacy file with no encoding declared is read as Windows-1252 (expat reads a declared one).
        return try Windows1252.readingLegacyText(bytes) { b throws(MapDataError) in
            let handler = Handler()
            try XMLEvents.read(b, file: file, handler: handler, progress: progress)
            return handler.builder.finished()
        }
    }

    /// What the callbacks of one parse build (touched by them alone, one at a time: no access overlaps
    /// another, so none is checked at run time, as `XMLEvents`' own state).
    final class Handler: XMLHandler {
        @exclusivity(unchecked) var builder = UserLayerBuilder()
        /// The feature being read: `wpt`, `trk` or `rte`, and its depth.
        @exclusivity(unchecked) var feature: String?
        @exclusivity(unchecked) var properties: [(String, String?)] = []
        @exclusivity(unchecked) var segments: [[(Double, Double)]] = []
        @exclusivity(unchecked) var points: [(Double, Double)] = []
        @exclusivity(unchecked) var bad: String?
        @exclusivity(unchecked) var path: [String] = []
        @exclusivity(unchecked) var firstTime: String?
        /// A track's points' times, in order (nil: a point without one): kept as `when` when every
        /// point has one (issue 49: the track is played in time).
        @exclusivity(unchecked) var pointTimes: [String?] = []
        @exclusivity(unchecked) var elevations: [Double] = []
        /// The route's named points so far, and the one being read (its text elements, its elevation, and
        /// how many points there were before it: a point without numbers adds none).
        @exclusivity(unchecked) var routeStops: [(point: (Double, Double), properties: [(String, String?)])] = []
        @exclusivity(unchecked) var stop: (properties: [(String, String?)], ele: Double?, before: Int) = ([], nil, 0)

        /// A feature's text elements (`name`, `desc`, `cmt`, `type`, `sym`, `ele`, `time`); of its times
        /// only the first, which is all it keeps.
        func collectsText(_ name: String) -> Bool {
            guard feature != nil else { return false }
            switch name {
            case "ele", "name", "desc", "cmt", "type", "sym": return true
            case "time": return firstTime == nil || feature == "trk"
            default: return false
            }
        }

        func start(_ name: String, attributes: XMLAttributes) {
            path.append(name)
            // (The most frequent elements first: a switch on strings compares them in order.)
            switch name {
            case "trkpt":
                let before = points.count
                point(attributes)
                if points.count > before { pointTimes.append(nil) }
            case "rtept":
                stop = ([], nil, points.count)
                point(attributes)
            case "wpt", "trk", "rte":
                guard feature == nil else { break }
                feature = name
                properties = []
                segments = []
                points = []
                bad = nil
                firstTime = nil
                pointTimes = []
                elevations = []
                routeStops = []
                if name == "wpt" { point(attributes) }
            case "trkseg": points = []
            default: break
            }
        }

        func point(_ a: XMLAttributes) {
            guard let lat = a.number("lat"), let lon = a.number("lon"), lat.isFinite, lon.isFinite else {
                bad = bad ?? "a point without numbers in lat and lon"
                return
            }
            points.append((lon, lat))
        }

        func end(_ name: String, text: String) {
            defer { path.removeLast() }
            guard let feature else { return }
            let parent = path.count >= 2 ? path[path.count - 2] : ""
            switch name {
            case "trkpt": break
            case "rtept":
                // A named stop of a route (a point the route had numbers for) is a point of its own.
                if feature == "rte", points.count > stop.before, let p = points.last,
                    stop.properties.contains(where: { $0.0 == "name" && $0.1?.isEmpty == false })
                {
                    var properties = stop.properties
                    if let e = stop.ele { properties.append(("ele", "\(e)")) }
                    routeStops.append((p, properties))
                }
            case "ele":
                if let e = XMLText.number(text) {
                    elevations.append(e)
                    if parent == "rtept" { stop.ele = e }
                }
            case "time":
                if firstTime == nil { firstTime = XMLText.trimmed(text) }
                if parent == "trkpt", !pointTimes.isEmpty { pointTimes[pointTimes.count - 1] = XMLText.trimmed(text) }
            case "name", "desc", "cmt", "type", "sym":
                if parent == feature {
                    properties.append((name, XMLText.trimmed(text)))
                } else if parent == "rtept" {
                    stop.properties.append((name, XMLText.trimmed(text)))
                }
            case "trkseg":
                segments.append(points)
                points = []
            case feature where path.count >= 1:
                finish(name)
            default: break
            }
        }

        func finish(_ name: String) {
            if name == "rte" { segments = [points] }
            if let bad { builder.reject(bad) }
            switch name {
            case "wpt":
                if let p = points.first { builder.addPiece(.point, rings: [[p]]) }
                if let e = elevations.first { properties.append(("ele", "\(e)")) }
            default:
                for s in segments where !s.isEmpty {
                    builder.addPiece(s.count == 1 ? .point : .lineString, rings: [s])
                }
                if let e = elevations.min(), let top = elevations.max() {
                    properties.append(("ele_min", "\(e)"))
                    properties.append(("ele_max", "\(top)"))
                }
                if segments.allSatisfy(\.isEmpty) {
                    builder.reject(name == "trk" ? "a track without points" : "a route without points")
                }
            }
            if let firstTime { properties.append(("time", firstTime)) }
            if name == "trk", !pointTimes.isEmpty, pointTimes.allSatisfy({ $0 != nil }),
                pointTimes.count == segments.reduce(0, { $0 + $1.count })
            {
                properties.append(("when", pointTimes.compactMap { $0 }.joined(separator: " ")))
            }
            properties.append(("gpx", name))
            let label = properties.first { $0.0 == "name" }?.1
            builder.endFeature(id: nil, name: label.flatMap { $0.isEmpty ? nil : $0 }, properties: properties)
            for s in routeStops {
                builder.addPiece(.point, rings: [[s.point]])
                let name = s.properties.first { $0.0 == "name" }?.1
                builder.endFeature(id: nil, name: name, properties: s.properties + [("gpx", "rtept")])
            }
            routeStops = []
            feature = nil
        }
    }
}
