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
