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

        viewer options (also for render):
          --center LAT,LON   start there (default 0,0)
          --zoom Z           start at zoom Z, 0–28 (default 0)
          --circle           start with the inverted circle on
          --radius R         circle radius: 500, 2km, 1.5mi, 800ft (default 500 m)
          --ascii            ASCII glyphs instead of braille
          --color WHEN       never, always, 16 or 256
          --no-animation     no animated zoom (viewer only)
          --kiosk            shared demo account: welcome line, 10 min idle timeout (viewer only)
          --idle-timeout M   quit after M minutes without a key (viewer only)
          --data DIR         look for map data in DIR first
        render only:
          --size COLSxROWS   screen size (default 100x30)
          --keys KEYS        replay keys, e.g. 'z14<Enter>c+'
          --json             print the state as JSON instead of the screen

        other:
          --help        this text
          --version     the version
          --about       data sources and licences
        """
}
