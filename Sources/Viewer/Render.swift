import FoundationEssentials
import GeoCore
import Glibc
import MapData
import MapFormats
import MapRender
import Raster
import Support

/// How the frame is made: in which colour mode (with colour the shade is a background, without it
/// a stipple).
public struct RenderOptions: Equatable, Sendable {
    /// What the screen shows of styles.
    public var mode: ColorMode
    /// Levels of detail of the user's files are made while drawing (else reported, and made elsewhere).
    public var makesDetailAtOnce: Bool
    /// The imagery as a picture the terminal draws (kitty's graphics protocol), not half blocks.
    public var pictures: PictureCell?

    /// Options.
    public init(mode: ColorMode, makesDetailAtOnce: Bool = true, pictures: PictureCell? = nil) {
        self.mode = mode
        self.makesDetailAtOnce = makesDetailAtOnce
        self.pictures = pictures
    }
}

/// A screen and what its map drew (nil when the screen is too small for a map).
public struct Screenful {
    /// The cells.
    public var frame: Frame
    /// What the map drew, to be asked what is where.
    public var map: MapRendering?
    /// The what-is-here panel's content, when it is open.
    public var info: InfoReport?
    /// How far that panel can scroll (nil when it is closed).
    public var infoScrollLimit: Int?
    /// The imagery as a picture (`RenderOptions.pictures`), nil when there is none to show.
    public var picture: MapPicture?
    /// The map's rows, which the picture covers.
    public var pictureRows = 0

    /// Where the terminal draws kitty's pictures: what to send it to show this screen's picture, given
    /// what it holds (`kitty`, which keeps count).
    public func pictureCommands(_ kitty: inout KittyPlacements) -> [UInt8] {
        kitty.update(picture, cols: frame.cols, rows: pictureRows)
    }

    /// The way a run packs the pictures it sends: zlib at its fastest level (a new view sends its new
    /// chunks at once).
    public static func kittyPlacements() -> KittyPlacements {
        KittyPlacements(pack: { Zlib.deflate($0, level: 1) })
    }

    /// A screen.
    public init(frame: Frame, map: MapRendering?, info: InfoReport? = nil, infoScrollLimit: Int? = nil) {
        self.frame = frame
        self.map = map
        self.info = info
        self.infoScrollLimit = infoScrollLimit
    }
}

/// Turns a viewer state and map data into the screen: a pure function. The map comes from
/// `MapRenderer` (its layers, then the state's own); the viewer adds its panels and the status line.
public enum Renderer {
    /// The full terminal screen for `state`.
    public static func render(_ state: ViewerState, sources: MapSources?, options: RenderOptions) -> Frame {
        draw(state, sources: sources, options: options).frame
    }

    /// The screen once the tiles its view lacks have been loaded, in this thread (for tests and the
    /// benchmark; `render` runs the event loop): at most `rounds` loads, in case a cache too small for
    /// the view evicts what it loaded.
    public static func drawLoaded(
        _ state: ViewerState, sources: MapSources?, options: RenderOptions, rounds: Int = 4
    ) -> Screenful {
        if let sources, state.isLargeEnough {
            for batch in MapRenderer.missingTiles(
                view: state.displayedView, sources: sources, imagery: state.showImagery)
            {
                sources.load(batch)
            }
        }
        var screenful = draw(state, sources: sources, options: options)
        for _ in 0..<rounds {
            guard let sources, let missing = screenful.map?.missing, !missing.isEmpty else { break }
            for batch in missing { sources.load(batch) }
            screenful = draw(state, sources: sources, options: options)
        }
        return screenful
    }

    /// The full terminal screen for `state`, with what its map drew.
    /// The map's style in `options`, as the state shows it.
    static func mapStyle(_ state: ViewerState, _ options: RenderOptions, ascii: Bool) -> MapStyle {
        var style = MapStyle(
            mode: options.mode, theme: state.theme, ascii: ascii, grid: state.showGrid, imagery: state.showImagery)
        style.imageryPicture = options.pictures
        style.hillshade = state.showHillshade
        return style
    }

