import MapData
import MapFormats
import Support

/// A command that takes options.
enum CommandName: CaseIterable, Sendable {
    case viewer, render, importGSHHG, importOSM, importRaster, importDEM, list, remove, pack, info, get
    /// `termmap route`: directions over an import's streets.
    case route
    /// `termmap config`: the viewer's options, and `--check`.
    case config
    /// `--help`, `--version`, `--about`: given alone.
    case general
}

/// One command-line option, declared once: parsing, `--help` and the option table of docs/viewer.md all
/// come from `OptionTable.all` (swift-argument-parser's shape without its package).
struct OptionSpec: Equatable, Sendable {
    /// The name after `--`.
    let name: String
    /// What the value looks like (`COLSxROWS`), or nil for a flag that takes none.
    let value: String?
    /// One line of help.
    let help: String
    /// The commands that take it.
    let commands: [CommandName]
    /// True when it may be given more than once (each value is kept).
    var repeatable = false
    /// The value taken when none follows (`--tour` alone is `--tour builtin`); nil: a value is required.
    var implicitValue: String? = nil
    /// True when the configuration file may set it (`theme = light`).
    var inConfig = false
    /// What `termmap config` shows when neither the file nor the command line sets it.
    var configDefault = ""
    /// The values it takes, when they are few: for completions and the file's suggestions.
    var choices: [String] = []
    /// The files a shell completes for its value: their extensions ([] any file); nil: none.
    var fileExtensions: [String]? = nil
    /// True when its value is a folder (shells complete folders).
    var directoryValue = false

    /// `--size COLSxROWS`.
    var usage: String { "--" + name + (value.map { " " + $0 } ?? "") }
}

