import Foundation
import Testing

@testable import MapData
@testable import MapFormats

/// KML, KMZ, GPX and CSV as GDAL and the formats' own suites read them: Google's `gx:Track` and KML
/// 2.3's `Track` and `MultiTrack` (GDAL's gxtrack.kml, togeojson's gxtrack and multitrack, kml-samples'
/// catalina-track), a description whose HTML children are kept (GDAL's description_with_xml.kml), a
/// KMZ read by termmap itself, XML known by its root's namespace whatever its prefix, ISO-8859-1 and
/// Windows-1252 documents, CSV with lone CR line ends, and `0x10` that is no number.
@Suite("KML, KMZ, GPX and CSV as GDAL reads them")
struct UserFormatsForgivenessTests {
    static func read(_ bytes: [UInt8], _ file: String) throws -> UserLayerData {
        let format = try #require(UserDataReader.format(of: bytes, file: file))
        return try UserDataReader.read(bytes, format: format, file: file)
    }

    static let track = """
        <?xml version="1.0" encoding="UTF-8"?>
        <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2"><Document>
        <Placemark><name>gx</name><gx:Track>
          <when>2010-05-28T02:02:09Z</when><when>2010-05-28T02:02:35Z</when><when>2010-05-28T02:02:44Z</when>
          <gx:coord>-122.207881 37.371915 156.0</gx:coord><gx:coord>-122.205712 37.373288 152.0</gx:coord>
          <gx:coord>-122.204678 37.373939 147.0</gx:coord></gx:Track></Placemark>
        <Placemark><name>multi</name><gx:MultiTrack><gx:Track><when>2010-05-28T03:00:00Z</when><gx:coord>1 2 0</gx:coord>
          <gx:coord>3 4 0</gx:coord></gx:Track><gx:Track><gx:coord>5 6 0</gx:coord><gx:coord>7 8 0</gx:coord></gx:Track></gx:MultiTrack></Placemark>
        <Placemark><name>kml 2.3</name><MultiTrack><Track><coord>9 10 0</coord><coord>11 12 0</coord></Track></MultiTrack></Placemark>
        </Document></kml>
        """

