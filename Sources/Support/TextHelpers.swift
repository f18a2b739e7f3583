import FoundationEssentials

// Text helpers every layer uses: trims, JSON values and quoting, a locale-free decimal formatter.

extension StringProtocol {
    /// The text without white space at either end.
    public var trimmedOfWhitespace: String {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(self[first...last])
    }
}

/// A JSON value, for metadata whose shape is not fixed (TileJSON's `vector_layers`, PMTiles metadata).
public enum JSONValue: Decodable, Equatable, Sendable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case array([JSONValue])
    case object([String: JSONValue])
    case null

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let n = try? c.decode(Double.self) {
            self = .number(n)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([JSONValue].self) {
            self = .array(a)
        } else {
            self = .object(try c.decode([String: JSONValue].self))
        }
    }

    /// Parses `bytes`, or nil when they are not JSON.
    public static func parse(_ bytes: [UInt8]) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: Data(bytes))
    }

    /// The members of an object (nil for other values).
    public var object: [String: JSONValue]? { if case .object(let o) = self { o } else { nil } }

    /// A string, or a number as JSON writes it (`14`, `14.5`); nil for other values.
    public var text: String? {
        switch self {
        case .string(let s): return s
        case .number(let n): return n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)
        default: return nil
        }
    }
}

/// `value` with exactly `decimals` decimals, rounded half away from zero, without the C library's
/// locale (`1.250000`, `-0.50`; `nan`, `inf`; beyond 9·10^15 in Swift's own shortest form).
public func fixedDecimals(_ value: Double, _ decimals: Int) -> String {
    guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
    var scale = 1.0
    for _ in 0..<max(0, decimals) { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    let negative = value < 0 && scaled != 0
    if scaled >= 9e15 { return (negative ? "-" : "") + String(abs(value)) }
    let whole = UInt64(scaled)
    let unit = UInt64(scale)
    var text = String(whole / unit)
    if decimals > 0 {
        let frac = String(whole % unit)
        text += "." + String(repeating: "0", count: decimals - frac.count) + frac
    }
    return (negative ? "-" : "") + text
}

/// `text` as a JSON string (RFC 8259 §7): quotes, backslashes and control characters escaped, and so
/// the other characters no terminal should be sent raw (`SafeText`: C1, bidirectional controls,
/// zero-width spaces), so that JSON printed to a terminal is as safe as termmap's own lines; the rest as is.
public func jsonQuoted(_ text: String) -> String {
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
            if SafeText.isUnsafe(s, leading: false) {
                let hex = String(s.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(s)
            }
        }
    }
    return out + "\""
}