extension OptionSpec {
    static let center = OptionSpec(
        name: "center", value: "LAT,LON",
        help:
            "start there: LAT,LON, an openstreetmap.org, geo: or Google Maps link (with its zoom), or a place's name (default 0,0)",
        commands: [.viewer, .render], inConfig: true, configDefault: "0,0")
    static let zoom = OptionSpec(
        name: "zoom", value: "Z", help: "start at zoom Z, 0–28, above 28 clamps (default 0)",
        commands: [.viewer, .render], inConfig: true, configDefault: "0")
    static let circle = OptionSpec(
        name: "circle", value: nil, help: "start with the inverted circle on", commands: [.viewer, .render])
    static let radius = OptionSpec(
        name: "radius", value: "R", help: "circle radius: 500, 2km, 1.5mi, 800ft (default 500 m, the seed's)",
        commands: [.viewer, .render], inConfig: true, configDefault: "500")
    static let ascii = OptionSpec(
        name: "ascii", value: nil, help: "ASCII glyphs instead of braille", commands: [.viewer, .render],
        inConfig: true, configDefault: "false")
    static let color = OptionSpec(
        name: "color", value: "WHEN",
        help:
            "auto (as the terminal, COLORTERM and NO_COLOR say: the default), never, always, 8 (bright as bold), 16, 256 or truecolor",
        commands: [.viewer, .render], inConfig: true, configDefault: "auto",
        choices: ["auto", "never", "always", "8", "16", "256", "truecolor"])
    static let graphics = OptionSpec(
        name: "graphics", value: "WHEN",
        help:
            "the imagery as a picture: auto (kitty's or sixel, as the terminal answers: the default), kitty, sixel or none (half blocks)",
        commands: [.viewer, .render], inConfig: true, configDefault: "auto",
        choices: ["auto", "kitty", "sixel", "none"])
    static let theme = OptionSpec(
        name: "theme", value: "NAME",
        help: "auto (the default: as the terminal reports its background, else COLORFGBG, else dark), dark or light",
        commands: [.viewer, .render], inConfig: true, configDefault: "auto", choices: ["auto", "dark", "light"])
    static let data = OptionSpec(
        name: "data", value: "DIR", help: "map data folder: looked in first; an import writes there",
        commands: [
            .viewer, .render, .importGSHHG, .importOSM, .importRaster, .importDEM, .list, .remove, .get, .route,
        ],
        inConfig: true,
        directoryValue: true)
    static let tiles = OptionSpec(
        name: "tiles", value: "PATH|URL|NAME",
        help: "vector tiles: a .pmtiles or .mbtiles file, a .pmtiles or TileJSON URL, an https://host/{z}/{x}/{y}.pbf "
            + "template, or a named source (termmap data sources) (repeatable)", commands: [.viewer, .render, .get],
        repeatable: true, inConfig: true, choices: NamedTileSource.all.filter { $0.schema != "terrain" }.map(\.name),
        fileExtensions: ["pmtiles", "mbtiles"])
    static let terrain = OptionSpec(
        name: "terrain", value: "PATH|URL|NAME",
        help: "elevation tiles (Terrarium or Mapbox terrain-RGB PNG/WebP: a .pmtiles or .mbtiles whose metadata "
            + "says its encoding, a TileJSON with `encoding`, a terrarium template; terrarium, mapterhorn): contours, "
            + "hillshade (H), the height under the crosshair, profiles (repeatable: the first named wins where it has "
            + "a height, the next fill its gaps)",
        commands: [.viewer, .render], repeatable: true, inConfig: true,
        choices: NamedTileSource.all.filter { $0.schema == "terrain" }.map(\.name),
        fileExtensions: ["pmtiles", "mbtiles"])
    static let tileCacheDisk = OptionSpec(
        name: "tile-cache-disk", value: "MB",
        help: "disk kept for remote tiles, all sources together, in $XDG_CACHE_HOME/termmap (default 512; 0: none)",
        commands: [.viewer, .render], inConfig: true, configDefault: "512")
    static let tileCache = OptionSpec(
        name: "tile-cache", value: "MB", help: "memory for decoded tiles, per tile source (default 64)",
        commands: [.viewer, .render], inConfig: true, configDefault: "64")
    static let ogr2ogrMemory = OptionSpec(
        name: "ogr2ogr-memory", value: "MB",
        help: "the most a layer of GDAL's ogr2ogr holds, and ogr2ogr's address space (at least 512) (default 2048)",
        commands: [.viewer, .render], inConfig: true, configDefault: "2048")
    static let ogr2ogrSeconds = OptionSpec(
        name: "ogr2ogr-seconds", value: "S", help: "CPU time for GDAL's ogr2ogr, per file (default 300)",
        commands: [.viewer, .render], inConfig: true, configDefault: "300")
    static let noAnimation = OptionSpec(
        name: "no-animation", value: nil, help: "no animated zoom (the a key toggles it)", commands: [.viewer],
        inConfig: true, configDefault: "false")
    static let noMouse = OptionSpec(
        name: "no-mouse", value: nil, help: "leave the mouse to the terminal, to select text (the p key toggles it)",
        commands: [.viewer], inConfig: true, configDefault: "false")
    static let follow = OptionSpec(
        name: "follow", value: "FILE",
        help:
            "live points: lines appended to FILE (one JSON object a line, as for termmap -), through truncation and rotation",
        commands: [.viewer], fileExtensions: [])
    static let gps = OptionSpec(
        name: "gps", value: "[HOST:PORT|FILE]",
        help: "the live position: gpsd (localhost:2947 when nothing follows), or NMEA 0183 from a file or a serial "
            + "device (/dev/ttyUSB0); F follows it, R records it",
        commands: [.viewer, .render], implicitValue: "localhost:\(GPSSource.gpsdPort)", inConfig: true,
        fileExtensions: ["nmea", "log"])
    static let gpsRecord = OptionSpec(
        name: "gps-record", value: "FILE.gpx",
        help: "record the --gps positions as a GPX track (a file recorded before goes on in a new segment)",
        commands: [.viewer], fileExtensions: ["gpx"])
    static let at = OptionSpec(
        name: "at", value: "TIME",
        help: "the time bar at this instant (ISO 8601, 2024-05-01T10:15:00Z): each timed track drawn to there",
        commands: [.render])
    static let units = OptionSpec(
        name: "units", value: "SYSTEM", help: "the ruler's lengths and areas: metric (default) or imperial",
        commands: [.viewer, .render], inConfig: true, configDefault: "metric", choices: ["metric", "imperial"])
    static let resume = OptionSpec(
        name: "resume", value: nil,
        help: "start at the view the viewer last ended on (--center, --zoom and files decide first)",
        commands: [.viewer, .render], inConfig: true, configDefault: "false")
    static let kiosk = OptionSpec(
        name: "kiosk", value: nil,
        help: "shared demo account: welcome line, 10 min idle timeout, data only from the command line",
        commands: [.viewer])
    static let idleTimeout = OptionSpec(
        name: "idle-timeout", value: "M", help: "quit after M minutes without a key", commands: [.viewer],
        inConfig: true)
    static let tour = OptionSpec(
        name: "tour", value: "[FILE]",
        help: "play a tour: lines of KEYS<TAB>SECONDS<TAB>CAPTION, or the built-in one when no file follows",
        commands: [.viewer, .render], implicitValue: "builtin", fileExtensions: [])
    static let tourAfter = OptionSpec(
        name: "tour-after", value: "S", help: "start the tour after S seconds without a key and loop it (kiosk: 60)",
        commands: [.viewer])
    static let record = OptionSpec(
        name: "record", value: "FILE.cast", help: "record the session as an asciicast v2 file (asciinema's)",
        commands: [.viewer], fileExtensions: ["cast"])
    static let size = OptionSpec(
        name: "size", value: "COLSxROWS", help: "screen size (default 100x30)", commands: [.render])
    static let keys = OptionSpec(
        name: "keys", value: "KEYS", help: "replay keys first, e.g. 'z14<Enter>c+'", commands: [.render])
    static let json = OptionSpec(
        name: "json", value: nil,
        help: "print the state and the data sources (route: the route) as JSON instead of the screen",
        commands: [.render, .route])
    static let via = OptionSpec(
        name: "via", value: "PLACE", help: "go through this point or place on the way (repeatable)",
        commands: [.route], repeatable: true)
    static let profile = OptionSpec(
        name: "profile", value: "NAME", help: "foot (the default: shortest), bike or car (fastest)",
        commands: [.route], choices: RouteProfile.allCases.map(\.rawValue))
    static let gpx = OptionSpec(
        name: "gpx", value: nil, help: "print the route as GPX 1.1 (a rte of the steps and a trk of the line)",
        commands: [.route])
    static let reach = OptionSpec(
        name: "reach", value: "MINUTES", help: "the streets reachable within MINUTES (15, 15min, 1h) from FROM",
        commands: [.route])
    static let pick = OptionSpec(
        name: "pick", value: nil,
        help: "print the class of feature each map cell shows (a letter a cell, then the letters' legend)",
        commands: [.render])
    static let cast = OptionSpec(
        name: "cast", value: "FILE", help: "write the keys' or tour's screens as an asciicast v2 recording",
        commands: [.render], fileExtensions: ["cast"])
    static let bbox = OptionSpec(
        name: "bbox", value: "W,S,E,N", help: "the area to download, in degrees", commands: [.get])
    static let around = OptionSpec(
        name: "around", value: "PLACE|LAT,LON", help: "the area to download: around a place or a point",
        commands: [.get])
    static let within = OptionSpec(
        name: "within", value: "DIST", help: "how far around: 5km, 800m, 3mi (default 5km)", commands: [.get])
    static let zooms = OptionSpec(
        name: "zooms", value: "A-B",
        help: "the zooms to download (default 0-14, within the source's) or to cut (default: gdal2tiles' choice)",
        commands: [.get, .importRaster])
    static let from = OptionSpec(
        name: "from", value: "SOURCE", help: "the tileset to download from (default: the first --tiles)",
        commands: [.get])
    static let yes = OptionSpec(
        name: "yes", value: nil, help: "download more than 50,000 tiles", commands: [.get])
    static let name = OptionSpec(
        name: "name", value: "NAME", help: "the imported file's name (default: the extract's, e.g. helsinki)",
        commands: [.importOSM, .importRaster, .importDEM])
    static let lines = OptionSpec(
        name: "lines", value: "FILE", help: "lines to pack (Tools/build_assets.py writes them)", commands: [.pack],
        fileExtensions: [])
    static let cities = OptionSpec(
        name: "cities", value: "FILE", help: "places to pack (TSV)", commands: [.pack], fileExtensions: [])
    static let out = OptionSpec(
        name: "out", value: "FILE", help: "the data file to write", commands: [.pack], fileExtensions: [])
    static let config = OptionSpec(
        name: "config", value: "FILE",
        help: "read this configuration file (default $XDG_CONFIG_HOME/termmap/config, or $TERMMAP_CONFIG)",
        commands: [.viewer, .render, .config], fileExtensions: [])
    static let noConfig = OptionSpec(
        name: "no-config", value: nil, help: "read no configuration file", commands: [.viewer, .render, .config])
    static let check = OptionSpec(
        name: "check", value: nil,
        help: "check the configuration file: ok and what it sets, or its first mistake (exit 2)", commands: [.config])
    static let help = OptionSpec(name: "help", value: nil, help: "this text", commands: [.general])
    static let version = OptionSpec(name: "version", value: nil, help: "the version", commands: [.general])
    static let about = OptionSpec(
        name: "about", value: nil, help: "data sources and licences (of the data --data and --tiles name, too)",
        commands: [.general])
}

