/// What a map feature is. The bundled world has the first six classes, a GSHHG import the seventh; OpenStreetMap data (and
/// later vector tiles) the others, after the OpenMapTiles schema. The raw value is stored in map
/// data files, so existing values never change.
public enum FeatureClass: UInt8, CaseIterable, Sendable, Comparable {
    // Natural Earth and GSHHG (format version 1 called these layers 0, 1, 2).
    case coastline = 0
    case lake = 1
    case border = 2
    /// Natural Earth land polygons: a background tint only (the coastline draws the shore).
    case land = 3
    /// Natural Earth admin-1 boundaries (states, provinces).
    case stateBorder = 4
    /// Natural Earth lake polygons: a background tint only (`lake` draws the shore).
    case lakeWater = 5
    /// Rivers of world-wide data (GSHHG's WDBII rivers), drawn at regional zooms until street-level
    /// data (OSM waterways) takes over.
    case worldRiver = 6
    // Roads by importance (OSM `highway=*`), railways.
    case motorway = 10
    case trunk = 11
    case primary = 12
    case secondary = 13
    case tertiary = 14
    /// unclassified, residential, living_street, road.
    case minorRoad = 15
    /// service roads: driveways, parking aisles, alleys.
    case serviceRoad = 16
    /// footway, path, cycleway, pedestrian, steps, track, bridleway.
    case path = 17
    case rail = 20
    case tram = 21
    // Waterways as lines.
    /// river, canal.
    case river = 30
    /// stream, ditch, drain.
    case stream = 31
    // Areas.
    /// natural=water, waterway=riverbank, landuse=reservoir/basin.
    case water = 40
    /// leisure=park/garden, landuse=grass/recreation_ground/village_green/cemetery.
    case park = 41
    /// landuse=forest, natural=wood.
    case wood = 42
    case building = 43
    /// The sea of street-level data: made by an import from coastline ways (format version 5), or a
    /// tileset's ocean (OpenMapTiles `water` class `ocean`, Protomaps kind `ocean`).
    case sea = 44
    /// Points of interest (OSM amenity, shop, tourism, stations; tiles' `poi`/`pois`), each with its
    /// kind (a `NameKind` from `food` on) in the feature's detail (format version 5).
    case poi = 50
    /// Peaks and mountain passes (OSM natural=peak/volcano/saddle, mountain_pass=yes; OpenMapTiles'
    /// `mountain_peak`; Protomaps' `pois` of kind peak), each with its height in the detail (`PeakDetail`).
    case peak = 51

    /// Classes sort by raw value.
    public static func < (a: FeatureClass, b: FeatureClass) -> Bool { a.rawValue < b.rawValue }

    /// True for classes whose features are areas (closed rings, filled even–odd), not lines.
    public var isArea: Bool {
        switch self {
        case .water, .park, .wood, .building, .land, .lakeWater, .sea: return true
        default: return false
        }
    }

    /// True for classes whose features are points.
    public var isPoint: Bool { self == .poi || self == .peak }

    /// The geometry its chunks hold.
    public var geometry: GeometryKind { isPoint ? .points : isArea ? .areas : .lines }

    /// True for areas drawn as a background tint only, never outlined: another class draws their edge.
    public var isFillOnly: Bool { self == .land || self == .lakeWater || self == .sea }

    /// True for the roads cars drive on (for the street-coverage checks).
    public var isRoad: Bool {
        rawValue >= FeatureClass.motorway.rawValue && rawValue <= FeatureClass.serviceRoad.rawValue
    }
}

/// A peak's or pass's detail: its height in whole metres (20,000 m added, so that 0 says none) in the
/// low 30 bits, and bit 31 set for a pass.
public enum PeakDetail {
    /// The detail of a point `meters` high (nil: unknown), a pass or a peak.
    public static func encode(meters: Double?, pass: Bool) -> UInt32 {
        let height = meters.map { UInt32(min(1 << 30 - 1, max(1, Int($0.rounded()) + 20_000))) } ?? 0
        return (pass ? 1 << 31 : 0) | height
    }

    /// The height (nil: unknown) and whether it is a pass.
    public static func decode(_ detail: UInt32) -> (meters: Int?, pass: Bool) {
        let height = Int(detail & (1 << 30 - 1))
        return (height == 0 ? nil : height - 20_000, detail & 1 << 31 != 0)
    }

    /// A height as OSM's `ele` (metres; `1021`, `1021.5`, `1021 m`) or a tile's property gives it; nil
    /// for anything else (feet are not guessed).
    public static func meters(_ text: String) -> Double? {
        var t = text.filter { $0 != " " }
        if t.hasSuffix("m") { t.removeLast() }
        guard let v = Double(String(t.map { $0 == "," ? "." : $0 })), v.isFinite, abs(v) < 12_000 else {
            return nil
        }
        return v
    }
}
