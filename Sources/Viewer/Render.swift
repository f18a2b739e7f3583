import FoundationEssentials
import Glibc
import GeoCore
import MapData
import Raster

/// How the frame is made: in which colour mode (with colour the shade is a background, without it
/// a stipple).
public struct RenderOptions: Equatable, Sendable {
    /// What the screen shows of styles.
    public var mode: ColorMode

    /// Options.
    public init(mode: ColorMode) { self.mode = mode }
}

/// Text placed on the map: a grid label or a place name, from its first cell.
struct MapLabel: Equatable {
    /// What it says.
    var text: String
    /// Column of its first character.
    var col: Int
    /// Its row.
    var row: Int
    /// How it is styled.
    var role: StyleRole
}

/// Turns a viewer state and map data into the screen: a pure function.
public enum Renderer {
    /// The full terminal screen for `state`.
    public static func render(_ state: ViewerState, sources: MapSources?, options: RenderOptions) -> Frame {
        var frame = Frame(cols: state.terminalCols, rows: state.terminalRows)
        let ascii = state.glyphMode == .ascii
        guard state.isLargeEnough else {
            let lines = ["too small", "need \(ViewerState.minimumCols)x\(ViewerState.minimumRows)"]
            for (i, line) in lines.enumerated() where i < frame.rows {
                frame.write(line, col: 0, row: i, style: StyleTable.style(.error, mode: options.mode, theme: state.theme))
            }
            return frame
        }
        let view = state.displayedView
        let mapRows = view.size.rows
        var canvas = BrailleCanvas(cols: view.size.cols, rows: mapRows)
        var layer = FeatureLayer(fills: [])
        var dataError: String?

        drawEdges(&canvas, view)
        if let sources {
            do {
                layer = try FeatureLayer.draw(&canvas, view, sources)
            } catch {
                dataError = error.description
            }
        }
        let engine = placeLabels(&canvas, view, sources: sources, streets: layer.streets, ascii: ascii)
        let texts = engine.labels
        var shade: [Bool] = []
        if let overlay = state.circle {
            shade = CircleRaster.draw(overlay.circle, view, &canvas)
            SeedOverlay.draw(state, view, &canvas)
        }

        let seaTint = StyleTable.sea(mode: options.mode, theme: state.theme)
        let landTint = StyleTable.fill(.feature(.land), mode: options.mode, theme: state.theme)
        let sea = layer.showsSea ? seaTint : nil
        // The sea ends with the world: rows wholly between the Mercator limits (±85.05°, the edge's rows
        // stay blank).
        let worldRows = Int((view.transform.dotY(0) / 4).rounded(.up))..<Int((view.transform.dotY(1) / 4).rounded(.down))
        // Each ink's look, once a frame (not a table lookup a cell).
        let inkFills = (0...255).map { StyleTable.fill(StyleTable.role(ink: UInt8($0)), mode: options.mode, theme: state.theme) }
        let inkStipples = (0...255).map { StyleTable.row(StyleTable.role(ink: UInt8($0)))?.stipple }
        let inkStyles = (0...255).map { StyleTable.style(StyleTable.role(ink: UInt8($0)), mode: options.mode, theme: state.theme) }
        // Canvas → frame; empty cells keep the terminal's own colours. Areas are a background tint with
        // colour, a sparse stipple in empty cells without.
        for row in 0..<mapRows {
            for col in 0..<view.size.cols {
                let p = canvas.pattern(col: col, row: row)
                if p != 0 {
                    let glyph = ascii ? AsciiGlyphs.glyph(p) : BrailleCanvas.brailleGlyph(p)
                    frame[col, row] = Cell(glyph: glyph, style: inkStyles[Int(canvas.ink(col: col, row: row))])
                }
                let fill = layer.fills.isEmpty ? 0 : layer.fills[row * view.size.cols + col]
                guard fill != 0 else {
                    if !layer.sides.isEmpty {
                        switch layer.sides[row * view.size.cols + col] {
                        case .sea: if let seaTint { frame.setBackground(col: col, row: row, seaTint) }
                        case .land: if let landTint { frame.setBackground(col: col, row: row, landTint) }
                        case .unknown: break
                        }
                    } else if let sea, worldRows.contains(row) {
                        frame.setBackground(col: col, row: row, sea)
                    }
                    continue
                }
                if let background = inkFills[Int(fill)] {
                    frame.setBackground(col: col, row: row, background)
                } else if p == 0, col % 3 == 0, row % 2 == 0, let stipple = inkStipples[Int(fill)] {
                    frame[col, row] = Cell(glyph: stipple, style: inkStyles[Int(fill)])
                }
            }
        }
        if ascii {
            // One marker for a city in ASCII, wherever its dot fell in its cell (a dot alone would read
            // as ', , or | by its place).
            for m in engine.markers {
                frame[m.col, m.row] = Cell(glyph: "*", style: StyleTable.style(.city, mode: options.mode, theme: state.theme))
            }
        }
        for label in texts {
            frame.write(
                Transliteration.screenText(label.text, ascii: ascii), col: label.col, row: label.row,
                style: StyleTable.style(label.role, mode: options.mode, theme: state.theme))
        }
        if !shade.isEmpty {
            let background = StyleTable.shade(mode: options.mode, theme: state.theme)
            // Land keeps its difference from the sea under the shade: a lighter blue over land.
            let landBackground = StyleTable.shade(mode: options.mode, theme: state.theme, overLand: true)
            // Three colours, compared in a row (a set hashed one per shaded cell, thousands a frame).
            let water: [PaletteColor?] = [nil, seaTint, StyleTable.fill(.feature(.water), mode: options.mode, theme: state.theme)]
            // A glyph nothing else draws (the grid is braille dots, areas `~` and `'`).
            let stipple = Cell(glyph: ascii ? ":" : "░", style: StyleTable.style(.plain, mode: options.mode, theme: state.theme))
            for row in 0..<mapRows {
                for col in 0..<view.size.cols where shade[row * view.size.cols + col] {
                    if let background {
                        let overLand = !water.contains(frame[col, row].style.background)
                        frame.setBackground(col: col, row: row, overLand ? landBackground ?? background : background)
                    } else if frame[col, row].glyph == " ", (col + row) % 2 == 0,
                        !engine.taken[row * view.size.cols + col]
                    {
                        // Never inside a label or the cell beside it.
                        // Without colour the shade must show in the glyphs: a light stipple in empty cells.
                        frame[col, row] = stipple
                    }
                }
            }
        }
        frame.makeGlyphsReadable()
        if state.showHelp { drawHelp(&frame, mapRows: mapRows, page: state.helpPage, ascii: ascii, mode: options.mode, theme: state.theme) }
        if state.showExplain { drawExplain(&frame, state, mapRows: mapRows, ascii: ascii, mode: options.mode) }
        // The names of the data shown, as web maps credit theirs: the map data, then the gazetteer when a
        // place is named.
        var dataNames = layer.dataNames
        if engine.labels.contains(where: { [.cityLabel, .capitalLabel, .placeLabel].contains($0.role) }) {
            dataNames.append("GeoNames")
        }
        drawStatus(
            &frame, state, view, dataLabel: layer.label, tileNote: Self.tileNote(layer), credits: layer.credits,
            dataNames: dataNames, dataError: dataError, ascii: ascii, mode: options.mode)
        return frame
    }