/// Every option, in help order.
enum OptionTable {
    static let all: [OptionSpec] = [
        .center, .zoom, .resume, .circle, .units, .radius, .ascii, .color, .graphics, .theme, .data, .tiles, .terrain,
        .tileCache,
        .tileCacheDisk, .ogr2ogrMemory, .ogr2ogrSeconds, .tour, .noAnimation, .noMouse, .follow, .gps, .gpsRecord, .at,
        .kiosk,
        .idleTimeout, .tourAfter, .record, .size, .keys, .json, .pick, .cast, .via, .profile, .gpx, .reach, .bbox,
        .around, .within, .zooms, .from,
        .yes, .name, .lines, .cities, .out, .config, .noConfig, .check, .help, .version, .about,
    ]

    /// The options `command` takes.
    static func options(of command: CommandName) -> [OptionSpec] {
        // `termmap config --theme light` shows what the viewer would take: it takes the viewer's options.
        all.filter { $0.commands.contains(command) || (command == .config && $0.commands.contains(.viewer)) }
    }

    /// The commands, each with what it does: `--help`'s usage lines and the manual's synopsis. The
    /// formats named are the format drivers' (`FormatDrivers`).
    static var commands: [(synopsis: String, what: String)] {
        [
            (
                "termmap [options] [FILE...]",
                "open the interactive viewer (FILE: \(FormatDrivers.titles.joined(separator: ", ")), or what ogr2ogr "
                    + "reads; - is standard input, one JSON object a line, live)"
            )
        ] + otherCommands
    }

