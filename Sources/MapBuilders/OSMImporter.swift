import FoundationEssentials
import GeoCore
import Glibc
import MapData
import MapFormats

/// What an import found, for the command's report.
public struct OSMImportReport: Sendable {
    /// Objects in the file.
    public var nodes = 0, ways = 0, relations = 0
    /// Way node references to nodes the file does not hold (clipped extracts); lines split there.
    public var missingReferences = 0
    /// Features written per class.
    public var features: [FeatureClass: Int] = [:]
    /// Places (suburbs, neighbourhoods) written.
    public var places = 0
    /// Areas left out because a ring could not be closed (clipped at the extract's edge).
    public var openRings = 0
    /// The sea made from the coastline: its rings, and coastline ends too far inside the box to be taken
    /// to it (then no sea is made, and the world's coast tells land from sea there).
    public var seaRings = 0, coastEndsInside = 0
    /// The street network kept for routing: junctions, edges, and turn restrictions kept and dropped
    /// (a way or node outside the extract, a via way).
    public var junctions = 0, edges = 0, restrictions = 0, droppedRestrictions = 0
}

/// Turns an OpenStreetMap extract into map contents: classes from tags (an OpenMapTiles-like schema),
/// lines split where the extract lacks their nodes, closed ways and multipolygon relations as areas,
/// street names, and suburb and neighbourhood names as places.
public enum OSMImporter {
    /// The attribution OpenStreetMap data carries (ODbL).
    public static let attribution = Credit.openStreetMap.text

    /// The contents of the PBF `bytes` (`name` for messages; `source` is recorded in the file); each
    /// class is kept from the zoom `classMinZoom` gives (the viewer's zoom ladder).
    public static func contents(
        pbf bytes: [UInt8], name: String, source: String, classMinZoom: @escaping @Sendable (FeatureClass) -> Double
    ) throws(MapDataError) -> (MapContents, OSMImportReport) {
        try contents(pbf: Data(bytes), name: name, source: source, classMinZoom: classMinZoom)
    }

