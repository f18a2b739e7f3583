import GeoCore

/// The state as JSON for `termmap render --json`, with full double precision.
public enum StateJSON {
    /// The document: center, zoom, terminal, map, region, bounds, metersPerDot, circle, lastAction, message.
    public static func encode(_ state: ViewerState) -> String {
        let v = state.view
        let r = v.region
        let b = v.bounds
        var circle = "null"
        if let c = state.circle {
            circle =
                "{\"center\":\(coordinate(c.circle.center)),\"radiusMeters\":\(number(c.circle.radiusMeters)),"
                + "\"ratio\":\(number(c.ratio))}"
        }
        var last = "null"
        if let a = state.lastAction {
            last =
                "{\"name\":\(string(a.name)),\"zoomBefore\":\(number(a.zoomBefore)),"
                + "\"zoomAfter\":\(number(a.zoomAfter)),\"fallback\":\(a.fallback)}"
        }
        return "{"
            + "\"center\":\(coordinate(v.center)),"
            + "\"zoom\":\(number(v.zoom)),"
            + "\"terminal\":{\"cols\":\(state.terminalCols),\"rows\":\(state.terminalRows)},"
            + "\"map\":{\"cols\":\(v.size.cols),\"rows\":\(v.size.rows),\"dotsPerCell\":[2,4]},"
            + "\"region\":{\"center\":\(coordinate(r.center)),\"span\":{\"latitudeDelta\":\(number(r.span.latitudeDelta)),"
            + "\"longitudeDelta\":\(number(r.span.longitudeDelta))}},"
            + "\"bounds\":{\"north\":\(number(b.north)),\"south\":\(number(b.south)),\"west\":\(number(b.west)),"
            + "\"east\":\(number(b.east))},"
            + "\"metersPerDot\":\(number(v.metersPerDot)),"
            + "\"circle\":\(circle),"
            + "\"lastAction\":\(last),"
            + "\"message\":\(string(state.message))"
            + "}"
    }

    static func coordinate(_ c: Coordinate) -> String {
        "{\"lat\":\(number(c.latitude)),\"lon\":\(number(c.longitude))}"
    }

    /// Swift's shortest round-trip form, valid JSON for every finite value.
    static func number(_ v: Double) -> String {
        guard v.isFinite else { return "null" }
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return "\(v)"
    }

    static func string(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }
}