    private static let otherCommands: [(synopsis: String, what: String)] = [
        ("termmap render [options] [FILE...]", "print the screen (or --json state) without a terminal"),
        (
            "termmap route FROM TO [--via P]... [--profile foot|bike|car] [--json | --gpx]",
            "directions over an imported extract's streets (FROM, TO: LAT,LON, a link or a place's name)"
        ),
        ("termmap data import-osm FILE.osm.pbf", "import an OpenStreetMap extract (streets, water, names)"),
        ("termmap data import-raster FILE", "a GeoTIFF or any raster GDAL reads, as imagery (gdal2tiles → .pmtiles)"),
        (
            "termmap data import-dem FILE",
            "a DEM GDAL reads (GeoTIFF, SRTM .hgt), as terrain (gdalwarp → Terrarium .pmtiles)"
        ),
        ("termmap data list | remove NAME", "the map data installed; remove an import or tileset"),
        ("termmap data info FILE|URL", "what a .pmtiles or .mbtiles tileset holds"),
        (
            "termmap data get NAME (--bbox W,S,E,N | --around PLACE) [--zooms 0-14] [--from SOURCE]",
            "download an area's tiles as NAME.pmtiles"
        ),
        ("termmap data sources", "the named public tile sources (--tiles NAME)"),
        ("termmap data import-gshhg PATH", "import GSHHG shorelines into the user data folder"),
        ("termmap data pack --lines F --out F [--cities F]", "build a data file"),
        ("termmap config [--check]", "the settings in effect and where each comes from; --check checks the file"),
        ("termmap help keys | help options", "the key or option table as Markdown"),
        ("termmap help man", "this manual page, in roff"),
        ("termmap help completions bash|zsh|fish", "the completions for a shell"),
        (
            "termmap [--data DIR] [--tiles SOURCE]... --about | --help | --version",
            "the data's sources and licences; this help; the version"
        ),
    ]

