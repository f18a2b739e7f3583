/// Terminal output with its colour changes made smaller. ncurses sends foreground and background at every
/// change of colour pair, and a reset with its own sequences before bold text: in a 120×40 zoom frame 10
/// of 16 KB were colour changes. Each run of adjacent SGR sequences becomes one: only the colours that
/// change when it only sets colours (`ESC[38;5;179m ESC[48;5;235m` → `ESC[38;5;179;48;5;235m`), the
/// state it ends in when it resets (`ESC[0;1;38;5;229;48;5;235m`), its parameters in order otherwise.
///
/// The terminal's colours and attributes at every other byte are those of the original output, so what
/// it shows is the same. What the terminal had before this output is taken as unknown: a colour is then
/// sent even when it may not change.
public enum SGRCompaction {
    /// A colour as its SGR parameters (`38;5;179`, `33`); nil is the default colour.
    typealias Color = [UInt8]?

    /// What is known of the terminal's colours (`.none`: unknown).
    struct Colors {
        var fg: Color?
        var bg: Color?
    }

    /// What one parameter of an SGR sequence does.
    enum Step {
        case color, attribute, reset, unknown
    }

    /// The output with its SGR runs collapsed.
    public static func compact(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var colors = Colors(fg: .none, bg: .none)
        var i = 0
        while i < bytes.count {
            guard let first = sgrEnd(bytes, i) else {
                out.append(bytes[i])
                i += 1
                continue
            }
            // The run: SGR sequences one after another, with character set choices (`ESC ( B`, which
            // ncurses sends with a reset) between them, which SGR does not touch.
            var end = first
            var params = [parameters(bytes, i..<first)]
            var charsets: [UInt8] = []
            while true {
                if let next = sgrEnd(bytes, end) {
                    params.append(parameters(bytes, end..<next))
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
            var after = colors
            var kinds: Set<Step> = []
            // The attributes set since the run's last reset.
            var attributes: [[UInt8]] = []
            for p in params {
                var k = 0
                while k < p.count {
                    let (step, used) = self.step(p, k, &after)
                    kinds.insert(step)
                    switch step {
                    case .reset: attributes = []
                    case .attribute: attributes.append(p[k])
                    case .unknown: after = Colors(fg: .none, bg: .none)
                    case .color: break
                    }
                    k += used
                }
            }
            var sgr: [[UInt8]] = []
            if kinds == [.color] {
                // Only the colours that change.
                if case .some(let fg) = after.fg, !same(colors.fg, fg) { sgr.append(fg ?? Array("39".utf8)) }
                if case .some(let bg) = after.bg, !same(colors.bg, bg) { sgr.append(bg ?? Array("49".utf8)) }
            } else if kinds.contains(.reset), !kinds.contains(.unknown),
                attributes.allSatisfy({ $0.count == 1 && (UInt8(ascii: "1")...UInt8(ascii: "9")).contains($0[0]) })
            {
                // From a reset: the attributes set after it, then the colours that are not the defaults.
                sgr = [Array("0".utf8)] + attributes
                if case .some(.some(let fg)) = after.fg { sgr.append(fg) }
                if case .some(.some(let bg)) = after.bg { sgr.append(bg) }
            } else if !kinds.contains(.unknown) {
                // The sequences as one, their parameters in order (a reset written out as 0).
                sgr = params.flatMap { $0.map { $0.isEmpty ? Array("0".utf8) : $0 } }
            } else {
                out += bytes[i..<end]
                colors = after
                i = end
                continue
            }
            var compacted = charsets
            if !sgr.isEmpty {
                compacted += [0x1B, UInt8(ascii: "[")] + Array(sgr.joined(separator: [UInt8(ascii: ";")])) + [UInt8(ascii: "m")]
            }
            // Never longer than the run was (`ESC[m` alone stays as it is).
            out += compacted.count <= end - i ? compacted : Array(bytes[i..<end])
            colors = after
            i = end
        }
        return out
    }

    /// True when the known colour `a` is `b`.
    static func same(_ a: Color?, _ b: Color) -> Bool {
        guard case .some(let known) = a else { return false }
        return known == b
    }

    /// The end of the SGR sequence (`ESC [`, digits and semicolons, `m`) at `i`, or nil when none starts there.
    static func sgrEnd(_ bytes: [UInt8], _ i: Int) -> Int? {
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

    /// The parameters of the SGR sequence in `range` (`ESC[m` has one, empty: a reset).
    static func parameters(_ bytes: [UInt8], _ range: Range<Int>) -> [[UInt8]] {
        bytes[(range.lowerBound + 2)..<(range.upperBound - 1)]
            .split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false).map { Array($0) }
    }

    /// What parameter `k` does to the colours, and how many parameters it took (38;5;n takes three).
    static func step(_ p: [[UInt8]], _ k: Int, _ colors: inout Colors) -> (Step, Int) {
        guard !p[k].isEmpty else {
            colors = Colors(fg: .some(nil), bg: .some(nil))
            return (.reset, 1)
        }
        guard p[k].count <= 3, let n = Int(String(decoding: p[k], as: UTF8.self)) else { return (.unknown, p.count - k) }
        switch n {
        case 0:
            colors = Colors(fg: .some(nil), bg: .some(nil))
            return (.reset, 1)
        case 30...37, 90...97: colors.fg = .some(p[k])
        case 40...47, 100...107: colors.bg = .some(p[k])
        case 39: colors.fg = .some(nil)
        case 49: colors.bg = .some(nil)
        case 38, 48:
            // An indexed colour (38;5;n); any other form is not read.
            guard k + 2 < p.count, p[k + 1] == Array("5".utf8), !p[k + 2].isEmpty, p[k + 2].count <= 3,
                p[k + 2].allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
            else { return (.unknown, p.count - k) }
            let color = p[k] + [UInt8(ascii: ";")] + p[k + 1] + [UInt8(ascii: ";")] + p[k + 2]
            if n == 38 { colors.fg = .some(color) } else { colors.bg = .some(color) }
            return (.color, 3)
        case 1...9, 21...29:
            return (.attribute, 1)
        default:
            return (.unknown, p.count - k)
        }
        return (.color, 1)
    }
}