    @Test func tracksAreLinesWithTheirTimes() throws {
        let data = try Self.read(Array(Self.track.utf8), "t.kml")
        #expect(data.count == 3 && data.skipped == 0)
        #expect(data.countsByType == [.lineString: 3])
        #expect(data.points(of: 0).count == 3 && data.points(of: 1).count == 4 && data.points(of: 2).count == 2)
        #expect(
            data.property("begin", of: 0) == "2010-05-28T02:02:09Z"
                && data.property("end", of: 0) == "2010-05-28T02:02:44Z")
        #expect(data.property("when", of: 0)?.split(separator: " ").count == 3)
        #expect(data.names == ["gx", "multi", "kml 2.3"])
    }

    @Test func textBrokenByChildElementsIsKeptWhole() throws {
        let kml = """
            <kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><name>p</name>
            <description>Some<br/>HTML<b>bold</b> content</description><Point><coordinates>1,2</coordinates></Point></Placemark></kml>
            """
        let data = try Self.read(Array(kml.utf8), "d.kml")
        #expect(data.property("description", of: 0) == "Some<br/>HTML<b>bold</b> content")
    }

    /// A zip of one entry, stored or deflated (zlib's deflate without its header and checksum).
    static func zip(_ name: String, _ content: [UInt8], deflated: Bool) throws -> [UInt8] {
        var data = content
        if deflated {
            let z = try #require(Zlib.deflate(content))
            data = Array(z.dropFirst(2).dropLast(4))
        }
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { u16(v & 0xFFFF) + u16(v >> 16) }
        let n = Array(name.utf8)
        let method = deflated ? 8 : 0
        let local =
            u32(0x0403_4B50) + u16(20) + u16(0) + u16(method) + u16(0) + u16(0) + u32(0) + u32(data.count)
            + u32(content.count)
            + u16(n.count) + u16(0) + n + data
        let central =
            u32(0x0201_4B50) + u16(20) + u16(20) + u16(0) + u16(method) + u16(0) + u16(0) + u32(0) + u32(data.count)
            + u32(content.count) + u16(n.count) + u16(0) + u16(0) + u16(0) + u16(0) + u32(0) + u32(0) + n
        let end = u32(0x0605_4B50) + u16(0) + u16(0) + u16(1) + u16(1) + u32(central.count) + u32(local.count) + u16(0)
        return local + central + end
    }

    @Test(arguments: [false, true])
    func aKMZIsReadByTermmapItself(deflated: Bool) throws {
        let kmz = try Self.zip("doc.kml", Array(Self.track.utf8), deflated: deflated)
        let data = try Self.read(kmz, "t.kmz")
        #expect(data.count == 3 && data.names == ["gx", "multi", "kml 2.3"])
        // Named otherwise, a zip whose entry is a KML is a KMZ still.
        #expect(try Self.read(kmz, "download.bin").count == 3)
        // One with nothing to draw says so.
        let empty = try Self.zip(
            "doc.kml", Array("<kml xmlns=\"http://www.opengis.net/kml/2.2\"><Document/></kml>".utf8), deflated: deflated
        )
        #expect(throws: MapDataError.self) { try Self.read(empty, "e.kmz") }
        do { _ = try Self.read(empty, "e.kmz") } catch { #expect("\(error)" == "e.kmz: no features") }
    }

    @Test func xmlIsKnownByItsRootWhateverItsPrefix() throws {
        let prefixed = """
            <?xml version="1.0"?><!-- a comment --><g:gpx xmlns:g="http://www.topografix.com/GPX/1/1" version="1.1">
            <g:wpt lat="60.1" lon="24.9"><g:name>here</g:name></g:wpt></g:gpx>
            """
        #expect(UserDataReader.format(of: Array(prefixed.utf8), file: "x.xml") == .gpx)
        #expect(try Self.read(Array(prefixed.utf8), "x.xml").names == ["here"])
        #expect(
            UserDataReader.format(of: Array("<doc xmlns=\"http://www.opengis.net/kml/2.2\"/>".utf8), file: "x") == .kml)
        // A comment longer than the first 4 KB before the root, and an extension that says what it is.
        let long =
            "<?xml version=\"1.0\"?><!--" + String(repeating: "x", count: 20_000) + "--><gpx version=\"1.1\"></gpx>"
        #expect(UserDataReader.format(of: Array(long.utf8), file: "x") == .gpx)
        #expect(UserDataReader.format(of: Array("<?xml version=\"1.0\"?><unknown/>".utf8), file: "x.gpx") == .gpx)
        #expect(UserDataReader.format(of: Array("<?xml version=\"1.0\"?><unknown/>".utf8), file: "x.xml") == nil)
    }

    @Test(arguments: ["ISO-8859-1", "windows-1252"])
    func declaredEncodingsAreRead(_ encoding: String) throws {
        var bytes = Array(
            "<?xml version=\"1.0\" encoding=\"\(encoding)\"?><gpx version=\"1.1\"><wpt lat=\"47.37\" lon=\"8.54\"><name>Z"
                .utf8)
        bytes += [0xFC] + Array("rich".utf8)
        if encoding == "windows-1252" { bytes += [0x20, 0x80, 0x20, 0x93, 0x71, 0x94] }
        bytes += Array("</name></wpt></gpx>".utf8)
        let data = try Self.read(bytes, "enc.gpx")
        #expect(data.names == [encoding == "windows-1252" ? "Zürich € “q”" : "Zürich"])
    }

    @Test func csvLinesEndedByACarriageReturnAlone() throws {
        let data = try Self.read(Array("lat,lon,name\r60.1,24.9,a\r60.2,25.0,\"b\rc\"\r60.3,25.1,d\r".utf8), "cr.csv")
        #expect(data.count == 3 && data.names == ["a", "b\rc", "d"])
    }

    @Test func numbersInCoordinateColumnsAreDecimal() throws {
        let data = try Self.read(Array("lat,lon\n0x10,1\n+1.5,.5\n2.,-0.25\n060.5,1\ninf,1\n1e1,1\n".utf8), "n.csv")
        #expect(data.count == 4 && data.skipped == 2)
        #expect(data.bounds?.north == 60.5 && data.bounds?.west == -0.25 && data.bounds?.south == 1.5)
    }

    /// Google's location history (togeojson's addresses.kml): an empty Point beside a track is no piece,
    /// not a reason to leave the Placemark out; a GroundOverlay is the box its image covers.
    @Test func emptyGeometriesAreNoPiecesAndOverlaysAreBoxes() throws {
        let kml = """
            <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2"><Document>
            <Placemark><name>moving</name><Point><coordinates/></Point><gx:Track><gx:coord>100.55 13.79 0</gx:coord>
            <gx:coord>100.56 13.80 0</gx:coord></gx:Track></Placemark>
            <Placemark><name>empty</name><Point><coordinates/></Point><gx:Track></gx:Track></Placemark>
            <GroundOverlay><name>image</name><LatLonBox><north>37.9</north><south>37.4</south><east>15.3</east><west>14.6</west></LatLonBox></GroundOverlay>
            <GroundOverlay><name>quad</name><gx:LatLonQuad><coordinates>81.6,44.1 83.1,43.6 83.1,45.3 81.6,45.5</coordinates></gx:LatLonQuad></GroundOverlay>
            </Document></kml>
            """
        let data = try Self.read(Array(kml.utf8), "h.kml")
        #expect(data.names == ["moving", "image", "quad"] && data.skipped == 1)
        #expect(data.countsByType == [.lineString: 1, .polygon: 2])
        #expect(data.bounds?.north == 45.5 && data.bounds?.west == 14.6)
    }
}
