import Support

/// A JSON value as read (RFC 8259), for the members a GeoJSON reader keeps whole: properties, ids,
/// `crs`. Numbers keep their text, so properties are written back as the file had them.
public indirect enum JSONTree: Equatable, Sendable {
    case object([(String, JSONTree)])
    case array([JSONTree])
    case string(String)
    case number(Double, text: String)
    case bool(Bool)
    case null

    public static func == (a: JSONTree, b: JSONTree) -> Bool {
        switch (a, b) {
        case (.object(let x), .object(let y)):
            x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case (.array(let x), .array(let y)): x == y
        case (.string(let x), .string(let y)): x == y
        case (.number(let x, _), .number(let y, _)): x == y
        case (.bool(let x), .bool(let y)): x == y
        case (.null, .null): true
        default: false
        }
    }

    /// Member `key` of an object.
    public subscript(key: String) -> JSONTree? {
        if case .object(let members) = self { return members.last { $0.0 == key }?.1 }
        return nil
    }

    /// The value as compact JSON text.
    public var jsonText: String {
        switch self {
        case .object(let m): "{" + m.map { JSONTree.quoted($0.0) + ":" + $0.1.jsonText }.joined(separator: ",") + "}"
        case .array(let a): "[" + a.map(\.jsonText).joined(separator: ",") + "]"
        case .string(let s): JSONTree.quoted(s)
        case .number(_, let text): text
        case .bool(let b): b ? "true" : "false"
        case .null: "null"
        }
    }

    /// The value as a property's text: a string as it is, anything else as JSON (null: none).
    public var propertyText: String? {
        switch self {
        case .string(let s): s
        case .null: nil
        default: jsonText
        }
    }

    /// `s` as a JSON string.
    public static func quoted(_ s: String) -> String { jsonQuoted(s) }
}

/// Where a JSON text went wrong: the byte offset (made a line and column only when reported).
public struct JSONSyntaxError: Error, Sendable {
    public var offset: Int
    public var message: String
    /// Not a record to skip but a reason to refuse the whole input (a `crs` termmap cannot read).
    public var refusesFile = false

    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }
}

/// Reads JSON from bytes without building values where the caller does not ask for them: the GeoJSON
/// reader walks objects member by member and reads coordinates straight into its arrays. Nesting is
/// bounded (`maxDepth`), strings must be UTF-8, numbers are read exactly (Clinger's fast path, else the
/// standard library's correctly rounded `Double(_:)`).
public struct JSONScanner {
    public let bytes: UnsafeBufferPointer<UInt8>
    public var at: Int
    public var depth = 0
    public static let maxDepth = ReadLimits.nesting

    /// A scanner over `bytes` from `start`.
    public init(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int = 0) {
        self.bytes = bytes
        at = start
    }

    /// An error at the current byte.
    public func error(_ message: String) -> JSONSyntaxError { JSONSyntaxError(offset: at, message: message) }

    /// The next byte that is not white space (nil at the end); RS (0x1E, RFC 8142) counts as space.
    @inline(__always)
    public mutating func peek() -> UInt8? {
        while at < bytes.count {
            let b = bytes[at]
            if b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 || b == 0x1E { at += 1 } else { return b }
        }
        return nil
    }

    /// Takes `byte` (after white space) or fails saying what was expected.
    @inline(__always)
    public mutating func expect(_ byte: UInt8, _ what: String) throws(JSONSyntaxError) {
        guard peek() == byte else { throw error(found("expected \(what)")) }
        at += 1
    }

    /// `message`, and what is found instead.
    public func found(_ message: String) -> String {
        guard at < bytes.count else { return message + ", found the end of the input" }
        let b = bytes[at]
        if b >= 0x21 && b < 0x7F { return message + ", found '\(Character(Unicode.Scalar(b)))'" }
        return message + ", found byte 0x" + String(b, radix: 16)
    }

    /// Enters an object: true when it has members (the scanner is then at the first key).
    public mutating func beginObject() throws(JSONSyntaxError) -> Bool {
        try expect(UInt8(ascii: "{"), "'{'")
        depth += 1
        if depth > Self.maxDepth { throw error("nested more than \(Self.maxDepth) deep") }
        if peek() == UInt8(ascii: "}") {
            at += 1
            depth -= 1
            return false
        }
        return true
    }

    /// A member's key and its colon.
    public mutating func key() throws(JSONSyntaxError) -> String {
        guard peek() == UInt8(ascii: "\"") else { throw error(found("expected a member name in quotes")) }
        let k = try string()
        try expect(UInt8(ascii: ":"), "':' after a member name")
        return k
    }