    public static func draw(_ state: ViewerState, sources: MapSources?, options: RenderOptions) -> Screenful {
        var frame = Frame(cols: state.terminalCols, rows: state.terminalRows)
        let ascii = state.glyphMode == .ascii
        guard state.isLargeEnough else {
            let lines = ["too small", "need \(ViewerState.minimumCols)x\(ViewerState.minimumRows)"]
            for (i, line) in lines.enumerated() where i < frame.rows {
                frame.write(
                    line, col: 0, row: i, style: StyleTable.style(.error, mode: options.mode, theme: state.theme))
            }
            return Screenful(frame: frame, map: nil)
        }
        let view = state.displayedView
        let mapRows = view.size.rows
        var map = MapRenderer.render(
            into: &frame, view: view, overlays: state.overlays, sources: sources,
            style: mapStyle(state, options, ascii: ascii), makesDetailAtOnce: options.makesDetailAtOnce)
        if state.showHelp {
            drawHelp(
                &frame, state.keymap, mapRows: mapRows, page: state.helpPage, ascii: ascii, mode: options.mode,
                theme: state.theme)
        }
        if state.showExplain { drawExplain(&frame, state, mapRows: mapRows, ascii: ascii, mode: options.mode) }
        if state.showLegend {
            drawLegend(
                &frame, map, mapRows: mapRows, style: MapStyle(mode: options.mode, theme: state.theme, ascii: ascii))
        }
        if state.showLayers {
            drawLayers(
                &frame, state, mapRows: mapRows, style: MapStyle(mode: options.mode, theme: state.theme, ascii: ascii))
        }
        if state.showBookmarks {
            drawBookmarks(
                &frame, state, mapRows: mapRows, style: MapStyle(mode: options.mode, theme: state.theme, ascii: ascii))
        }
        let panelStyle = MapStyle(mode: options.mode, theme: state.theme, ascii: ascii)
        if state.directions.showsSteps { drawSteps(&frame, state, mapRows: mapRows, style: panelStyle) }
        if state.timeBar != nil { drawTimeBar(&frame, state, mapRows: mapRows, style: panelStyle) }
        if let line = state.profileLine, let terrain = sources?.terrain {
            let (profile, missing) = terrain.profile(along: line.line, zoom: view.zoom)
            drawProfile(&frame, of: line, profile, mapRows: mapRows, style: panelStyle)
            map.profile = (line.title, profile)
            if let sources, !missing.isEmpty {
                map.missing.append(TileBatch(source: sources.terrainIndex, tiles: missing))
            }
        }
        if state.showsCrosshair { drawCrosshair(&frame, view, style: panelStyle) }
        let info = InfoReport.of(state, map: map)
        let infoScrollLimit = info.map {
            drawInfo(&frame, $0, scroll: state.infoScroll, mapRows: mapRows, style: panelStyle)
        }
        drawStatus(
            &frame, state, view, map: sources == nil ? nil : map, sources: sources, ascii: ascii, mode: options.mode)
        var screenful = Screenful(frame: frame, map: map, info: info, infoScrollLimit: infoScrollLimit)
        if options.pictures != nil {
            screenful.picture = map.picture
            screenful.pictureRows = mapRows
        }
        return screenful
    }

    // MARK: Overlays

    static func drawHelp(
        _ frame: inout Frame, _ keymap: Keymap, mapRows: Int, page: Int, ascii: Bool, mode: ColorMode,
        theme: Theme = .dark
    ) {
        let layout = HelpLayout(keymap, mapRows: mapRows, cols: frame.cols)
        let page = min(max(0, page), layout.pages - 1)
        let keys = layout.lines
        let shown = Array(layout.page(page))
        var lines = shown
        let title: String
        if layout.pages == 1 {
            title = "termmap keys (any key closes)"
        } else {
            title = "termmap keys, page \(page + 1) of \(layout.pages)"
            lines.append(page + 1 < layout.pages ? "Space: more · any other key closes" : "end · any key closes")
        }
        drawPanel(
            &frame, lines, widest: (keys + lines + [title]).map(\.columns).max() ?? 0, mapRows: mapRows, ascii: ascii,
            mode: mode,
            theme: theme, title: title, blankRing: true)
    }

