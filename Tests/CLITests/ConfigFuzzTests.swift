import MapData
import MapFormats
import TestSupport
import Testing

@testable import termmap

/// The configuration parser fuzzed in-process (it lives in the program, which the fuzzer cannot
/// import): seeded damage to a file that uses every kind of line. Whatever the bytes, the parse ends in
/// settings or in one line `PATH:LINE: why` whose line is in the file, never in a trap.
@Suite("configuration file fuzzed")
struct ConfigFuzzTests {
    static let sample = """
        # termmap
        center = "https://www.openstreetmap.org/#map=15/60.17/24.94"   # after a space
        zoom = 3
        theme = light
        color = 256
        units = imperial
        radius = 2km
        tiles = "city.pmtiles", "openfreemap"
        tile-cache-disk = 64
        no-animation = true
        idle-timeout = 5

        [keys]
        zoom-in = "+", "="
        redraw = "<Ctrl-L>"
        quit = "Q", "<Ctrl-C>"
        """

    static let pieces = [
        "=", "\"", "#", " ", "\n", "[", "]", "[keys]", ",", "<", ">", "\\", "\r", "\u{0}", "é", "zoom", "true",
        "<Ctrl-", "'", "=\"", "\"\"", "\t", "tiles", "-",
    ]

    @Test func damagedConfigurationsEndInOneLine() throws {
        _ = try ConfigFile(parsing: Self.sample, path: "config")
        var r = SeededRandom(state: 31)
        var failures = 0
        let cases = 3000
        for _ in 0..<cases {
            var b = Array(Self.sample.utf8)
            for _ in 0..<(1 + r.below(4)) {
                switch r.below(5) {
                case 0: b = Array(b.prefix(r.below(b.count + 1)))
                case 1: if !b.isEmpty { b[r.below(b.count)] = UInt8(r.below(256)) }
                case 2: b.insert(contentsOf: Self.pieces[r.below(Self.pieces.count)].utf8, at: r.below(b.count + 1))
                case 3: if !b.isEmpty { b.remove(at: r.below(b.count)) }
                default:
                    let from = r.below(b.count + 1)
                    let to = min(b.count, from + r.below(40))
                    b.insert(contentsOf: b[from..<to], at: r.below(b.count + 1))
                }
            }
            let text = String(decoding: b, as: UTF8.self)
            let lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).count
            do {
                _ = try ConfigFile(parsing: text, path: "config")
            } catch {
                failures += 1
                let message = error.description
                #expect(
                    !message.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) },
                    "\(message)")
                let parts = message.split(separator: ":", maxSplits: 2)
                let line = parts.count == 3 && parts[0] == "config" ? Int(parts[1]) : nil
                #expect(line.map { (1...lines).contains($0) } == true, "\(message)")
            }
        }
        // Damage is mostly found (what remains valid is a value changed into another good one).
        #expect(failures > cases / 3, "\(failures) of \(cases) rejected")
    }
}

extension ConfigFuzzTests {
    /// A file written with CR LF line ends (a Windows editor's) reads as its lines; a damaged line's
    /// control characters are quoted as escapes.
    @Test func crlfLinesAndQuotedControlCharacters() throws {
        let file = try ConfigFile(
            parsing: "zoom = 3\r\ntheme = light\r\n\r\n[keys]\r\nquit = \"Q\"\r\n", path: "config")
        #expect(file.settings.map(\.option.name) == ["zoom", "theme"] && file.settings.map(\.line) == [1, 2])
        #expect(file.keys.map(\.line) == [5])
        #expect(throws: UsageError.self) {
            try ConfigFile(parsing: "zoom = 3\ncolor = \"2\u{1B}[31m\"\n", path: "config")
        }
        do {
            _ = try ConfigFile(parsing: "zoom = 3\ncolor = \"2\u{1B}[31m\"\n", path: "config")
        } catch {
            #expect(
                error.description
                    == "config:2: color '2\\u{1B}[31m' must be auto, never, always, 8, 16, 256 or truecolor")
        }
    }
}

/// A format driver registered from outside termmap's targets is named by the help.
@Suite("Format drivers in the help")
struct FormatDriverHelpTests {
    @Test func theHelpNamesARegisteredFormat() {
        FormatDrivers.register(ToyDriver())
        // (The help folds its lines: compared with its white space as single spaces.)
        let help = OptionTable.helpText.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("FILE: GeoJSON, GPX, KML, CSV, Toy, or what ogr2ogr reads"))
    }
}