    /// The first words a command line can start with, and the words after `data` and `help`.
    static let commandWords = ["render", "route", "data", "config", "help"]
    static let dataWords = [
        "import-osm", "import-raster", "import-dem", "list", "remove", "info", "get", "sources", "import-gshhg", "pack",
    ]
    static let helpWords = ["keys", "options", "man", "completions"]

    /// The usage text of `--help`.
    static var helpText: String {
        var lines: [String] = []
        let column = 41
        for (i, command) in commands.enumerated() {
            let lead = (i == 0 ? "usage: " : "       ") + command.synopsis
            let what = TextWrap.lines(command.what, width: 110 - column)
            if lead.count < column {
                lines.append(lead.padded(to: column) + " " + what[0])
            } else {
                lines.append(lead)
                lines.append(String(repeating: " ", count: column + 1) + what[0])
            }
            lines += what.dropFirst().map { String(repeating: " ", count: column + 1) + $0 }
        }
        let width = all.map(\.usage.count).max() ?? 0
        var group: [CommandName]?
        for option in all {
            if option.commands != group {
                group = option.commands
                lines += ["", groupTitle(option.commands) + ":"]
            }
            lines.append("  " + option.usage.padded(to: width) + "  " + option.help)
        }
        return lines.joined(separator: "\n")
    }

    /// The option table of docs/viewer.md (Markdown), made from the same declarations.
    static var markdownTable: String {
        var lines = ["| option | for | what |", "|---|---|---|"]
        for option in all {
            lines.append("| `\(option.usage)` | \(groupTitle(option.commands)) | \(option.help) |")
        }
        return lines.joined(separator: "\n")
    }

    /// `viewer and render`, `render only`, `data import-gshhg`…
    static func groupTitle(_ commands: [CommandName]) -> String {
        func title(_ c: CommandName) -> String {
            switch c {
            case .viewer: return "viewer"
            case .render: return "render"
            case .importGSHHG: return "data import-gshhg"
            case .importOSM: return "data import-osm"
            case .importRaster: return "data import-raster"
            case .importDEM: return "data import-dem"
            case .list: return "data list"
            case .remove: return "data remove"
            case .pack: return "data pack"
            case .info: return "data info"
            case .get: return "data get"
            case .route: return "route"
            case .config: return "config"
            case .general: return "general"
            }
        }
        if commands == [.viewer] || commands == [.render] { return title(commands[0]) + " only" }
        if commands.count == 1 { return title(commands[0]) }
        return commands.dropLast().map(title).joined(separator: ", ") + " and " + title(commands[commands.count - 1])
    }
}
