import MapFormats
import Testing

/// The GPS readers (issue 49): NMEA 0183 sentences and gpsd's JSON reports into fixes, bad input
/// counted, never fatal.
struct PositionReaderTests {
    /// `body` with its checksum: `$body*hh`.
    static func sentence(_ body: String) -> [UInt8] {
        let sum = body.utf8.reduce(UInt8(0), ^)
        let hex = String(sum, radix: 16, uppercase: true)
        return Array("$\(body)*\(hex.count == 1 ? "0" + hex : hex)\r\n".utf8)
    }

    /// An RMC gives the fix, its speed in m/s (knots × 1852/3600), course and ISO time; the GGA before
    /// it of the same time its height; south and west are negative.
    @Test func rmcAndGGAMakeOneFix() throws {
        var r = NMEAReader()
        let gga = r.take(Self.sentence("GPGGA,101500.00,3351.000000,S,15112.600000,W,1,08,0.9,44.5,M,17.0,M,,"))
        #expect(gga == .satellites(used: 8, seen: 8))
        #expect(r.take(Self.sentence("GPGSA,A,3,04,05,09,12,,,,,,,,,1.8,0.9,1.5")) == .satellites(used: 4, seen: 4))
        let report = r.take(Self.sentence("GPRMC,101500.00,A,3351.000000,S,15112.600000,W,10.000,271.5,010524,,,A"))
        guard case .fix(let f) = report else {
            Issue.record("no fix: \(String(describing: report))")
            return
        }
        #expect(abs(f.latitude - -(33 + 51.0 / 60)) < 1e-12 && abs(f.longitude - -(151 + 12.6 / 60)) < 1e-12)
        #expect(f.altitude == 44.5 && f.mode == 3 && f.course == 271.5)
        #expect(abs((f.speed ?? 0) - 10 * 1852 / 3600) < 1e-12)
        #expect(f.time == "2024-05-01T10:15:00.00Z")
    }

    /// A 2D fix (GSA mode 2) has no height; a lost fix (RMC status V, GSA mode 1) is no fix.
    @Test func twoDimensionalAndLostFixes() {
        var r = NMEAReader()
        _ = r.take(Self.sentence("GPGGA,101500.00,6010.194000,N,02456.316970,E,1,08,0.9,,M,17.0,M,,"))
        _ = r.take(Self.sentence("GPGSA,A,2,04,05,09,,,,,,,,,,1.8,0.9,1.5"))
        guard case .fix(let f) = r.take(Self.sentence("GPRMC,101500.00,A,6010.194000,N,02456.316970,E,0.0,,010524,,,A"))
        else {
            Issue.record("no 2D fix")
            return
        }
        #expect(f.mode == 2 && f.altitude == nil && f.course == nil)
        #expect(r.take(Self.sentence("GPGSA,A,1,,,,,,,,,,,,,,,")) == .noFix)
        #expect(r.take(Self.sentence("GPRMC,101501.00,V,,,,,,,010524,,,N")) == .noFix)
    }

    /// A bad checksum, a missing one, a position off the Earth, minutes past 60: counted, nothing taken.
    @Test func badSentencesAreCountedNotTaken() {
        var r = NMEAReader()
        var good = Self.sentence("GPRMC,101500.00,A,6010.194000,N,02456.316970,E,1.0,90.0,010524,,,A")
        good[20] = UInt8(ascii: "9")
        #expect(r.take(good) == nil)
        #expect(r.take(Array("$GPRMC,101500.00,A,6010.19,N,02456.31,E,1.0,90.0,010524,,,A\r\n".utf8)) == nil)
        #expect(r.take(Self.sentence("GPRMC,101500.00,A,9510.194000,N,02456.316970,E,1.0,90.0,010524,,,A")) == nil)
        #expect(r.take(Self.sentence("GPRMC,101500.00,A,6075.000000,N,02456.316970,E,1.0,90.0,010524,,,A")) == nil)
        #expect(r.badSentences == 4)
        #expect(r.firstFault == "a bad checksum")
    }

    /// A stream of GGA alone gives fixes from its second epoch (the first GGA cannot know that no RMC
    /// follows; a stream with RMC gives each epoch once).
    @Test func ggaAloneGivesFixes() {
        var r = NMEAReader()
        let first = r.take(Self.sentence("GNGGA,101500.00,6010.000000,N,02456.000000,E,1,08,0.9,10.0,M,17.0,M,,"))
        #expect(first == .satellites(used: 8, seen: 8))
        guard
            case .fix(let f) = r.take(
                Self.sentence("GNGGA,101501.00,6010.060000,N,02456.000000,E,1,08,0.9,11.0,M,17.0,M,,"))
        else {
            Issue.record("no fix from GGA alone")
            return
        }
        #expect(abs(f.latitude - (60 + 10.06 / 60)) < 1e-12 && f.altitude == 11)
    }

    /// gpsd's TPV: position, `altMSL` over `alt`, speed, track, eph, time; mode 1 is no fix; SKY's
    /// counts; another class nothing; garbage and a position off the Earth throw.
    @Test func gpsdReports() throws {
        let tpv =
            #"{"class":"TPV","device":"/dev/pts/1","mode":3,"time":"2024-05-01T10:15:00.000Z","lat":60.1,"lon":24.9,"alt":30.0,"altMSL":12.5,"track":45.5,"speed":3.25,"eph":17.1}"#
        guard case .fix(let f) = try GPSDReports.report(Array(tpv.utf8)) else {
            Issue.record("no fix")
            return
        }
        #expect(f.latitude == 60.1 && f.longitude == 24.9 && f.altitude == 12.5 && f.course == 45.5)
        #expect(f.speed == 3.25 && f.horizontalError == 17.1 && f.time == "2024-05-01T10:15:00.000Z")
        #expect(try GPSDReports.report(Array(#"{"class":"TPV","mode":1}"#.utf8)) == .noFix)
        let sky = #"{"class":"SKY","satellites":[{"PRN":1,"used":true},{"PRN":2,"used":false},{"PRN":3,"used":true}]}"#
        #expect(try GPSDReports.report(Array(sky.utf8)) == .satellites(used: 2, seen: 3))
        #expect(try GPSDReports.report(Array(#"{"class":"VERSION","release":"3.22"}"#.utf8)) == nil)
        #expect(throws: JSONSyntaxError.self) { try GPSDReports.report(Array("not json".utf8)) }
        #expect(throws: JSONSyntaxError.self) {
            try GPSDReports.report(Array(#"{"class":"TPV","mode":3,"lat":91,"lon":0}"#.utf8))
        }
        // A time that is no time is dropped, never shown.
        let odd = #"{"class":"TPV","mode":2,"lat":1,"lon":2,"time":"\u001b]52;c;x\u0007"}"#
        guard case .fix(let g) = try GPSDReports.report(Array(odd.utf8)) else {
            Issue.record("no fix")
            return
        }
        #expect(g.time == nil && g.altitude == nil)
    }
}
