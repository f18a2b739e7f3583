import Glibc

/// Well-known text geometries (OGC 06-103r4, "Simple Feature Access", §7): POINT, LINESTRING, POLYGON,
/// their MULTI forms and GEOMETRYCOLLECTION, with Z, M or ZM (extra ordinates ignored) and EMPTY; and the
/// curves of ISO SQL/MM Part 3 that GDAL reads (CIRCULARSTRING, COMPOUNDCURVE, CURVEPOLYGON, MULTICURVE,
/// MULTISURFACE), their arcs made lines in steps of about 4° as GDAL makes them (its default
/// OGR_ARC_STEPSIZE, RFC 49).
public enum WKT {
    /// A piece of a geometry: its type and rings of (longitude, latitude).
    public struct Piece: Sendable {
        public var type: PieceType
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

    /// The most an arc turns between two points of its line (GDAL's OGR_ARC_STEPSIZE, 4°).
    static let arcStep = 4.0 * Double.pi / 180

    /// The arc from `a` through `b` to `c` as the points after `a`, ending exactly at `c`: on the circle
    /// through the three (its centre where the sides' perpendicular bisectors meet, the circumcentre's
    /// determinant formula), turned the way that passes `b`, in GDAL's equal steps of about `arcStep`. Three
    /// points in a line are a line; `a` equal to `c` is the whole circle whose diameter is `a`–`b`
    /// (SQL/MM's full circle), counter-clockwise.
    static func arc(_ a: (Double, Double), _ b: (Double, Double), _ c: (Double, Double)) -> [(Double, Double)] {
        let full = a == c
        let (cx, cy): (Double, Double)
        if full {
            (cx, cy) = ((a.0 + b.0) / 2, (a.1 + b.1) / 2)
        } else {
            let d = 2 * (a.0 * (b.1 - c.1) + b.0 * (c.1 - a.1) + c.0 * (a.1 - b.1))
            let scale = max(abs(a.0), abs(a.1), abs(b.0), abs(b.1), abs(c.0), abs(c.1), 1)
            // In a line: a line through the middle point.
            guard abs(d) > 1e-12 * scale * scale else { return [b, c] }
            let (a2, b2, c2) = (a.0 * a.0 + a.1 * a.1, b.0 * b.0 + b.1 * b.1, c.0 * c.0 + c.1 * c.1)
            cx = (a2 * (b.1 - c.1) + b2 * (c.1 - a.1) + c2 * (a.1 - b.1)) / d
            cy = (a2 * (c.0 - b.0) + b2 * (a.0 - c.0) + c2 * (b.0 - a.0)) / d
        }
        let r = ((a.0 - cx) * (a.0 - cx) + (a.1 - cy) * (a.1 - cy)).squareRoot()
        let (t0, t1, t2) = (atan2(a.1 - cy, a.0 - cx), atan2(b.1 - cy, b.0 - cx), atan2(c.1 - cy, c.0 - cx))
        func ccw(_ from: Double, _ to: Double) -> Double {
            var d = (to - from).truncatingRemainder(dividingBy: 2 * .pi)
            if d < 0 { d += 2 * .pi }
            return d
        }
        // Counter-clockwise from a to c passes b when b comes first that way; else clockwise. A full
        // circle goes counter-clockwise.
        let sweep: Double
        if full {
            sweep = 2 * .pi
        } else if ccw(t0, t1) <= ccw(t0, t2) {
            sweep = ccw(t0, t2)
        } else {
            sweep = -ccw(t2, t0)
        }
        // GDAL's count of equal steps (OGRGeometryFactory::curveToLineString, by default): the nearest to
        // 4° each, made odd and at least 7 (it hides the arc's middle in them to find it again).
        let nearest = Int(abs(sweep) / arcStep + 0.5)
        let steps = nearest < 7 ? 7 : 7 + 2 * ((nearest - 6) / 2)
        var out: [(Double, Double)] = []
        for k in 1..<steps {
            let t = t0 + sweep * Double(k) / Double(steps)
            out.append((cx + r * cos(t), cy + r * sin(t)))
        }
        out.append(c)
        return out
    }

    struct Parser {
        let chars: [UInt8]
        var at = 0

        mutating func space() {
            while at < chars.count, chars[at] == 0x20 || chars[at] == 0x09 || chars[at] == 0x0A || chars[at] == 0x0D {
                at += 1
            }
        }

