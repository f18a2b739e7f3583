import Testing

@testable import MapData
@testable import MapFormats

/// The GeoJSON reader keeps what GDAL keeps: a bad position loses its feature, not the file (GDAL's
/// ogr_geojson_14, geojsonhint's bad/stringcoord and bad/multiple_problems, written here again); an
/// empty member is no piece; a text sequence's cut record is skipped (RFC 7464 §2.1); longitudes past
/// ±180° are drawn where they point (geojson-vt's us-states, whose Alaska crosses it) and latitudes
/// past ±90° leave their position out, both counted; repeated ids are counted as replaced.
@Suite("GeoJSON as forgiving as GDAL")
struct GeoJSONForgivenessTests {
    static func read(_ text: String) throws -> UserLayerData {
        try GeoJSONReader.read(Array(text.utf8), file: "t.geojson")
    }

    static func collection(_ geometries: [String]) -> String {
        "{\"type\":\"FeatureCollection\",\"features\":[\n"
            + geometries.map { "{\"type\":\"Feature\",\"properties\":{},\"geometry\":\($0)}" }.joined(separator: ",\n")
            + "]}"
    }

    @Test(arguments: [
        (#"{"type":"Point","coordinates":[-100.89,"39.36"]}"#, "not a number"),
        (#"{"type":"Point","coordinates":[null,1]}"#, "not a number"),
        (#"{"type":"Point","coordinates":[5]}"#, "needs a longitude and a latitude"),
        (#"{"type":"LineString","coordinates":[[1,2],[[3,4]]]}"#, "nested unevenly"),
        (#"{"type":"LineString","coordinates":[[1,2],3]}"#, "nested unevenly"),
        (#"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]],[true]]}"#, "not a number"),
        (#"{"type":"Point","coordinates":null}"#, "without coordinates"),
        (#"{"type":"Point","coordinates":[1,{"a":1}]}"#, "not a number"),
    ])
    func aBadPositionLosesItsFeatureOnly(_ bad: String, says: String) throws {
        let data = try Self.read(
            Self.collection([
                #"{"type":"Point","coordinates":[20.39,41.5]}"#, bad, #"{"type":"Point","coordinates":[1,2]}"#,
            ]))
        #expect(data.count == 2 && data.skipped == 1)
        let reason = try #require(data.firstSkipReason)
        #expect(reason.contains(says), "\(reason)")
        // Where it is: the second feature is on line 3.
        #expect(reason.contains("line 3,") || says == "without coordinates", "\(reason)")
    }

    @Test func anEmptyMemberIsNoPiece() throws {
        let data = try Self.read(
            Self.collection([
                #"{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,0]]],[]]}"#,
                #"{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[]},{"type":"LineString","coordinates":[[0,0],[2,2]]}]}"#,
                #"{"type":"MultiPoint","coordinates":[[1,1],[],[2,2]]}"#,
            ]))
        #expect(data.count == 3 && data.skipped == 0)
        #expect(data.countsByType == [.polygon: 1, .lineString: 1, .point: 1])
        #expect(data.pieceTypes.count == 4)
    }

    @Test func aCutRecordOfATextSequenceIsSkipped() throws {
        let rs = "\u{1E}"
        let records = (0..<5).map { i in
            i == 2
                ? #"{"type":"Feature","properties":{},"geometry":{"type":"Point","coor"#
                : #"{"type":"Feature","properties":{"i":\#(i)},"geometry":{"type":"Point","coordinates":[\#(i),\#(i)]}}"#
        }
        let data = try Self.read(records.map { rs + $0 + "\n" }.joined())
        #expect(data.count == 4 && data.skipped == 1)
        #expect(data.firstSkipReason?.hasPrefix("line 3, column") == true, "\(data.firstSkipReason ?? "")")
        #expect((0..<4).map { data.property("i", of: $0) } == ["0", "1", "3", "4"])
        // Newline-delimited too, once a line has read.
        let lines = try Self.read(records.joined(separator: "\n"))
        #expect(lines.count == 4 && lines.skipped == 1)
        // A document that is not JSON still fails whole.
        #expect(throws: MapDataError.self) {
            try Self.read(#"{"type":"FeatureCollection","features":[{"type":"Feature" "#)
        }
    }

    /// Alaska across the antimeridian as geojson-vt's us-states has it (longitudes below −180), and a
    /// line past +180: kept, drawn where they point (x below 0 or past 1), counted.
    @Test func longitudesPast180AreDrawnWhereTheyPoint() throws {
        let data = try Self.read(
            Self.collection([
                #"{"type":"Polygon","coordinates":[[[-188.9,51.2],[-179.1,51.2],[-179.1,52.9],[-188.9,52.9],[-188.9,51.2]]]}"#,
                #"{"type":"LineString","coordinates":[[170,10],[190,10],[541,10]]}"#,
            ]))
        #expect(data.count == 2 && data.skipped == 0)
        #expect(data.notes.longitudesPast180 == 4)
        #expect(data.notes.positionsLeftOut == 1)
        #expect(abs(data.x[0] - (-188.9 + 180) / 360) < 1 / CoordinateColumn.unitsPerWorld && data.x[0] < 0)
        #expect(data.points(of: 1).count == 2 && data.x[data.points(of: 1).upperBound - 1] > 1)
        #expect(data.bounds?.west == -188.9 && data.bounds?.east == 190)
        #expect(data.notes.phrases.contains("4 positions past ±180° drawn where they point"))
    }

    @Test func latitudesPast90LeaveTheirPositionOut() throws {
        let data = try Self.read(
            Self.collection([
                #"{"type":"LineString","coordinates":[[0,0],[0,95],[1,1]]}"#,
                #"{"type":"Point","coordinates":[0,-91]}"#,
            ]))
        #expect(data.count == 1 && data.skipped == 1)
        #expect(data.points(of: 0).count == 2 && data.notes.positionsLeftOut == 1)
    }

    @Test func repeatedIdsAreCountedAsReplaced() throws {
        let data = try Self.read(
            #"""
            {"type":"FeatureCollection","features":[
            {"type":"Feature","id":7,"properties":{"v":"a"},"geometry":{"type":"Point","coordinates":[1,1]}},
            {"type":"Feature","id":"7","properties":{"v":"b"},"geometry":{"type":"Point","coordinates":[2,2]}},
            {"type":"Feature","id":7,"properties":{"v":"c"},"geometry":{"type":"Point","coordinates":[3,3]}}]}
            """#)
        #expect(data.count == 2 && data.notes.replaced == 1)
        #expect([data.property("v", of: 0), data.property("v", of: 1)] == ["b", "c"])
    }

    /// A `coordinates` member where none belongs, before and after the geometry: its positions are not
    /// the geometry's.
    @Test func strayCoordinatesAreNotTheGeometrys() throws {
        let data = try Self.read(
            #"""
            {"type":"FeatureCollection","coordinates":[[9,9],[9,9]],"features":[
            {"type":"Feature","coordinates":[5,5],"properties":{},"geometry":{"type":"LineString","coordinates":[[1,1],[2,2]]},"bbox2":{"coordinates":[7,7]}},
            {"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[3,3]},"coordinates":[[8,8]]}]}
            """#)
        #expect(data.count == 2 && data.x.count == 3)
        #expect(data.points(of: 0) == 0..<2 && data.points(of: 1) == 2..<3)
        #expect(abs(data.x[2] - (3.0 + 180) / 360) < 1 / CoordinateColumn.unitsPerWorld)
    }

    /// What geojsonhint calls bad and GDAL reads (its bad/ cases written again): type names in any case,
    /// a member of features with a geometry whatever its type says, a line of one position (a dot), a
    /// ring of three positions left open (closed when drawn).
    @Test func whatGDALReadsOfWhatAValidatorRefuses() throws {
        let data = try Self.read(
            #"""
            {"type":"featurecollection","features":[
            {"type":"feature","properties":{},"geometry":{"type":"point","coordinates":[1,2]}},
            {"type":"Featre","properties":{},"geometry":{"type":"Point","coordinates":[3,4]}},
            {"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[[5,6]]}},
            {"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[100,0],[101,0],[101,1]]]}},
            {"type":"Feature","properties":{},"geometry":{"type":"MultiLineString","coordinates":[[[0,0],[1,1]],[[2,2]]]}}]}
            """#)
        #expect(data.count == 5 && data.skipped == 0)
        #expect(data.countsByType == [.point: 4, .polygon: 1, .lineString: 1])
    }
}
