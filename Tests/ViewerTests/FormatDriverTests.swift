import GeoCore
import MapData
import MapFormats
import MapRender
import TestSupport
import Testing

@testable import Viewer

/// A format is one driver and its registration: the registry finds it, the reader reads through it,
/// and what the user sees names it.
@Suite("Format drivers")
struct FormatDriverTests {
    init() { FormatDrivers.register(ToyDriver()) }

    @Test func aRegisteredDriverIsAskedAfterTheBuiltInOnes() throws {
        let bytes = Array("TOY 60.1700 24.9440 Senaatintori\n".utf8)
        #expect(UserDataReader.format(of: bytes, file: "walk") == UserDataFormat(rawValue: "toy"))
        #expect(UserDataReader.format(of: Array("anything".utf8), file: "x.toy")?.rawValue == "toy")
        // A GeoJSON file is still GeoJSON's: the built-in drivers are asked first.
        #expect(UserDataReader.format(of: Array("{}".utf8), file: "x.toy") == .geojson)
        let data = try UserDataReader.read(bytes, format: UserDataFormat(rawValue: "toy"), file: "walk")
        #expect(data.count == 1)
        #expect(FormatDrivers.titles.prefix(4) == ["GeoJSON", "GPX", "KML", "CSV"])
        #expect(FormatDrivers.titles.contains("Toy"))
    }

    @Test func renderJSONAndTheLayerListNameTheFormat() throws {
        let bytes = Array("TOY 60.1700 24.9440 Senaatintori\n".utf8)
        let format = try #require(UserDataReader.format(of: bytes, file: "walk.toy"))
        let data = try UserDataReader.read(bytes, format: format, file: "walk.toy")
        var s = try ViewerState(cols: 80, rows: 24, center: Coordinate(latitude: 60.17, longitude: 24.944), zoom: 15)
        s.update(.userFile(UserFileUpdate(file: UserFile(file: "walk.toy", format: format, data: data))))
        let json = try StateJSON.encode(s)
        #expect(json.contains("\"format\":\"toy\"") || json.contains("\"format\" : \"toy\""))
        s.update(.key(.char("o")))
        let screen = Renderer.draw(s, sources: nil, options: RenderOptions(mode: .plain)).frame.text
        #expect(screen.contains("walk.toy: toy · 1 feature (a point)"))
    }

    /// A driver's fuzz entry is a document of its format: read as it is, it has features (the fuzzer
    /// mutates it from there).
    @Test func everyDriversFuzzSampleReads() throws {
        for driver in FormatDrivers.all {
            let bytes = Array(driver.fuzzSample.utf8)
            #expect(UserDataReader.format(of: bytes, file: "sample.\(driver.extensions[0])") == driver.format)
            let data = try UserDataReader.read(bytes, format: driver.format, file: "sample")
            #expect(data.count >= 1, "\(driver.title): no features")
        }
    }

    @Test func theBuiltInDriversReadWhatTheyClaim() throws {
        for (text, file, format) in [
            ("{\"type\":\"Point\",\"coordinates\":[1,2]}", "a", UserDataFormat.geojson),
            ("<gpx xmlns=\"http://www.topografix.com/GPX/1/1\"><wpt lat=\"1\" lon=\"2\"/></gpx>", "a", .gpx),
            ("<kml><Placemark><Point><coordinates>2,1</coordinates></Point></Placemark></kml>", "a", .kml),
            ("lat,lon\n1,2\n", "a", .csv),
        ] {
            let bytes = Array(text.utf8)
            #expect(UserDataReader.format(of: bytes, file: file) == format, "\(text)")
            #expect(try UserDataReader.read(bytes, format: format, file: file).count == 1)
        }
    }
}