    /// The explain panel (`e`): the last step's numbers, or a line saying there are none yet.
    static func drawExplain(_ frame: inout Frame, _ state: ViewerState, mapRows: Int, ascii: Bool, mode: ColorMode) {
        let lines =
            (state.lastAction.flatMap { Explanation.lines($0, latitude: state.view.center.latitude) } ?? [
                "nothing to explain yet: press + -, z, c, r or f"
            ])
            + ["any key closes"]
        drawPanel(
            &frame, lines, widest: lines.map(\.columns).max() ?? 0, mapRows: mapRows, ascii: ascii, mode: mode,
            theme: state.theme)
    }

    /// The legend (`w`): a box at the map's top right listing each class on screen with three cells of
    /// its look in this mode, then the signs of the points of interest shown.
    static func drawLegend(_ frame: inout Frame, _ map: MapRendering, mapRows: Int, style: MapStyle) {
        var entries: [(sample: [Cell], text: String)] = []
        for c in map.shownClasses where c != .poi {
            let sample = MapRenderer.legendSample(c, style: style)
            // A look this mode does not show (the land without colour) is not a look to explain.
            guard sample.contains(where: { $0.glyph != " " || $0.style.background != nil }) else { continue }
            entries.append((sample, StyleTable.className(c)))
        }
        let sign = StyleTable.style(.feature(.poi), mode: style.mode, theme: style.theme)
        for kind in map.shownPointKinds {
            entries.append(
                (
                    [
                        Cell(glyph: " ", style: .plain),
                        Cell(glyph: StyleTable.poiGlyph(kind).unicodeScalars.first ?? "+", style: sign),
                        Cell(glyph: " ", style: .plain),
                    ], kind.words
                ))
        }
        if entries.isEmpty { entries.append(([], "nothing on screen")) }
        let lines = ["legend (w closes)"] + entries.map { "    " + $0.text }
        guard
            let box = drawPanel(
                &frame, lines, widest: lines.map(\.count).max() ?? 0, mapRows: mapRows, ascii: style.ascii,
                mode: style.mode,
                theme: style.theme, topRight: true)
        else { return }
        // The samples in each entry's first three cells (the panel's rows below its title).
        for (i, entry) in entries.enumerated() where box.top + 2 + i < box.top + box.height - 1 {
            for (k, cell) in entry.sample.enumerated() { frame[box.left + 2 + k, box.top + 2 + i] = cell }
        }
    }

    /// The layer list (`o`): each file with its number, its look, its format and counts, shown or hidden.
    static func drawLayers(_ frame: inout Frame, _ state: ViewerState, mapRows: Int, style: MapStyle) {
        let layers = state.userLayers
        var lines = [
            "your files (o closes, 1–9 shows or hides" + (state.terrainName != nil ? ", p 1–9 profiles a track)" : ")")
        ]
        for (i, layer) in layers.enumerated() {
            let f = layer.file
            let what: String
            if let share = f.progress {
                what = "reading, \(Int(share * 100)) %"
            } else if let error = f.error {
                what = "failed: " + error
            } else {
                let counts =
                    f.data.count == 0
                    ? "no features yet"
                    : FeatureCountWords.text(count: f.data.count, pieces: f.data.countsByType, file: f.file)
                what =
                    ([f.format.rawValue, counts]
                    + (f.data.skipped > 0 ? ["\(f.data.skipped) left out"] : []) + f.data.notes.phrases).joined(
                        separator: " · ")
            }
            lines.append("\(i < 9 ? "\(i + 1)" : " ") \(layer.visible ? "[x]" : "[ ]")   \(f.displayName): \(what)")
        }
        if layers.isEmpty {
            lines.append(
                "no files: termmap FILE… shows \(FormatDrivers.titles.joined(separator: ", ")) and what ogr2ogr reads")
        }
        guard
            let box = drawPanel(
                &frame, lines, widest: lines.map(\.count).max() ?? 0, mapRows: mapRows, ascii: style.ascii,
                mode: style.mode,
                theme: style.theme)
        else { return }
        // Each file's marker in its look, after its box.
        for (i, layer) in layers.enumerated() where box.top + 2 + i < box.top + box.height - 1 {
            frame[box.left + 8, box.top + 2 + i] = Cell(
                glyph: StyleTable.overlayMarker(layer.look, ascii: style.ascii).unicodeScalars.first ?? "o",
                style: StyleTable.style(.overlay(layer.look), mode: style.mode, theme: style.theme))
        }
    }

