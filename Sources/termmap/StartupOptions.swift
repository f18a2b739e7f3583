import FoundationEssentials
import GeoCore
import Glibc
import MapData
import MapFormats
import MapRender
import Raster
import Support
import SystemSupport
import Viewer

/// Options shared by `termmap` and `termmap render`, validated into typed values.
struct StartupOptions {
    var cols = 100
    var rows = 30
    var center = Coordinate(latitude: 0, longitude: 0)
    /// `--center NAME`: a place to find by name once the places are loaded.
    var centerName: String?
    var zoomGiven = false
    var zoom = 0.0
    var circle = false
    var radius = GeodesicCircle.defaultRadius
    var keys: [Keystroke] = []
    var json = false
    var pick = false
    var ascii = false
    var color: String?
    /// `--graphics`: auto (ask the terminal), kitty, sixel or none.
    var graphics = "auto"
    /// `--theme dark|light`; nil for `auto`, which the terminal's answer or COLORFGBG decides.
    var theme: Theme?
    var dataDir: String?
    /// `--tiles` sources, in the order given.
    var tiles: [String] = []
    /// `--terrain`: elevation tiles.
    var terrain: [String] = []
    /// `--tile-cache`, in bytes.
    var tileCacheBytes = TileSource.defaultCacheBytes
    /// `--tile-cache-disk`, in bytes (0: no disk cache).
    var tileCacheDiskBytes = TileDiskCache.defaultLimitBytes
    /// `--ogr2ogr-memory` and `--ogr2ogr-seconds`: what GDAL's ogr2ogr may use for a file.
    var ogrLimits = Ogr2ogr.Limits.standard
    var animations = true
    /// False with `--no-mouse`.
    var mouse = true
    var kiosk = false
    /// `--resume`: start at the last view (unless --center or --zoom decide it).
    var resume = false
    /// `--units imperial`: the ruler in miles, feet and acres.
    var imperial = false
    var idleTimeoutMinutes: Double?
    /// `--tour`: the tour to play.
    var tour: Tour?
    /// `--tour-after` in seconds (a kiosk's default 60).
    var tourAfterSeconds: Double?
    /// `--record` (viewer) or `--cast` (render): the asciicast file to write.
    var castPath: String?

    /// The user's own files to draw (`-`: standard input), in the order given.
    var files: [String] = []
    /// `--follow`: a file whose appended lines are live points.
    var follow: String?
    /// `--gps`: where the live position comes from; `--gps-record`: the GPX track it is recorded to.
    var gps: GPSSource?
    var gpsRecord: String?
    /// `--at`: the time bar's instant (seconds since 1970, UTC).
    var at: Double?
    /// True when --center or --zoom decides the first view (the files do not).
    var viewGiven = false
    /// True when --center decides the first view's centre (with only --zoom, the files give it).
    var centerGiven = false

    /// Minutes a kiosk session may sit idle when no --idle-timeout is given.
    static let kioskDefaultIdleMinutes = 10.0

    init(_ p: ParsedArguments) throws(UsageError) {
        files = p.operands
        follow = p.value(.follow)
        if follow?.isEmpty == true { throw UsageError("--follow needs a file") }
        gps = try p.value(.gps).map { v throws(UsageError) in try GPSSource(v) }
        gpsRecord = p.value(.gpsRecord)
        if gpsRecord != nil && gps == nil {
            throw UsageError("--gps-record records the --gps position: give --gps too")
        }
        if gpsRecord?.isEmpty == true { throw UsageError("--gps-record needs a file") }
        if let text = p.value(.at) {
            guard let t = ISOTime.seconds(text) else {
                throw UsageError("--at \(text): not an ISO 8601 time (2024-05-01T10:15:00Z)")
            }
            at = t
        }
        if files.filter({ $0 == "-" }).count > 1 { throw UsageError("standard input ('-') can be read once") }
        viewGiven = p.value(.center) != nil || p.value(.zoom) != nil
        centerGiven = p.value(.center) != nil
        try readView(p)
        try readLook(p)
        try readData(p)
        try readSession(p)
        circle = p.has(.circle)
        json = p.has(.json)
        pick = p.has(.pick)
        if json && pick { throw UsageError("--json and --pick print different things: give one") }
        ascii = p.has(.ascii)
        animations = !p.has(.noAnimation)
        mouse = !p.has(.noMouse)
    }

