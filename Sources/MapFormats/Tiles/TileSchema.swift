/// Vector tile schemas mapped to termmap's feature classes, the same classes (and so the same styles)
/// as imported OpenStreetMap data: OpenMapTiles (openmaptiles.org/schema, what tilemaker writes) and
/// Protomaps basemap v4 (docs.protomaps.com/basemaps/layers). Layers neither schema draws here
/// (`place`, `housenumber`, `earth`…) are passed over, as are unknown layers.
public enum TileSchema: String, Sendable {
    case openMapTiles = "OpenMapTiles"
    case protomaps = "Protomaps basemap"
    case unknown = "unknown"

    /// The schema whose layer names these are (the layers both schemas have decide nothing).
    public static func detect(layers: [String]) -> TileSchema {
        let set = Set(layers)
        if !set.isDisjoint(with: ["transportation", "transportation_name", "building", "waterway", "park"]) {
            return .openMapTiles
        }
        if !set.isDisjoint(with: ["roads", "buildings", "earth", "boundaries", "transit", "pois", "places"]) {
            return .protomaps
        }
        return .unknown
    }

    /// Every class a tileset of either schema can give (`land` is each tile's square, given once the
    /// tileset has shown it has sea: what is not water is land).
    public static let classes: Set<FeatureClass> = [
        .motorway, .trunk, .primary, .secondary, .tertiary, .minorRoad, .serviceRoad, .path, .rail, .tram, .river,
        .stream, .water, .park, .wood, .building, .border, .sea, .land, .poi,
    ]

    /// How a tile feature is drawn: its class, and whether it only names a line drawn from another
    /// layer (OpenMapTiles' `transportation_name` repeats `transportation` with names).
    public struct Mapping: Equatable, Sendable {
        public var featureClass: FeatureClass
        public var namesOnly: Bool
        /// A point of interest's kind (`NameKind`), else 0.
        public var detail: UInt32 = 0
    }

    /// The class of a feature of `layer`, nil when it is not drawn. Lines and areas must come as lines
    /// and polygons (a polygon in a road layer, such as a pedestrian square, is not a road).
    public static func map(layer: String, type: MVTGeometryType, _ p: [String: MVTValue]) -> Mapping? {
        map(layer: layer, type: type) { p[$0] }
    }

    /// The layers either schema draws from (a tile's other layers are not decoded).
    public static let drawnLayers: Set<String> = [
        "transportation", "transportation_name", "waterway", "building", "park", "boundary", "water", "landuse",
        "landcover", "roads", "transit", "buildings", "boundaries", "poi", "pois", "mountain_peak",
    ]

    /// `map` with properties looked up one by one (no dictionary a feature on the drawing path).
    public static func map(layer: String, type: MVTGeometryType, _ p: (String) -> MVTValue?) -> Mapping? {
        func text(_ key: String) -> String { p(key)?.text ?? "" }
        var namesOnly = false
        var detail: UInt32 = 0
        let featureClass: FeatureClass?
        switch layer {
        // OpenMapTiles.
        case "transportation", "transportation_name":
            namesOnly = layer == "transportation_name"
            featureClass = omtTransportation(text("class"), subclass: text("subclass"))
        case "waterway": featureClass = waterLine(text("class"))
        case "building": featureClass = .building
        case "park": featureClass = .park
        case "boundary":
            featureClass = p("admin_level")?.number == 2 && p("maritime")?.number != 1 ? .border : nil
        // Both: OpenMapTiles says `class`, Protomaps `kind`.
        case "water":
            let c = text("class").isEmpty ? text("kind") : text("class")
            featureClass =
                type == .polygon ? (c == "swimming_pool" ? nil : c == "ocean" ? .sea : .water) : waterLine(text("kind"))
        case "landuse":
            featureClass = landArea(text("class").isEmpty ? text("kind") : text("class"))
        case "landcover":
            let c = text("class")
            featureClass =
                c == "wood" || text("kind") == "forest" ? .wood : c == "grass" ? landArea(text("subclass")) : nil
        // Protomaps basemap.
        case "roads": featureClass = protomapsRoad(text("kind"), detail: text("kind_detail"))
        case "transit": featureClass = text("kind") == "rail" ? (text("kind_detail") == "tram" ? .tram : .rail) : nil
        case "buildings": featureClass = .building
        case "boundaries": featureClass = text("kind") == "country" ? .border : nil
        // Points of interest: OpenMapTiles' `poi` (class, subclass), Protomaps' `pois` (kind).
        // Peaks: OpenMapTiles' `mountain_peak` (class peak, volcano, saddle; `ele` in metres), Protomaps'
        // `pois` of kind peak (`elevation`).
        case "mountain_peak":
            let c = text("class")
            detail = PeakDetail.encode(meters: PeakDetail.meters(text("ele")), pass: c == "saddle")
            featureClass = ["peak", "volcano", "saddle"].contains(c) ? .peak : nil
        case "pois" where text("kind") == "peak" || text("kind") == "volcano":
            detail = PeakDetail.encode(meters: PeakDetail.meters(text("elevation")), pass: false)
            featureClass = .peak
        case "poi", "pois":
            let kind =
                layer == "poi"
                ? poiKind(text("class"), subclass: text("subclass")) : poiKind(text("kind"), subclass: "")
            detail = kind.map { UInt32($0.rawValue) } ?? 0
            featureClass = kind == nil ? nil : .poi
        default: featureClass = nil
        }
        guard let featureClass else { return nil }
        guard featureClass.isPoint ? type == .point : featureClass.isArea ? type == .polygon : type == .lineString
        else { return nil }
        return Mapping(featureClass: featureClass, namesOnly: namesOnly, detail: detail)
    }