    /// The contents of a PBF file's data (memory-mapped by the caller for big extracts).
    public static func contents(
        pbf data: Data, name: String, source: String, classMinZoom: @escaping @Sendable (FeatureClass) -> Double
    ) throws(MapDataError) -> (MapContents, OSMImportReport) {
        var collector = Collector()
        try PBFReader.read(data, name: name, into: &collector)
        var report = OSMImportReport()
        report.nodes = collector.nodeCount
        report.ways = collector.ways.count
        report.relations = collector.relationCount
        let nodes = collector.sortedNodes()
        let waysByID = Dictionary(collector.ways.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        // Multipolygons first: a closed way of the same class that a relation's ring is made of is drawn by
        // the relation (osm-testdata 926: an inner way tagged like its relation is a hole, not an area).
        let (relationAreas, drawnByRelation) = multipolygons(collector, waysByID: waysByID, nodes: nodes, &report)
        var (features, coastline) = wayFeatures(collector, nodes: nodes, drawnByRelation: drawnByRelation, &report)
        features += relationAreas
        features += pointsOfInterest(collector, waysByID: waysByID, nodes: nodes)
        let squares = squarePlaces(collector, waysByID: waysByID, nodes: nodes)
        report.places = collector.places.count
        let (coverage, unclaimed) = landAndSea(collector.header, coastline: coastline, into: &features, &report)
        for f in features { report.features[f.featureClass, default: 0] += 1 }
        var contents = MapContents(
            features: features, places: collector.places, levels: LevelSpec.fromZooms(zoomLevels),
            unitsPerDegree: MapAssetFormat.unitsPerDegreeOSM, coverage: coverage,
            metadata: metadata(collector.header, source: source, unclaimed: unclaimed), classMinZoom: classMinZoom)
        contents.extraNames = squares
        contents.keepsExtras = true
        contents.network = network(collector, nodes: nodes, &report)
        return (contents, report)
    }

    /// The routable ways as a graph (issue 46); nil when the extract has none.
    static func network(_ collector: Collector, nodes: NodeStore, _ report: inout OSMImportReport) -> RoadNetwork? {
        guard !collector.routable.isEmpty else { return nil }
        let use = NetworkBuilder.nodeUse(collector.routable.map { collector.ways[$0.index].refs })
        var builder = NetworkBuilder()
        for r in collector.routable {
            let way = collector.ways[r.index]
            let positions: [Coordinate?] = way.refs.indices.map { i in
                if let loc = way.locations, i < loc.count { return loc[i] }
                return nodes.coordinate(way.refs[i])
            }
            builder.add(r, osmID: way.id, name: way.name, refs: way.refs, positions: positions, use: use)
        }
        builder.add(collector.restrictions)
        (report.junctions, report.edges) = (builder.network.nodeCount, builder.network.edgeCount)
        (report.restrictions, report.droppedRestrictions) =
            (builder.network.restrictions.count, builder.droppedRestrictions)
        return builder.network
    }

    /// The multipolygon relations' areas, and the ways their rings are made of (each with its class).
    static func multipolygons(
        _ collector: Collector, waysByID: [Int64: Way], nodes: NodeStore, _ report: inout OSMImportReport
    ) -> ([SourceFeature], Set<WayOfClass>) {
        var relationAreas: [SourceFeature] = []
        var drawnByRelation: Set<WayOfClass> = []
        for mp in collector.multipolygons {
            let members = mp.members.compactMap { waysByID[$0] }
            // Files with locations on ways hold no node store: the ways' own locations place the rings.
            var located: [Int64: Coordinate] = [:]
            for way in members {
                guard let locations = way.locations else { continue }
                for (ref, c) in zip(way.refs, locations) { if let c { located[ref] = c } }
            }
            // Rings from every member way whatever its role says (roles are often wrong: osm-testdata
            // 900–905); which ring is outer and which a hole follows from containment, as libosmium decides.
            let (closed, open) = Rings.assemble(members.map { (id: $0.id, refs: $0.refs) })
            report.openRings += open
            var rings: [[Coordinate]] = []
            for ring in closed {
                let points = ring.refs.compactMap { located[$0] ?? nodes.coordinate($0) }
                guard points.count == ring.refs.count else {
                    report.openRings += 1
                    continue
                }
                rings.append(points)
                for id in ring.ways { drawnByRelation.insert(WayOfClass(id: id, featureClass: mp.featureClass)) }
            }
            if !rings.isEmpty {
                relationAreas.append(
                    SourceFeature(
                        mp.featureClass, parts: Rings.nested(rings), name: mp.name, osm: OSMReference(.relation, mp.id),
                        tags: mp.tags))
            }
        }
        return (relationAreas, drawnByRelation)
    }

    /// Ways with a class of their own (an area not already drawn by its relation), and the coastline's
    /// pieces.
    static func wayFeatures(
        _ collector: Collector, nodes: NodeStore, drawnByRelation: Set<WayOfClass>, _ report: inout OSMImportReport
    ) -> ([SourceFeature], [[Coordinate]]) {
        var features: [SourceFeature] = []
        var coastline: [[Coordinate]] = []
        for way in collector.ways {
            guard let featureClass = way.featureClass else { continue }
            let located = locate(way, nodes: nodes, report: &report)
            if featureClass.isArea {
                guard !drawnByRelation.contains(WayOfClass(id: way.id, featureClass: featureClass)) else { continue }
                guard way.refs.count >= 4, way.refs.first == way.refs.last, located.count == 1,
                    located[0].count == way.refs.count
                else {
                    report.openRings += 1
                    continue
                }
                features.append(
                    SourceFeature(
                        featureClass, parts: located, name: way.name, osm: OSMReference(.way, way.id), tags: way.tags))
            } else {
                for part in located {
                    features.append(
                        SourceFeature(
                            featureClass, parts: [part], name: way.name, osm: OSMReference(.way, way.id),
                            detail: way.widthDecimetres,
                            tags: way.tags))
                }
                if featureClass == .coastline { coastline += located }
            }
        }
        return (features, coastline)
    }

    /// Points of interest: nodes, and areas at a point amid their ring.
    static func pointsOfInterest(_ collector: Collector, waysByID: [Int64: Way], nodes: NodeStore) -> [SourceFeature] {
        var features: [SourceFeature] = []
        var uncountedPOI = OSMImportReport()  // a point of interest's ways were counted once already
        for poi in collector.pois { features.append(poi) }
        for (way, kind, name, tags) in collector.poiWays {
            guard let wayData = waysByID[way] else { continue }
            let ring = locate(wayData, nodes: nodes, report: &uncountedPOI).first ?? []
            guard ring.count >= 3 else { continue }
            let points = ring.dropLast(ring.first == ring.last ? 1 : 0)
            let lat = points.map(\.latitude).reduce(0, +) / Double(points.count)
            let lon = points.map(\.longitude).reduce(0, +) / Double(points.count)
            features.append(
                SourceFeature(
                    .poi, parts: [[Coordinate(latitude: lat, longitude: lon)]], name: name,
                    osm: OSMReference(.way, way),
                    detail: UInt32(kind.rawValue), tags: tags))
        }
        return features
    }

    /// Squares: a point amid their nodes, for search.
    static func squarePlaces(_ collector: Collector, waysByID: [Int64: Way], nodes: NodeStore) -> [NamedPlace] {
        var squares = collector.squareNodes
        var uncounted = OSMImportReport()  // the squares' ways were counted once already
        for square in collector.squareWays {
            var lat = 0.0
            var lon = 0.0
            var n = 0.0
            for id in square.ways {
                guard let way = waysByID[id] else { continue }
                for part in locate(way, nodes: nodes, report: &uncounted) {
                    for c in part.dropLast(part.first == part.last ? 1 : 0) {
                        (lat, lon, n) = (lat + c.latitude, lon + c.longitude, n + 1)
                    }
                }
            }
            if n > 0 {
                squares.append(
                    NamedPlace(
                        name: square.name, coordinate: Coordinate(latitude: lat / n, longitude: lon / n), kind: .square)
                )
            }
        }
        return squares
    }

    /// The file's box and, within it, the land (the box) and the sea made from the coastline; around a
    /// coastline piece it cannot use, the file claims nothing (the world's coast then decides there).
    static func landAndSea(
        _ header: OSMHeader?, coastline: [[Coordinate]], into features: inout [SourceFeature],
        _ report: inout OSMImportReport
    ) -> (CoordinateBounds?, [CoordinateBounds]) {
        var coverage: CoordinateBounds?
        if let b = header?.bbox, b.left < b.right, b.bottom < b.top {
            coverage = CoordinateBounds(
                north: Double(b.top) / 1e9, south: Double(b.bottom) / 1e9, west: Double(b.left) / 1e9,
                east: Double(b.right) / 1e9)
        }
        var unclaimed: [CoordinateBounds] = []
        if let box = coverage {
            // The land is the box, the sea is made from the coastline; around a coastline piece it cannot
            // use, the file claims nothing (the world's coast then decides there).
            let sea = CoastlineSea.sea(lines: coastline, box: box)
            report.coastEndsInside = sea.endsInside
            report.seaRings = sea.rings.count
            unclaimed = sea.unknown
            // The unknown boxes are holes in the land (even–odd).
            let holes = sea.unknown.map { CoastlineSea.boxRing($0) }
            features.append(SourceFeature(.land, parts: [CoastlineSea.boxRing(box)] + holes, name: nil))
            if !sea.rings.isEmpty { features.append(SourceFeature(.sea, parts: sea.rings, name: nil)) }
        }
        return (coverage, unclaimed)
    }

    /// The import's metadata: its source, credit and licence, the extract's time and writer, and the
    /// boxes it leaves to the world's coast.
    static func metadata(_ header: OSMHeader?, source: String, unclaimed: [CoordinateBounds]) -> [(String, String)] {
        var metadata = [("source", source), ("attribution", attribution), ("licence", "ODbL 1.0")]
        if let t = header?.replicationTimestamp { metadata.append(("timestamp", String(t))) }
        if let p = header?.writingProgram { metadata.append(("writer", p)) }
        if !unclaimed.isEmpty {
            // west,south,east,north boxes joined by `;` (FORMAT.md, metadata).
            metadata.append(
                ("unclaimed", unclaimed.map { "\($0.west),\($0.south),\($0.east),\($0.north)" }.joined(separator: ";")))
        }
        return metadata
    }

    /// The zooms at which OSM data changes level of detail (`MapAssetFormat.osmZoomLevels`).
    public static let zoomLevels = MapAssetFormat.osmZoomLevels

    /// A way's node coordinates, split into parts where nodes are missing (each part at least two points).
    static func locate(_ way: Way, nodes: NodeStore, report: inout OSMImportReport) -> [[Coordinate]] {
        var parts: [[Coordinate]] = []
        var current: [Coordinate] = []
        for (i, ref) in way.refs.enumerated() {
            let c: Coordinate?
            if let loc = way.locations, i < loc.count {
                c = loc[i]  // nil where the file's location is libosmium's "undefined" (a node it lacked)
            } else {
                c = nodes.coordinate(ref)
            }
            guard let point = c else {
                report.missingReferences += 1
                if current.count >= 2 { parts.append(current) }
                current = []
                continue
            }
            current.append(point)
        }
        if current.count >= 2 { parts.append(current) }
        return parts
    }

    /// A way kept for the import: its nodes (and their locations when the file has them, nil for a node
    /// the writer lacked), class and name.
    struct Way {
        var id: Int64
        var refs: [Int64]
        var locations: [Coordinate?]?
        var featureClass: FeatureClass?
        var name: String?
        /// Its kept tags (`Classification.keptTags`).
        var tags: String = ""
        /// A road's width from its `width` or `lanes` tag, in decimetres (0: the class's).
        var widthDecimetres: UInt32 = 0
    }

    /// A multipolygon relation with a class and its member ways (their roles are not trusted).
    struct Multipolygon {
        var id: Int64
        var featureClass: FeatureClass
        var name: String?
        var members: [Int64]
        var tags: String
    }

    /// A way that a relation of this class draws.
    struct WayOfClass: Hashable {
        var id: Int64
        var featureClass: FeatureClass
    }

    /// Node positions sorted by id, 16 bytes a node, looked up by binary search.
    struct NodeStore {
        var ids: [Int64]
        var lat: [Int32]
        var lon: [Int32]

        func coordinate(_ id: Int64) -> Coordinate? {
            var lo = 0
            var hi = ids.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if ids[mid] < id { lo = mid + 1 } else { hi = mid }
            }
            guard lo < ids.count, ids[lo] == id else { return nil }
            return Coordinate(latitude: Double(lat[lo]) * 1e-7, longitude: Double(lon[lo]) * 1e-7)
        }
    }

