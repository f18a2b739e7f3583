import Foundation
import GeoCore
import Glibc
import Raster
import Support
import TestSupport
import Testing

@testable import MapBuilders
@testable import MapData
@testable import MapFormats
@testable import MapRender
@testable import Viewer

/// Text from outside never acts on the terminal, and never shifts a row: the hostile corpus
/// (`HostileText`) as a name and a property of every source termmap reads (GeoJSON, CSV, GPX, KML, the
/// stream, vector tiles, an OpenStreetMap import, bookmarks, file names), shown in every place text
/// is shown (map labels, the `i` panel, the layer list, the bookmark list, the search's prompt and
/// choices, the message line), in braille and ASCII, with colour and without: the bytes the painter
/// sends hold no sequence it does not write itself (parsed, and shown through a terminal in memory),
/// and every row of every frame is exactly the screen's width by the C library's own `wcwidth`.
/// A corpus string as a test argument, described safely (the test runner prints its arguments).
struct Hostile: CustomTestStringConvertible, Sendable {
    let text: String
    var testDescription: String { SafeText.forLine(text) }
    static let corpus = HostileText.corpus.map(Hostile.init)
    static let xmlCorpus = HostileText.xmlCorpus.map(Hostile.init)
}

@Suite("Hostile text")
struct HostileTextTests {
    static let cols = 120
    static let rows = 40
    static let center = Coordinate(latitude: 60.1700, longitude: 24.9400)

    // MARK: Checks

    /// The C library's width of a row's text in C.UTF-8 (the terminal's own rule), nil when it does
    /// not know a character.
    static func glibcColumns(_ text: String) -> Int? {
        guard let wcwidth = Self.wcwidth, let locale = Self.utf8 else { return nil }
        let old = uselocale(locale)
        defer { uselocale(old) }
        var n = 0
        for s in text.unicodeScalars {
            let w = wcwidth(Int32(bitPattern: s.value))
            if w >= 0 {
                n += Int(w)
            } else if let lagging = CharacterWidth.of(s), lagging != 1 {
                // Where glibc lags (it does not know a character Unicode 15 made wide or combining), the
                // table's Unicode 15 width: the rule the issue sets for termmap.
                n += lagging
            } else {
                return nil
            }
        }
        return n
    }
    typealias WCWidth = @convention(c) (Int32) -> Int32
    /// `wcwidth` (looked up by name: Swift's Glibc module leaves it out) and the C.UTF-8 locale.
    static let wcwidth: WCWidth? = dlsym(nil, "wcwidth").map { unsafeBitCast($0, to: WCWidth.self) }
    nonisolated(unsafe) static let utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", nil)

    /// Checks one frame as every screen would be sent it; returns the problems found.
    static func problems(_ frame: Frame, ascii: Bool, _ context: String) -> [String] {
        var found: [String] = []
        for row in 0..<frame.rows {
            let line = frame.line(row)
            if glibcColumns(line) != frame.cols {
                found.append(
                    "\(SafeText.forLine(context)): row \(row) is \(glibcColumns(line).map(String.init) ?? "unknown") columns wide, not \(frame.cols): \(SafeText.forLine(line))"
                )
            }
        }
        for mode in [ColorMode.ansi256, .ansi8, .monochrome] {
            var abilities = TerminalPainter.Abilities.xterm(mode)
            abilities.unicode = !ascii
            var painter = TerminalPainter(cols: frame.cols, rows: frame.rows, abilities: abilities)
            let bytes = painter.paint(frame)
            if let foreign = HostileText.foreignSequence(in: bytes) {
                found.append("\(context), \(mode): painter sent \(foreign)")
            }
            var terminal = ModelTerminal(cols: frame.cols, rows: frame.rows)
            terminal.feed(bytes)
            if !terminal.errors.isEmpty { found.append("\(context), \(mode): \(terminal.errors.prefix(3))") }
            if !ascii, let d = terminal.firstDifference(frame, mode: mode) {
                found.append("\(context), \(mode): shown differs at \(d)")
            }
            let text = Array(AnsiWriter.text(frame, mode: mode).utf8)
            if let foreign = HostileText.foreignSequence(in: text) {
                found.append("\(context), \(mode): render printed \(foreign)")
            }
        }
        return found
    }

