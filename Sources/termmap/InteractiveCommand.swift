import FoundationEssentials
import GeoCore
import Glibc
import MapData
import MapFormats
import MapRender
import Support
import SystemSupport
import TerminalUI
import Viewer

/// `termmap [options]`: the interactive viewer in the terminal.
enum InteractiveCommand {
    static func run(_ args: [String], environment: [String: String]) throws -> Int32 {
        let (parsed, keymap, _) = try ConfigLocation.arguments(args, for: .viewer, environment: environment)
        let options = try StartupOptions(parsed)
        // Load the data before touching the terminal, so that a data error is a plain line.
        // Kiosk mode reads tiles named on its command line only (a shared account's data folder is not the
        // visitor's to fill).
        let (sources, skipped) = try DataLoading.loadSayingSkipped(
            dataDir: options.dataDir, environment: environment, tiles: options.tiles, terrain: options.terrain,
            tileCacheBytes: options.tileCacheBytes, tileCacheDiskBytes: options.tileCacheDiskBytes,
            folderTiles: !options.kiosk)
        // A --center name that names nothing is said before the terminal is taken.
        _ = try options.centerHit(sources)
        // The user's files, read once the viewer is open: a failed one is listed, the others drawn. When
        // no name given is a file, the first is most likely a mistyped command: said before the terminal
        // is taken.
        let named = options.files.filter { $0 != "-" }
        if !named.isEmpty, named.count == options.files.count, options.follow == nil,
            let missing = named.first, named.allSatisfy({ access($0, F_OK) != 0 })
        {
            let hint = Suggestion.closest(to: missing, among: OptionTable.commandWords).map {
                " (did you mean '\($0)'?)"
            }
            throw DataFailure("'\(missing)': no such file, nor a command\(hint ?? " (see --help)")")
        }
        // `-`: standard input is data, read as it comes; the keys come from the terminal (/dev/tty, as
        // less and fzf do), which takes standard input's place for everything that reads the terminal.
        let streamFD = try takeStandardInputForData(options)
        if let follow = options.follow, access(follow, R_OK) != 0 {
            throw DataFailure("--follow '\(follow)': cannot read (\(systemErrorReason()))")
        }
        // Files are read in the background once the viewer is open; each shows as being read meanwhile.
        let toRead = options.files.filter { $0 != "-" }
        var files = toRead.map { UserFile(file: $0, format: .geojson, data: UserLayerData(), progress: 0) }
        for live in (streamFD != nil ? ["-"] : []) + (options.follow.map { [$0] } ?? []) {
            files.append(UserFile(file: live, format: .stream, data: UserLayerData()))
        }
        let screen: CursesScreen
        do {
            // The terminal is asked whether it draws kitty's pictures only when there is imagery to draw.
            screen = try CursesScreen(
                colorOption: options.color, environment: environment, recordPath: options.castPath,
                askBackground: options.theme == nil, graphics: sources.imagery == nil ? nil : options.graphics)
        } catch {
            throw UsageError(error.description)
        }
        // Cache writes end after the terminal is restored (they take a moment at most).
        defer { DataLoading.finish(sources) }
        defer { screen.close() }
        // Tiles load in the background; each batch that arrives is an event, and wakes the loop's wait.
        let inbox = screen.makeInbox()
        let loader = BackgroundTileLoader(sources: sources.loadable) { inbox.post(.tilesArrived($0)) }
        var state = try startState(
            options, keymap: keymap, screen: screen, sources: sources, files: files, environment: environment)
        state.suspendRefusal = suspendRefusal(options, screen: screen)
        if let skipped, state.message.isEmpty { state.setError(skipped.message) }
        state.fitsToFiles = !options.centerGiven
        UserFiles.readInBackground(toRead, inbox: inbox, ogr: options.ogrLimits)
        if let fd = streamFD { StreamInput.start(fd: fd, name: "-", inbox: inbox) }
        if let follow = options.follow { StreamInput.follow(path: follow, inbox: inbox) }
        let gps = startGPS(options, inbox: inbox)
        defer { gps?.finish() }
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
            tourAfter: options.tourAfterSeconds, loader: loader,
            preparer: BackgroundDetailPreparer { inbox.post(.detailPrepared($0)) }, inbox: inbox,
            afterFirstFrame: loadGeodesics,
            changeBookmarks: { change in writeBookmarks(change, inbox: inbox, environment: environment) },
            recordTrack: { gps?.setRecording($0) })
        // The view it ended on, for --resume (a kiosk writes nothing but the shared tile cache).
        if !options.kiosk { LastView.write(state.view, environment) }
        return 0
    }

    /// The first state: the view the options, the last view and the bookmarks give, in the screen's
    /// size, theme and glyphs, with the mouse as the options say.
    static func startState(
        _ options: StartupOptions, keymap: Keymap, screen: CursesScreen, sources: MapSources, files: [UserFile],
        environment: [String: String]
    ) throws -> ViewerState {
        let size = screen.size
        var state = try RenderCommand.startState(
            options.sessionStart(
                cols: size.cols, rows: size.rows,
                theme: options.chosenTheme(background: screen.background, environment: environment), keymap: keymap,
                sources: sources, files: files, environment: environment))
        BookmarkFile.load(into: &state, environment: environment, kiosk: options.kiosk)
        // What a viewer killed between writing and renaming left behind.
        if !options.kiosk {
            for path in [BookmarkFile.path(environment), LastView.path(environment)].compactMap({ $0 }) {
                AtomicFile.removeStaleTemporaries(of: path)
            }
        }
        if !screen.unicode { state.glyphMode = .ascii }
        if !state.mouseCaptured { screen.captureMouse(false) }
        state.suggestsStreetData = !options.kiosk
        if options.kiosk { state.recordingRefusal = "a shared demo account writes no file" }
        return state
    }

    /// `-`: standard input is data, read as it comes; the keys come from the terminal (/dev/tty, as
    /// less and fzf do), which takes standard input's place for everything that reads the terminal.
    /// Returns the data's descriptor, nil without `-`.
    static func takeStandardInputForData(_ options: StartupOptions) throws -> Int32? {
        guard options.files.contains("-") else { return nil }
        guard isatty(STDIN_FILENO) == 0 else {
            throw UsageError(
                "'-' reads standard input, which is the terminal here: pipe data in (producer | termmap -)")
        }
        let tty = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard tty >= 0 else {
            throw UsageError("'-': no terminal to read keys from (/dev/tty: \(systemErrorReason()))")
        }
        let streamFD = dup(STDIN_FILENO)
        dup2(tty, STDIN_FILENO)
        close(tty)
        return streamFD
    }

    /// Why Ctrl-Z cannot stop this session, nil when it can: a stop no shell can continue would leave
    /// the visitor with a frozen terminal, so it is said instead.
    static func suspendRefusal(_ options: StartupOptions, screen: CursesScreen) -> String? {
        if options.kiosk { return "not in kiosk mode (q leaves)" }
        // The recording's pseudo-terminal holds the terminal's modes: a stop would leave them off.
        if options.castPath != nil { return "not while recording (q ends the recording)" }
        if !screen.hasJobControl { return "no job control here (no shell to come back to; q quits)" }
        return nil
    }

    /// The position's reader (`--gps`), started, recording at once with `--gps-record`.
    static func startGPS(_ options: StartupOptions, inbox: EventInbox) -> GPSInput? {
        guard let source = options.gps else { return nil }
        let gps = GPSInput(source: source, inbox: inbox, recordPath: options.gpsRecord)
        gps.start()
        if options.gpsRecord != nil { gps.setRecording(true) }
        return gps
    }

    /// Makes one change to the bookmarks file; the list as written (or the failure) comes back through
    /// the inbox.
    static func writeBookmarks(_ change: BookmarkChange, inbox: EventInbox, environment: [String: String]) {
        if let written = BookmarkFile.apply(change, environment: environment) {
            inbox.post(.bookmarksWritten(written))
        } else {
            inbox.post(.problem("bookmarks: cannot write \(BookmarkFile.path(environment) ?? "the file")"))
        }
    }

    /// Loads PROJ once the first frame is out, while the user looks at it: its 40 libraries take about
    /// 12 ms of CPU, which the first zoom key would otherwise wait for (the first frame needs no geodesic).
    static func loadGeodesics() {
        _ = Geodesic.isAvailable
    }
}