    /// The bookmark list (`'`): the first nine, numbered, with where each is.
    static func drawBookmarks(_ frame: inout Frame, _ state: ViewerState, mapRows: Int, style: MapStyle) {
        let all = state.bookmarks?.bookmarks ?? []
        var lines = [
            state.deletingBookmark
                ? "delete which bookmark? (1–9; another key: none)"
                : "your bookmarks (1–9 goes there, d deletes, another key closes)"
        ]
        for (i, b) in all.prefix(9).enumerated() {
            lines.append(
                "\(i + 1) \(b.name)  \(CoordinateFormat.hemispheres(b.coordinate, decimals: 5)), zoom \(Formatting.zoom(b.zoom))"
            )
        }
        if all.count > 9 { lines.append("(\(all.count - 9) more in the file)") }
        if all.isEmpty { lines.append("none yet: b keeps this view") }
        let shown = lines.map { Transliteration.screenText($0, ascii: style.ascii) }
        drawPanel(
            &frame, shown, widest: shown.map(\.columns).max() ?? 0, mapRows: mapRows, ascii: style.ascii,
            mode: style.mode, theme: style.theme)
    }

    /// A box of lines centred on the map (or at its top right), at least `widest` columns inside (as
    /// many as its widest line takes once shown); where it went, nil when it does not fit. The lines and
    /// the title are made screen text here, then measured and padded in columns: a border never shifts.
    @discardableResult
    static func drawPanel(
        _ frame: inout Frame, _ lines: [String], widest: Int, mapRows: Int, ascii: Bool, mode: ColorMode, theme: Theme,
        topRight: Bool = false, atBottom: Bool = false, title: String? = nil, blankRing: Bool = false
    ) -> (left: Int, top: Int, height: Int)? {
        let shown = lines.map { Transliteration.screenText($0, ascii: ascii) }
        let width = min(frame.cols - 2, max(widest, shown.map(\.columns).max() ?? 0) + 4)
        let height = min(mapRows, lines.count + 2)
        guard width > 4, height > 2 else { return nil }
        let left = topRight ? frame.cols - width - 1 : (frame.cols - width) / 2
        let top = topRight ? 0 : atBottom ? max(0, mapRows - height) : max(0, (mapRows - height) / 2)
        func border(_ text: String) -> String { Transliteration.screenText(text, ascii: ascii) }
        if blankRing {
            // A blank cell's ring around the box: no scrap of the map beside it (at 80 columns the box
            // leaves one column either side).
            let (x0, x1) = (max(0, left - 1), min(frame.cols, left + width + 1))
            for r in max(0, top - 1)..<min(mapRows, top + height + 1) {
                frame.write(
                    String(repeating: " ", count: x1 - x0), col: x0, row: r, style: .plain, keepBackground: false)
            }
        }
        for r in 0..<height {
            let text: String
            if r == 0, let title {
                // `┌ title ───┐`: a title in the top border costs no row.
                let head =
                    border("┌ ") + Transliteration.screenText(title, ascii: ascii).prefix(columns: width - 4) + " "
                text = head + border(String(repeating: "─", count: max(0, width - 1 - head.columns)) + "┐")
            } else if r == 0 || r == height - 1 {
                text = border((r == 0 ? "┌" : "└") + String(repeating: "─", count: width - 2) + (r == 0 ? "┐" : "┘"))
            } else {
                let body = r - 1 < shown.count ? shown[r - 1] : ""
                text = border("│ ") + body.padded(to: width - 4) + border(" │")
            }
            frame.write(
                text, col: left, row: top + r, style: StyleTable.style(.help, mode: mode, theme: theme),
                keepBackground: false)
        }
        return (left, top, height)
    }

