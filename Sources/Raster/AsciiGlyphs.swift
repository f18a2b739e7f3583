/// ASCII stand-ins for braille cells, for terminals without UTF-8: every cell with dots gets a
/// visible character chosen by where its dots are, so lines stay continuous and show their slope.
public enum AsciiGlyphs {
    /// The glyph for a 2×4 dot pattern (bit layout of `BrailleCanvas`).
    public static func glyph(_ pattern: UInt8) -> Unicode.Scalar {
        table[Int(pattern)]
    }

    static let table: [Unicode.Scalar] = (0..<256).map { compute(UInt8($0)) }

    static func compute(_ p: UInt8) -> Unicode.Scalar {
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