    /// The longest run of ASCII letters in `text` (3 or more), what any screen shows of it.
    static func token(_ text: String) -> String? {
        let runs = text.split { !($0.isASCII && $0.isLetter) }.map(String.init).filter { $0.count >= 3 }
        return runs.max { $0.count < $1.count }
    }

    /// A state at the corpus' place, in a glyph mode.
    static func state(zoom: Double, ascii: Bool) throws -> ViewerState {
        var s = try ViewerState(cols: cols, rows: rows, center: center, zoom: zoom)
        s.animationsEnabled = false
        s.glyphMode = ascii ? .ascii : .braille
        return s
    }

    /// The frames of a state in each place text is shown: the map, `i`, the layer list, the bookmarks.
    static func places(_ base: ViewerState, sources: MapSources?) -> [(String, Frame)] {
        var out: [(String, Frame)] = []
        out.append(("map", Renderer.drawLoaded(base, sources: sources, options: RenderOptions(mode: .ansi256)).frame))
        for command in [Command.whatIsHere, .toggleLayers, .bookmarks] {
            var s = base
            _ = s.update(.command(command), places: sources)
            out.append(
                ("\(command)", Renderer.drawLoaded(s, sources: sources, options: RenderOptions(mode: .ansi256)).frame))
        }
        return out
    }

