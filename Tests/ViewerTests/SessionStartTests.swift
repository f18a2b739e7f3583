import GeoCore
import MapData
import MapFormats
import MapRender
import TestSupport
import Testing

@testable import Viewer

/// One way to a first state for every program that starts a session: the view, then a place named,
/// then the last view, then the user's files (which fit the view unless it was given).
@Suite("Session start")
struct SessionStartTests {
    static let helsinki = Coordinate(latitude: 60.17, longitude: 24.94)

    @Test func theStartSaysWhatItClampedAndAddsItsCommands() throws {
        var start = SessionStart(cols: 80, rows: 24, center: Self.helsinki, zoom: 31)
        start.commands = [ToyCommand.row]
        start.circle = true
        start.radiusMeters = 2000
        let s = try start.state()
        #expect(s.view.zoom == 28 && s.message.contains("clamped to 28"))
        #expect(s.keymap.command(for: .char("ä")) == ToyCommand.command)
        #expect(s.circle != nil && s.radiusMeters == 2000)
    }

    @Test func filesFitTheViewUnlessItWasGivenAndTheLastViewComesBeforeThem() throws {
        let bytes = Array("TOY 10 20 a\nTOY 11 21 b\n".utf8)
        let data = try bytes.withUnsafeBufferPointer { buffer throws(MapDataError) in
            try ToyDriver().read(buffer, file: "t.toy", progress: nil)
        }
        let file = UserFile(file: "t.toy", format: ToyDriver().format, data: data)
        var start = SessionStart(cols: 80, rows: 24, center: Self.helsinki, zoom: 3)
        start.files = [file]
        start.lastView = .success((center: Self.helsinki, zoom: 12))
        start.viewGiven = false
        let fitted = try start.state()
        #expect(abs(fitted.view.center.latitude - 10.5) < 0.1 && abs(fitted.view.center.longitude - 20.5) < 0.1)
        #expect(fitted.userLayers.count == 1)
        start.viewGiven = true
        start.lastView = .failure(LastViewProblem("--resume: no last view yet"))
        let given = try start.state()
        #expect(
            given.view.center == Self.helsinki && given.message == "--resume: no last view yet" && given.messageIsError)
    }
}
