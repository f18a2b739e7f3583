import Support

/// gpsd's JSON reports, one a line (gpsd.gitlab.io/gpsd/gpsd_json.html): `TPV` gives the position,
/// `SKY` the satellites; the others (`VERSION`, `DEVICES`, `WATCH`…) say nothing termmap draws.
public enum GPSDReports {
    /// The command that asks gpsd to send its reports as JSON.
    public static let watch = "?WATCH={\"enable\":true,\"json\":true}\n"

    /// The longest line read (gpsd's own reports stay under 10 KB: `GPS_JSON_RESPONSE_MAX`); a longer one
    /// is skipped and counted.
    public static let maxLineBytes = 64 << 10

    /// What one line says; nil for a report of another class. A line that is no JSON object, or a `TPV`
    /// whose position is no place on Earth, throws.
    public static func report(_ line: [UInt8]) throws(JSONSyntaxError) -> GPSReport? {
        let tree = try line.withUnsafeBufferPointer { bytes throws(JSONSyntaxError) -> JSONTree in
            var scanner = JSONScanner(bytes)
            let value = try scanner.value()
            guard scanner.peek() == nil else { throw scanner.error(scanner.found("expected the end of the line")) }
            return value
        }
        guard case .object = tree else { throw JSONSyntaxError(offset: 0, message: "not a JSON object") }
        switch tree["class"] {
        case .string("TPV"):
            return try tpv(tree)
        case .string("SKY"):
            // `uSat`/`nSat` since gpsd 3.20; else the `used` flags of `satellites`.
            let listed: [JSONTree] = if case .array(let all) = tree["satellites"] { all } else { [] }
            let used = number(tree["uSat"]).map { Int($0) } ?? listed.filter { $0["used"] == .bool(true) }.count
            let seen = number(tree["nSat"]).map { Int($0) } ?? listed.count
            return .satellites(used: max(0, used), seen: max(0, seen))
        default:
            return nil
        }
    }

    static func tpv(_ tree: JSONTree) throws(JSONSyntaxError) -> GPSReport {
        let mode = number(tree["mode"]).map { Int($0) } ?? 0
        guard mode >= 2, let lat = number(tree["lat"]), let lon = number(tree["lon"]) else { return .noFix }
        let fix = GPSFix(
            latitude: lat, longitude: lon, altitude: mode >= 3 ? number(tree["altMSL"]) ?? number(tree["alt"]) : nil,
            speed: number(tree["speed"]), course: number(tree["track"]), mode: min(3, mode),
            horizontalError: number(tree["eph"]), time: isoTime(string(tree["time"])))
        guard fix.isPlausible else {
            throw JSONSyntaxError(offset: 0, message: "a position of \(lat), \(lon) is no place on Earth")
        }
        return .fix(fix)
    }

    static func number(_ v: JSONTree?) -> Double? {
        if case .number(let d, _) = v, d.isFinite { return d }
        return nil
    }

    /// `text` when it reads as an ISO 8601 time (digits, `-:.TZ+`, at most 40 characters), else nil: a
    /// receiver's time is shown and written back, and it is only ever a time.
    public static func isoTime(_ text: String?) -> String? {
        guard let text, !text.isEmpty, text.utf8.count <= 40,
            text.utf8.allSatisfy({ (0x30...0x39).contains($0) || "-:.TZ+".utf8.contains($0) })
        else { return nil }
        return text
    }

    static func string(_ v: JSONTree?) -> String? {
        if case .string(let s) = v { return s }
        return nil
    }
}
