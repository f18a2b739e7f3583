import Glibc

/// Hillshade: how lit each sample of a grid of heights is under a sun at an azimuth and altitude, by
/// Horn's slope and aspect on the 3 × 3 samples around it, as `gdaldem hillshade` computes it (Horn,
/// "Hill shading and the reflectance map", Proc. IEEE 69(1), 1981; Burrough and McDonnell, *Principles
/// of GIS*, 1998, the formula ESRI documents for its Hillshade tool):
///
///     dz/dx = ((c + 2f + i) − (a + 2d + g)) / 8Δx     dz/dy = ((g + 2h + i) − (a + 2b + c)) / 8Δy
///     slope = atan √(dz/dx² + dz/dy²)                   aspect = atan2(dz/dy, −dz/dx)
///     shade = cos(zenith) cos(slope) + sin(zenith) sin(slope) cos(azimuth′ − aspect)
///
/// with a b c / d e f / g h i the samples from the north-west, y pointing south, zenith = 90° − the
/// altitude and azimuth′ = 90° − the azimuth (compass degrees to the maths angle, anticlockwise from
/// east). Below 0 (facing away from the sun) is 0.
public enum Hillshade {
    /// The standard sun: from the north-west (315°), 45° above the horizon.
    public static let azimuth = 315.0
    /// The standard sun's altitude, in degrees.
    public static let altitude = 45.0

    /// The shade of a flat ground under the standard sun: cos(zenith).
    public static let flat = cos((90 - altitude) * .pi / 180)

    /// The shade (0–1) of each inner sample of `heights` (`side` × `side` samples row by row: the grid's
    /// border only feeds its neighbours), `(side − 2)²` values; NaN where a sample of the 3 × 3 has no
    /// height. `metersApart(row)` is the ground distance between two samples in grid row `row` (across
    /// and down: the grids are conformal, Web Mercator's).
    public static func shades(
        heights: [Float], side: Int, metersApart: (Int) -> Double,
        azimuth: Double = Hillshade.azimuth, altitude: Double = Hillshade.altitude
    ) -> [Float] {
        let inner = side - 2
        guard inner > 0, heights.count >= side * side else { return [] }
        let zenith = (90 - altitude) * .pi / 180
        let sunAngle = (90 - azimuth) * .pi / 180
        let (cosZenith, sinZenith) = (cos(zenith), sin(zenith))
        var out = [Float](repeating: .nan, count: inner * inner)
        for row in 1...inner {
            let dx = 8 * metersApart(row)
            let dy = dx
            for col in 1...inner {
                let k = row * side + col
                let (a, b, c) = (heights[k - side - 1], heights[k - side], heights[k - side + 1])
                let (d, f) = (heights[k - 1], heights[k + 1])
                let (g, h, i) = (heights[k + side - 1], heights[k + side], heights[k + side + 1])
                let x = Double((c + 2 * f + i) - (a + 2 * d + g)) / dx
                let y = Double((g + 2 * h + i) - (a + 2 * b + c)) / dy
                guard x.isFinite, y.isFinite else { continue }
                let slope = atan((x * x + y * y).squareRoot())
                let aspect = atan2(y, -x)
                let shade = cosZenith * cos(slope) + sinZenith * sin(slope) * cos(sunAngle - aspect)
                out[(row - 1) * inner + col - 1] = Float(max(0, shade))
            }
        }
        return out
    }
}
