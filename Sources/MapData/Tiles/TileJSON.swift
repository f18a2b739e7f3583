import GeoCore
import MapFormats
import Support

/// A TileJSON document (TileJSON 3.0.0, github.com/mapbox/tilejson-spec): where a tileset's tiles
/// are (`tiles` URL templates), how rows count (`scheme`), its zooms, bounds, credit and layers.
public struct TileJSON: Equatable, Sendable {
    /// URL templates with `{z}`, `{x}`, `{y}` (http or https).
    public var templates: [String]
    /// `scheme: "tms"`: rows counted from the south.
    public var tms: Bool
    public var minZoom: Int
    public var maxZoom: Int
    public var bounds: CoordinateBounds
    /// `attribution`, HTML removed.
    public var attribution: String?
    /// `vector_layers` ids.
    public var layers: [String]
    public var name: String?
    /// For raster tiles, their image format: its `format`, else its templates' extension.
    public var imageFormat: String?
    /// For elevation tiles, their `encoding` (`terrarium`, `mapbox`).
    public var encoding: TerrainEncoding?

    /// The largest document read (TileJSON documents are a few KB).
    public static let maxBytes = 1 << 20
    /// The deepest zoom taken from a document (the spec's default `maxzoom` is 30).
    static let deepestZoom = 24

    /// True when bytes look like a JSON object (told by the first bytes, not by a URL).
    public static func looksLikeJSON(_ bytes: [UInt8]) -> Bool {
        bytes.first { ![0x20, 0x09, 0x0a, 0x0d, 0xef, 0xbb, 0xbf].contains($0) } == UInt8(ascii: "{")
    }

    /// Parses a document fetched from `url`; one clear line when it is not one termmap can use.
    public static func parse(_ bytes: [UInt8], url: String) throws(MapDataError) -> TileJSON {
        func fail(_ why: String) -> MapDataError { MapDataError(file: url, .badInput(why)) }
        guard bytes.count <= maxBytes else { throw fail("TileJSON document of more than 1 MB") }
        guard let json = JSONValue.parse(bytes)?.object else {
            throw fail("not a TileJSON document (not a JSON object)")
        }
        guard case .array(let list)? = json["tiles"] else { throw fail("TileJSON document without \"tiles\"") }
        let templates = list.compactMap { if case .string(let t) = $0 { t } else { nil } }
        guard !templates.isEmpty, templates.count == list.count else {
            throw fail("TileJSON \"tiles\" is not a list of URL templates")
        }
        for t in templates where !TileArchives.isURL(t) {
            throw fail("tile template \(t.prefix(80)) is not an http or https URL")
        }
        func int(_ key: String) -> Int? {
            if case .number(let v)? = json[key], v.isFinite, v >= 0, v <= 30 { return Int(v) }
            return nil
        }
        let minZoom = int("minzoom") ?? 0
        let maxZoom = min(deepestZoom, max(minZoom, int("maxzoom") ?? 30))
        var bounds = CoordinateBounds(north: 85.0511, south: -85.0511, west: -180, east: 180)
        if case .array(let b)? = json["bounds"], b.count == 4 {
            let v = b.compactMap { if case .number(let n) = $0 { n } else { nil } }
            if v.count == 4, v[0] < v[2], v[1] < v[3], v[0] >= -180, v[2] <= 180, v[1] >= -90, v[3] <= 90 {
                bounds = CoordinateBounds(north: v[3], south: v[1], west: v[0], east: v[2])
            }
        }
        return TileJSON(
            templates: templates, tms: json["scheme"]?.text == "tms", minZoom: minZoom, maxZoom: maxZoom,
            bounds: bounds, attribution: TilesetInfo.plainAttribution(json["attribution"]?.text),
            layers: TilesetInfo.layerNames(json), name: json["name"]?.text,
            imageFormat: json["format"]?.text.flatMap(TilesetInfo.imageFormat(named:))
                ?? TilesetInfo.imageFormat(ofTemplate: templates[0]),
            encoding: json["encoding"]?.text.flatMap(TerrainEncoding.init(named:)))
    }
}

/// Public tile sources known by name (`--tiles openfreemap`): free, without a key, whose terms allow
/// a program's use, with the credit their data asks for. (OpenStreetMap's own tile servers forbid bulk
/// use and are never named here.)
public struct NamedTileSource: Sendable, Equatable {
    public var name: String
    /// Its TileJSON document, or a tile URL template.
    public var url: String
    public var schema: String
    public var credit: String
    public var about: String
    /// The deepest zoom it serves, where its template cannot say (GIBS answers 400 past it).
    public var maxZoom: Int? = nil

    /// The table (`termmap data sources`).
    public static let all = [
        NamedTileSource(
            name: "openfreemap", url: "https://tiles.openfreemap.org/planet", schema: "OpenMapTiles",
            credit: "© OpenMapTiles © OpenStreetMap contributors",
            about: "OpenFreeMap's planet, zooms 0-14, free, no key (openfreemap.org)"),
        // NASA imagery is not copyrighted (NASA's media usage guidelines); GIBS serves it without a key.
        NamedTileSource(
            name: "bluemarble",
            url:
                "https://gibs.earthdata.nasa.gov/wmts/epsg3857/best/BlueMarble_ShadedRelief_Bathymetry/default/GoogleMapsCompatible_Level8/{z}/{y}/{x}.jpeg",
            schema: "imagery", credit: "NASA Blue Marble, NASA GIBS",
            about: "NASA's Blue Marble with shaded relief and bathymetry, imagery, zooms 0-8, public domain, no key",
            maxZoom: 8),
        // Mapzen's terrain tiles, kept by AWS's open data programme (registry.opendata.aws/terrain-tiles):
        // free, no key; mostly public-domain sources (SRTM, GMTED, ETOPO1, NED), some that ask for credit.
        NamedTileSource(
            name: "terrarium", url: "https://s3.amazonaws.com/elevation-tiles-prod/terrarium/{z}/{x}/{y}.png",
            schema: "terrain",
            credit: "Terrain Tiles (Mapzen, AWS Open Data): SRTM, GMTED, ETOPO1, NED, EU-DEM (Copernicus) and others",
            about: "elevation, Terrarium encoding, zooms 0-15, free, no key (--terrain terrarium)", maxZoom: 15),
        // Mapterhorn (mapterhorn.com, funded by the EU): Copernicus GLO-30 worldwide and national lidar
        // models in parts of Europe, as Terrarium WebP tiles of 512 pixels; free, no key; each source's
        // licence asks for credit.
        NamedTileSource(
            name: "mapterhorn", url: "https://tiles.mapterhorn.com/tilejson.json", schema: "terrain",
            credit:
                "Mapterhorn: Copernicus DEM GLO-30 (ESA) and national elevation models (mapterhorn.com/attribution)",
            about:
                "elevation, Terrarium encoding (WebP), worldwide and deeper in parts of Europe, free, no key (--terrain mapterhorn)"
        ),
    ]

    /// The named source an argument means: a name from the table, unless the argument has a `/` or an
    /// extension (then it is a file or URL).
    public static func named(_ argument: String) -> NamedTileSource? {
        guard !argument.contains("/"), !argument.contains(".") else { return nil }
        return all.first { $0.name == argument.lowercased() }
    }
}
