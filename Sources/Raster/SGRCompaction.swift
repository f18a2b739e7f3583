/// Terminal output with its colour changes made smaller. ncurses sends foreground and background at every
/// change of colour pair, and a reset with its own sequences before bold text: in a 120×40 zoom frame 10
/// of 16 KB were colour changes. Each run of adjacent SGR sequences becomes one: only the colours that
/// change when it only sets colours (`ESC[38;5;179m ESC[48;5;235m` → `ESC[38;5;179;48;5;235m`), or the
/// state it ends in when it resets (`ESC[0;1;38;5;229;48;5;235m`); other runs go through as they are.
///
/// The terminal's colours and attributes at every other byte are those of the original output, so what
/// it shows is the same. What the terminal had before this output is taken as unknown: a colour is then
/// sent even when it may not change.
public enum SGRCompaction {
    /// A colour: `unknown`, `standard` (39 or 49), an indexed one (`38;5;n`: 0…255), or a parameter of
    /// its own (30–37, 90–97, 40–47, 100–107) as 1000 + the parameter.
    static let unknown = -2, standard = -1

    /// What a run of SGR sequences does: its last state, and what kinds of parameters it has.
    struct Run {
        var fg: Int
        var bg: Int
        var hasReset = false, hasAttribute = false, hasUnknown = false
        /// Attributes 1–9 set since the run's last reset, as bits; `otherAttribute`: one it cannot restate.
        var attributes: UInt16 = 0
        var otherAttribute = false
    }

    /// The output with its SGR runs collapsed; never longer.
    public static func compact(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var fg = unknown, bg = unknown
        var charsets: [UInt8] = []
        var i = 0
        while i < bytes.count {
            // Glyphs and cursor movement up to the next escape go through as they are, in one copy.
            if bytes[i] != 0x1B {
                var next = i + 1
                while next < bytes.count && bytes[next] != 0x1B { next += 1 }
                out += bytes[i..<next]
                i = next
                continue
            }
            guard let first = sgrEnd(bytes, i) else {
                out.append(bytes[i])
                i += 1
                continue
            }
            // The run: SGR sequences one after another, with character set choices (`ESC ( B`, which
            // ncurses sends with a reset) between them, which SGR neither sets nor depends on.
            var run = Run(fg: fg, bg: bg)
            read(bytes, (i + 2)..<(first - 1), into: &run)
            var end = first
            charsets.removeAll(keepingCapacity: true)
            while true {
                if let next = sgrEnd(bytes, end) {
                    read(bytes, (end + 2)..<(next - 1), into: &run)
                    end = next
                } else if end + 2 < bytes.count, bytes[end] == 0x1B, bytes[end + 1] == UInt8(ascii: "("),
                    sgrEnd(bytes, end + 3) != nil
                {
                    charsets += bytes[end..<(end + 3)]
                    end += 3
                } else {
                    break
                }
            }
            let start = out.count
            if run.hasUnknown {
                out += bytes[i..<end]
            } else if !run.hasReset && !run.hasAttribute {
                // Only colours: the ones that change.
                out += charsets
                sgr(&out, reset: false, attributes: 0, fg: run.fg != unknown && run.fg != fg ? run.fg : nil,
                    bg: run.bg != unknown && run.bg != bg ? run.bg : nil)
            } else if run.hasReset && !run.otherAttribute {
                // From a reset: the attributes set after it, then the colours that are not the defaults.
                out += charsets
                sgr(&out, reset: true, attributes: run.attributes, fg: run.fg == standard ? nil : run.fg,
                    bg: run.bg == standard ? nil : run.bg)
            } else {
                out += bytes[i..<end]
            }
            // Never longer than the run was.
            if out.count - start > end - i {
                out.removeSubrange(start...)
                out += bytes[i..<end]
            }
            fg = run.fg
            bg = run.bg
            i = end
        }
        return out
    }

