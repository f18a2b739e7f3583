/// ISO 8601 times (RFC 3339's profile, as GPX, KML and GeoJSON write them) to seconds since 1970-01-01
/// UTC and back (issue 49: tracks played in time). Days from the civil date by Howard Hinnant's
/// `days_from_civil` (howardhinnant.github.io/date_algorithms.html), valid for any proleptic Gregorian year.
public enum ISOTime {
    /// Seconds since 1970 of `2024-05-01T10:15:00Z`, `2024-05-01T10:15:00.250+02:00`, `2024-05-01 10:15:00`
    /// (no zone: UTC), `2024-05-01` (midnight UTC); nil for anything else.
    public static func seconds(_ text: some StringProtocol) -> Double? {
        let b = Array(text.utf8.prefix(64))
        guard b.count >= 10, text.utf8.count <= 64 else { return nil }
        func digits(_ from: Int, _ n: Int) -> Int? {
            guard from + n <= b.count else { return nil }
            var v = 0
            for i in from..<(from + n) {
                guard (0x30...0x39).contains(b[i]) else { return nil }
                v = v * 10 + Int(b[i] - 0x30)
            }
            return v
        }
        guard let year = digits(0, 4), b[4] == 0x2D, let month = digits(5, 2), b[7] == 0x2D, let day = digits(8, 2),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var seconds = Double(daysFromCivil(year, month, day)) * 86_400
        guard b.count > 10 else { return seconds }
        guard b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t") || b[10] == 0x20, let hour = digits(11, 2),
            b.count > 13, b[13] == 0x3A, let minute = digits(14, 2), hour <= 24, minute <= 59
        else { return nil }
        seconds += Double(hour * 3600 + minute * 60)
        var i = 16
        if i < b.count, b[i] == 0x3A {
            guard let second = digits(17, 2), second <= 60 else { return nil }
            seconds += Double(second)
            i = 19
            if i < b.count, b[i] == 0x2E || b[i] == 0x2C {
                var scale = 0.1
                i += 1
                let start = i
                while i < b.count, (0x30...0x39).contains(b[i]) {
                    seconds += Double(b[i] - 0x30) * scale
                    scale /= 10
                    i += 1
                }
                guard i > start else { return nil }
            }
        }
        guard i < b.count else { return seconds }
        switch b[i] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            return i + 1 == b.count ? seconds : nil
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign = b[i] == UInt8(ascii: "+") ? 1.0 : -1.0
            guard let hh = digits(i + 1, 2) else { return nil }
            var j = i + 3
            if j < b.count, b[j] == 0x3A { j += 1 }
            let mm = j < b.count ? digits(j, 2) : 0
            guard let mm, j + (j < b.count ? 2 : 0) == b.count, hh <= 23, mm <= 59 else { return nil }
            return seconds - sign * Double(hh * 3600 + mm * 60)
        default:
            return nil
        }
    }

    /// `seconds` since 1970 as `2024-05-01T10:15:00Z` (tenths and more when not whole: `…00.25Z`).
    public static func text(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "" }
        let whole = seconds.rounded(.down)
        let days = Int((whole / 86_400).rounded(.down))
        let secs = Int(whole) - days * 86_400
        let (y, m, d) = civilFromDays(days)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        var year = String(abs(y))
        while year.count < 4 { year = "0" + year }
        var out =
            "\(y < 0 ? "-" : "")\(year)-\(two(m))-\(two(d))T\(two(secs / 3600)):\(two(secs / 60 % 60)):\(two(secs % 60))"
        let fraction = seconds - whole
        if fraction >= 0.0005 {
            var f = String(Int((fraction * 1000).rounded()))
            while f.count < 3 { f = "0" + f }
            while f.hasSuffix("0") { f.removeLast() }
            out += "." + f
        }
        return out + "Z"
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date.
    static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The date of `days` since 1970-01-01.
    static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}