    // MARK: Layers

    /// The smallest city (by rank) a zoom names: 4 million people for the world at zoom 0, half that a
    /// zoom step further in, every city of the gazetteer (15,000 and more) from zoom 7.
    static func populationFloor(zoom: Double) -> Int {
        guard zoom < 7 else { return 0 }
        return Int(4_000_000 * exp2(-max(0, zoom)))
    }

    /// Every label of a view through one engine: the grid's first (drawing its lines), then places
    /// (drawing their markers), then streets.
    static func placeLabels(
        _ canvas: inout BrailleCanvas, _ view: MapView, sources: MapSources?, streets: [StreetCandidate], ascii: Bool
    ) -> LabelEngine {
        var engine = LabelEngine(cols: view.size.cols, rows: view.size.rows)
        for label in drawGraticule(&canvas, view) { engine.place(label) }
        if let sources { try? placeCities(&canvas, view, sources, ascii: ascii, engine: &engine) }
        if !streets.isEmpty {
            let t = view.transform
            StreetLabels.place(
                streets, worldLeft: t.center.x * t.worldSize - t.halfWidth,
                worldTop: t.center.y * t.worldSize - t.halfHeight, engine: &engine, ascii: ascii)
        }
        return engine
    }

    /// Dotted lines where the square Mercator world ends (±85.0511°).
    static func drawEdges(_ canvas: inout BrailleCanvas, _ view: MapView) {
        let t = view.transform
        for edgeY in [0.0, 1.0] {
            let y = t.dotY(edgeY)
            if y >= 0, y < view.size.heightDots {
                canvas.line(0, y, view.size.widthDots, y, ink: StyleTable.ink(.edge), every: 2)
            }
        }
    }

