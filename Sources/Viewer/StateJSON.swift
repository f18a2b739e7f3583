import FoundationEssentials
import GeoCore
import Glibc
import MapData
import MapFormats
import MapRender

/// The state as JSON for `termmap render --json`: Foundation's encoder, keys sorted, every number
/// in full precision (the shortest text that reads back to the same Double).
public enum StateJSON {
    /// The document: center, zoom, terminal, map, region, bounds, metersPerDot, circle, lastAction,
    /// message, and the data sources as `map` (the state's render) saw them, in view order.
    public static func encode(_ state: ViewerState, map: MapRendering? = nil) throws -> String {
        var document = Document(state)
        document.files = state.userLayers.map(FileEntry.init)
        // Each timed layer's marker at the time bar's clock (the first of its tracks; all in `markers`).
        for case let m? in state.trackMarkers {
            guard document.files.indices.contains(m.track.layer) else { continue }
            let marker = FileEntry.Marker(lat: m.at.latitude, lon: m.at.longitude, time: ISOTime.text(m.time))
            if document.files[m.track.layer].marker == nil { document.files[m.track.layer].marker = marker }
            document.files[m.track.layer].markers.append(marker)
        }
        document.time = state.timeBar.map { bar in
            let span = state.timeSpan(state.playedTracks)
            return Time(
                now: ISOTime.text(bar.now),
                span: span.map { [ISOTime.text($0.lowerBound), ISOTime.text($0.upperBound)] },
                speed: bar.speed, playing: bar.playing, alignStarts: bar.alignStarts)
        }
        document.sources = map?.sources.map(Source.init) ?? []
        document.pois = map.map { POIs(named: $0.poisNamed, omitted: $0.poisOmitted) }
        document.info = InfoReport.of(state, map: map).map(Info.init)
        document.terrain = map?.sources.first { $0.kind == .terrain }.map {
            Terrain(height: map?.centerHeight?.meters, source: $0.name)
        }
        document.profile = map?.profile.map { Profile(of: $0.of, $0.profile) }
        return try text(document)
    }

    /// A value as termmap prints JSON: keys sorted, slashes as they are (`termmap route --json` too).
    public static func text(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// The height under the crosshair (the view's centre) whenever the run has terrain: metres, or null
    /// while its tile is not at hand; and the source (issue 48).
    struct Terrain: Encodable {
        var height: Double?
        var source: String

        enum Key: String, CodingKey { case height, source }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(height, forKey: .height)
            try c.encode(source, forKey: .source)
        }
    }

    /// The time bar (issue 49): its clock, the span of the tracks (ISO 8601 UTC), its speed, whether it
    /// plays, and whether the tracks are aligned by their starts.
    struct Time: Encodable {
        var now: String
        var span: [String]?
        var speed: Double
        var playing: Bool
        var alignStarts: Bool
    }

    /// The live position (issue 49): the fix's fields (null while there is none or the receiver does
    /// not say), why there is no fix, whether the map follows it and the track recorded.
    struct GPS: Encodable {
        var position: LivePosition

        init(_ position: LivePosition) { self.position = position }

        enum Key: String, CodingKey {
            case lat, lon, alt, speed, course, mode, eph, time, status, following, recording, source, badLines
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            let f = position.fix
            try c.encode(f?.latitude, forKey: .lat)
            try c.encode(f?.longitude, forKey: .lon)
            try c.encode(f?.altitude, forKey: .alt)
            try c.encode(f?.speed, forKey: .speed)
            try c.encode(f?.course, forKey: .course)
            try c.encode(f?.mode ?? 1, forKey: .mode)
            try c.encode(f?.horizontalError, forKey: .eph)
            try c.encode(f?.time, forKey: .time)
            try c.encode(position.status, forKey: .status)
            try c.encode(position.following, forKey: .following)
            try c.encode(position.recording, forKey: .recording)
            try c.encode(position.source, forKey: .source)
            try c.encode(position.badLines, forKey: .badLines)
        }
    }

