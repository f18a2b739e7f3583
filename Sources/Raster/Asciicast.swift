/// asciicast v2, asciinema's recording format: a JSON header line, then one `[seconds, "o", data]`
/// line for each piece of output (https://docs.asciinema.org/manual/asciicast/v2/).
public enum Asciicast {
    /// The header line: `{"version": 2, "width", "height", "timestamp"?, "env": {"TERM", "SHELL"}}`.
    /// No timestamp keeps a recording the same for the same input.
    public static func header(cols: Int, rows: Int, timestamp: Int?, term: String, shell: String) -> String {
        let time = timestamp.map { ", \"timestamp\": \($0)" } ?? ""
        return "{\"version\": 2, \"width\": \(cols), \"height\": \(rows)\(time), \"env\": {\"TERM\": \(quoted(term)), "
            + "\"SHELL\": \(quoted(shell))}}\n"
    }

    /// An output event line: `[1.250000, "o", "…"]`, the time in microseconds' precision.
    public static func output(at seconds: Double, _ data: String) -> String {
        "[\(fixed6(seconds)), \"o\", \(quoted(data))]\n"
    }

    /// `seconds` with six decimals, without the C library's locale (`1.250000`).
    static func fixed6(_ seconds: Double) -> String {
        let micro = Int64((max(0, seconds) * 1_000_000).rounded())
        let fraction = String(micro % 1_000_000)
        return "\(micro / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }

    /// A JSON string (RFC 8259): quotes, backslashes and control characters escaped, the rest as is.
    public static func quoted(_ text: String) -> String {
        var out = "\""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count + 2)
        for s in text.unicodeScalars {
            switch s {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if s.value < 0x20 || s.value == 0x7F {
                    let hex = String(s.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(s)
                }
            }
        }
        return out + "\""
    }

    /// What a terminal must be sent to show `new` where it shows `old` (nil: whatever it shows): the
    /// screen cleared and every row at first, then only the rows that changed, each rewritten whole.
    public static func screenUpdate(from old: Frame?, to new: Frame, mode: ColorMode) -> String {
        var out = ""
        let whole = old == nil || old?.cols != new.cols || old?.rows != new.rows
        if whole { out += "\u{1B}[0m\u{1B}[?25l\u{1B}[H\u{1B}[2J" }
        for row in 0..<new.rows {
            if !whole, let old, (0..<new.cols).allSatisfy({ old[$0, row] == new[$0, row] }) { continue }
            out += "\u{1B}[\(row + 1);1H"
            var last: CellStyle?
            for col in 0..<new.cols {
                let cell = new[col, row]
                if mode != .plain, last != cell.style {
                    out += AnsiWriter.sgr(cell.style)
                    last = cell.style
                }
                out.unicodeScalars.append(cell.glyph)
            }
            if mode != .plain { out += "\u{1B}[0m" }
        }
        return out
    }
}