    /// After a member or element: true when another follows (its comma taken), false at the close.
    public mutating func next(closing: UInt8) throws(JSONSyntaxError) -> Bool {
        switch peek() {
        case UInt8(ascii: ","):
            at += 1
            return true
        case closing:
            at += 1
            depth -= 1
            return false
        default:
            throw error(found(closing == UInt8(ascii: "}") ? "expected ',' or '}'" : "expected ',' or ']'"))
        }
    }

    /// Enters an array: true when it has elements.
    public mutating func beginArray() throws(JSONSyntaxError) -> Bool {
        try expect(UInt8(ascii: "["), "'['")
        depth += 1
        if depth > Self.maxDepth { throw error("nested more than \(Self.maxDepth) deep") }
        if peek() == UInt8(ascii: "]") {
            at += 1
            depth -= 1
            return false
        }
        return true
    }

    /// A string (after white space), escapes undone; invalid UTF-8 or a raw control character fails.
    public mutating func string() throws(JSONSyntaxError) -> String {
        try expect(UInt8(ascii: "\""), "'\"'")
        let start = at
        // The common case: no escapes.
        while at < bytes.count {
            let b = bytes[at]
            if b == UInt8(ascii: "\"") {
                guard let s = String(validating: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self) else {
                    at = start
                    throw error("invalid UTF-8 in a string (if the file is Latin-1: iconv -f latin1 -t utf-8)")
                }
                at += 1
                return s
            }
            if b == UInt8(ascii: "\\") { break }
            if b < 0x20 {
                throw error(
                    "a control character in a string (write it as \\u00\(b < 16 ? "0" : "")\(String(b, radix: 16)))")
            }
            at += 1
        }
        var out: [UInt8] = Array(bytes[start..<at])
        while at < bytes.count {
            let b = bytes[at]
            if b == UInt8(ascii: "\"") {
                guard let s = String(validating: out, as: UTF8.self) else {
                    at = start
                    throw error("invalid UTF-8 in a string (if the file is Latin-1: iconv -f latin1 -t utf-8)")
                }
                at += 1
                return s
            }
            if b < 0x20 { throw error("a control character in a string") }
            if b != UInt8(ascii: "\\") {
                out.append(b)
                at += 1
                continue
            }
            at += 1
            guard at < bytes.count else { break }
            let e = bytes[at]
            at += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "b"): out.append(8)
            case UInt8(ascii: "f"): out.append(12)
            case UInt8(ascii: "n"): out.append(10)
            case UInt8(ascii: "r"): out.append(13)
            case UInt8(ascii: "t"): out.append(9)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800..<0xDC00).contains(scalar) {
                    // A surrogate pair (RFC 8259 §7); a lone half is U+FFFD.
                    if at + 1 < bytes.count, bytes[at] == UInt8(ascii: "\\"), bytes[at + 1] == UInt8(ascii: "u") {
                        at += 2
                        let low = try hex4()
                        scalar =
                            (0xDC00..<0xE000).contains(low)
                            ? 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00) : 0xFFFD
                    } else {
                        scalar = 0xFFFD
                    }
                } else if (0xDC00..<0xE000).contains(scalar) {
                    scalar = 0xFFFD
                }
                out += Array(String(Unicode.Scalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8)
            default:
                at -= 1
                throw error("unknown escape '\\\(Character(Unicode.Scalar(e)))' in a string")
            }
        }
        throw error("a string without its closing quote")
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard at + 4 <= bytes.count else { throw error("\\u needs four hex digits") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[at]
            let d: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw error("\\u needs four hex digits")
            }
            v = v << 4 | d
            at += 1
        }
        return v
    }

    /// Powers of ten exact in a double (10^0 … 10^22).
    private static let exactPowers: [Double] = (0...22).map { e in (0..<e).reduce(1.0) { r, _ in r * 10 } }

    /// A number (after white space), exactly rounded, and the range of its text.
    @inline(__always)
    public mutating func number() throws(JSONSyntaxError) -> (value: Double, text: Range<Int>) {
        _ = peek()
        let start = at
        var negative = false
        if at < bytes.count, bytes[at] == UInt8(ascii: "-") {
            negative = true
            at += 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var exponent = 0
        let intStart = at
        while at < bytes.count, bytes[at] &- UInt8(ascii: "0") < 10 {
            if digits < 19 {
                mantissa = mantissa * 10 + UInt64(bytes[at] - UInt8(ascii: "0"))
                if mantissa != 0 { digits += 1 }
            } else {
                exponent += 1
            }
            at += 1
        }
        guard at > intStart else { throw error(found("expected a value")) }
        if at - intStart > 1 && bytes[intStart] == UInt8(ascii: "0") {
            at = intStart
            throw error("a number with a leading zero")
        }
        if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
            at += 1
            let fracStart = at
            while at < bytes.count, bytes[at] &- UInt8(ascii: "0") < 10 {
                if digits < 19 {
                    mantissa = mantissa * 10 + UInt64(bytes[at] - UInt8(ascii: "0"))
                    if mantissa != 0 { digits += 1 }
                    exponent -= 1
                }
                at += 1
            }
            guard at > fracStart else { throw error(found("expected digits after '.'")) }
        }
        if at < bytes.count, bytes[at] | 0x20 == UInt8(ascii: "e") {
            at += 1
            var expNegative = false
            if at < bytes.count, bytes[at] == UInt8(ascii: "-") || bytes[at] == UInt8(ascii: "+") {
                expNegative = bytes[at] == UInt8(ascii: "-")
                at += 1
            }
            let expStart = at
            var e = 0
            while at < bytes.count, bytes[at] &- UInt8(ascii: "0") < 10 {
                if e < 100_000 { e = e * 10 + Int(bytes[at] - UInt8(ascii: "0")) }
                at += 1
            }
            guard at > expStart else { throw error(found("expected digits in an exponent")) }
            exponent += expNegative ? -e : e
        }
        // Clinger's fast path: an integer mantissa below 2^53 and a power of ten exact in a double give
        // the correctly rounded result in one operation (Clinger 1990, "How to read floating point
        // numbers accurately").
        var value: Double
        if digits <= 15, mantissa < 1 << 53, abs(exponent) <= 22 {
            value = Double(mantissa)
            value = exponent < 0 ? value / Self.exactPowers[-exponent] : value * Self.exactPowers[exponent]
            if negative { value = -value }
        } else {
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self)
            guard let v = Double(text) else { throw error("a number out of reach: \(text)") }
            value = v
        }
        return (value, start..<at)
    }

    /// The text of `range` (a number's, say).
    public func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// Any value, built.
    public mutating func value() throws(JSONSyntaxError) -> JSONTree {
        switch peek() {
        case UInt8(ascii: "{"):
            var members: [(String, JSONTree)] = []
            if try beginObject() {
                repeat {
                    let k = try key()
                    members.append((k, try value()))
                } while try next(closing: UInt8(ascii: "}"))
            }
            return .object(members)
        case UInt8(ascii: "["):
            var elements: [JSONTree] = []
            if try beginArray() {
                repeat { elements.append(try value()) } while try next(closing: UInt8(ascii: "]"))
            }
            return .array(elements)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"):
            try word("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try word("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try word("null")
            return .null
        default:
            let (v, range) = try number()
            return .number(v, text: text(range))
        }
    }

    /// Skips any value without building it.
    public mutating func skipValue() throws(JSONSyntaxError) {
        switch peek() {
        case UInt8(ascii: "{"):
            if try beginObject() {
                repeat {
                    _ = try key()
                    try skipValue()
                } while try next(closing: UInt8(ascii: "}"))
            }
        case UInt8(ascii: "["):
            if try beginArray() {
                repeat { try skipValue() } while try next(closing: UInt8(ascii: "]"))
            }
        case UInt8(ascii: "\""): _ = try string()
        case UInt8(ascii: "t"): try word("true")
        case UInt8(ascii: "f"): try word("false")
        case UInt8(ascii: "n"): try word("null")
        default: _ = try number()
        }
    }

    private mutating func word(_ w: String) throws(JSONSyntaxError) {
        let u = Array(w.utf8)
        let ok = at + u.count <= bytes.count && u.indices.allSatisfy { bytes[at + $0] == u[$0] }
        let n = u.count
        guard ok else { throw error(found("expected a value")) }
        at += n
    }

    /// Line and column (both from 1; columns count characters) of byte `offset`.
    public static func lineAndColumn(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: Int) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        let end = min(offset, bytes.count)
        for i in 0..<end where bytes[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        // Characters, not bytes: continuation bytes do not start one.
        let column = 1 + (lineStart..<end).reduce(0) { $0 + (bytes[$1] & 0xC0 == 0x80 ? 0 : 1) }
        return (line, column)
    }
}