    /// A feature's name: `name`, else `name:latin` (tilemaker's OpenMapTiles), else `name_en`.
    public static func name(_ p: (String) -> MVTValue?) -> String? {
        for key in ["name", "name:latin", "name_en"] {
            if case .string(let s)? = p(key), !s.isEmpty { return s }
        }
        return nil
    }

    /// OpenMapTiles `transportation` class (and subclass for railways).
    static func omtTransportation(_ c: String, subclass: String) -> FeatureClass? {
        switch c {
        case "motorway": return .motorway
        case "trunk": return .trunk
        case "primary": return .primary
        case "secondary": return .secondary
        case "tertiary": return .tertiary
        case "minor": return .minorRoad
        case "service": return .serviceRoad
        case "track", "path": return .path
        case "rail", "transit": return subclass == "tram" ? .tram : .rail
        default: return nil
        }
    }

    /// Protomaps `roads` kind and kind_detail (the OSM highway tag).
    static func protomapsRoad(_ kind: String, detail: String) -> FeatureClass? {
        let highway = detail.hasSuffix("_link") ? String(detail.dropLast(5)) : detail
        switch kind {
        case "highway": return .motorway
        case "major_road":
            switch highway {
            case "trunk": return .trunk
            case "secondary": return .secondary
            case "tertiary": return .tertiary
            default: return .primary
            }
        case "minor_road": return highway == "service" ? .serviceRoad : .minorRoad
        case "path": return .path
        case "rail": return detail == "tram" ? .tram : .rail
        default: return nil
        }
    }

    /// A point of interest's kind from either schema's class (OpenMapTiles names shops by what they sell:
    /// `clothing_store`, `grocery`, `bakery`), as the OSM import kinds them; nil for points not drawn.
    static func poiKind(_ c: String, subclass: String) -> NameKind? {
        switch c {
        case "restaurant", "fast_food", "food_court", "ice_cream": return .food
        case "cafe", "bar", "pub", "beer", "biergarten": return .drink
        case "lodging", "hotel", "hostel", "guest_house", "motel": return .lodging
        case "museum", "attraction", "gallery", "viewpoint", "zoo", "theatre", "cinema", "library", "arts_centre":
            return .sight
        case "station", "train_station", "halt": return .station
        case "railway": return ["station", "halt"].contains(subclass) ? .station : nil
        case "pharmacy", "bank", "post", "post_office", "hospital", "clinic", "town_hall", "townhall", "police",
            "place_of_worship", "toilets":
            return .amenity
        case "shop", "grocery", "clothing_store", "bakery", "books", "shoes", "jewelry", "alcohol_shop", "florist",
            "furniture", "hairdresser", "convenience", "supermarket", "department_store", "gift", "optician",
            "mobile_phone",
            "electronics", "cosmetics", "music", "sports", "toys", "hardware", "butcher", "deli", "art", "bicycle":
            return .shop
        default: return c.hasSuffix("_shop") || c.hasSuffix("_store") ? .shop : nil
        }
    }

    /// Waterway lines, as the OSM import classes them.
    static func waterLine(_ c: String) -> FeatureClass? {
        switch c {
        case "river", "canal": return .river
        case "stream", "ditch", "drain": return .stream
        default: return nil
        }
    }

    /// Land areas drawn here (as the OSM import: parks and green land, woods).
    static func landArea(_ c: String) -> FeatureClass? {
        switch c {
        case "park", "garden", "grass", "recreation_ground", "village_green", "cemetery": return .park
        case "forest", "wood": return .wood
        default: return nil
        }
    }
}