    /// The first view and the keys a script presses: --size, --center, --zoom, --radius, --keys.
    private mutating func readView(_ p: ParsedArguments) throws(UsageError) {
        if let s = p.value(.size) {
            let parts = s.lowercased().split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 2, let c = Int(parts[0]), let r = Int(parts[1]), c >= 1, r >= 1, c <= 2000, r <= 1000
            else {
                throw UsageError("--size '\(s)' must be COLSxROWS with 1…2000 columns and 1…1000 rows, e.g. 100x30")
            }
            cols = c
            rows = r
        }
        if let s = p.value(.center) {
            switch InputParsing.place(s) {
            case .success(let place):
                center = place.coordinate
                if let z = place.zoom { zoom = z }
            case .failure(let e):
                // A name (no digit in it) is looked up as `/` would, once the places are loaded.
                guard !s.contains(where: \.isNumber), s.contains(where: \.isLetter), !s.lowercased().hasPrefix("geo:"),
                    !s.lowercased().hasPrefix("http")
                else { throw UsageError("--center '\(InputParsing.excerpt(s))': \(e)") }
                centerName = s
            }
        }
        if let s = p.value(.zoom) {
            zoom = try Self.value(s, of: .zoom, InputParsing.zoomLevel)
            zoomGiven = true
        }
        if let s = p.value(.radius) { radius = try Self.value(s, of: .radius, InputParsing.radius) }
        if let s = p.value(.keys) {
            switch KeyScript.parse(s) {
            case .success(let k): keys = k
            case .failure(let e): throw UsageError(e.description)
            }
        }
    }

    /// How the map looks: --color, --graphics, --theme.
    private mutating func readLook(_ p: ParsedArguments) throws(UsageError) {
        if let g = p.value(.graphics) {
            guard ["auto", "kitty", "sixel", "none"].contains(g) else {
                throw UsageError("--graphics '\(g)' must be auto, kitty, sixel or none")
            }
            graphics = g
        }
        if let c = p.value(.color), c != "auto" {
            guard ["never", "always", "8", "16", "256", "truecolor", "24bit"].contains(c) else {
                throw UsageError("--color '\(c)' must be auto, never, always, 8, 16, 256 or truecolor")
            }
            color = c
        }
        if let t = p.value(.theme), t != "auto" {
            guard let chosen = Theme(rawValue: t) else {
                throw UsageError("--theme '\(t)' must be auto, dark or light")
            }
            theme = chosen
        }
    }

    /// Where the data comes from and what reading it may cost: --data, --tiles, the tile caches and
    /// ogr2ogr's limits.
    private mutating func readData(_ p: ParsedArguments) throws(UsageError) {
        if let d = p.value(.data) {
            guard !d.isEmpty else { throw UsageError("--data needs a folder") }
            dataDir = d
        }
        tiles = p.allValues(.tiles)
        terrain = p.allValues(.terrain)
        if terrain.contains(where: \.isEmpty) { throw UsageError("--terrain needs a file or a URL") }
        if tiles.contains(where: \.isEmpty) { throw UsageError("--tiles needs a file or a URL") }
        if let m = p.value(.tileCache) {
            guard let mb = InputParsing.number(m), mb >= 1, mb <= 65_536 else {
                throw UsageError("--tile-cache '\(m)' must be megabytes, 1 to 65536")
            }
            tileCacheBytes = Int(mb * 1_048_576)
        }
        if let m = p.value(.tileCacheDisk) {
            guard let mb = InputParsing.number(m), mb >= 0, mb <= 1_048_576 else {
                throw UsageError("--tile-cache-disk '\(m)' must be megabytes, 0 to 1048576")
            }
            tileCacheDiskBytes = Int(mb * 1_048_576)
        }
        if let m = p.value(.ogr2ogrMemory) {
            guard let mb = InputParsing.number(m), mb >= 16, mb <= 1_048_576 else {
                throw UsageError("--ogr2ogr-memory '\(InputParsing.excerpt(m))' must be megabytes, 16 to 1048576")
            }
            ogrLimits.memoryBytes = Int(mb * 1_048_576)
        }
        if let s = p.value(.ogr2ogrSeconds) {
            guard let seconds = InputParsing.number(s), seconds >= 1, seconds <= 86_400 else {
                throw UsageError("--ogr2ogr-seconds '\(InputParsing.excerpt(s))' must be seconds, 1 to 86400")
            }
            ogrLimits.seconds = Int(seconds.rounded(.up))
        }
    }

