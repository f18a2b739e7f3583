import FoundationEssentials
import GeoCore
import Glibc
import MapData
import Support
import TerminalUI
import Viewer

/// `termmap [options]`: the interactive viewer in the terminal.
enum InteractiveCommand {
    static func run(_ args: [String], environment: [String: String]) throws -> Int32 {
        let parsed = try ParsedArguments(args, for: .viewer)
        let options = try StartupOptions(parsed)
        // Load the data before touching the terminal, so that a data error is a plain line.
        // Kiosk mode reads tiles named on its command line only (a shared account's data folder is not the
        // visitor's to fill).
        let (sources, skipped) = try DataLoading.loadSayingSkipped(
            dataDir: options.dataDir, environment: environment, tiles: options.tiles,
            tileCacheBytes: options.tileCacheBytes, tileCacheDiskBytes: options.tileCacheDiskBytes,
            folderTiles: !options.kiosk)
        // The user's files, read before the terminal is taken: a failed one is listed, the others drawn.
        // A name that is no file is most likely a mistyped command: said before the terminal is taken.
        if let missing = options.files.first(where: { $0 != "-" && access($0, F_OK) != 0 }) {
            throw DataFailure("'\(missing)': no such file, nor a command (see --help)")
        }
        let files = UserFiles.read(options.files)
        let screen: CursesScreen
        do {
            screen = try CursesScreen(colorOption: options.color, environment: environment, recordPath: options.castPath)
        } catch {
            throw UsageError(error.description)
        }
        // Cache writes end after the terminal is restored (they take a moment at most).
        defer { DataLoading.finish(sources) }
        defer { screen.close() }
        // Tiles load in the background; each batch that arrives is an event, and wakes the loop's wait.
        let inbox = screen.makeInbox()
        let loader = BackgroundTileLoader(sources: sources.features.all) { inbox.post(.tilesArrived($0)) }
        let size = screen.size
        var state = try options.initialState(cols: size.cols, rows: size.rows)
        if !screen.unicode { state.glyphMode = .ascii }
        state.suggestsStreetData = !options.kiosk
        if let skipped, state.message.isEmpty {
            state.message = skipped.message
            state.messageIsError = true
        }
        UserFiles.apply(files, to: &state, viewGiven: options.viewGiven)
        if let problem = UserFiles.report(files).first, state.message.isEmpty {
            state.message = problem
            state.messageIsError = files.contains { $0.error != nil }
        }
        if state.message.isEmpty {
            state.message = options.kiosk ? ViewerState.kioskWelcome : ViewerState.welcome
        }
        EventLoop.run(
            &state, sources: sources, screen: screen, now: monotonicSeconds,
            idleTimeout: options.idleTimeoutMinutes.map { $0 * 60 }, tour: options.tour.map { TourPlayer($0) },
            tourAfter: options.tourAfterSeconds, loader: loader, inbox: inbox, afterFirstFrame: loadGeodesics)
        return 0
    }

    /// Loads PROJ once the first frame is out, while the user looks at it: its 40 libraries take about
    /// 12 ms of CPU, which the first zoom key would otherwise wait for (the first frame needs no geodesic).
    static func loadGeodesics() {
        _ = Geodesic.isAvailable
    }
}
