/// NMEA 0183 sentences into fixes (issue 49: `--gps /dev/ttyUSB0`, `--gps log.nmea`): `RMC` (position,
/// speed, course, date and time), `GGA` (position, fix quality, satellites, height) and `GSA` (2D or
/// 3D), from any talker (`GP`, `GN`, `GL`…). Each sentence's checksum (the XOR of the bytes between `$`
/// and `*`) is checked; a sentence that fails it, or says nonsense, is counted, never fatal.
/// Sentence layouts: NMEA 0183 v4.10 as gpsd documents them (gpsd.gitlab.io/gpsd/NMEA.html).
public struct NMEAReader: Sendable {
    /// The longest sentence taken (NMEA says 82 bytes; receivers' proprietary ones run longer).
    public static let maxLineBytes = 1024

    /// Sentences refused: a bad checksum, a field that is no number, a position off the Earth.
    public private(set) var badSentences = 0
    /// Why the first bad one was refused.
    public private(set) var firstFault: String?
    /// 2 or 3 from the last GSA; nil until one comes.
    private var fixMode: Int?
    /// The last GGA's time of day, height and satellites used: joined to the RMC of the same time.
    private var gga: (time: String, altitude: Double?)?
    /// True once an RMC came: from then on RMC makes the fixes; a GGA makes them only in a stream of
    /// GGA alone (known at its second GGA with no RMC before it: the first epoch gives no fix twice).
    private var hasRMC = false
    private var sawGGA = false

    public init() {}

    /// What one line says: a fix, no fix, satellites; nil for a sentence termmap does not read (or a
    /// bad one, counted).
    public mutating func take(_ line: some Collection<UInt8>) -> GPSReport? {
        var bytes = Array(line.prefix(Self.maxLineBytes + 1))
        while let last = bytes.last, last == 0x0D || last == 0x0A || last == 0x20 { bytes.removeLast() }
        guard let start = bytes.firstIndex(of: UInt8(ascii: "$")) else { return nil }
        bytes.removeFirst(start)
        guard bytes.count <= Self.maxLineBytes else {
            return refuse("a sentence of more than \(Self.maxLineBytes) bytes")
        }
        guard let star = bytes.lastIndex(of: UInt8(ascii: "*")), bytes.count == star + 3,
            let sum = UInt8(String(decoding: bytes[(star + 1)...], as: UTF8.self), radix: 16)
        else { return refuse("a sentence without its checksum") }
        let computed = bytes[1..<star].reduce(UInt8(0), ^)
        guard computed == sum else { return refuse("a bad checksum") }
        let fields = bytes[1..<star].split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        guard let kind = fields.first, kind.utf8.count == 5 else { return nil }
        switch kind.suffix(3) {
        case "RMC": return rmc(fields)
        case "GGA": return ggaSentence(fields)
        case "GSA": return gsa(fields)
        default: return nil
        }
    }

    private mutating func refuse(_ why: String) -> GPSReport? {
        badSentences += 1
        if firstFault == nil { firstFault = why }
        return nil
    }

    /// `$xxRMC,hhmmss.ss,A,llll.ll,a,yyyyy.yy,a,knots,course,ddmmyy,…`
    private mutating func rmc(_ f: [String]) -> GPSReport? {
        hasRMC = true
        guard f.count >= 10 else { return refuse("an RMC of \(f.count) fields") }
        guard f[2] == "A" else { return .noFix }
        guard let (lat, lon) = position(f[3], f[4], f[5], f[6]) else { return refuse("an RMC with no position") }
        let knots = Double(f[7])
        let time = Self.time(f[1], date: f[9])
        let altitude = gga.flatMap { $0.time == f[1] ? $0.altitude : nil }
        let mode = fixMode ?? (altitude == nil ? 2 : 3)
        return .fix(
            GPSFix(
                latitude: lat, longitude: lon, altitude: mode == 3 ? altitude : nil,
                // 1 knot = 1852 m / 3600 s (the international nautical mile).
                speed: knots.map { $0 * 1852 / 3600 }, course: Double(f[8]), mode: mode, time: time))
    }