    /// Collects what the import needs while the file is read.
    struct Collector: OSMHandler {
        var header: OSMHeader?
        var nodeIDs: [Int64] = []
        var nodeLat: [Int32] = []
        var nodeLon: [Int32] = []
        var sorted = true
        var ways: [Way] = []
        var multipolygons: [Multipolygon] = []
        var places: [City] = []
        var relationCount = 0
        /// Named squares (`place=square`, pedestrian areas): search finds them, though nothing draws them.
        var squareNodes: [NamedPlace] = []
        var squareWays: [(name: String, ways: [Int64])] = []
        /// Points of interest: nodes, and closed ways to be placed amid their ring.
        var pois: [SourceFeature] = []
        var poiWays: [(way: Int64, kind: NameKind, name: String?, tags: String)] = []
        /// The ways some route profile may use, and the turn restrictions.
        var routable: [NetworkBuilder.RoutableWay] = []
        var restrictions: [NetworkBuilder.Restriction] = []

        /// True for the tags of a square people look for by name (Kauppatori, Senaatintori).
        static func isSquare(_ tags: [String: String]) -> Bool {
            tags["place"] == "square"
                || (tags["highway"] == "pedestrian" && (tags["area"] == "yes" || tags["type"] == "multipolygon"))
        }

        /// True when ways carry their nodes' locations (`osmium add-locations-to-ways`): no node store then.
        var locationsOnWays = false
        /// Nodes read (stored or not).
        var nodeCount = 0

