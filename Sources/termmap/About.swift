/// Version, help and attribution texts.
enum About {
    static let version = "termmap 0.1.0"

    static let attribution = """
        termmap \u{2014} a keyboard-driven map viewer for the terminal.
        Map data: Natural Earth (public domain), naturalearthdata.com.
        Places: contains GeoNames data, CC BY 4.0 (geonames.org).
        """

    static let gshhgAttribution = "Imported shorelines: GSHHG (Wessel & Smith), LGPL 3."

    static let help = """
        usage: termmap [options]                 open the interactive viewer
               termmap render [options]          print the screen (or --json state) without a terminal
               termmap data import-gshhg PATH    import GSHHG shorelines into the user data folder
               termmap data pack --lines F --cities F --out F   build a data file (used by Tools/build_assets.py)
               termmap --about | --help | --version

        options:
          --data DIR    look for map data in DIR first
          --help        this text
          --version     the version
          --about       data sources and licences
        """
}
