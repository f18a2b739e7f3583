import FoundationEssentials
import Glibc
import GeoCore
import MapData
import Viewer

/// Options shared by `termmap` and `termmap render`, validated into typed values.
struct StartupOptions {
    var cols = 100
    var rows = 30
    var center = Coordinate(latitude: 0, longitude: 0)
    var zoom = 0.0
    var circle = false
    var radius = GeodesicCircle.defaultRadius
    var keys: [Key] = []
    var json = false
    var ascii = false
    var color: String?
    var theme = Theme.dark
    var dataDir: String?
    /// `--tiles` sources, in the order given.
    var tiles: [String] = []
    /// `--tile-cache`, in bytes.
    var tileCacheBytes = TileSource.defaultCacheBytes
    var animations = true
    var kiosk = false
    var idleTimeoutMinutes: Double?

    /// Minutes a kiosk session may sit idle when no --idle-timeout is given.
    static let kioskDefaultIdleMinutes = 10.0

    init(_ p: ParsedArguments) throws(UsageError) {
        guard p.operands.isEmpty else { throw UsageError("unexpected argument '\(p.operands[0])' (see --help)") }
        if let s = p.value(.size) {
            let parts = s.lowercased().split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 2, let c = Int(parts[0]), let r = Int(parts[1]), c >= 1, r >= 1, c <= 2000, r <= 1000
            else {
                throw UsageError("--size '\(s)' must be COLSxROWS with 1…2000 columns and 1…1000 rows, e.g. 100x30")
            }
            cols = c
            rows = r
        }
        if let s = p.value(.center) { center = try Self.value(s, of: .center, InputParsing.coordinate) }
        if let s = p.value(.zoom) { zoom = try Self.value(s, of: .zoom, InputParsing.zoomLevel) }
        if let s = p.value(.radius) { radius = try Self.value(s, of: .radius, InputParsing.radius) }
        if let s = p.value(.keys) {
            switch KeyScript.parse(s) {
            case .success(let k): keys = k
            case .failure(let e): throw UsageError(e.description)
            }
        }
        if let c = p.value(.color) {
            guard ["never", "always", "16", "256"].contains(c) else {
                throw UsageError("--color '\(c)' must be never, always, 16 or 256")
            }
            color = c
        }
        if let t = p.value(.theme) {
            guard let chosen = Theme(rawValue: t) else { throw UsageError("--theme '\(t)' must be dark or light") }
            theme = chosen
        }
        if let d = p.value(.data) {
            guard !d.isEmpty else { throw UsageError("--data needs a folder") }
            dataDir = d
        }
        tiles = p.allValues(.tiles)
        if tiles.contains(where: \.isEmpty) { throw UsageError("--tiles needs a file or a URL") }
        if let m = p.value(.tileCache) {
            guard let mb = InputParsing.number(m), mb >= 1, mb <= 65_536 else {
                throw UsageError("--tile-cache '\(m)' must be megabytes, 1 to 65536")
            }
            tileCacheBytes = Int(mb * 1_048_576)
        }
        if let t = p.value(.idleTimeout) {
            guard let minutes = InputParsing.number(t), minutes > 0, minutes <= 24 * 60 else {
                throw UsageError("--idle-timeout '\(t)' must be minutes, more than 0 and at most 1440")
            }
            idleTimeoutMinutes = minutes
        }
        kiosk = p.has(.kiosk)
        if kiosk && idleTimeoutMinutes == nil { idleTimeoutMinutes = Self.kioskDefaultIdleMinutes }
        circle = p.has(.circle)
        json = p.has(.json)
        ascii = p.has(.ascii)
        animations = !p.has(.noAnimation)
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

    /// The viewer state these options start in (zoom above 28 clamps, as the seed does).
    func initialState(cols: Int, rows: Int) throws(UsageError) -> ViewerState {
        do {
            var state = try ViewerState(cols: cols, rows: rows, center: center, zoom: min(zoom, 28))
            state.radiusMeters = radius
            state.glyphMode = ascii ? .ascii : .braille
            state.theme = theme
            state.animationsEnabled = animations
            if circle {
                state.circle = CircleOverlay(
                    circle: try GeodesicCircle(center: state.view.center, radiusMeters: radius),
                    ratio: CircleFit.defaultRatio)
            }
            if zoom > 28 { state.message = "zoom \(zoom) is past the deepest level: clamped to 28" }
            return state
        } catch {
            throw UsageError(error.description)
        }
    }
}