    /// Appends one SGR sequence: a reset (`0`), attributes, a foreground and a background; nothing when
    /// it would be empty.
    static func sgr(_ out: inout [UInt8], reset: Bool, attributes: UInt16, fg: Int?, bg: Int?) {
        guard reset || attributes != 0 || fg != nil || bg != nil else { return }
        out.append(0x1B)
        out.append(UInt8(ascii: "["))
        var first = true
        func separate() {
            if !first { out.append(UInt8(ascii: ";")) }
            first = false
        }
        if reset {
            separate()
            out.append(UInt8(ascii: "0"))
        }
        for a in 1...9 where attributes & (1 << a) != 0 {
            separate()
            out.append(UInt8(ascii: "0") + UInt8(a))
        }
        func color(_ c: Int?, base: Int) {
            guard let c else { return }
            separate()
            if c == standard {
                number(&out, base * 10 + 9)
            } else if c >= 1000 {
                number(&out, c - 1000)
            } else {
                number(&out, base * 10 + 8)
                out.append(UInt8(ascii: ";"))
                out.append(UInt8(ascii: "5"))
                out.append(UInt8(ascii: ";"))
                number(&out, c)
            }
        }
        color(fg, base: 3)
        color(bg, base: 4)
        out.append(UInt8(ascii: "m"))
    }

    static func number(_ out: inout [UInt8], _ n: Int) {
        if n >= 10 { number(&out, n / 10) }
        out.append(UInt8(ascii: "0") + UInt8(n % 10))
    }

    /// The end of the SGR sequence (`ESC [`, digits and semicolons, `m`) at `i`, or nil when none starts there.
    public static func sgrEnd(_ bytes: [UInt8], _ i: Int) -> Int? {
        guard i + 2 < bytes.count, bytes[i] == 0x1B, bytes[i + 1] == UInt8(ascii: "[") else { return nil }
        var j = i + 2
        while j < bytes.count {
            let b = bytes[j]
            if b == UInt8(ascii: "m") { return j + 1 }
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) || b == UInt8(ascii: ";") else { return nil }
            j += 1
        }
        return nil
    }

    /// Reads the parameters in `range` (between `ESC [` and `m`) into the run.
    static func read(_ bytes: [UInt8], _ range: Range<Int>, into run: inout Run) {
        // At most one parameter a byte, plus one: on the stack, as a frame has a thousand of these.
        withUnsafeTemporaryAllocation(of: Int.self, capacity: range.count + 1) { params in
            var count = 0
            var n = 0, digits = 0
            for j in range {
                let b = bytes[j]
                if b == UInt8(ascii: ";") {
                    params[count] = digits == 0 ? 0 : digits > 4 ? 100_000 : n
                    count += 1
                    n = 0
                    digits = 0
                } else {
                    n = n * 10 + Int(b - UInt8(ascii: "0"))
                    digits += 1
                }
            }
            params[count] = digits == 0 ? 0 : digits > 4 ? 100_000 : n
            count += 1
            apply(UnsafeBufferPointer(rebasing: params[..<count]), to: &run)
        }
    }

    /// What the parameters of one SGR sequence do to the run.
    static func apply(_ params: UnsafeBufferPointer<Int>, to run: inout Run) {
        var k = 0
        while k < params.count {
            let p = params[k]
            switch p {
            case 0:
                run.hasReset = true
                run.fg = standard
                run.bg = standard
                run.attributes = 0
                run.otherAttribute = false
            case 1...9:
                run.hasAttribute = true
                run.attributes |= 1 << p
            case 21...29:
                run.hasAttribute = true
                run.otherAttribute = true
            case 30...37, 90...97: run.fg = 1000 + p
            case 40...47, 100...107: run.bg = 1000 + p
            case 39: run.fg = standard
            case 49: run.bg = standard
            case 38, 48:
                // An indexed colour (38;5;n); any other form is not read.
                guard k + 2 < params.count, params[k + 1] == 5, params[k + 2] <= 255 else {
                    run.hasUnknown = true
                    run.fg = unknown
                    run.bg = unknown
                    return
                }
                if p == 38 { run.fg = params[k + 2] } else { run.bg = params[k + 2] }
                k += 2
            default:
                run.hasUnknown = true
                run.fg = unknown
                run.bg = unknown
                return
            }
            k += 1
        }
    }
}
