import FoundationEssentials
import GeoCore
import Glibc
import Support

/// Parsers for what users type at prompts and on the command line; errors are one line.
public enum InputParsing {
    /// A finite number (no NaN, no infinity, no hex), or nil.
    public static func number(_ text: String) -> Double? {
        let t = text.trimmedOfWhitespace
        guard !t.isEmpty, t.count <= 40,
            t.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }),
            let v = Double(t), v.isFinite
        else { return nil }
        return v
    }

    /// At most the first 32 characters of what was typed, for quoting it in a message (`…` when cut).
    public static func excerpt(_ text: some StringProtocol) -> String {
        text.count <= 32 ? String(text) : String(text.prefix(32)) + "…"
    }

    /// A zoom level: a number ≥ 0 (above 28 is accepted and clamped later, as the seed does).
    public static func zoomLevel(_ text: String) -> Result<Double, InputError> {
        guard let z = number(text) else { return .failure(InputError("zoom level must be a number from 0 to 28")) }
        guard z >= 0 else {
            return .failure(InputError("zoom level \(text.trimmedOfWhitespace) is below 0"))
        }
        return .success(z)
    }

    /// A distance with an optional unit: `500`, `500m`, `2km`, `1.5mi`, `800ft`; in (0, 20 000 km].
    public static func radius(_ text: String) -> Result<Double, InputError> {
        let t = text.trimmedOfWhitespace.lowercased()
        let units: [(String, Double)] = [("km", 1000), ("mi", 1609.344), ("ft", 0.3048), ("m", 1)]
        var factor = 1.0
        var digits = t
        for (suffix, f) in units where t.hasSuffix(suffix) {
            factor = f
            digits = String(t.dropLast(suffix.count)).trimmedOfWhitespace
            break
        }
        guard let v = number(digits) else {
            return .failure(InputError("radius must be a distance like 500, 2km, 1.5mi or 800ft"))
        }
        let meters = v * factor
        guard meters > 0, meters <= GeodesicCircle.maximumRadius else {
            return .failure(InputError("radius must be more than 0 and at most 20000 km"))
        }
        return .success(meters)
    }

    /// A latitude and longitude as people write them (`CoordinateParsing`: signed decimals, hemisphere
    /// letters, degrees–minutes–seconds, and whatever the status line prints), latitude within ±90.
    public static func coordinate(_ text: String) -> Result<Coordinate, InputError> {
        guard let c = CoordinateParsing.parse(text) else {
            return .failure(
                InputError("expected latitude, longitude, e.g. 33.7773, -84.3973 or 48°51′30″N 2°17′40″E"))
        }
        func plain(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v) }
        guard abs(c.latitude) <= 90 else {
            return .failure(InputError("latitude \(plain(c.latitude)) is outside -90…90"))
        }
        guard abs(c.longitude) <= 1e6 else {
            return .failure(InputError("longitude \(plain(c.longitude)) is too large"))
        }
        return .success(c)
    }
}

extension InputParsing {
    /// Where a `g` or `--center` text points: a pasted link (openstreetmap.org, `geo:`, Google Maps;
    /// with its zoom when it has one) or a latitude and longitude as `coordinate` reads them.
    public static func place(_ text: String) -> Result<LinkedPlace, InputError> {
        if let p = LocationLinks.parse(text) { return .success(p) }
        switch coordinate(text) {
        case .success(let c): return .success(LinkedPlace(coordinate: c))
        case .failure(let e):
            let t = text.trimmedOfWhitespace.lowercased()
            if t.hasPrefix("geo:") || t.hasPrefix("http") {
                return .failure(
                    InputError(
                        "a link termmap cannot read: give an openstreetmap.org #map= link, a geo: URI or a Google Maps @LAT,LON,Zz link"
                    ))
            }
            return .failure(e)
        }
    }
}

/// A refused input, with the one line to show.
public struct InputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The message.
    public var description: String
    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