    /// Dotted meridians and parallels with labels at the top and left edges.
    static func drawGraticule(_ canvas: inout BrailleCanvas, _ view: MapView) -> [MapLabel] {
        let s = Graticule.spacing(worldSize: view.worldSize)
        let b = view.bounds
        let t = view.transform
        let c = t.center
        let ws = t.worldSize
        let w = view.size.widthDots
        let h = view.size.heightDots
        let top = max(0, t.dotY(0))
        let bottom = min(h, t.dotY(1))
        var labels: [MapLabel] = []
        guard bottom > top else { return labels }
        // The dots of a dotted line sit at world positions (multiples of 4 dots from the world's corner),
        // so a pan moves them with the map instead of leaving them in place on the screen.
        let originX = Self.dotPhase(c.x * ws - w / 2)
        let originY = Self.dotPhase(c.y * ws - h / 2)
        let first = (b.west / s).rounded(.up)
        let last = (b.east / s).rounded(.down)
        if last - first < 400 {
            var k = first
            while k <= last {
                let lon = k * s
                let x = t.dotX((lon + 180) / 360)
                canvas.line(x, top, x, bottom, ink: StyleTable.ink(.grid), every: 4, phase: originY)
                let text = Graticule.label(WebMercator.wrapLongitude(lon), spacing: s, positive: "E", negative: "W")
                labels.append(
                    MapLabel(
                        text: text, col: BrailleCanvas.dot(x) / 2 + 1, row: BrailleCanvas.dot(top) / 4, role: .gridLabel
                    ))
                k += 1
            }
        }
        let firstLat = (b.south / s).rounded(.up)
        let lastLat = (b.north / s).rounded(.down)
        if lastLat - firstLat < 400 {
            var k = firstLat
            while k <= lastLat {
                let lat = k * s
                let y = t.dotY(WebMercator.project(Coordinate(latitude: lat, longitude: 0)).y)
                if abs(lat) < WebMercator.maxLatitude {
                    canvas.line(0, y, w, y, ink: StyleTable.ink(.grid), every: 4, phase: originX)
                    labels.append(
                        MapLabel(
                            text: Graticule.label(lat, spacing: s, positive: "N", negative: "S"), col: 0,
                            row: BrailleCanvas.dot(y) / 4, role: .gridLabel))
                }
                k += 1
            }
        }
        return labels
    }

    /// Which of 4 dots a position in dots falls on (its dot modulo 4).
    static func dotPhase(_ v: Double) -> Int { ((BrailleCanvas.dot(v) % 4) + 4) % 4 }

    /// Largest places first, a dot at each and its name to the right, never overlapping.
    static func placeCities(
        _ canvas: inout BrailleCanvas, _ view: MapView, _ sources: MapSources, ascii: Bool, engine: inout LabelEngine
    ) throws(MapDataError) {
        let cols = view.size.cols
        let rows = view.size.rows
        // Which places a zoom names is set by the zoom alone (a population floor), and where names
        // go by who came first: a count budget made names come and go all over the screen whenever a
        // pan brought a larger place into view.
        let floor = Self.populationFloor(zoom: view.zoom)
        // Below zoom 7 only the places above the next whole zoom's floor are decoded (the floor formula,
        // not cut to 0 at zoom 7).
        let tier = Int(view.zoom.rounded(.down))
        let t = view.transform
        let places: RankedPlaces
        if floor > 0 {
            // Above the floor are few places (1,500 at zoom 4): all of them, in rank order, until the floor.
            places = try sources.topPlaces(tier: tier, floor: Int(4_000_000 * exp2(-Double(tier + 1))))
        } else {
            // One cell of margin: a place's label may start just outside the map's edge.
            let margin = 4 / t.worldSize
            let halfX = t.halfWidth / t.worldSize + margin
            let halfY = t.halfHeight / t.worldSize + margin
            // Past the Mercator limits, to the poles (places there are drawn at the edge).
            let top = t.center.y - halfY, bottom = t.center.y + halfY
            places = try sources.placesNear(
                south: bottom >= 1 ? -90 : WebMercator.unproject(MercatorPoint(x: 0, y: bottom)).latitude,
                north: top <= 0 ? 90 : WebMercator.unproject(MercatorPoint(x: 0, y: top)).latitude,
                west: (t.center.x - halfX) * 360 - 180, east: (t.center.x + halfX) * 360 - 180)
        }
        // Most important first (places are kept in rank order).
        for i in places.id.indices {
            // Suburbs from zoom 13, neighbourhoods from 15 (cities come first in the list, so these only
            // take room that no city wants).
            let kind = places.kind[i]
            // Cities come first, in rank order: past the floor (below zoom 7) none is left to name.
            if floor > 0 && (!kind.isCity || places.rank[i] < floor) { break }
            if kind == .suburb && view.zoom < 13 || kind == .neighbourhood && view.zoom < 15 { continue }
            let xd = t.nearestDotX(places.x[i])
            let yd = t.dotY(places.y[i])
            // Most places are off screen: reject them on the Doubles before any rounding.
            guard xd > -1, yd > -1, xd < view.size.widthDots, yd < view.size.heightDots else { continue }
            let x = BrailleCanvas.dot(xd)
            let y = BrailleCanvas.dot(yd)
            guard x >= 0, y >= 0, x < cols * 2, y < rows * 4 else { continue }
            let name = sources.labelText(places.id[i], ascii: ascii)
            let role: StyleRole = kind == .capital ? .capitalLabel : kind.isCity ? .cityLabel : .placeLabel
            guard
                engine.placeBeside(
                    name, role: role, markerCol: x / 2, markerRow: y / 4, drawsMarker: kind.isCity, canvas: canvas)
                    != nil
            else { continue }
            if kind.isCity { canvas.set(x: x, y: y, ink: StyleTable.ink(.city)) }
        }
    }

