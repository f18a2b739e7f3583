import Foundation
import GeoCore
import Raster
import TestSupport
import Testing

@testable import MapRender
@testable import Viewer

@Suite("Recordings made without a terminal")
struct ScriptedRecordingTests {
    func events(_ cast: String) throws -> [[Any]] {
        try cast.split(separator: "\n").dropFirst().map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [Any])
        }
    }

    /// A key at 0.5 s, its animation at 30 frames a second for 250 ms, the last screen held 2 s; the
    /// same input gives the same text.
    @Test func keysComeOnTheScriptsClockWithTheirAnimationFrames() throws {
        let start = try ViewerState(cols: 60, rows: 20, center: Coordinate(latitude: 50, longitude: 10), zoom: 4)
        let cast = ScriptedRecording.cast(start, keys: [.key(.char("+"))], tour: nil, sources: nil, mode: .ansi256)
        #expect(
            cast == ScriptedRecording.cast(start, keys: [.key(.char("+"))], tour: nil, sources: nil, mode: .ansi256))
        #expect(cast.hasPrefix("{\"version\": 2, \"width\": 60, \"height\": 20, \"env\""))
        let times = try events(cast).map { ($0[0] as? Double) ?? -1 }
        #expect(times.first == 0 && times[1] == 0.5)
        let frames = times.filter { $0 > 0.5 && $0 <= 0.5 + ViewAnimation.duration + 0.034 }
        #expect(frames.count >= 7 && frames.count <= 9, "\(times)")
        #expect(abs((times.last ?? 0) - ((frames.last ?? 0) + ScriptedRecording.hold)) < 1e-6)
        #expect(!cast.contains("\\u001b[c"))
    }

    /// A tour's steps come after their pauses; the recording lasts the tour.
    @Test func aToursStepsComeAfterTheirPauses() throws {
        let tour = try Tour.parse("l\t2\tone\nh\t3\ttwo\n").get()
        let start = try ViewerState(cols: 60, rows: 20, center: Coordinate(latitude: 50, longitude: 10), zoom: 4)
        let cast = ScriptedRecording.cast(start, keys: [], tour: tour, sources: nil, mode: .plain)
        let list = try events(cast)
        let times = list.map { ($0[0] as? Double) ?? -1 }
        #expect(times == [0, 0, 2, 5], "\(times)")
        #expect((list[1][2] as? String)?.contains("one") == true && (list[2][2] as? String)?.contains("two") == true)
    }

    /// The recording is what the viewer sends a terminal: replayed through one, it ends on the screen
    /// the keys lead to (zoom frames, and pans moved by the terminal).
    @Test(arguments: [ColorMode.ansi256, .ansi16, .ansi8])
    func aRecordingShowsTheScreenItEndsOn(mode: ColorMode) throws {
        let keys: [Keystroke] = [
            .key(.char("+")), .command(.panRight), .key(.char("j")), .key(.char("c")), .key(.char("h")),
        ]
        let start = try ViewerState(cols: 60, rows: 20, center: Coordinate(latitude: 50, longitude: 10), zoom: 4)
        let cast = ScriptedRecording.cast(start, keys: keys, tour: nil, sources: bundledSources, mode: mode)
        var terminal = ModelTerminal(cols: 60, rows: 20)
        for e in try events(cast) { terminal.feed(Array(((e[2] as? String) ?? "").utf8)) }
        var end = start
        for key in keys {
            end.update(key.event, places: bundledSources)
            while end.animation != nil { end.update(.tick(seconds: 0.033)) }
        }
        let frame = Renderer.render(end, sources: bundledSources, options: RenderOptions(mode: mode))
        #expect(terminal.firstDifference(frame, mode: mode) == nil)
        // The pans are moves of what the terminal shows: characters deleted (l), lines scrolled up (j).
        #expect(cast.range(of: #"\\u001b\[\d*P"#, options: .regularExpression) != nil)
        #expect(cast.contains("\\u001bD"))
    }
}