        mutating func word() -> String {
            space()
            let start = at
            while at < chars.count, (chars[at] | 0x20) >= UInt8(ascii: "a"), (chars[at] | 0x20) <= UInt8(ascii: "z") {
                at += 1
            }
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
            guard take(c) else {
                throw WKTError(message: "WKT: expected '\(Character(Unicode.Scalar(c)))' at character \(at + 1)")
            }
        }

        mutating func number() throws(WKTError) -> Double {
            space()
            let start = at
            while at < chars.count, let c = Optional(chars[at]),
                (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: "-") || c == UInt8(ascii: "+")
                    || c == UInt8(ascii: ".")
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
            while at < chars.count, chars[at] != UInt8(ascii: ","), chars[at] != UInt8(ascii: ")") {
                _ = try number()
                space()
            }
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

        /// `CIRCULARSTRING (…)`'s positions as a line: each arc (start, a point on it, end) in steps.
        mutating func circularString() throws(WKTError) -> [(Double, Double)] {
            let p = try positions()
            guard p.count >= 3, p.count % 2 == 1 else {
                throw WKTError(message: "WKT: a CIRCULARSTRING needs 3, 5, 7… positions")
            }
            var out = [p[0]]
            for k in stride(from: 0, to: p.count - 2, by: 2) { out += WKT.arc(p[k], p[k + 1], p[k + 2]) }
            return out
        }

        /// A curve where a compound curve or a curve polygon holds one: `(…)` (a line), `LINESTRING (…)`,
        /// `CIRCULARSTRING (…)` or `COMPOUNDCURVE (…)`.
        mutating func curve(depth: Int) throws(WKTError) -> [(Double, Double)] {
            space()
            if at < chars.count, chars[at] == UInt8(ascii: "(") { return try positions() }
            let kind = word()
            let dims = word()
            if !["Z", "M", "ZM", ""].contains(dims) { throw WKTError(message: "WKT: unknown '\(dims)' after \(kind)") }
            switch kind {
            case "LINESTRING": return try positions()
            case "CIRCULARSTRING": return try circularString()
            case "COMPOUNDCURVE": return try compoundCurve(depth: depth + 1)
            default: throw WKTError(message: "WKT: '\(kind)' is not a curve")
            }
        }

        /// `COMPOUNDCURVE (curve, curve, …)`: its curves joined (where one ends the next starts).
        mutating func compoundCurve(depth: Int) throws(WKTError) -> [(Double, Double)] {
            guard depth < 32 else { throw WKTError(message: "WKT: curves nested more than 32 deep") }
            try expect(UInt8(ascii: "("))
            var out: [(Double, Double)] = []
            repeat {
                let part = try curve(depth: depth)
                out += out.isEmpty ? part : Array(part.dropFirst())
            } while take(UInt8(ascii: ","))
            try expect(UInt8(ascii: ")"))
            return out
        }

        /// `(curve, curve, …)`: a curve polygon's rings, a multicurve's lines.
        mutating func curves(depth: Int) throws(WKTError) -> [[(Double, Double)]] {
            try expect(UInt8(ascii: "("))
            var out: [[(Double, Double)]] = []
            repeat { out.append(try curve(depth: depth)) } while take(UInt8(ascii: ","))
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
            case "CIRCULARSTRING": pieces.append(Piece(type: .lineString, rings: [try circularString()]))
            case "COMPOUNDCURVE": pieces.append(Piece(type: .lineString, rings: [try compoundCurve(depth: depth + 1)]))
            case "CURVEPOLYGON": pieces.append(Piece(type: .polygon, rings: try curves(depth: depth + 1)))
            case "MULTICURVE":
                for line in try curves(depth: depth + 1) { pieces.append(Piece(type: .lineString, rings: [line])) }
            case "MULTISURFACE":
                // Polygons, as `(rings)` or named (POLYGON, CURVEPOLYGON).
                try expect(UInt8(ascii: "("))
                repeat {
                    space()
                    if at < chars.count, chars[at] == UInt8(ascii: "(") {
                        pieces.append(Piece(type: .polygon, rings: try rings()))
                    } else {
                        try geometry(&pieces, depth: depth + 1)
                    }
                } while take(UInt8(ascii: ","))
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