    /// `loading 3 tiles · 1 tile failed`, `offline: cached tiles` (`offline: nothing cached here`), or nil.
    static func tileNote(_ tiles: SourceStatus) -> String? {
        func count(_ n: Int) -> String { n == 1 ? "1 tile" : "\(n) tiles" }
        var notes: [String] = []
        if tiles.loading > 0 { notes.append("loading \(count(tiles.loading))") }
        // Without a network the view shows what is cached: that, not a count of failures, is the news.
        if tiles.offline > 0 {
            notes.append(tiles.cached > 0 ? "offline: cached tiles" : "offline: nothing cached here")
        } else if tiles.failed > 0 {
            notes.append("\(count(tiles.failed)) failed")
        }
        return notes.isEmpty ? nil : notes.joined(separator: " · ")
    }

    /// A source's detail as the status line says it: `L3/6` (a level of a map data file), `z14` (tiles).
    static func detailText(_ detail: SourceDetail?) -> String {
        switch detail {
        case .level(let level, let count): return "L\(level + 1)/\(count)"
        case .tileZoom(let z): return "z\(z)"
        case nil: return ""
        }
    }

    /// The status line's data sources, finest first (`OpenStreetMap (helsinki)`, `Natural Earth`), each
    /// a field that may drop on its own. Their levels of detail are in `render --json`'s sources.
    static func sourceFields(_ map: MapRendering?, _ view: MapView, sources: MapSources?) -> [String] {
        guard let map else { return ["no data"] }
        var parts = map.sourcesInView.map(\.name)
        if parts.isEmpty { parts = ["no data"] }
        if sources?.features.shorelines != nil, view.metersPerDot >= FeatureSources.shorelineMetersPerDot {
            parts[parts.count - 1] += " (GSHHG below \(Int(FeatureSources.shorelineMetersPerDot)) m/dot)"
        }
        return parts
    }

    /// The status line (where, how far, the sources and their credit) and the message line under it.
    static func drawStatus(
        _ frame: inout Frame, _ state: ViewerState, _ view: MapView, map: MapRendering?, sources: MapSources?,
        ascii: Bool, mode: ColorMode
    ) {
        let dataNames = map?.credits.filter { !$0.required }.map(\.name) ?? []
        drawStatusLine(&frame, state, view, map: map, sources: sources, ascii: ascii, mode: mode)
        drawMessageLine(&frame, state, dataError: map?.dataError, dataNames: dataNames, ascii: ascii, mode: mode)
    }