    // MARK: Overlays

    /// How the help is laid out on a map of `mapRows` rows: key lines a page and pages. When it does
    /// not fit at once, each page ends in a line saying that more follows.
    static func helpLayout(mapRows: Int) -> (perPage: Int, pages: Int) {
        let count = Keymap.helpLines.count
        // Two border rows and the title.
        let room = max(1, mapRows - 3)
        if count <= room { return (count, 1) }
        let perPage = max(1, room - 1)
        return (perPage, (count + perPage - 1) / perPage)
    }

    /// Pages of the help on this state's screen.
    public static func helpPageCount(_ state: ViewerState) -> Int {
        helpLayout(mapRows: max(1, state.terminalRows - ViewerState.statusRows)).pages
    }

    static func drawHelp(_ frame: inout Frame, mapRows: Int, page: Int, ascii: Bool, mode: ColorMode, theme: Theme = .dark) {
        let layout = helpLayout(mapRows: mapRows)
        let page = min(max(0, page), layout.pages - 1)
        let keys = Keymap.helpLines
        let shown = Array(keys[(page * layout.perPage)..<min(keys.count, (page + 1) * layout.perPage)])
        var lines: [String]
        if layout.pages == 1 {
            lines = ["termmap keys (any key closes)"] + shown
        } else {
            lines = ["termmap keys, page \(page + 1) of \(layout.pages)"] + shown
            lines.append(page + 1 < layout.pages ? "Space: more · any other key closes" : "end · any key closes")
        }
        drawPanel(&frame, lines, widest: (keys + lines).map(\.count).max() ?? 0, mapRows: mapRows, ascii: ascii, mode: mode, theme: theme)
    }

    /// The explain panel (`e`): the last step's numbers, or a line saying there are none yet.
    static func drawExplain(_ frame: inout Frame, _ state: ViewerState, mapRows: Int, ascii: Bool, mode: ColorMode) {
        let lines = (state.lastAction.flatMap { Explanation.lines($0, latitude: state.view.center.latitude) } ?? ["nothing to explain yet: press + -, z, c, r or f"])
            + ["any key closes"]
        drawPanel(&frame, lines, widest: lines.map(\.count).max() ?? 0, mapRows: mapRows, ascii: ascii, mode: mode, theme: state.theme)
    }

    /// A box of lines centred on the map, `widest` characters inside.
    static func drawPanel(
        _ frame: inout Frame, _ lines: [String], widest: Int, mapRows: Int, ascii: Bool, mode: ColorMode, theme: Theme
    ) {
        let width = min(frame.cols - 2, widest + 4)
        let height = min(mapRows, lines.count + 2)
        guard width > 4, height > 2 else { return }
        let left = (frame.cols - width) / 2
        let top = max(0, (mapRows - height) / 2)
        for r in 0..<height {
            let text: String
            if r == 0 || r == height - 1 {
                text = (r == 0 ? "┌" : "└") + String(repeating: "─", count: width - 2) + (r == 0 ? "┐" : "┘")
            } else {
                let body = r - 1 < lines.count ? lines[r - 1] : ""
                text =
                    "│ " + String(body.prefix(width - 4)).padded(to: width - 4)
                    + " │"
            }
            frame.write(
                Transliteration.screenText(text, ascii: ascii), col: left, row: top + r,
                style: StyleTable.style(.help, mode: mode, theme: theme), keepBackground: false)
        }
    }

