/// ASCII stand-ins for braille cells, for terminals without UTF-8: every cell with dots gets a
/// visible character chosen by where its dots are, so lines stay continuous and show their slope.
public enum AsciiGlyphs {
    /// The glyph for a 2×4 dot pattern (bit layout of `BrailleCanvas`).
    public static func glyph(_ pattern: UInt8) -> Character {
        table[Int(pattern)]
    }

    static let table: [Character] = (0..<256).map { compute(UInt8($0)) }

    static func compute(_ p: UInt8) -> Character {
        if p == 0 { return " " }
        var rows: [Int] = []
        var left = false
        var right = false
        var topLeft = false
        var topRight = false
        var bottomLeft = false
        var bottomRight = false
        for y in 0..<4 {
            for x in 0..<2 where p & BrailleCanvas.bits[y][x] != 0 {
                rows.append(y)
                if x == 0 { left = true } else { right = true }
                if y < 2 {
                    if x == 0 { topLeft = true } else { topRight = true }
                } else {
                    if x == 0 { bottomLeft = true } else { bottomRight = true }
                }
            }
        }
        let minRow = rows.min() ?? 0
        let maxRow = rows.max() ?? 0
        let span = maxRow - minRow
        let count = rows.count
        if count == 1 { return minRow < 2 ? "'" : "," }
        if span <= 1 { return left && right ? (minRow >= 2 ? "_" : "-") : (minRow < 2 ? "'" : ",") }
        if !(left && right) { return "|" }
        if topLeft && bottomRight && !topRight && !bottomLeft { return "\\" }
        if topRight && bottomLeft && !topLeft && !bottomRight { return "/" }
        if count >= 6 { return "#" }
        return "+"
    }
}

/// Spans of a polygon along horizontal lines (even–odd rule), for filling areas cell row by cell row.
public enum ScanlineFill {
    /// Sorted x positions where the closed polygon crosses the line y (half-open rule at vertices).
    public static func crossings(_ xs: [Double], _ ys: [Double], y: Double) -> [Double] {
        var out: [Double] = []
        let n = xs.count
        guard n >= 3 else { return out }
        var j = n - 1
        for i in 0..<n {
            let yi = ys[i]
            let yj = ys[j]
            if (yi > y) != (yj > y) {
                out.append(xs[i] + (y - yi) / (yj - yi) * (xs[j] - xs[i]))
            }
            j = i
        }
        out.sort()
        return out
    }

    /// True when x lies inside the even–odd spans given by sorted crossings.
    public static func inside(_ x: Double, crossings: [Double]) -> Bool {
        var count = 0
        for c in crossings {
            if c > x { break }
            count += 1
        }
        return count % 2 == 1
    }
}