    /// The status line's fields, each with its rank (the lowest drops last), and the line when nothing
    /// but the zoom fits.
    static func statusFields(_ state: ViewerState, _ view: MapView, map: MapRendering?, sources: MapSources?) -> (
        fields: [StatusLine.Field], compact: String
    ) {
        // The view's size along the center's parallel and meridian (a wider window is never reported
        // narrower; the zoom message gives the same widths).
        let meters = view.extentMeters()
        var fields: [StatusLine.Field] = [
            .init(text: CoordinateFormat.hemispheres(view.center, decimals: 5), rank: 3),
            .init(text: "zoom \(Formatting.zoom(view.zoom))", rank: 0),
            .init(
                text: "\(Formatting.distance(meters.longitudinal)) × \(Formatting.distance(meters.latitudinal))",
                rank: 4),
            .init(text: scaleBar(view), rank: 5),
        ]
        // The height under the crosshair, beside the centre, while the run has terrain (issue 48).
        if let height = map?.centerHeight {
            fields.insert(.init(text: "\(Int(height.meters.rounded())) m", rank: 3, separator: " "), at: 1)
        }
        // The live position's speed and height (issue 49), or why there is none.
        if let p = state.position {
            fields.append(.init(text: positionField(p, imperial: state.imperialUnits), rank: 2))
        }
        var compact = "z" + Formatting.zoom(view.zoom)
        if let c = state.circle {
            fields.append(.init(text: "circle \(Formatting.distance(c.circle.radiusMeters))", rank: 1))
            compact += " r" + Formatting.distance(c.circle.radiusMeters).replacing(" ", with: "")
        }
        if state.showSeedOverlay { fields.append(.init(text: "seed overlay", rank: 2)) }
        switch state.tour {
        case .off: break
        case .playing(let step, let steps): fields.append(.init(text: "tour \(step)/\(steps)", rank: 2))
        case .paused(let step, let steps): fields.append(.init(text: "tour \(step)/\(steps) paused", rank: 2))
        }
        // Tiles loading, failed or offline: news that outranks where the view is.
        if let tileNote = map.flatMap({ Self.tileNote($0.tiles) }) { fields.append(.init(text: tileNote, rank: 2)) }
        // The data sources, finest first: each may drop on its own, the coarsest first.
        for (i, part) in sourceFields(map, view, sources: sources).enumerated() {
            fields.append(.init(text: part, rank: 7 + i, separator: i == 0 ? " │ " : " · "))
        }
        return (fields, compact)
    }

    /// `GPS 43 km/h 12 m` (`F` following: `GPS→`), `● REC` while recording; `GPS: no fix` without one.
    /// With `--units imperial`: mph and feet (the international mile, 1609.344 m; the foot, 0.3048 m).
    static func positionField(_ p: LivePosition, imperial: Bool = false) -> String {
        let rec = p.recording != nil ? "● REC " : ""
        let name = p.following ? "GPS→" : "GPS"
        guard let fix = p.fix else { return rec + name + ": " + (p.status.map { String($0.prefix(24)) } ?? "no fix") }
        var text = rec + name
        if let speed = fix.speed, speed.isFinite {
            text +=
                imperial ? " \(Int((speed * 3600 / 1609.344).rounded())) mph" : " \(Int((speed * 3.6).rounded())) km/h"
        }
        if let alt = fix.altitude, alt.isFinite {
            text += imperial ? " \(Int((alt / 0.3048).rounded())) ft" : " \(Int(alt.rounded())) m"
        }
        return text + (fix.mode == 2 ? " 2D" : "")
    }

    /// The status line, with the credit the data requires on screen (OpenStreetMap's ODbL) at its end,
    /// in full where it fits, else short.
    static func drawStatusLine(
        _ frame: inout Frame, _ state: ViewerState, _ view: MapView, map: MapRendering?, sources: MapSources?,
        ascii: Bool, mode: ColorMode
    ) {
        let statusRow = frame.rows - 2
        let (fields, compact) = statusFields(state, view, map: map, sources: sources)
        let required = map?.credits.filter(\.required) ?? []
        let credit: (full: String, short: String)? =
            required.isEmpty
            ? nil
            : (required.map(\.text).joined(separator: "; "), required.map(\.short).joined(separator: "; "))
        // Laid out as shown: in ASCII `©` is `(c)` and `°` goes, so the lengths are the shown ones and a
        // space always stays before the credit.
        func shown(_ s: String) -> String { Transliteration.screenText(s, ascii: ascii) }
        let line = StatusLine.layout(
            fields.map { .init(text: shown($0.text), rank: $0.rank, separator: shown($0.separator)) },
            credit: credit.map { (shown($0.full), shown($0.short)) }, compact: shown(compact), cols: frame.cols)
        let style = StyleTable.style(.status, mode: mode, theme: state.theme)
        // The line's band from edge to edge, under its fields and credit.
        frame.fill(row: statusRow, style: style.blankLook)
        frame.write(line.left, col: 0, row: statusRow, style: style)
        if let text = line.credit {
            frame.write(
                text, col: max(0, frame.cols - text.columns), row: statusRow,
                style: StyleTable.style(.credit, mode: mode, theme: state.theme)
            )
        }
    }