    /// `loading 3 tiles · 1 tile failed`, or nil.
    static func tileNote(_ layer: FeatureLayer) -> String? {
        func count(_ n: Int) -> String { n == 1 ? "1 tile" : "\(n) tiles" }
        var notes: [String] = []
        if layer.loading > 0 { notes.append("loading \(count(layer.loading))") }
        if layer.failed > 0 { notes.append("\(count(layer.failed)) failed") }
        return notes.isEmpty ? nil : notes.joined(separator: " · ")
    }

    static func drawStatus(
        _ frame: inout Frame, _ state: ViewerState, _ view: MapView, dataLabel: String, tileNote: String? = nil,
        credits: [String], dataNames: [String] = [], dataError: String?, ascii: Bool, mode: ColorMode
    ) {
        let statusRow = frame.rows - 2
        let messageRow = frame.rows - 1
        // The view's size along the center's parallel and meridian (a wider window is never reported
        // narrower; the zoom message keeps the seed's east–west chord).
        let meters = view.extentMeters()
        let zoom = "zoom \(Formatting.zoom(view.zoom))"
        var fields: [StatusLine.Field] = [
            .init(text: CoordinateFormat.hemispheres(view.center, decimals: 5), rank: 3),
            .init(text: zoom, rank: 0),
            .init(text: "\(Formatting.distance(meters.longitudinal)) × \(Formatting.distance(meters.latitudinal))", rank: 4),
            .init(text: scaleBar(view), rank: 5),
        ]
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
        if let tileNote { fields.append(.init(text: tileNote, rank: 6)) }
        // The data sources, finest first: each may drop on its own, the coarsest first.
        for (i, part) in dataLabel.split(separator: " · ", omittingEmptySubsequences: false).map(String.init).enumerated() {
            fields.append(.init(text: part, rank: 7 + i, separator: i == 0 ? " │ " : " · "))
        }
        // Data that must be credited on screen (OpenStreetMap's ODbL): at the end of the line, in full
        // where it fits, else short.
        let credit: (full: String, short: String)? =
            credits.isEmpty
            ? nil
            : (
                credits.joined(separator: "; "),
                credits.map { $0.contains("OpenStreetMap") ? "© OSM" : $0 }.joined(separator: "; ")
            )
        let line = StatusLine.layout(fields, credit: credit, compact: compact, cols: frame.cols)
        frame.write(
            Transliteration.screenText(line.left, ascii: ascii), col: 0, row: statusRow,
            style: StyleTable.style(.status, mode: mode, theme: state.theme))
        if let credit = line.credit {
            let text = Transliteration.screenText(credit, ascii: ascii)
            frame.write(
                text, col: max(0, frame.cols - text.count), row: statusRow, style: StyleTable.style(.credit, mode: mode, theme: state.theme)
            )
        }
        if let prompt = state.prompt {
            drawChoices(&frame, prompt, bottom: statusRow, ascii: ascii, mode: mode, theme: state.theme)
            let text = prompt.kind.question + prompt.text + "_"
            // Keep the end of a long input visible.
            let shown = text.count > frame.cols ? String(text.suffix(frame.cols)) : text
            frame.write(
                Transliteration.screenText(shown, ascii: ascii), col: 0, row: messageRow,
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
            if !dataNames.isEmpty, text.count + 2 + names.count <= frame.cols {
                frame.write(
                    names, col: frame.cols - names.count, row: messageRow, style: StyleTable.style(.attribution, mode: mode, theme: state.theme))
            }
        }
    }

    /// A search's matches while typing, in a box just above the status line, the chosen one marked.
    static func drawChoices(_ frame: inout Frame, _ prompt: Prompt, bottom: Int, ascii: Bool, mode: ColorMode, theme: Theme) {
        guard !prompt.choices.isEmpty else { return }
        let lines = prompt.choices.enumerated().map { i, hit in
            (i == prompt.chosen ? "> " : "  ") + Transliteration.screenText(hit.label, ascii: ascii) + " "
        }
        let width = min(frame.cols, lines.map(\.count).max() ?? 0)
        let top = max(0, bottom - lines.count)
        for (i, line) in lines.enumerated() where top + i < bottom {
            let cut = String(line.prefix(width))
            let padded = cut + String(repeating: " ", count: max(0, width - cut.count))
            frame.write(
                padded, col: 0, row: top + i, style: StyleTable.style(.help, mode: mode, theme: theme), keepBackground: false)
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
