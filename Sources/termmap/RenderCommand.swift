import FoundationEssentials
import Glibc
import MapData
import Raster
import Support
import SystemSupport
import Viewer

/// `termmap render`: the screen or the state, printed without a terminal.
enum RenderCommand {
    static func run(_ args: [String], environment: [String: String]) throws -> Int32 {
        let (parsed, keymap, _) = try ConfigLocation.arguments(args, for: .render, environment: environment)
        let options = try StartupOptions(parsed)
        // A terminal can shrink below a map's size (the viewer then says so on screen); a size asked for
        // cannot: that is a usage error.
        guard options.cols >= ViewerState.minimumCols, options.rows >= ViewerState.minimumRows else {
            throw UsageError(
                "--size \(options.cols)x\(options.rows) is too small: a map needs at least "
                    + "\(ViewerState.minimumCols)x\(ViewerState.minimumRows)")
        }
        let (sources, skipped) = try DataLoading.loadSayingSkipped(
            dataDir: options.dataDir, environment: environment, tiles: options.tiles, terrain: options.terrain,
            tileCacheBytes: options.tileCacheBytes, tileCacheDiskBytes: options.tileCacheDiskBytes)
        // A --center name that names nothing is said before any file is read.
        _ = try options.centerHit(sources)
        // The user's files: those that cannot be read end the render (one line each, exit 1); left-out
        // features are said on stderr and the rest drawn.
        let files = UserFiles.readForRender(options.files, ogr: options.ogrLimits)
        let failed = files.compactMap(\.error)
        for error in failed.dropLast() { printError("termmap: \(error)") }
        if let last = failed.last { throw DataFailure(last) }
        for line in UserFiles.report(files) { printError("termmap: \(line)") }
        var state = try startState(
            options.sessionStart(
                cols: options.cols, rows: options.rows,
                theme: options.chosenTheme(background: nil, environment: environment),
                keymap: keymap, sources: sources, files: files, environment: environment))
        if let skipped, state.message.isEmpty { state.setError(skipped.message) }
        try showPositionAndTime(&state, options)
        let mode = ColorMode.choose(
            option: options.color, noColor: environment["NO_COLOR"].map { !$0.isEmpty } ?? false,
            isTerminal: isatty(STDOUT_FILENO) == 1, terminalColors: terminalColors(options.color, environment),
            colorTerm: environment["COLORTERM"])
        if let path = options.castPath {
            // A recording animates, as the viewer does; the colours are those `render` would print.
            let castMode = options.color == nil ? ColorMode.ansi256 : mode
            let text = ScriptedRecording.cast(
                state, keys: options.keys, tour: options.tour, sources: sources, mode: castMode)
            try writeFile(path, text)
            DataLoading.finish(sources)
            exit(0)
        }
        // The viewer's own loop plays the keys, then the tour's steps (its last screen: every step
        // played, its caption on the message line), and loads every tile of the view before it ends.
        state.animationsEnabled = false
        let (end, screen) = ScriptedRecording.play(
            state, keys: options.keys, tour: options.tour, sources: sources, mode: mode, spaced: false,
            pictures: options.graphics == "kitty" ? .dots : options.graphics == "sixel" ? RenderCommand.sixelCell : nil)
        state = end
        // The loop draws at least its first screen.
        let screenful =
            screen.last ?? Screenful(frame: Frame(cols: state.terminalCols, rows: state.terminalRows), map: nil)
        DataLoading.finish(sources)
        if options.json {
            printLine(try StateJSON.encode(state, map: screenful.map))
            exit(0)
        }
        if options.pick {
            // Letters, tabs and names made visible by the pick itself: `LETTER<TAB>CLASS` lines keep their tab.
            printComposed(screenful.map?.pick.text ?? "")
            exit(0)
        }
        printComposed(AnsiWriter.text(screenful.frame, mode: mode))
        // `--graphics kitty`: the imagery's picture after the text, from the top left cell.
        if let picture = screenful.picture {
            // Sequences made here, of ASCII only (base64, sixel's characters): written as they are.
            if options.graphics == "sixel" {
                printComposed(String(decoding: sixelCommands(screenful, picture, mode: mode), as: UTF8.self))
            } else {
                var kitty = Screenful.kittyPlacements()
                printComposed(String(decoding: screenful.pictureCommands(&kitty), as: UTF8.self))
            }
        }
        // Done: end here rather than free the decoded map piece by piece on the way out (the kernel
        // takes the whole address space back at once).
        exit(0)
    }

    /// The position the source gives now (an NMEA file's last fix, gpsd's first within 3 s), and the
    /// time bar at `--at`.
    static func showPositionAndTime(_ state: inout ViewerState, _ options: StartupOptions) throws(DataFailure) {
        if let gps = options.gps { state.update(.position(GPSInput.once(gps))) }
        if let at = options.at, !state.openTimeBar(at: at) {
            throw DataFailure("--at: \(state.message)")
        }
    }

    /// The first state of `start`; a view the model refuses is a usage error.
    static func startState(_ start: SessionStart) throws(UsageError) -> ViewerState {
        do { return try start.state() } catch { throw UsageError(error.description) }
    }

    /// Writes `text` to `path` (replacing it); a failure is one line naming the file.
    static func writeFile(_ path: String, _ text: String) throws(UsageError) {
        guard let file = fopen(path, "wb") else {
            throw UsageError("cannot write '\(path)': \(systemErrorReason())")
        }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        let closed = fclose(file)
        guard written == bytes.count, closed == 0 else {
            throw UsageError("cannot write '\(path)': \(systemErrorReason())")
        }
    }

    /// Colours of the terminal `render` prints to, as far as TERM tells (nil when `--color` decides).
    static func terminalColors(_ option: String?, _ environment: [String: String]) -> Int? {
        guard option == nil else { return nil }
        let term = environment["TERM"] ?? ""
        return term.contains("256") ? 256 : term.contains("16color") ? 16 : 8
    }

    /// The cell size `render --graphics sixel` draws for: 10 × 20 pixels (render writes to no terminal
    /// that could say its own).
    static let sixelCell = PictureCell(width: 10, height: 20)

    /// After the text: the picture's sixel chunks, then the text that stands on them again.
    static func sixelCommands(_ screenful: Screenful, _ picture: MapPicture, mode: ColorMode) -> [UInt8] {
        var chunks = SixelChunks()
        let frame = screenful.frame
        let (bytes, areas, _) = chunks.update(picture, cols: frame.cols, rows: screenful.pictureRows)
        var painter = TerminalPainter(cols: frame.cols, rows: frame.rows, abilities: .xterm(mode))
        _ = painter.paint(frame, fullRepaint: true)
        for a in areas { painter.pictureWritten(col: a.col, row: a.row, cols: a.cols, rows: a.rows, under: frame) }
        return bytes + painter.paint(frame)
    }
}