    /// The message line: the prompt being typed, the data's error, or the last message with the rest of
    /// the data's names at the bottom right where there is room.
    static func drawMessageLine(
        _ frame: inout Frame, _ state: ViewerState, dataError: String?, dataNames: [String], ascii: Bool,
        mode: ColorMode
    ) {
        let statusRow = frame.rows - 2
        let messageRow = frame.rows - 1
        frame.fill(row: messageRow, style: StyleTable.style(.message, mode: mode, theme: state.theme).blankLook)
        if let prompt = state.prompt {
            drawChoices(&frame, prompt, bottom: statusRow, ascii: ascii, mode: mode, theme: state.theme)
            let text = prompt.kind.question + prompt.text + "_"
            // Keep the end of a long input visible.
            let screen = Transliteration.screenText(text, ascii: ascii)
            frame.write(
                screen.columns > frame.cols ? screen.suffix(columns: frame.cols) : screen, col: 0, row: messageRow,
                style: StyleTable.style(.prompt, mode: mode, theme: state.theme))
        } else if let dataError {
            frame.write(
                Transliteration.screenText(dataError, ascii: ascii), col: 0, row: messageRow,
                style: StyleTable.style(.error, mode: mode, theme: state.theme))
        } else {
            let role: StyleRole = state.messageIsError ? .error : .message
            let text = state.message.isEmpty ? Self.startHint : state.message
            frame.write(
                Transliteration.screenText(text, ascii: ascii), col: 0, row: messageRow,
                style: StyleTable.style(role, mode: mode, theme: state.theme))
            // The short attribution at the bottom right, where the message leaves room for it.
            let names = Transliteration.screenText("© " + dataNames.joined(separator: " · "), ascii: ascii)
            if !dataNames.isEmpty,
                Transliteration.screenText(text, ascii: ascii).columns + 2 + names.columns <= frame.cols
            {
                frame.write(
                    names, col: frame.cols - names.columns, row: messageRow,
                    style: StyleTable.style(.attribution, mode: mode, theme: state.theme))
            }
        }
    }

    /// A search's matches while typing, in a box just above the status line, the chosen one marked.
    /// Typed text that matches nothing says so at once, before Enter.
    static func drawChoices(
        _ frame: inout Frame, _ prompt: Prompt, bottom: Int, ascii: Bool, mode: ColorMode, theme: Theme
    ) {
        let typed = !prompt.text.trimmedOfWhitespace.isEmpty
        guard !prompt.choices.isEmpty || (prompt.kind == .search && typed) else { return }
        let lines =
            prompt.choices.isEmpty
            ? ["  no match "]
            : prompt.choices.enumerated().map { i, hit in
                // Each match with how far it is from the view.
                let away = hit.distanceMeters.map { " · " + Formatting.distance($0) } ?? ""
                return (i == prompt.chosen ? "> " : "  ") + Transliteration.screenText(hit.label + away, ascii: ascii)
                    + " "
            }
        let width = min(frame.cols, lines.map(\.columns).max() ?? 0)
        let top = max(0, bottom - lines.count)
        for (i, line) in lines.enumerated() where top + i < bottom {
            frame.write(
                line.padded(to: width), col: 0, row: top + i, style: StyleTable.style(.help, mode: mode, theme: theme),
                keepBackground: false)
        }
    }

    /// What the message line says until a key has been pressed.
    static let startHint = "? help  / find a place  g go to  q quit"

    /// `├───┤ 500 m`: a round length at most 10 cells long at the center's scale.
    static func scaleBar(_ view: MapView) -> String {
        let metersPerCell = view.metersPerDot * Double(ViewSize.dotsPerCellX)
        let length = Formatting.roundLength(atMost: metersPerCell * 10)
        let n = max(1, Int((length / metersPerCell).rounded()))
        let bar = n >= 2 ? "├" + String(repeating: "─", count: n - 2) + "┤" : "|"
        return bar + " " + Formatting.distance(length)
    }
}