    /// The elevation profile shown (the ruler's, the route's or a track's): distances and heights every
    /// 10 m (null where no height is known), the climbing and descending, the lowest and highest points
    /// and the steepest 100 m in percent (issue 48).
    struct Profile: Encodable {
        var of: String
        var meters: [Double]
        var heights: [Double?]
        var ascent: Double
        var descent: Double
        var minimum: Double?
        var maximum: Double?
        var steepestPercent: Double?

        init(of: String, _ p: ElevationProfile) {
            self.of = of
            meters = p.meters
            heights = p.heights.map { $0.isFinite ? $0 : nil }
            (ascent, descent, minimum, maximum, steepestPercent) = (
                p.ascent, p.descent, p.minimum, p.maximum, p.steepestPercent
            )
        }

        enum Key: String, CodingKey { case of, meters, heights, ascent, descent, minimum, maximum, steepestPercent }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(of, forKey: .of)
            try c.encode(meters, forKey: .meters)
            try c.encode(heights, forKey: .heights)
            try c.encode(ascent, forKey: .ascent)
            try c.encode(descent, forKey: .descent)
            try c.encode(minimum, forKey: .minimum)
            try c.encode(maximum, forKey: .maximum)
            try c.encode(steepestPercent, forKey: .steepestPercent)
        }
    }

    /// One of the user's files: its format, its features by geometry type, those left out (with the
    /// first reason), its bounds `[west, south, east, north]`, whether it is shown, and its error.
    struct FileEntry: Encodable {
        struct Skipped: Encodable {
            var count: Int
            var reason: String?
        }
        var file: String
        var format: String
        var features: [String: Int]
        var skipped: Skipped
        var bounds: [Double]?
        var visible: Bool
        var error: String?
        /// What reading changed or stopped at (`UserLayerNotes`), in words.
        var notes: [String]
        /// With the time bar open, where its timed tracks are at the clock (issue 49).
        var marker: Marker?
        var markers: [Marker] = []

        struct Marker: Encodable {
            var lat: Double
            var lon: Double
            var time: String
        }

        init(_ layer: UserDataLayer) {
            let d = layer.file.data
            file = layer.file.file
            format = layer.file.format.rawValue
            features = Dictionary(uniqueKeysWithValues: d.countsByType.map { ($0.key.name, $0.value) })
            skipped = Skipped(count: d.skipped, reason: d.firstSkipReason)
            bounds = d.bounds.map { [$0.west, $0.south, $0.east, $0.north] }
            visible = layer.visible
            error = layer.file.error
            notes = d.notes.phrases
        }

        enum Key: String, CodingKey {
            case file, format, features, skipped, bounds, visible, error, notes, marker, markers
        }

        // Written out so that a file without an error says `null`.
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(file, forKey: .file)
            try c.encode(format, forKey: .format)
            try c.encode(features, forKey: .features)
            try c.encode(skipped, forKey: .skipped)
            try c.encode(bounds, forKey: .bounds)
            try c.encode(visible, forKey: .visible)
            try c.encode(error, forKey: .error)
            try c.encode(notes, forKey: .notes)
            if !markers.isEmpty {
                try c.encode(marker, forKey: .marker)
                try c.encode(markers, forKey: .markers)
            }
        }
    }

    /// A data source: its name, where it comes from, its credit, and how its tiles of the view stand.
    struct Source: Encodable {
        var name: String
        var kind: SourceKind
        var credit: String?
        var inView: Bool
        var status: String
        var loading: Int
        var failed: Int
        var skipped: Int
        /// The level of detail it gave the view (`L2/3`, `z14`), nil when not in view.
        var detail: String?

        init(_ r: SourceReport) {
            name = r.name
            kind = r.kind
            credit = r.credits.isEmpty ? nil : r.credits.map(\.text).joined(separator: "; ")
            inView = r.inView
            status = r.status.state.rawValue
            loading = r.status.loading
            failed = r.status.failed
            skipped = r.status.skipped
            detail = r.detail.map { Renderer.detailText($0) }
        }

        enum Key: String, CodingKey { case name, kind, credit, inView, detail, status, loading, failed, skipped }

        // Written out so that a source without a credit says `null`.
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(name, forKey: .name)
            try c.encode(kind, forKey: .kind)
            try c.encode(credit, forKey: .credit)
            try c.encode(inView, forKey: .inView)
            try c.encode(detail, forKey: .detail)
            try c.encode(status, forKey: .status)
            try c.encode(loading, forKey: .loading)
            try c.encode(failed, forKey: .failed)
            try c.encode(skipped, forKey: .skipped)
        }
    }

    struct LatLon: Encodable {
        var lat: Double
        var lon: Double
        init(_ c: Coordinate) {
            lat = c.latitude
            lon = c.longitude
        }
    }

    struct Cells: Encodable {
        var cols: Int
        var rows: Int
    }

    struct MapArea: Encodable {
        var cols: Int
        var rows: Int
        var dotsPerCell = [ViewSize.dotsPerCellX, ViewSize.dotsPerCellY]
    }

    struct Span: Encodable {
        var latitudeDelta: Double
        var longitudeDelta: Double
    }

    struct Region: Encodable {
        var center: LatLon
        var span: Span
    }

    struct Bounds: Encodable {
        var north, south, west, east: Double
    }

    struct Circle: Encodable {
        var center: LatLon
        var radiusMeters: Double
        var ratio: Double
    }

    struct Action: Encodable {
        var name: ActionName
        var zoomBefore: Double
        var zoomAfter: Double
        var fallback: Bool
        /// The step's numbers (`Explanation.values`; an infinite zoom is `null`), or `null`.
        var explain: [String: ExplainValue]?

        enum Key: String, CodingKey { case name, zoomBefore, zoomAfter, fallback, explain }

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(name, forKey: .name)
            try c.encode(zoomBefore, forKey: .zoomBefore)
            try c.encode(zoomAfter, forKey: .zoomAfter)
            try c.encode(fallback, forKey: .fallback)
            try c.encode(explain, forKey: .explain)
        }
    }

    /// The geodesic ruler: its legs, total, and for a closed one the polygon's area and perimeter.
    struct RulerState: Encodable {
        struct Leg: Encodable {
            var meters: Double
            var bearing: Double
        }
        var vertices: [LatLon]
        var closed: Bool
        var legs: [Leg]
        var totalMeters: Double
        var areaSquareMeters: Double?
        var perimeterMeters: Double?
    }

    /// The what-is-here panel's content: the crosshair's place and zoom, and each feature in its cell
    /// (the topmost first) with its class, name, id (`way 23894011`, a tile feature's id, a user's
    /// feature's number in its file), vector tile layer and properties; null while the panel is closed.
    struct Info: Encodable {
        struct Feature: Encodable {
            var className: String
            var name: String?
            var id: String?
            var layer: String?
            var properties: [String: String]

            enum Key: String, CodingKey {
                case className = "class"
                case name
                case id
                case layer
                case properties
            }

            // Written out so that a feature without a name or an id says `null`.
            func encode(to encoder: Encoder) throws {
                var c = encoder.container(keyedBy: Key.self)
                try c.encode(className, forKey: .className)
                try c.encode(name, forKey: .name)
                try c.encode(id, forKey: .id)
                try c.encode(layer, forKey: .layer)
                try c.encode(properties, forKey: .properties)
            }
        }
        var lat: Double
        var lon: Double
        var zoom: Double
        var features: [Feature]
        /// A timed track's point nearest the crosshair: `track NAME: TIME · SPEED` (issue 49); only on one.
        var tracks: [String]?

        init(_ report: InfoReport) {
            tracks = report.trackPoints.isEmpty ? nil : report.trackPoints
            lat = report.coordinate.latitude
            lon = WebMercator.wrapLongitude(report.coordinate.longitude)
            zoom = report.zoom
            features = report.features.map { f in
                Feature(
                    className: f.className, name: f.name, id: f.identity?.id, layer: f.identity?.layer,
                    properties: Dictionary(
                        (f.identity?.properties ?? []).map { ($0.key, $0.value) }, uniquingKeysWith: { $1 }))
            }
        }
    }

    struct POIs: Encodable {
        var named: Int
        var omitted: Int
    }

    struct Document: Encodable {
        var center: LatLon
        var zoom: Double
        var terminal: Cells
        var map: MapArea
        var region: Region
        var bounds: Bounds
        var metersPerDot: Double
        var circle: Circle?
        var lastAction: Action?
        var message: String
        var sources: [Source] = []
        var pois: POIs?
        var files: [FileEntry] = []
        var ruler: RulerState?
        var info: Info?
        var terrain: Terrain?
        var profile: Profile?
        /// The route open (`d`): `termmap route --json`'s fields; and the reach shown (`D`).
        var route: Directions?
        var reach: Reach?
        /// The live position whenever the run has a GPS source (issue 49).
        var gps: GPS?
        /// The time bar's clock, while it is open (issue 49).
        var time: Time?

        struct Reach: Encodable {
            var profile: String
            var minutes: Double
            var lat: Double
            var lon: Double
        }

        init(_ state: ViewerState) {
            let v = state.view
            let r = v.region
            let b = v.bounds
            center = LatLon(v.center)
            zoom = v.zoom
            terminal = Cells(cols: state.terminalCols, rows: state.terminalRows)
            map = MapArea(cols: v.size.cols, rows: v.size.rows)
            region = Region(
                center: LatLon(r.center),
                span: Span(latitudeDelta: r.span.latitudeDelta, longitudeDelta: r.span.longitudeDelta))
            bounds = Bounds(north: b.north, south: b.south, west: b.west, east: b.east)
            metersPerDot = v.metersPerDot
            circle = state.circle.map {
                Circle(center: LatLon($0.circle.center), radiusMeters: $0.circle.radiusMeters, ratio: $0.ratio)
            }
            lastAction = state.lastAction.map {
                Action(
                    name: $0.name, zoomBefore: $0.zoomBefore, zoomAfter: $0.zoomAfter, fallback: $0.fallback,
                    explain: Explanation.values($0))
            }
            message = state.message
            gps = state.position.map(GPS.init)
            route = state.directions.route
            reach = state.directions.reach.map {
                Reach(
                    profile: state.directions.profile.rawValue, minutes: $0.minutes, lat: $0.center.latitude,
                    lon: $0.center.longitude)
            }
            ruler = state.ruler.map { r in
                let polygon = r.polygon
                return RulerState(
                    vertices: r.vertices.map(LatLon.init), closed: r.closed,
                    legs: r.legs.map { .init(meters: $0.meters, bearing: $0.bearing) },
                    totalMeters: r.totalMeters, areaSquareMeters: polygon?.area, perimeterMeters: polygon?.perimeter)
            }
        }

        enum Key: String, CodingKey {
            case center, zoom, terminal, map, region, bounds, metersPerDot, circle, lastAction, message, sources,
                poisInView,
                poisOmitted, files, ruler, info, route, reach, terrain, profile, gps, time
        }

        // Written out so that no circle and no last action are `null`, not missing keys.
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(center, forKey: .center)
            try c.encode(zoom, forKey: .zoom)
            try c.encode(terminal, forKey: .terminal)
            try c.encode(map, forKey: .map)
            try c.encode(region, forKey: .region)
            try c.encode(bounds, forKey: .bounds)
            try c.encode(metersPerDot, forKey: .metersPerDot)
            try c.encode(circle, forKey: .circle)
            try c.encode(lastAction, forKey: .lastAction)
            try c.encode(message, forKey: .message)
            try c.encode(sources, forKey: .sources)
            // Named points of interest in view, and how many of them have no name on screen.
            try c.encode(pois?.named ?? 0, forKey: .poisInView)
            try c.encode(pois?.omitted ?? 0, forKey: .poisOmitted)
            try c.encode(files, forKey: .files)
            try c.encode(ruler, forKey: .ruler)
            try c.encode(info, forKey: .info)
            try c.encode(route, forKey: .route)
            try c.encode(reach, forKey: .reach)
            // Only when the run has terrain (issue 48).
            try c.encodeIfPresent(terrain, forKey: .terrain)
            try c.encodeIfPresent(profile, forKey: .profile)
            // Only when the run has a GPS source (issue 49).
            try c.encodeIfPresent(gps, forKey: .gps)
            try c.encodeIfPresent(time, forKey: .time)
        }
    }
}
