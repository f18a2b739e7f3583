import Testing

@testable import MapFormats

/// XML's numbers and trims read from bytes give what the strings gave: `Double(text.trimmedOfWhiteSpace)`
/// and `text.trimmedOfWhiteSpace`, whatever the text.
@Suite("XML text from bytes")
struct XMLTextTests {
    static let numbers = [
        "60.1699", " 24.9384 ", "\n\t-0.5\r\n", "0", "-0", "1e3", "1E-3", "123456789012345678901234567890",
        "0.1000000000000000055511151231257827", "060.17", "+1.5", ".5", "5.", "inf", "nan", "0x1p3", "",
        "   ", "1,5", "1.5.5", "\u{00A0}12.5\u{00A0}", "4.9e-324", "1.7976931348623157e308", "1e400", "-",
    ]

    @Test(arguments: numbers)
    func numbersAreReadAsTheStringWas(_ text: String) {
        let expected = Double(text.trimmedOfWhiteSpace)
        let got = XMLText.number(text)
        #expect(got?.bitPattern == expected?.bitPattern || (got?.isNaN == true && expected?.isNaN == true))
    }

    @Test(arguments: ["Track", " Track", "Track\n", "\u{00A0}Kallio\u{00A0}", "", "  ", "é", "a b"])
    func trimsAreTheStringsTrims(_ text: String) {
        #expect(XMLText.trimmed(text) == text.trimmedOfWhiteSpace)
    }

    /// Attributes by local name, the later of two with one local name, as the dictionary was.
    @Test func attributesAreReadByLocalName() throws {
        let gpx = """
            <gpx xmlns="http://www.topografix.com/GPX/1/1" xmlns:a="urn:a">\
            <wpt a:lat="1" lat=" 60.5 " lon="024.25"><name> Torni </name></wpt></gpx>
            """
        let data = try Array(gpx.utf8).withUnsafeBufferPointer { try GPXReader.read($0, file: "t.gpx") }
        #expect(data.count == 1)
        let b = try #require(data.bounds)
        #expect(b.north == 60.5 && b.west == 24.25)
        #expect(data.name(of: 0) == "Torni")
    }
}

/// KML's coordinates read from ASCII bytes give what the strings gave.
@Suite("KML coordinates from bytes")
struct KMLCoordinateTests {
    @Test(arguments: [
        "24.94,60.17,0 25,61", "\n\t 24.94,60.17\r\n25.5,61.25,12 ", "", "  ", "1,2,3,4", "1,", ",1", "1,,2",
        "1 2", "060.5,+1", "1e3,-0", "inf,1", "0x10,1", "1,2\u{0B}3,4\u{0C}5,6", "1,2\u{00A0}3,4",
    ])
    func coordinatesAreReadAsTheStringsRead(_ text: String) {
        let got = KMLReader.coordinates(text)
        let want = KMLReader.stringCoordinates(text)
        #expect(got?.map { [$0.0, $0.1] } == want?.map { [$0.0, $0.1] }, "\(text.debugDescription)")
    }

    @Test(arguments: ["24.9 60.1 0", " 24.9\t60.1", "24.9", "", "a b", "24.9 60.1\u{00A0}", "1e999 0"])
    func trackCoordinatesAreReadAsTheStringsRead(_ text: String) {
        let parts = text.split(whereSeparator: \.isWhitespace)
        let want: (Double, Double)? =
            parts.count >= 2 ? Double(parts[0]).flatMap { lon in Double(parts[1]).map { (lon, $0) } } : nil
        let got = KMLReader.trackCoordinate(text)
        #expect(got.map { [$0.0, $0.1] } == want.map { [$0.0, $0.1] }, "\(text.debugDescription)")
    }
}
