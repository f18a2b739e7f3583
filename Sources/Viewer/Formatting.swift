import GeoCore
import Support

/// Numbers as the status line writes them.
public enum Formatting {
    /// `532 m`, `5.31 km`, `53.1 km`, `531 km`, `0.143 m`.
    public static func distance(_ meters: Double) -> String {
        guard meters.isFinite else { return "–" }
        let m = abs(meters)
        if m >= 100_000 { return CoordinateFormat.fixed(m / 1000, 0) + " km" }
        if m >= 10_000 { return CoordinateFormat.fixed(m / 1000, 1) + " km" }
        if m >= 1000 { return CoordinateFormat.fixed(m / 1000, 2) + " km" }
        if m >= 1 { return CoordinateFormat.fixed(m, 0) + " m" }
        // Below a metre, centimetres and millimetres with three significant digits.
        if m >= 0.1 { return CoordinateFormat.fixed(m * 100, 1) + " cm" }
        if m >= 0.01 { return CoordinateFormat.fixed(m * 100, 2) + " cm" }
        if m >= 0.001 { return CoordinateFormat.fixed(m * 1000, 2) + " mm" }
        return CoordinateFormat.fixed(m * 1000, 3) + " mm"
    }

    /// Zoom with two decimals: `zoom 14.00`.
    public static func zoom(_ z: Double) -> String { CoordinateFormat.fixed(z, 2) }

    /// A round length for a scale bar (1, 2, 5 × 10^k metres) at most `maxMeters` long.
    public static func roundLength(atMost maxMeters: Double) -> Double {
        guard maxMeters.isFinite, maxMeters > 0 else { return 0 }
        var p = 1.0
        while p * 10 <= maxMeters { p *= 10 }
        while p > maxMeters { p /= 10 }
        for f in [5.0, 2.0, 1.0] where f * p <= maxMeters { return f * p }
        return p
    }
}

/// Text forms of coordinates for the screen.
public enum CoordinateFormat {
    /// `33.77733°N 84.39735°W`.
    public static func hemispheres(_ c: Coordinate, decimals: Int) -> String {
        let ns = c.latitude < 0 ? "S" : "N"
        let lon = WebMercator.wrapLongitude(c.longitude)
        let ew = lon < 0 ? "W" : "E"
        return "\(fixed(abs(c.latitude), decimals))°\(ns) \(fixed(abs(lon), decimals))°\(ew)"
    }

    /// `60°10′11.60″N 24°56′27.40″E`: degrees, minutes and seconds to a hundredth of a second (30 cm).
    public static func degreesMinutesSeconds(_ c: Coordinate) -> String {
        func dms(_ value: Double, _ positive: String, _ negative: String) -> String {
            // In hundredths of a second, rounded once, so that 59.999″ carries into the minute.
            let hundredths = Int((abs(value) * 360_000).rounded())
            let (degrees, rest) = hundredths.quotientAndRemainder(dividingBy: 360_000)
            let (minutes, centiseconds) = rest.quotientAndRemainder(dividingBy: 6_000)
            let seconds = "\(centiseconds / 100)." + String(String(centiseconds % 100 + 100).dropFirst())
            return "\(degrees)°\(minutes)′\(seconds)″" + (value < 0 && hundredths > 0 ? negative : positive)
        }
        return dms(c.latitude, "N", "S") + " " + dms(WebMercator.wrapLongitude(c.longitude), "E", "W")
    }

    /// A number with a fixed count of decimals, without Foundation's locale.
    public static func fixed(_ value: Double, _ decimals: Int) -> String { fixedDecimals(value, decimals) }
}
