/// Version, help and attribution texts.
enum About {
    static let version = "termmap 0.1.0"

    static let attribution = """
        termmap \u{2014} a keyboard-driven map viewer for the terminal.
        Map data: Natural Earth (public domain), naturalearthdata.com.
        Places: contains GeoNames data, CC BY 4.0 (geonames.org).
        """

    static let gshhgAttribution = "Imported shorelines: GSHHG (Wessel & Smith), LGPL 3."
}
