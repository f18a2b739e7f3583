import GeoCore
import Testing

@testable import Viewer

@Suite("Redo")
struct RedoTests {
    /// `U` gives back what `u` took, in order; a new change after an undo leaves nothing to redo.
    @Test func redoGivesBackWhatUndoTook() throws {
        let start = try scripted(cols: 100, rows: 32, lat: 48.8584, lon: 2.2945, zoom: 9, keys: "+l")
        var s = start
        let afterZoom = try scripted(cols: 100, rows: 32, lat: 48.8584, lon: 2.2945, zoom: 9, keys: "+").view
        s.update(.key(.char("u")))
        s.update(.key(.char("u")))
        #expect(s.view.zoom == 9 && s.view.center == Coordinate(latitude: 48.8584, longitude: 2.2945))
        s.update(.key(.char("U")))
        #expect(s.view == afterZoom && s.message.hasPrefix("redo zoom in: again at zoom"), "\(s.message)")
        s.update(.key(.char("U")))
        #expect(s.view == start.view && s.lastAction?.name == .redo)
        s.update(.key(.char("U")))
        #expect(s.view == start.view && s.messageIsError && s.message == "nothing to redo")
        s.update(.key(.char("u")))
        s.update(.key(.char("h")))
        s.update(.key(.char("U")))
        #expect(s.message == "nothing to redo", "a new change ends the redo")
    }
}
