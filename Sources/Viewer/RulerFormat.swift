import GeoCore
import MapRender

/// The ruler's numbers as the viewer writes them (metric, or `--units imperial`).
public enum RulerFormat {
    /// A length: metres and kilometres, or feet and miles.
    public static func length(_ meters: Double, imperial: Bool) -> String {
        guard meters.isFinite else { return "–" }
        guard imperial else {
            if meters >= 100_000 { return CoordinateFormat.fixed(meters / 1000, 0) + " km" }
            if meters >= 1000 { return CoordinateFormat.fixed(meters / 1000, 2) + " km" }
            return CoordinateFormat.fixed(meters, meters >= 10 ? 0 : 2) + " m"
        }
        // The international foot and mile (1959): 0.3048 m, 1609.344 m.
        let miles = meters / 1609.344
        if miles >= 100 { return CoordinateFormat.fixed(miles, 0) + " mi" }
        if miles >= 0.1 { return CoordinateFormat.fixed(miles, 2) + " mi" }
        return CoordinateFormat.fixed(meters / 0.3048, 0) + " ft"
    }

    /// An area: square metres, hectares and square kilometres, or acres and square miles.
    public static func area(_ squareMeters: Double, imperial: Bool) -> String {
        guard squareMeters.isFinite else { return "–" }
        guard imperial else {
            if squareMeters >= 1e6 {
                return CoordinateFormat.fixed(squareMeters / 1e6, squareMeters >= 1e8 ? 0 : 2) + " km²"
            }
            if squareMeters >= 1e4 { return CoordinateFormat.fixed(squareMeters / 1e4, 2) + " ha" }
            return CoordinateFormat.fixed(squareMeters, squareMeters >= 10 ? 0 : 2) + " m²"
        }
        // An acre is 4046.8564224 m², a square mile 640 acres.
        let acres = squareMeters / 4046.8564224
        if acres >= 640 { return CoordinateFormat.fixed(acres / 640, 2) + " mi²" }
        return CoordinateFormat.fixed(acres, 2) + " acres"
    }

    /// A bearing in whole degrees clockwise from north: `045°`.
    public static func bearing(_ degrees: Double) -> String {
        guard degrees.isFinite else { return "–" }
        let d = Int(degrees.rounded()) % 360
        return (d < 10 ? "00" : d < 100 ? "0" : "") + "\(d)°"
    }

    /// A leg's label: its length and initial bearing.
    public static func leg(_ leg: Ruler.Leg, imperial: Bool) -> String {
        length(leg.meters, imperial: imperial) + " " + bearing(leg.bearing)
    }
}
