import GeoCore
import Support

/// Where a pasted link points: a centre, and a zoom when the link has one.
public struct LinkedPlace: Equatable, Sendable {
    public var coordinate: Coordinate
    public var zoom: Double?

    public init(coordinate: Coordinate, zoom: Double? = nil) {
        self.coordinate = coordinate
        self.zoom = zoom
    }
}

/// The links people paste to say where (and the ones termmap copies): openstreetmap.org's
/// `#map=Z/LAT/LON`, RFC 5870's `geo:` URIs (with the `?z=` zoom Android's maps read), and Google Maps'
/// `@LAT,LON,Zz`.
public enum LocationLinks {
    /// The place a link names, or nil when the text is not one of these links.
    public static func parse(_ text: String) -> LinkedPlace? {
        let t = text.trimmedOfWhitespace
        if t.lowercased().hasPrefix("geo:") { return geoURI(String(t.dropFirst(4))) }
        if let r = t.firstRange(of: "map=") {
            // openstreetmap.org: the fragment's `map` parameter, ended by `&`.
            let value = t[r.upperBound...].prefix { $0 != "&" && $0 != "#" }
            return openStreetMapHash(String(value))
        }
        if let at = t.firstRange(of: "/@") { return googleMaps(String(t[at.upperBound...])) }
        return nil
    }

    /// `Z/LAT/LON` read as openstreetmap.org reads it (`OSM.parseHash`): the zoom by JavaScript's
    /// `parseInt` (its leading digits: `12.7` is 12), the coordinates by `parseFloat`.
    static func openStreetMapHash(_ value: String) -> LinkedPlace? {
        let parts = value.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 3, let zoom = leadingInteger(parts[0]), let lat = leadingDecimal(parts[1]),
            let lon = leadingDecimal(parts[2])
        else { return nil }
        return place(lat, lon, zoom: Double(zoom))
    }

    /// `LAT,LON[,ALT][;param…][?z=Z…]` (RFC 5870 §3.3; a `crs` other than wgs84 is not read).
    static func geoURI(_ rest: String) -> LinkedPlace? {
        let (path, query) = split(rest, at: "?")
        let params = path.split(separator: ";")
        guard let coords = params.first else { return nil }
        for p in params.dropFirst() {
            let kv = p.split(separator: "=", maxSplits: 1)
            if kv.first?.lowercased() == "crs", kv.count == 2, kv[1].lowercased() != "wgs84" { return nil }
        }
        let numbers = coords.split(separator: ",", omittingEmptySubsequences: false)
        guard numbers.count == 2 || numbers.count == 3, let lat = exactDecimal(numbers[0]),
            let lon = exactDecimal(numbers[1])
        else {
            return nil
        }
        var zoom: Double?
        for item in (query ?? "").split(separator: "&") {
            let kv = item.split(separator: "=", maxSplits: 1)
            if kv.count == 2, kv[0] == "z", let z = exactDecimal(kv[1]), z >= 0 { zoom = z }
        }
        return place(lat, lon, zoom: zoom)
    }

    /// What follows `/@` in a Google Maps URL: `LAT,LON,Zz` (a zoom), or `LAT,LON,Dm` (a view in metres
    /// of a 3-D scene: no zoom taken).
    static func googleMaps(_ rest: String) -> LinkedPlace? {
        let head = rest.prefix { $0 != "/" && $0 != "?" && $0 != "&" }
        let parts = head.split(separator: ",")
        guard parts.count >= 2, let lat = exactDecimal(parts[0]), let lon = exactDecimal(parts[1]) else { return nil }
        var zoom: Double?
        if parts.count >= 3, parts[2].hasSuffix("z"), let z = exactDecimal(parts[2].dropLast()), z >= 0 { zoom = z }
        return place(lat, lon, zoom: zoom)
    }

    /// A place within ±90° latitude (a longitude beyond ±180 wraps, as the sites wrap it).
    static func place(_ lat: Double, _ lon: Double, zoom: Double?) -> LinkedPlace? {
        guard abs(lat) <= 90, abs(lon) <= 1e6 else { return nil }
        return LinkedPlace(coordinate: Coordinate(latitude: lat, longitude: lon), zoom: zoom)
    }

    /// The openstreetmap.org link to a view: the zoom rounded to a whole number (that site's zooms are
    /// whole), the coordinates with 6 decimals.
    public static func openStreetMap(center: Coordinate, zoom: Double) -> String {
        let z = Int(max(0, min(28, zoom)).rounded())
        let lon = WebMercator.wrapLongitude(center.longitude)
        return
            "https://www.openstreetmap.org/#map=\(z)/\(CoordinateFormat.fixed(center.latitude, 6))/\(CoordinateFormat.fixed(lon, 6))"
    }

    /// The RFC 5870 URI of a place, with 6 decimals.
    public static func geoURI(_ c: Coordinate) -> String {
        "geo:\(CoordinateFormat.fixed(c.latitude, 6)),\(CoordinateFormat.fixed(WebMercator.wrapLongitude(c.longitude), 6))"
    }

    // MARK: Numbers as the sites read them

    /// JavaScript's `parseInt(s, 10)`: optional white space and sign, then the leading digits.
    static func leadingInteger(_ s: Substring) -> Int? {
        var t = s.drop { $0 == " " }
        var sign = 1
        if t.first == "-" || t.first == "+" {
            sign = t.first == "-" ? -1 : 1
            t = t.dropFirst()
        }
        let digits = t.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 9, let v = Int(digits) else { return nil }
        return sign * v
    }

    /// JavaScript's `parseFloat` for plain decimals: the longest leading `[+-]digits[.digits]`.
    static func leadingDecimal(_ s: Substring) -> Double? {
        var i = s.startIndex
        if i < s.endIndex, s[i] == "-" || s[i] == "+" { i = s.index(after: i) }
        var end = s.startIndex
        var digits = 0
        var point = false
        while i < s.endIndex, s[i].isASCII, s[i].isNumber || (s[i] == "." && !point) {
            if s[i] == "." {
                point = true
                i = s.index(after: i)
                continue
            }
            digits += 1
            i = s.index(after: i)
            end = i
        }
        guard digits > 0, digits <= 30 else { return nil }
        return Double(s[s.startIndex..<end])
    }

    /// A whole field as a plain decimal (`-12.5`), nil for anything else.
    static func exactDecimal(_ s: Substring) -> Double? {
        guard let v = leadingDecimal(s), s.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.".contains($0)) }) else {
            return nil
        }
        return v
    }

    static func split(_ s: String, at separator: Character) -> (Substring, Substring?) {
        guard let i = s.firstIndex(of: separator) else { return (Substring(s), nil) }
        return (s[..<i], s[s.index(after: i)...])
    }
}
