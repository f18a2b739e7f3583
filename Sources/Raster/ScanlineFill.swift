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
