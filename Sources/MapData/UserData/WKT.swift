/// Well-known text geometries (OGC 06-103r4, "Simple Feature Access", §7): POINT, LINESTRING, POLYGON,
/// their MULTI forms and GEOMETRYCOLLECTION, with Z, M or ZM (extra ordinates ignored) and EMPTY.
public enum WKT {
    /// A piece of a geometry: its type and rings of (longitude, latitude).
    public struct Piece: Sendable {
        public var type: UserGeometryType
        public var rings: [[(Double, Double)]]
    }

    /// The pieces of `text`, or why it is not WKT.
    public static func parse(_ text: String) -> Result<[Piece], WKTError> {
        var p = Parser(chars: Array(text.utf8))
        do throws(WKTError) {
            var pieces: [Piece] = []
            try p.geometry(&pieces, depth: 0)
            p.space()
            guard p.at == p.chars.count else { throw WKTError(message: "WKT: text after the geometry") }
            return .success(pieces)
        } catch {
            return .failure(error)
        }
    }

    /// Why a text is not WKT.
    public struct WKTError: Error, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    struct Parser {
        let chars: [UInt8]
        var at = 0

        mutating func space() { while at < chars.count, chars[at] == 0x20 || chars[at] == 0x09 || chars[at] == 0x0A || chars[at] == 0x0D { at += 1 } }

        mutating func word() -> String {
            space()
            let start = at
            while at < chars.count, (chars[at] | 0x20) >= UInt8(ascii: "a"), (chars[at] | 0x20) <= UInt8(ascii: "z") { at += 1 }
            return String(decoding: chars[start..<at], as: UTF8.self).uppercased()
        }

        mutating func take(_ c: UInt8) -> Bool {
            space()
            if at < chars.count, chars[at] == c {
                at += 1
                return true
            }
            return false
        }

        mutating func expect(_ c: UInt8) throws(WKTError) {
            guard take(c) else { throw WKTError(message: "WKT: expected '\(Character(Unicode.Scalar(c)))' at character \(at + 1)") }
        }

        mutating func number() throws(WKTError) -> Double {
            space()
            let start = at
            while at < chars.count, let c = Optional(chars[at]),
                (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || c == UInt8(ascii: ".")
                    || c | 0x20 == UInt8(ascii: "e")
            {
                at += 1
            }
            guard let v = Double(String(decoding: chars[start..<at], as: UTF8.self)) else {
                throw WKTError(message: "WKT: expected a number at character \(start + 1)")
            }
            return v
        }

        /// A position: x y, then any z and m.
        mutating func position() throws(WKTError) -> (Double, Double) {
            let x = try number()
            let y = try number()
            space()
            while at < chars.count, chars[at] != UInt8(ascii: ","), chars[at] != UInt8(ascii: ")") { _ = try number(); space() }
            return (x, y)
        }

        /// `( pos, pos, … )`; MULTIPOINT may wrap each position in parentheses.
        mutating func positions() throws(WKTError) -> [(Double, Double)] {
            try expect(UInt8(ascii: "("))
            var out: [(Double, Double)] = []
            repeat {
                if take(UInt8(ascii: "(")) {
                    out.append(try position())
                    try expect(UInt8(ascii: ")"))
                } else {
                    out.append(try position())
                }
            } while take(UInt8(ascii: ","))
            try expect(UInt8(ascii: ")"))
            return out
        }

        mutating func rings() throws(WKTError) -> [[(Double, Double)]] {
            try expect(UInt8(ascii: "("))
            var out: [[(Double, Double)]] = []
            repeat { out.append(try positions()) } while take(UInt8(ascii: ","))
            try expect(UInt8(ascii: ")"))
            return out
        }

        mutating func geometry(_ pieces: inout [Piece], depth: Int) throws(WKTError) {
            guard depth < 32 else { throw WKTError(message: "WKT: collections nested more than 32 deep") }
            let type = word()
            var dims = word()
            if dims == "EMPTY" { return }
            if !["Z", "M", "ZM", ""].contains(dims) { throw WKTError(message: "WKT: unknown '\(dims)' after \(type)") }
            space()
            if at + 5 <= chars.count, word() == "EMPTY" { return }
            dims = ""
            switch type {
            case "POINT":
                try expect(UInt8(ascii: "("))
                pieces.append(Piece(type: .point, rings: [[try position()]]))
                try expect(UInt8(ascii: ")"))
            case "LINESTRING": pieces.append(Piece(type: .lineString, rings: [try positions()]))
            case "POLYGON": pieces.append(Piece(type: .polygon, rings: try rings()))
            case "MULTIPOINT": for p in try positions() { pieces.append(Piece(type: .point, rings: [[p]])) }
            case "MULTILINESTRING": for r in try rings() { pieces.append(Piece(type: .lineString, rings: [r])) }
            case "MULTIPOLYGON":
                try expect(UInt8(ascii: "("))
                repeat { pieces.append(Piece(type: .polygon, rings: try rings())) } while take(UInt8(ascii: ","))
                try expect(UInt8(ascii: ")"))
            case "GEOMETRYCOLLECTION":
                try expect(UInt8(ascii: "("))
                repeat { try geometry(&pieces, depth: depth + 1) } while take(UInt8(ascii: ","))
                try expect(UInt8(ascii: ")"))
            case "": throw WKTError(message: "WKT: no geometry type")
            default: throw WKTError(message: "WKT: unknown geometry type '\(type)'")
            }
        }
    }
}