    /// `$xxGGA,hhmmss.ss,llll.ll,a,yyyyy.yy,a,quality,satellites,hdop,altitude,M,…`
    private mutating func ggaSentence(_ f: [String]) -> GPSReport? {
        guard f.count >= 10 else { return refuse("a GGA of \(f.count) fields") }
        guard let quality = Int(f[6]), quality > 0 else {
            gga = nil
            return hasRMC ? nil : .noFix
        }
        guard let (lat, lon) = position(f[2], f[3], f[4], f[5]) else { return refuse("a GGA with no position") }
        let altitude = Double(f[9])
        gga = (f[1], altitude)
        let ggaAlone = !hasRMC && sawGGA
        sawGGA = true
        guard ggaAlone else { return Int(f[7]).map { .satellites(used: $0, seen: $0) } }
        let mode = fixMode ?? (altitude == nil ? 2 : 3)
        return .fix(
            GPSFix(latitude: lat, longitude: lon, altitude: mode == 3 ? altitude : nil, mode: mode, time: nil))
    }

    /// `$xxGSA,A,mode,prn…(12),pdop,hdop,vdop`: mode 1 no fix, 2 2D, 3 3D.
    private mutating func gsa(_ f: [String]) -> GPSReport? {
        guard f.count >= 3, let mode = Int(f[2]), (1...3).contains(mode) else { return refuse("a GSA without a mode") }
        fixMode = mode >= 2 ? mode : nil
        let used = f.dropFirst(3).prefix(12).filter { !$0.isEmpty }.count
        return mode == 1 ? .noFix : .satellites(used: used, seen: used)
    }

    /// Degrees from `ddmm.mmmm`,`N|S` and `dddmm.mmmm`,`E|W`; nil when a field is empty or no number.
    func position(_ lat: String, _ ns: String, _ lon: String, _ ew: String) -> (Double, Double)? {
        guard let a = Self.degrees(lat), let o = Self.degrees(lon), ["N", "S"].contains(ns), ["E", "W"].contains(ew)
        else { return nil }
        let (latitude, longitude) = (ns == "S" ? -a : a, ew == "W" ? -o : o)
        guard abs(latitude) <= 90, abs(longitude) <= 180 else { return nil }
        return (latitude, longitude)
    }

    /// `dddmm.mmmm` → degrees.
    static func degrees(_ text: String) -> Double? {
        guard let v = Double(text), v.isFinite, v >= 0 else { return nil }
        let whole = (v / 100).rounded(.down)
        let minutes = v - whole * 100
        guard minutes < 60 else { return nil }
        return whole + minutes / 60
    }

    /// `hhmmss.ss` and `ddmmyy` → `20yy-mm-ddThh:mm:ss.ssZ` (years 80–99 are 1980–1999, as gpsd reads
    /// them); nil when either is malformed.
    static func time(_ t: String, date d: String) -> String? {
        let (tu, du) = (Array(t.utf8), Array(d.utf8))
        guard tu.count >= 6, du.count == 6, tu.allSatisfy({ (0x30...0x39).contains($0) || $0 == 0x2E }),
            du.allSatisfy({ (0x30...0x39).contains($0) })
        else { return nil }
        let s = { (a: [UInt8], r: Range<Int>) in String(decoding: a[r], as: UTF8.self) }
        let yy = Int(s(du, 4..<6)) ?? 0
        let year = yy >= 80 ? 1900 + yy : 2000 + yy
        let fraction = tu.count > 6 ? s(tu, 6..<tu.count) : ""
        return "\(year)-\(s(du, 2..<4))-\(s(du, 0..<2))T\(s(tu, 0..<2)):\(s(tu, 2..<4)):\(s(tu, 4..<6))\(fraction)Z"
    }
}