        mutating func header(_ h: OSMHeader) {
            header = h
            locationsOnWays = h.optionalFeatures.contains("LocationsOnWays")
        }

        mutating func node(_ n: OSMNode) {
            nodeCount += 1
            if !locationsOnWays {
                if let last = nodeIDs.last, n.id <= last { sorted = false }
                nodeIDs.append(n.id)
                // Nanodegrees to 1e-7°, OSM's own resolution.
                nodeLat.append(Int32(clamping: n.latitude / 100))
                nodeLon.append(Int32(clamping: n.longitude / 100))
            }
            guard !n.tags.isEmpty else { return }
            // Named points of interest (a sign without a name says little, and costs its bytes).
            if let kind = Classification.pointOfInterest(n.tags), let name = n.tags["name"], !name.isEmpty {
                pois.append(
                    SourceFeature(
                        .poi,
                        parts: [[Coordinate(latitude: Double(n.latitude) / 1e9, longitude: Double(n.longitude) / 1e9)]],
                        name: name, osm: OSMReference(.node, n.id), detail: UInt32(kind.rawValue),
                        tags: Classification.keptTags(n.tags)))
            }
            if let peak = Classification.peak(n.tags) {
                pois.append(
                    SourceFeature(
                        .peak,
                        parts: [[Coordinate(latitude: Double(n.latitude) / 1e9, longitude: Double(n.longitude) / 1e9)]],
                        name: n.tags["name"].flatMap { $0.isEmpty ? nil : $0 }, osm: OSMReference(.node, n.id),
                        detail: peak, tags: Classification.keptTags(n.tags)))
            }
            guard let place = n.tags["place"], let name = n.tags["name"], !name.isEmpty else { return }
            if place == "square" {
                squareNodes.append(
                    NamedPlace(
                        name: name,
                        coordinate: Coordinate(
                            latitude: Double(n.latitude) / 1e9, longitude: Double(n.longitude) / 1e9),
                        kind: .square))
                return
            }
            let kind: PlaceKind
            switch place {
            case "suburb": kind = .suburb
            case "neighbourhood", "quarter": kind = .neighbourhood
            default: return
            }
            places.append(
                City(
                    name: name,
                    coordinate: Coordinate(latitude: Double(n.latitude) / 1e9, longitude: Double(n.longitude) / 1e9),
                    countryCode: "", population: Int(n.tags["population"] ?? "") ?? 0, kind: kind))
        }

