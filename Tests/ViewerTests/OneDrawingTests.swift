import GeoCore
import MapData
import MapFormats
import Raster
import Testing

@testable import MapRender

/// The user's files are drawn and asked by the code that draws and asks the map's chunks (`Stroke`,
/// `AreaFill`, `WorldPlacement`, `PickSet`, the hit test): what that code must do for a file.
struct OneDrawingTests {
    /// A file of GeoJSON text read and drawn at (`lat`, `lon`, `zoom`) on `cols` × `rows` cells.
    static func draw(_ text: String, lat: Double = 0, lon: Double = 0, zoom: Double, cols: Int = 80, rows: Int = 24)
        throws -> (frame: Frame, map: MapRendering, file: UserFile, view: MapView)
    {
        let data = try UserDataReader.read(Array(text.utf8), format: .geojson, file: "f.geojson")
        let file = UserFile(file: "f.geojson", format: .geojson, data: data)
        let view = try MapView(
            center: Coordinate(latitude: lat, longitude: lon), zoom: zoom, size: try ViewSize(cols: cols, rows: rows))
        var frame = Frame(cols: cols, rows: rows)
        let map = MapRenderer.render(
            into: &frame, view: view, overlays: [UserDataLayer(file: file, look: 0)], sources: nil,
            style: MapStyle(mode: .ansi256))
        return (frame, map, file, view)
    }

    /// The cells a frame draws, as text.
    static func glyphs(_ frame: Frame) -> String {
        (0..<frame.rows).map { row in String((0..<frame.cols).map { Character(frame[$0, row].glyph) }) }.joined(
            separator: "\n")
    }

    /// A triangle whose ring the file left open is drawn as the same triangle closed: its third side too.
    @Test func anOpenRingIsDrawnClosed() throws {
        func triangle(_ ring: String) -> String {
            #"{"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[\#(ring)]]}}"#
        }
        let open = try Self.draw(triangle("[0,0],[4,0],[0,3]"), lat: 1.5, lon: 2, zoom: 5)
        let closed = try Self.draw(triangle("[0,0],[4,0],[0,3],[0,0]"), lat: 1.5, lon: 2, zoom: 5)
        let line = try Self.draw(
            #"{"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[[0,0],[4,0],[0,3]]}}"#,
            lat: 1.5, lon: 2, zoom: 5)
        #expect(Self.glyphs(open.frame) == Self.glyphs(closed.frame))
        #expect(Self.glyphs(open.frame) != Self.glyphs(line.frame))
    }

    /// Below zoom 12 a file is drawn from a level of detail, whose features are numbered their own way:
    /// the pick and `i` name them by their number in the file.
    @Test func aLevelsFeatureIsPickedByItsNumberInTheFile() throws {
        let text = #"""
            {"type":"FeatureCollection","features":[
            {"type":"Feature","properties":{"name":"speck"},"geometry":{"type":"LineString","coordinates":[[60,10],[60.01,10.01]]}},
            {"type":"Feature","properties":{"name":"long"},"geometry":{"type":"LineString","coordinates":[[-20,0],[20,0]]}}]}
            """#
        let again = try Self.draw(text, zoom: 3)
        let t = ViewTransform(again.view)
        let dot = t.dot(for: Coordinate(latitude: 0, longitude: 10))
        let (col, row) = (Int(dot.x) / ViewSize.dotsPerCellX, Int(dot.y) / ViewSize.dotsPerCellY)
        let picked = again.map.pick.feature(col: col, row: row)
        #expect(picked?.name == "long" && picked?.reference.feature == .own(1))
        let asked = again.map.pick.features(atCol: col, row: row)
        #expect(asked.first?.reference.feature == .own(1) && asked.first?.identity?.id == "2")
    }

    /// `i` asks a file's index for the features near a cell: two points in one cell are both found (the
    /// pick names the one drawn on top, the index the other), a point alone is found, and nothing where
    /// the file has nothing.
    @Test func whatIsHereFindsAFilesPointsThroughItsIndex() throws {
        let text = #"""
            {"type":"FeatureCollection","features":[
            {"type":"Feature","properties":{"name":"a"},"geometry":{"type":"Point","coordinates":[24.94,60.17]}},
            {"type":"Feature","properties":{"name":"c"},"geometry":{"type":"Point","coordinates":[24.94001,60.17]}},
            {"type":"Feature","properties":{"name":"b"},"geometry":{"type":"Point","coordinates":[24.945,60.171]}}]}
            """#
        let drawn = try Self.draw(text, lat: 60.17, lon: 24.94, zoom: 14)
        let t = ViewTransform(drawn.view)
        for (lon, lat, names) in [(24.94, 60.17, ["a", "c"]), (24.945, 60.171, ["b"])] {
            let dot = t.dot(for: Coordinate(latitude: lat, longitude: lon))
            let found = drawn.map.pick.features(
                atCol: Int(dot.x) / ViewSize.dotsPerCellX, row: Int(dot.y) / ViewSize.dotsPerCellY)
            #expect(found.compactMap(\.name).sorted() == names)
        }
        #expect(drawn.map.pick.features(atCol: 1, row: 1).isEmpty)
    }

    /// A view wider than the world (zoom 0 on 200 columns: 400 dots, the world 256) shows a file's point
    /// in each world copy it shows.
    @Test func aFileIsDrawnInEveryWorldCopyInView() throws {
        let point = #"{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[170,0]}}"#
        let drawn = try Self.draw(point, zoom: 0, cols: 200, rows: 40)
        let marker = StyleTable.overlayMarker(0, ascii: false)
        let markers = (0..<drawn.frame.rows).flatMap { row in
            (0..<drawn.frame.cols).filter { Character(drawn.frame[$0, row].glyph) == marker }
        }
        #expect(markers.count == 2)
    }

    /// A user's file is a source like the map's (`FeatureSource`, kind `file`): listed after them, in
    /// view where its features are, with the level of detail a zoom draws of it; a hidden file is not.
    @Test func aFileIsListedAsASourceOfItsKind() throws {
        let point = #"{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[10,20]}}"#
        let near = try Self.draw(point, lat: 20, lon: 10, zoom: 5)
        #expect(near.map.sources.map(\.kind) == [.file])
        #expect(near.map.sources.first?.name == "f.geojson")
        #expect(near.map.sources.first?.inView == true)
        #expect(near.map.sources.first?.detail == .level(5, of: UserFile.finestLevel + 1))
        let street = try Self.draw(point, lat: 20, lon: 10, zoom: 16)
        #expect(street.map.sources.first?.detail == .level(UserFile.finestLevel, of: UserFile.finestLevel + 1))
        let far = try Self.draw(point, lat: -40, lon: -100, zoom: 5)
        #expect(far.map.sources.first?.inView == false)
        #expect(far.map.sources.first?.detail == nil)
        var frame = Frame(cols: 80, rows: 24)
        let hidden = MapRenderer.render(
            into: &frame, view: near.view, overlays: [UserDataLayer(file: near.file, look: 0, visible: false)],
            sources: nil, style: MapStyle(mode: .ansi256))
        #expect(hidden.sources.isEmpty)
    }
}