    /// Every text on every screen of `states` (the hostile `text` in them) is safe; the text's letters show.
    static func expectSafe(_ states: [(String, ViewerState)], sources: MapSources?, text: String, ascii: Bool) {
        var shown = false
        for (what, s) in states {
            for (place, frame) in places(s, sources: sources) {
                for problem in problems(frame, ascii: ascii, "\(what) \(place)") {
                    Issue.record(Comment(rawValue: problem))
                }
                if let t = token(text), (0..<frame.rows).contains(where: { frame.line($0).contains(t) }) {
                    shown = true
                }
            }
        }
        if let t = token(text) { #expect(shown, "'\(t)' of \(SafeText.forLine(text)) is on no screen") }
    }

    // MARK: Sources

    /// A user's file of one point and one line named `text`, with `text` as a property's key and value.
    static func userFileStates(_ data: UserLayerData, file: String, format: UserDataFormat, ascii: Bool) throws -> [(
        String, ViewerState
    )] {
        var s = try state(zoom: 16, ascii: ascii)
        _ = s.update(.userFile(UserFileUpdate(file: UserFile(file: file, format: format, data: data))))
        try s.view.setCenter(center, zoomLevel: 16)
        return [(file, s)]
    }

    static func geojson(_ text: String) -> [UInt8] {
        let name = jsonQuoted(text)
        return Array(
            """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","properties":{"name":\(name),\(name):\(name)},"geometry":{"type":"Point","coordinates":[24.94,60.17]}},
            {"type":"Feature","properties":{"name":\(name)},"geometry":{"type":"LineString","coordinates":[[24.90,60.168],[24.98,60.168]]}},
            {"type":"Feature","properties":{},"geometry":{"type":\(name),"coordinates":[24.94,60.17]}}]}
            """.utf8)
    }

    @Test(arguments: Hostile.corpus, [false, true])
    func geoJSON(_ hostile: Hostile, ascii: Bool) throws {
        let text = hostile.text
        let data = try UserDataReader.read(Self.geojson(text), format: .geojson, file: "x.geojson")
        Self.expectSafe(
            try Self.userFileStates(data, file: "x.geojson", format: .geojson, ascii: ascii), sources: nil, text: text,
            ascii: ascii)
    }

    @Test(arguments: Hostile.corpus, [false, true])
    func csv(_ hostile: Hostile, ascii: Bool) throws {
        let text = hostile.text
        let field = "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        let bytes = Array("lat,lon,name,\(field)\n60.17,24.94,\(field),\(field)\n".utf8)
        let data = try UserDataReader.read(bytes, format: .csv, file: "x.csv")
        Self.expectSafe(
            try Self.userFileStates(data, file: "x.csv", format: .csv, ascii: ascii), sources: nil, text: text,
            ascii: ascii)
    }

    static func xmlEscaped(_ text: String) -> String {
        var out = ""
        for s in text.unicodeScalars {
            switch s {
            case "<": out += "&lt;"
            case "&": out += "&amp;"
            case ">": out += "&gt;"
            default:
                // Characters beyond ASCII as references: the file stays 7-bit, the reader decodes them.
                if s.value >= 0x7F { out += "&#x\(String(s.value, radix: 16));" } else { out.unicodeScalars.append(s) }
            }
        }
        return out
    }

    @Test(arguments: Hostile.xmlCorpus, [false, true])
    func gpxAndKML(_ hostile: Hostile, ascii: Bool) throws {
        let text = hostile.text
        let t = Self.xmlEscaped(text)
        let gpx = """
            <?xml version="1.0"?><gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><wpt lat="60.17" lon="24.94"><name>\(t)</name><desc>\(t)</desc></wpt>
            <trk><name>\(t)</name><trkseg><trkpt lat="60.168" lon="24.90"/><trkpt lat="60.168" lon="24.98"/></trkseg></trk></gpx>
            """
        let kml = """
            <?xml version="1.0"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document><Placemark><name>\(t)</name><description>\(t)</description>
            <ExtendedData><Data name="\(t)"><value>\(t)</value></Data></ExtendedData><Point><coordinates>24.94,60.17</coordinates></Point></Placemark>
            <Placemark><name>\(t)</name><LineString><coordinates>24.90,60.168 24.98,60.168</coordinates></LineString></Placemark></Document></kml>
            """
        for (file, format, body) in [("x.gpx", UserDataFormat.gpx, gpx), ("x.kml", .kml, kml)] {
            let data = try UserDataReader.read(Array(body.utf8), format: format, file: file)
            Self.expectSafe(
                try Self.userFileStates(data, file: file, format: format, ascii: ascii), sources: nil, text: text,
                ascii: ascii)
        }
    }

    @Test(arguments: Hostile.corpus, [false, true])
    func theStream(_ hostile: Hostile, ascii: Bool) throws {
        let text = hostile.text
        var live = LiveFeatures()
        let label = jsonQuoted(text)
        live.take(Array(#"{"id":1,"lat":60.17,"lon":24.94,"label":\#(label),"color":\#(label)}"#.utf8))
        live.take(
            Array(
                #"{"type":"Feature","properties":{"name":\#(label)},"geometry":{"type":"LineString","coordinates":[[24.90,60.168],[24.98,60.168]]}}"#
                    .utf8))
        Self.expectSafe(
            try Self.userFileStates(live.features, file: "-", format: .stream, ascii: ascii), sources: nil, text: text,
            ascii: ascii)
    }

    /// The file's name is outside text too (a file can be named anything but `/` and NUL).
    @Test(arguments: Hostile.corpus.filter { !$0.text.contains("/") }, [false, true])
    func aFileName(_ hostile: Hostile, ascii: Bool) throws {
        let text = hostile.text
        let data = try UserDataReader.read(Self.geojson("plain"), format: .geojson, file: text)
        var states = try Self.userFileStates(data, file: text + ".geojson", format: .geojson, ascii: ascii)
        // A file that failed, whose error names it.
        var failed = try Self.state(zoom: 16, ascii: ascii)
        _ = failed.update(
            .userFile(
                UserFileUpdate(
                    file: UserFile(file: text, format: .geojson, data: UserLayerData(), error: "\(text): cannot read")))
        )
        states.append(("failed file", failed))
        Self.expectSafe(states, sources: nil, text: text, ascii: ascii)
    }

    @Test(arguments: Hostile.corpus, [false, true])
    func bookmarkNames(_ hostile: Hostile, ascii: Bool) throws {
        let text = hostile.text
        var s = try Self.state(zoom: 12, ascii: ascii)
        s.bookmarks = BookmarkList(
            text: text.replacingOccurrences(of: "\t", with: " ").replacingOccurrences(of: "\n", with: " ")
                + "\t60.17\t24.94\t12\n")
        #expect(s.bookmarks?.bookmarks.count == 1)
        Self.expectSafe([("bookmarks", s)], sources: nil, text: text, ascii: ascii)
    }

    /// Pasted into the search: the prompt echoes it, the choices list what matches.
    @Test(arguments: Hostile.corpus, [false, true])
    func theSearchPrompt(_ hostile: Hostile, ascii: Bool) throws {
        let text = hostile.text
        var s = try Self.state(zoom: 12, ascii: ascii)
        _ = s.update(.command(.search), places: bundledCitySources)
        for ch in text.prefix(24) { _ = s.update(.key(.char(ch)), places: bundledCitySources) }
        for problem in Self.problems(
            Renderer.draw(s, sources: bundledCitySources, options: RenderOptions(mode: .ansi256)).frame, ascii: ascii,
            "search")
        {
            Issue.record(Comment(rawValue: problem))
        }
    }

    /// Vector tiles: a street's name and a point of interest's name and properties.
    @Test(arguments: Hostile.corpus, [false, true])
    func vectorTiles(_ hostile: Hostile, ascii: Bool) throws {
        let text = hostile.text
        let tile = TileID(z: 14, x: 9326, y: 4742)
        let road = ProtoBuilder.commands([(0, 2048), (4096, 2048)], close: false)
        let point = ProtoBuilder.commands([(2048, 2100)], close: false)
        let bytes =
            ProtoBuilder.tile(layer: "transportation", features: [(2, road, ["class": "primary"])])
            + ProtoBuilder.tile(
                layer: "transportation_name", features: [(2, road, ["class": "primary", "name": text])])
            + ProtoBuilder.tile(layer: "poi", features: [(1, point, ["class": "cafe", "name": text, text: text])])
        let source = TileSource(archive: FakeArchive(tiles: [tile: bytes]), label: text)
        let sources = MapSources(features: FeatureSources(base: TileRenderingTests.bundledWorld, details: [source]))
        let c = WebMercator.unproject(MercatorPoint(x: 9326.5 / 16384, y: (4742 + 2100.0 / 4096) / 16384))
        var s = try ViewerState(cols: Self.cols, rows: Self.rows, center: c, zoom: 16)
        s.animationsEnabled = false
        s.glyphMode = ascii ? .ascii : .braille
        Self.expectSafe([("tiles", s)], sources: sources, text: text, ascii: ascii)
    }

    /// One OpenStreetMap import of the whole corpus, each text a street, a shop and a town (and a tag's
    /// key and value) at a place of its own, 0.01° apart.
    static let imported: (sources: MapSources, places: [Coordinate]) = {
        var nodes: [PBFBuilder.Node] = []
        var ways: [PBFBuilder.Way] = []
        var places: [Coordinate] = []
        for (i, text) in HostileText.corpus.enumerated() {
            let (lat, lon) = (center.latitude + 0.01 * Double(i), center.longitude)
            let id = Int64(i * 10)
            nodes += [
                .init(id: id + 1, latitude: lat, longitude: lon - 0.01),
                .init(id: id + 2, latitude: lat, longitude: lon + 0.01),
                .init(
                    id: id + 3, latitude: lat + 0.0003, longitude: lon,
                    tags: [("shop", "bakery"), ("name", text), (text, text)]),
                .init(id: id + 4, latitude: lat - 0.002, longitude: lon, tags: [("place", "town"), ("name", text)]),
            ]
            ways.append(
                .init(
                    id: id + 5, nodes: [id + 1, id + 2],
                    tags: [("highway", "residential"), ("name", text), (text, text)]))
            places.append(Coordinate(latitude: lat, longitude: lon))
        }
        do {
            let pbf = PBFBuilder(nodes: nodes, ways: ways).bytes()
            let (contents, _) = try OSMImporter.contents(
                pbf: pbf, name: "x.osm.pbf", source: "x.osm.pbf", classMinZoom: StyleTable.minZoom)
            let asset = try MapAsset(bytes: MapAssetWriter.encode(contents), name: "x")
            return (MapSources(world: TileRenderingTests.bundledWorld, details: [asset]), places)
        } catch {
            preconditionFailure("\(error)")
        }
    }()

    /// An OpenStreetMap import: a street, a shop and a town named with the text, which the search finds.
    @Test(arguments: HostileText.corpus.indices, [false, true])
    func anOpenStreetMapImport(_ index: Int, ascii: Bool) throws {
        let text = HostileText.corpus[index]
        let sources = Self.imported.sources
        var s = try Self.state(zoom: 17, ascii: ascii)
        s.view = try MapView(center: Self.imported.places[index], zoom: 17, size: s.view.size)
        var search = s
        _ = search.update(.command(.search), places: sources)
        for ch in text.prefix(12) { _ = search.update(.key(.char(ch)), places: sources) }
        for problem in Self.problems(
            Renderer.draw(search, sources: sources, options: RenderOptions(mode: .ansi256)).frame, ascii: ascii,
            "search")
        {
            Issue.record(Comment(rawValue: problem))
        }
        Self.expectSafe([("import", s)], sources: sources, text: text, ascii: ascii)
    }

    // MARK: The sanitiser and the width function

    /// Every scalar the corpus holds that acts on a terminal is gone from `forScreen`, written as
    /// `\u{…}` by `forLine`; what is left is the text's letters.
    @Test(arguments: Hostile.corpus)
    func theSanitiser(_ hostile: Hostile) {
        let text = hostile.text
        let screen = SafeText.forScreen(text)
        let line = SafeText.forLine(text)
        #expect(!screen.unicodeScalars.contains(where: HostileText.actsOnTerminal), "\(SafeText.forLine(screen))")
        #expect(!line.unicodeScalars.contains(where: HostileText.actsOnTerminal), "\(SafeText.forLine(line))")
        #expect(HostileText.foreignSequence(in: Array(line.utf8)) == nil)
        for ch in screen {
            #expect(
                SafeText.shown(ch).scalar == ch.unicodeScalars.first
                    || SafeText.shown(ch).scalar == SafeText.placeholder)
        }
        if let t = Self.token(text) { #expect(screen.contains(t) && line.contains(t)) }
        // Once safe, safe: the sanitiser changes nothing more.
        #expect(SafeText.forScreen(screen) == screen && SafeText.forLine(line) == line)
    }

    /// The table gives what glibc's `wcwidth` gives for every character both know the width of, and
    /// every character it shows has a width glibc knows.
    @Test func theWidthTableAgreesWithTheCLibrary() {
        var checked = 0
        for v in UInt32(0x20)..<0x30000 {
            guard let s = Unicode.Scalar(v), let ours = CharacterWidth.of(s) else { continue }
            let theirs = Self.glibcColumns(String(Character(s)))
            // Where glibc lags (it does not know a character Unicode 15 made wide or combining), ours is Unicode's.
            if let theirs { #expect(theirs == ours, "U+\(String(v, radix: 16))") }
            checked += 1
        }
        #expect(checked > 100_000)
        // The wide ones the issue names, and a combining mark.
        let scalars: [Unicode.Scalar] = ["⌚", "⭐", "東", "\u{301}"]
        #expect(scalars.map { CharacterWidth.of($0) } == [2, 2, 2, 0])
        #expect("a東⌚".columns == 5 && "\u{301}x".columns == 2 && "\u{1B}".columns == 1)
    }

    /// Text whose scalars are all plain (`SafeText.plainWidth`) is shown as it is, a scalar a character: its
    /// columns, its screen text and its cells are what the character-by-character way gives. Every
    /// scalar below U+E000 alone, beside a letter and beside a combining mark, and the hostile corpus.
    @Test func plainTextIsShownAsCharactersWouldShowIt() {
        var texts = HostileText.corpus + ["Zürich", "Αθήνα", "Москва", "東京", "서울", "10°N", "Ünïcödé\u{301}"]
        for v in stride(from: 0x20, to: 0xE000, by: 7) {
            guard let s = Unicode.Scalar(v) else { continue }
            texts += [String(s), "a" + String(s) + "b", String(s) + "\u{301}", String(s) + "\u{200D}x"]
        }
        // Every plain scalar is safe, of its table width, and a character of its own.
        for v in 0..<0xE000 {
            guard let s = Unicode.Scalar(v), let w = SafeText.plainWidth(s) else { continue }
            #expect(!SafeText.isUnsafe(s, leading: true) && CharacterWidth.of(s) == w, "U+\(String(v, radix: 16))")
            #expect(("a" + String(s) + "a").count == 3, "U+\(String(v, radix: 16))")
        }
        for text in texts {
            let byCharacters = text.reduce(0) { $0 + SafeText.shownColumns($1) }
            #expect(text.columns == byCharacters, "\(SafeText.forLine(text))")
            guard let plain = SafeText.plainColumns(text) else { continue }
            #expect(plain == byCharacters && text.count == text.unicodeScalars.count, "\(SafeText.forLine(text))")
            #expect(SafeText.forScreen(text) == text, "\(SafeText.forLine(text))")
            var frame = Frame(cols: 12, rows: 1)
            frame.write(text, col: -1, row: 0, style: .plain)
            var expected = Frame(cols: 12, rows: 1)
            var c = -1
            for ch in text {
                expected.write(String(ch), col: c, row: 0, style: .plain)
                c += SafeText.shownColumns(ch)
            }
            #expect(frame == expected, "\(SafeText.forLine(text))")
        }
    }

    /// Wide and combining text in a frame: cut at either edge, overwritten by halves, every row keeps
    /// the screen's width and the painter shows exactly the frame.
    @Test func wideGlyphsKeepEveryRowItsWidth() {
        var frame = Frame(cols: 20, rows: 6)
        frame.write("東京 ⌚⭐ ok", col: -1, row: 0, style: .plain)
        frame.write("東京東京東京東京東京東京", col: 0, row: 1, style: .plain)
        frame.write("ab東京", col: 17, row: 2, style: .plain)
        frame.write("\u{301}\u{301}x東", col: 3, row: 3, style: .plain)
        frame.write("東京東京", col: 0, row: 4, style: .plain)
        frame[1, 4] = Cell(glyph: "x")  // the second half of 東: the first goes blank
        frame[2, 4] = Cell(glyph: "y")  // the first half of 京: the second goes blank
        for row in 0..<frame.rows {
            #expect(Self.glibcColumns(frame.line(row)) == 20, "\(SafeText.forLine(frame.line(row)))")
        }
        #expect(frame.line(4).hasPrefix(" xy 東"))
        #expect(Self.problems(frame, ascii: false, "wide").isEmpty)
        // Cells set in place (the map's pass) over a frame of wide glyphs: none is left half.
        var inPlace = frame
        inPlace.withOneColumnCells { cells in
            cells[1 * 20 + 1] = Cell(glyph: "x")
            cells[2 * 20 + 18] = Cell(glyph: "y")
        }
        for row in 0..<inPlace.rows {
            #expect(Self.glibcColumns(inPlace.line(row)) == 20, "\(SafeText.forLine(inPlace.line(row)))")
        }
        #expect(!inPlace.cells.contains { $0.isContinuation })
        // Painted over a screen of other wide glyphs, shifted by halves.
        var painter = TerminalPainter(cols: 20, rows: 6, abilities: .xterm(.ansi256))
        var terminal = ModelTerminal(cols: 20, rows: 6)
        var other = Frame(cols: 20, rows: 6)
        for row in 0..<6 { other.write(" 京東京東京東京東京東", col: 0, row: row, style: .plain) }
        terminal.feed(painter.paint(other))
        for by in [1, -1, 3] {
            painter.moveColumns(by: by, rows: 0..<6)
            terminal.feed(painter.paint(frame))
            #expect(terminal.errors.isEmpty && terminal.firstDifference(frame, mode: .ansi256) == nil, "shift \(by)")
            terminal.feed(painter.paint(other))
            #expect(terminal.firstDifference(other, mode: .ansi256) == nil)
        }
    }
}