        mutating func way(_ w: OSMWay) {
            var locations: [Coordinate?]?
            if !w.latitudes.isEmpty {
                locations = zip(w.latitudes, w.longitudes).map { lat, lon in
                    // `osmium add-locations-to-ways --ignore-missing-nodes` writes libosmium's undefined
                    // location (2^31 − 1 in 1e-7°, osmium/osm/location.hpp) for a node it lacks; any
                    // position off the globe is a missing node, and the line splits there.
                    let c = Coordinate(latitude: Double(lat / 100) * 1e-7, longitude: Double(lon / 100) * 1e-7)
                    return abs(c.latitude) <= 90 && abs(c.longitude) <= 180 ? c : nil
                }
            }
            let featureClass = Classification.wayClass(w.tags)
            if let r = NetworkBuilder.routable(w.tags, index: ways.count) { routable.append(r) }
            ways.append(
                Way(
                    id: w.id, refs: w.refs, locations: locations, featureClass: featureClass, name: w.tags["name"],
                    tags: featureClass == nil ? "" : Classification.keptTags(w.tags),
                    widthDecimetres: featureClass?.isRoad == true ? Classification.widthDecimetres(w.tags) : 0))
            if let kind = Classification.pointOfInterest(w.tags), w.tags["name"]?.isEmpty == false, w.refs.count >= 4,
                w.refs.first == w.refs.last
            {
                poiWays.append((w.id, kind, w.tags["name"], Classification.keptTags(w.tags)))
            }
            if let name = w.tags["name"], !name.isEmpty, Self.isSquare(w.tags) { squareWays.append((name, [w.id])) }
        }

        mutating func relation(_ r: OSMRelation) {
            relationCount += 1
            if let restriction = NetworkBuilder.restriction(r) { restrictions.append(restriction) }
            if r.tags["type"] == "multipolygon", let name = r.tags["name"], !name.isEmpty, Self.isSquare(r.tags) {
                squareWays.append((name, r.members.filter { $0.type == .way }.map(\.ref)))
            }
            guard r.tags["type"] == "multipolygon", let featureClass = Classification.areaClass(r.tags) else { return }
            let members = r.members.filter { $0.type == .way }.map(\.ref)
            multipolygons.append(
                Multipolygon(
                    id: r.id, featureClass: featureClass, name: r.tags["name"], members: members,
                    tags: Classification.keptTags(r.tags)))
        }

        /// The node store, sorted by id (PBF files are usually sorted already).
        func sortedNodes() -> NodeStore {
            guard !sorted else { return NodeStore(ids: nodeIDs, lat: nodeLat, lon: nodeLon) }
            let order = nodeIDs.indices.sorted { nodeIDs[$0] < nodeIDs[$1] }
            return NodeStore(
                ids: order.map { nodeIDs[$0] }, lat: order.map { nodeLat[$0] }, lon: order.map { nodeLon[$0] })
        }
    }
}

