import Testing

@testable import Raster

@Suite("Colour changes made smaller")
struct SGRCompactionTests {
    static func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }
    static func text(_ b: [UInt8]) -> String { String(decoding: b, as: UTF8.self) }

    @Test(arguments: [
        // Foreground and background of a pair change in one sequence.
        ("\u{1B}[38;5;179m\u{1B}[48;5;235mA", "\u{1B}[38;5;179;48;5;235mA"),
        // A background that does not change is not sent again.
        ("\u{1B}[38;5;45m\u{1B}[48;5;235mA\u{1B}[38;5;179m\u{1B}[48;5;235mB", "\u{1B}[38;5;45;48;5;235mA\u{1B}[38;5;179mB"),
        // Reset to the defaults, then a foreground: one sequence.
        ("\u{1B}[31;42mA\u{1B}[39;49m\u{1B}[38;5;240mB", "\u{1B}[31;42mA\u{1B}[38;5;240;49mB"),
        // A run that changes nothing sends nothing.
        ("\u{1B}[33mA\u{1B}[39m\u{1B}[33mB", "\u{1B}[33mAB"),
        // A run with a reset becomes the state it ends in; what follows knows the colours.
        ("\u{1B}(B\u{1B}[m\u{1B}[38;5;1mX\u{1B}[38;5;1mY", "\u{1B}(B\u{1B}[0;38;5;1mXY"),
        ("\u{1B}[0;7m\u{1B}[38;5;2mX", "\u{1B}[0;7;38;5;2mX"),
        // ncurses' bold label: the character set choice moves ahead of the run it sat in.
        ("\u{1B}[0;1m\u{1B}[38;5;229m\u{1B}[48;5;235mSanaa\u{1B}[1m\u{1B}(B\u{1B}[0m\u{1B}[38;5;179m\u{1B}[48;5;235m⠉",
         "\u{1B}[0;1;38;5;229;48;5;235mSanaa\u{1B}(B\u{1B}[0;38;5;179;48;5;235m⠉"),
        // Attributes without a reset go through as they are.
        ("\u{1B}[1m\u{1B}[33m\u{1B}[22mA", "\u{1B}[1m\u{1B}[33m\u{1B}[22mA"),
        // Other sequences in between are kept where they were.
        ("\u{1B}[31m\u{1B}[5;7H\u{1B}[31mA\u{1B}[19X", "\u{1B}[31m\u{1B}[5;7HA\u{1B}[19X"),
    ])
    func runsOfColourChangesCollapse(input: String, expected: String) {
        #expect(Self.text(SGRCompaction.compact(Self.bytes(input))) == expected)
    }

    /// A terminal's colours and attributes as ECMA-48 SGR sets them (written here, apart from the code).
    struct Pen: Equatable {
        var fg = "d", bg = "d"
        var attrs: Set<Int> = []
        var known = false
    }

    /// What each printed character and each other control sequence meets, from a starting pen.
    static func shown(_ bytes: [UInt8], from start: Pen) -> [(UInt8, Pen)] {
        var pen = start
        var out: [(UInt8, Pen)] = []
        var i = 0
        while i < bytes.count {
            if bytes[i] == 0x1B, i + 2 < bytes.count, bytes[i + 1] == UInt8(ascii: "(") {
                i += 3  // a character set: SGR neither sets it nor depends on it
                continue
            }
            if bytes[i] == 0x1B, i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "[") {
                var j = i + 2
                while j < bytes.count, !(UInt8(ascii: "@")...UInt8(ascii: "~")).contains(bytes[j]) { j += 1 }
                if j < bytes.count, bytes[j] == UInt8(ascii: "m") {
                    let params = String(decoding: bytes[(i + 2)..<j], as: UTF8.self).split(separator: ";", omittingEmptySubsequences: false)
                    var k = 0
                    while k < params.count {
                        let n = Int(params[k]) ?? 0
                        switch n {
                        case 0: pen = Pen(known: true)
                        case 1, 4, 7: pen.attrs.insert(n)
                        case 22, 24, 27: pen.attrs.remove(n - 20)
                        case 30...37, 90...97: pen.fg = String(n)
                        case 40...47, 100...107: pen.bg = String(n)
                        case 39: pen.fg = "d"
                        case 49: pen.bg = "d"
                        case 38: pen.fg = "i" + params[k + 2]; k += 2
                        case 48: pen.bg = "i" + params[k + 2]; k += 2
                        default: break
                        }
                        k += 1
                    }
                } else if j < bytes.count {
                    // An erase or a move: the colours it meets matter too (erasing fills with the background).
                    out.append((bytes[j], pen))
                }
                i = j + 1
                continue
            }
            out.append((bytes[i], pen))
            i += 1
        }
        return out
    }

    /// Random runs of colour changes, attributes, resets, cursor moves and text: every character looks the
    /// same with the compacted output, whatever the terminal's colours before; and it is never longer.
    @Test func whatTheTerminalShowsIsUnchanged() {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ n: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(n))
        }
        let pieces = [
            "\u{1B}[38;5;179m", "\u{1B}[48;5;235m", "\u{1B}[39;49m", "\u{1B}[39m", "\u{1B}[49m", "\u{1B}[33m",
            "\u{1B}[44m", "\u{1B}[m", "\u{1B}[0;7m", "\u{1B}[1m", "\u{1B}[22m", "\u{1B}[38;5;45m", "\u{1B}[48;5;17m",
            "\u{1B}[27m", "\u{1B}[3;4H", "\u{1B}(B", "\u{1B}(0", "\u{1B}[0;1m", "\u{1B}[7X", "\u{1B}[4m", "a", "b", "⣿",
        ]
        for _ in 0..<400 {
            let input = Self.bytes((0..<next(40)).map { _ in pieces[next(pieces.count)] }.joined())
            let output = SGRCompaction.compact(input)
            #expect(output.count <= input.count)
            for start in [Pen(), Pen(fg: "i45", bg: "i235", attrs: [7]), Pen(fg: "33", bg: "d", attrs: [1])] {
                let a = Self.shown(input, from: start), b = Self.shown(output, from: start)
                #expect(a.map(\.0) == b.map(\.0) && a.map(\.1) == b.map(\.1), "\(Self.text(input).debugDescription)")
            }
        }
    }
}