    /// The session: --idle-timeout, --kiosk, --resume, --units, a tour and a recording.
    private mutating func readSession(_ p: ParsedArguments) throws(UsageError) {
        if let t = p.value(.idleTimeout) {
            guard let minutes = InputParsing.number(t), minutes > 0, minutes <= 24 * 60 else {
                throw UsageError("--idle-timeout '\(t)' must be minutes, more than 0 and at most 1440")
            }
            idleTimeoutMinutes = minutes
        }
        kiosk = p.has(.kiosk)
        resume = p.has(.resume)
        if let u = p.value(.units) {
            guard ["metric", "imperial"].contains(u) else {
                throw UsageError("--units '\(InputParsing.excerpt(u))' must be metric or imperial")
            }
            imperial = u == "imperial"
        }
        if kiosk && idleTimeoutMinutes == nil { idleTimeoutMinutes = Self.kioskDefaultIdleMinutes }
        if let t = p.value(.tour) { tour = try Self.loadTour(t) }
        if let s = p.value(.tourAfter) {
            guard let seconds = InputParsing.number(s), seconds > 0, seconds <= 86_400 else {
                throw UsageError("--tour-after '\(s)' must be seconds, more than 0 and at most 86400")
            }
            tourAfterSeconds = seconds
        } else if kiosk {
            tourAfterSeconds = Self.kioskDefaultTourAfter
        }
        if tourAfterSeconds != nil && tour == nil { tour = Tour.builtin }
        for option in [OptionSpec.record, .cast] {
            guard let path = p.value(option) else { continue }
            guard !path.isEmpty, !isDirectory(path) else { throw UsageError("--\(option.name) needs a file to write") }
            castPath = path
        }
    }

    /// Seconds without a key before a kiosk plays its tour.
    static let kioskDefaultTourAfter = 60.0

    /// The tour `--tour` names: `builtin`, or a file (UTF-8, at most 1 MB); an error names the file and line.
    static func loadTour(_ name: String) throws(UsageError) -> Tour {
        if name == "builtin" { return Tour.builtin }
        if isDirectory(name) { throw UsageError("tour '\(name)': is a directory") }
        let limit = 1 << 20
        guard let bytes = readFileHead(name, count: limit + 1) else {
            throw UsageError("tour '\(name)': \(systemErrorReason())")
        }
        guard bytes.count <= limit else { throw UsageError("tour '\(name)': larger than 1 MB") }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw UsageError("tour '\(name)': not UTF-8 text")
        }
        switch Tour.parse(text) {
        case .success(let t): return t
        case .failure(let e): throw UsageError("tour '\(name)' \(e)")
        }
    }

    /// A parsed option value, or `--name 'text': why` as a usage error.
    static func value<T>(_ text: String, of option: OptionSpec, _ parse: (String) -> Result<T, InputError>)
        throws(UsageError) -> T
    {
        switch parse(text) {
        case .success(let v): return v
        case .failure(let e): throw UsageError("--\(option.name) '\(text)': \(e)")
        }
    }

    /// `--center NAME`'s first match, as `/` finds it; nil without a name; a usage error when none.
    func centerHit(_ sources: MapSources) throws(UsageError) -> SearchHit? {
        guard let name = centerName else { return nil }
        guard let hit = sources.search(name) else {
            throw UsageError(
                "--center '\(InputParsing.excerpt(name))': no place is called that (give LAT,LON, a link, or a place's name)"
            )
        }
        return hit
    }

    /// The theme to start in: the one given, or for `auto` the terminal's reported `background` (nil:
    /// none, as for `render`, which never asks), then `COLORFGBG`, then dark.
    func chosenTheme(background: TerminalColor?, environment: [String: String]) -> Theme {
        theme ?? Theme.auto(background: background, colorFGBG: environment["COLORFGBG"])
    }

    /// The session these options start: the view (`--center` as a place's name found in `sources`,
    /// `--resume`'s last view unless the view is given), the look in `theme`, the keys, the user's
    /// `files`, in a terminal of `cols` × `rows`. The viewer, `render` and the scripted screen start the
    /// same way (`SessionStart`).
    func sessionStart(
        cols: Int, rows: Int, theme: Theme, keymap: Keymap, sources: MapSources, files: [UserFile],
        environment: [String: String]
    ) throws(UsageError) -> SessionStart {
        var start = SessionStart(cols: cols, rows: rows, center: center, zoom: zoom)
        start.imagery = sources.imagery?.label
        start.terrain = sources.terrain?.label
        start.position = gps?.label
        start.radiusMeters = radius
        start.circle = circle
        start.imperialUnits = imperial
        start.glyphMode = ascii ? .ascii : .braille
        start.theme = theme
        start.animations = animations
        start.mouse = mouse
        start.keymap = keymap
        start.place = try centerHit(sources)
        start.zoomGiven = zoomGiven
        if resume && !viewGiven {
            start.lastView = LastView.read(environment).map { (center: $0.0, zoom: $0.1) }.mapError {
                LastViewProblem($0.description)
            }
        }
        start.files = files
        start.viewGiven = viewGiven
        start.centerGiven = centerGiven
        return start
    }
}