/// OSM tags → feature classes, after the OpenMapTiles schema (openmaptiles.org/schema).
public enum Classification {
    /// The class of a way: a road, railway, waterway, coastline, or an area.
    static func wayClass(_ tags: [String: String]) -> FeatureClass? {
        if let highway = tags["highway"] {
            switch highway {
            case "motorway", "motorway_link": return .motorway
            case "trunk", "trunk_link": return .trunk
            case "primary", "primary_link": return .primary
            case "secondary", "secondary_link": return .secondary
            case "tertiary", "tertiary_link": return .tertiary
            case "unclassified", "residential", "living_street", "road": return .minorRoad
            case "service": return .serviceRoad
            case "footway", "path", "cycleway", "pedestrian", "steps", "track", "bridleway": return .path
            default: break
            }
        }
        switch tags["railway"] {
        case "rail", "light_rail", "subway", "narrow_gauge", "monorail": return .rail
        case "tram": return .tram
        default: break
        }
        switch tags["waterway"] {
        case "river", "canal": return .river
        case "stream", "ditch", "drain": return .stream
        default: break
        }
        if tags["natural"] == "coastline" { return .coastline }
        return areaClass(tags)
    }

    /// The keys whose value says what a feature is, each one a feature has kept for what-is-here answers
    /// (`highway=primary`, `amenity=pub` and `building=yes` of a pub in a building).
    static let mainKeys = [
        "amenity", "shop", "tourism", "highway", "railway", "waterway", "building", "leisure", "natural", "landuse",
    ]

    /// What a feature keeps of its tags: each of its main keys' (`mainKeys`, in that order) and its
    /// `ref`, as `key=value` lines (its name is kept apart).
    static func keptTags(_ tags: [String: String]) -> String {
        var kept = mainKeys.compactMap { k in tags[k].map { "\(k)=\($0)" } }
        if let ref = tags["ref"] { kept.append("ref=\(ref)") }
        return kept.joined(separator: "\n")
    }

    /// A road's width in decimetres from its `width` tag (metres, `7`, `7.5`, `7 m`), else its `lanes`
    /// (3.25 m a lane); 0 when it has neither (its class's width applies).
    static func widthDecimetres(_ tags: [String: String]) -> UInt32 {
        if let w = tags["width"] {
            // Digits, a decimal point or comma, and an optional unit `m`: nothing else is read as metres.
            var digits = String(w.filter { $0 != " " }.map { $0 == "," ? "." : $0 })
            if digits.hasSuffix("m") { digits.removeLast() }
            if let metres = Double(digits), metres > 0, metres < 200 { return UInt32((metres * 10).rounded()) }
        }
        if let l = tags["lanes"].flatMap({ Int($0) }), l > 0, l < 20 { return UInt32((Double(l) * 32.5).rounded()) }
        return 0
    }

    /// A peak's or pass's detail (`PeakDetail`: its `ele`, and whether it is a pass), nil for other nodes.
    static func peak(_ tags: [String: String]) -> UInt32? {
        let natural = tags["natural"] ?? ""
        let pass = natural == "saddle" || tags["mountain_pass"] == "yes"
        guard pass || natural == "peak" || natural == "volcano" else { return nil }
        return PeakDetail.encode(meters: tags["ele"].flatMap(PeakDetail.meters), pass: pass)
    }

    /// The kind of a point of interest: restaurants, cafés and bars, shops, hotels, sights, stations
    /// and some other amenities (after OpenMapTiles' `poi` classes); nil for anything else.
    static func pointOfInterest(_ tags: [String: String]) -> NameKind? {
        if let a = tags["amenity"] {
            switch a {
            case "restaurant", "fast_food", "food_court", "ice_cream": return .food
            case "cafe", "bar", "pub", "biergarten": return .drink
            case "theatre", "cinema", "arts_centre", "library": return .sight
            case "pharmacy", "bank", "post_office", "hospital", "clinic", "townhall", "police", "place_of_worship",
                "toilets":
                return .amenity
            default: break
            }
        }
        if let s = tags["shop"], s != "no", s != "vacant" { return .shop }
        if let t = tags["tourism"] {
            switch t {
            case "hotel", "hostel", "guest_house", "motel", "apartment": return .lodging
            case "museum", "gallery", "attraction", "viewpoint", "zoo", "theme_park": return .sight
            default: break
            }
        }
        if tags["railway"] == "station" || tags["railway"] == "halt"
            || (tags["public_transport"] == "station" && tags["railway"] != nil)
        {
            return .station
        }
        return nil
    }

