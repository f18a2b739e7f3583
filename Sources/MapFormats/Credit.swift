/// What the data of a source must be credited with, and how: in full where there is room, in a
/// short form where not; `required` when its licence asks for the credit wherever its data is shown
/// (OpenStreetMap's ODbL), otherwise it is named where the screen leaves room (Natural Earth is in the
/// public domain).
public struct Credit: Hashable, Sendable {
    /// The data's name (`OpenStreetMap`, `Natural Earth`).
    public var name: String
    /// The credit as its licence words it (`© OpenStreetMap contributors`).
    public var text: String
    /// The shortest form that still credits it (`© OSM`).
    public var short: String
    /// True when its licence asks for the credit on screen wherever its data is.
    public var required: Bool

    /// A credit.
    public init(name: String, text: String, short: String, required: Bool) {
        self.name = name
        self.text = text
        self.short = short
        self.required = required
    }

    /// OpenStreetMap's data, under the ODbL 1.0: "© OpenStreetMap contributors" wherever it is shown
    /// (osm.org/copyright).
    public static let openStreetMap = Credit(
        name: "OpenStreetMap", text: "© OpenStreetMap contributors", short: "© OSM", required: true)
    /// Natural Earth's lines and areas: public domain (naturalearthdata.com/about/terms-of-use).
    public static let naturalEarth = Credit(
        name: "Natural Earth", text: "Natural Earth (public domain), naturalearthdata.com", short: "Natural Earth",
        required: false)
    /// GeoNames' gazetteer, CC BY 4.0 (geonames.org).
    public static let geoNames = Credit(
        name: "GeoNames", text: "contains GeoNames data, CC BY 4.0 (geonames.org)", short: "GeoNames", required: false)
    /// GSHHG's shorelines (Wessel & Smith), LGPL 3.
    public static let gshhg = Credit(
        name: "GSHHG", text: "GSHHG (Wessel & Smith), LGPL 3", short: "GSHHG", required: false)

    /// The credit an attribution as a file or tileset states it asks for: OpenStreetMap's own words are
    /// OpenStreetMap's credit; other words are shown as they are, in full, short form included, unless
    /// they contain OpenStreetMap's name (a tileset's `© OpenMapTiles © OpenStreetMap contributors`),
    /// whose short form is OpenStreetMap's.
    public init(attribution: String) {
        if attribution == Self.openStreetMap.text {
            self = .openStreetMap
            return
        }
        let osm = attribution.contains(Self.openStreetMap.name)
        self.init(
            name: osm ? Self.openStreetMap.name : attribution, text: attribution,
            short: osm ? Self.openStreetMap.short : attribution, required: true)
    }
}
