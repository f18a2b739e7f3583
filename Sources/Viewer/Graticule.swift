/// The adaptive latitude/longitude grid: spacing from a 1-2-5-style ladder of degrees, minutes and
/// seconds (30°, 10°, 5°, 2°, 1°, 30′, 10′, 5′, 2′, 1′, 30″ … 0.0001″) so that lines stay about
/// `targetDots` apart at every zoom from 0 to 28.
public enum Graticule {
    /// Spacings in arcseconds, large to small.
    public static let spacingsArcseconds: [Double] = {
        var s: [Double] = [30, 10, 5, 2, 1].map { $0 * 3600 } + [30, 10, 5, 2, 1].map { $0 * 60 } + [30, 10, 5, 2, 1]
        var decade = 0.1
        for _ in 0..<5 {
            s += [5 * decade, 2 * decade, decade]
            decade /= 10
        }
        return s
    }()

    /// Smallest distance between lines, in dots.
    public static let targetDots = 40.0

    /// The spacing in degrees for a world `worldSize` dots wide.
    public static func spacing(worldSize: Double) -> Double {
        let dotsPerDegree = worldSize / 360
        var chosen = spacingsArcseconds[0]
        for s in spacingsArcseconds where s / 3600 * dotsPerDegree >= targetDots { chosen = s }
        return chosen / 3600
    }

    /// `30°N`, `12°30′E`, `12°30′15″S`, `0°0′0.25″E`: as precise as the spacing needs.
    public static func label(_ value: Double, spacing: Double, positive: Character, negative: Character) -> String {
        let spacingSeconds = spacing * 3600
        var decimals = 0
        var unit = 1.0
        while spacingSeconds * unit < 0.999, decimals < 6 {
            decimals += 1
            unit *= 10
        }
        let total = Int64((abs(value) * 3600 * unit).rounded())
        let perDegree = Int64(3600 * unit)
        let perMinute = Int64(60 * unit)
        let deg = total / perDegree
        let min = (total % perDegree) / perMinute
        let secUnits = total % perMinute
        let hemisphere = total == 0 || total == 180 * perDegree ? "" : String(value < 0 ? negative : positive)
        if spacingSeconds >= 3600 { return "\(deg)°\(hemisphere)" }
        if spacingSeconds >= 60 { return "\(deg)°\(min)′\(hemisphere)" }
        let whole = secUnits / Int64(unit)
        var sec = "\(whole)"
        if decimals > 0 {
            let frac = String(secUnits % Int64(unit))
            sec += "." + String(repeating: "0", count: decimals - frac.count) + frac
        }
        return "\(deg)°\(min)′\(sec)″\(hemisphere)"
    }
}