    /// The class of an area: water, park, wood or building.
    public static func areaClass(_ tags: [String: String]) -> FeatureClass? {
        if tags["natural"] == "water" || tags["waterway"] == "riverbank" || tags["water"] != nil
            || ["reservoir", "basin"].contains(tags["landuse"] ?? "")
        {
            return .water
        }
        if ["park", "garden"].contains(tags["leisure"] ?? "")
            || ["grass", "recreation_ground", "village_green", "cemetery"].contains(tags["landuse"] ?? "")
        {
            return .park
        }
        if tags["landuse"] == "forest" || tags["natural"] == "wood" { return .wood }
        if let b = tags["building"], b != "no" { return .building }
        return nil
    }
}

/// Joins way pieces (as node id lists) into closed rings, the way multipolygon relations are built, and
/// orders the rings by containment.
enum Rings {
    /// A closed ring: its node ids and the ways it was joined from.
    struct Ring {
        var refs: [Int64]
        var ways: [Int64]
    }

    /// The closed rings made by joining `ways` end to end, and how many pieces were left open.
    static func assemble(_ ways: [(id: Int64, refs: [Int64])]) -> (closed: [Ring], open: Int) {
        var pieces = ways.filter { $0.refs.count >= 2 }.map { Ring(refs: $0.refs, ways: [$0.id]) }
        var closed: [Ring] = []
        var open = 0
        while var ring = pieces.popLast() {
            var turned = false
            while ring.refs.first != ring.refs.last {
                guard let end = ring.refs.last,
                    let next = pieces.firstIndex(where: { $0.refs.first == end || $0.refs.last == end })
                else {
                    // Nothing continues this end: try the other end once.
                    if turned { break }
                    turned = true
                    ring.refs.reverse()
                    continue
                }
                let piece = pieces.remove(at: next)
                ring.refs += (piece.refs.first == end ? piece.refs : piece.refs.reversed()).dropFirst()
                ring.ways += piece.ways
            }
            if ring.refs.first == ring.refs.last && ring.refs.count >= 4 { closed.append(ring) } else { open += 1 }
        }
        return (closed, open)
    }

    /// The node-id form of `assemble`, for tests.
    static func assemble(_ ways: [[Int64]]) -> (closed: [[Int64]], open: Int) {
        let (closed, open) = assemble(ways.enumerated().map { (id: Int64($0.offset), refs: $0.element) })
        return (closed.map(\.refs), open)
    }

    /// `rings` ordered as libosmium's assembler sees them: each outer ring (inside an even number of the
    /// others) followed by the holes directly inside it (an odd number). The fill is even–odd, so the
    /// order is for readers of the file; a ring's depth is decided at its first vertex that no other ring
    /// shares.
    static func nested(_ rings: [[Coordinate]]) -> [[Coordinate]] {
        guard rings.count > 1 else { return rings }
        let containers = rings.indices.map { i in
            rings.indices.filter { j in j != i && contains(rings[j], testPointOf: rings[i]) }
        }
        var ordered: [Int] = []
        for i in rings.indices where containers[i].count % 2 == 0 {
            ordered.append(i)
            ordered += rings.indices.filter { h in
                containers[h].count == containers[i].count + 1 && containers[h].contains(i) && !ordered.contains(h)
            }
        }
        // Rings no outer holds (overlapping outers, invalid data) keep their place at the end.
        ordered += rings.indices.filter { !ordered.contains($0) }
        return ordered.map { rings[$0] }
    }

    /// Whether `ring` holds a vertex of `other` that is not one of its own (none: not inside).
    static func contains(_ ring: [Coordinate], testPointOf other: [Coordinate]) -> Bool {
        guard let p = other.first(where: { v in !ring.contains(v) }) else { return false }
        return contains(ring, point: p)
    }

    /// Whether `p` lies inside `ring`: the even–odd crossing test (W. R. Franklin, "PNPOLY").
    static func contains(_ ring: [Coordinate], point p: Coordinate) -> Bool {
        var inside = false
        var j = ring.count - 1
        for i in ring.indices {
            let a = ring[i]
            let b = ring[j]
            if (a.latitude > p.latitude) != (b.latitude > p.latitude),
                p.longitude < (b.longitude - a.longitude) * (p.latitude - a.latitude) / (b.latitude - a.latitude)
                    + a.longitude
            {
                inside.toggle()
            }
            j = i
        }
        return inside
    }
}
