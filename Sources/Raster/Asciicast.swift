import Support

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
    static func fixed6(_ seconds: Double) -> String { fixedDecimals(max(0, seconds), 6) }

    /// A JSON string (RFC 8259): quotes, backslashes and control characters escaped, the rest as is.
    public static func quoted(_ text: String) -> String { jsonQuoted(text) }
}
