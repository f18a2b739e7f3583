import Foundation
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

@Suite("Bookmarks")
struct BookmarkListTests {
    /// A file a person edited: comments, blank lines, CRLF, and damaged lines are kept where they are;
    /// saving replaces a bookmark of the same name in place; deleting takes only that line.
    @Test func aFileKeepsWhatItDoesNotRead() {
        let text = "# mine\nHome\t51.5\t-0.12\t11\n\nbad line\nWork\t60.1\t24.9\t15\r\nFar\t0\t200\t3\n"
        var list = BookmarkList(text: text)
        #expect(list.bookmarks.map(\.name) == ["Home", "Work"])
        #expect(list.damagedLines == [4, 6])
        list.save(Bookmark(name: "Home", coordinate: Coordinate(latitude: 52, longitude: 361), zoom: 9))
        list.save(Bookmark(name: "new\tone", coordinate: Coordinate(latitude: -1, longitude: 2), zoom: 4.25))
        list.delete(1)
        #expect(
            list.text
                == "# mine\nHome\t52.0000000\t1.0000000\t9.0000\n\nbad line\nFar\t0\t200\t3\nnew one\t-1.0000000\t2.0000000\t4.2500\n"
        )
        #expect(BookmarkList(text: list.text).bookmarks.map(\.name) == ["Home", "new one"])
    }

    /// `b` in kiosk mode (bookmarks off) says why; with bookmarks, Enter keeps the view and asks for the
    /// file to be written.
    @Test func bKeepsTheViewOrSaysWhyNot() throws {
        var off = try scripted(cols: 100, rows: 32, lat: 1, lon: 2, zoom: 3)
        off.bookmarksOff = "bookmarks are off in kiosk mode"
        off.update(.key(.char("b")))
        #expect(off.prompt == nil && off.message == "bookmarks are off in kiosk mode")
        var s = try scripted(cols: 100, rows: 32, lat: 1, lon: 2, zoom: 3)
        s.bookmarks = BookmarkList()
        s.update(.key(.char("b")))
        for ch in "Spot" { s.update(.key(.char(ch))) }
        let effects = s.update(.key(.enter))
        let spot = try #require(s.bookmarks?.bookmarks.first)
        #expect(effects == [.changeBookmarks(.save(spot))], "\(effects)")
        #expect(s.bookmarks?.text == "Spot\t1.0000000\t2.0000000\t3.0000\n")
        #expect(s.bookmarks?.bookmarks.first?.name == "Spot")
    }
}

@Suite("The ruler in the viewer")
struct ViewerRulerTests {
    /// M starts a ruler at the centre, M after a pan adds the centre, M within a cell of the first
    /// vertex closes onto it exactly (area and perimeter on the message line), Backspace takes back the
    /// closing leg and then vertices, Esc ends it; `render --json`'s `ruler` has the numbers.
    @Test func mMeasuresClosesAndTakesBack() throws {
        var s = try scripted(cols: 100, rows: 32, lat: 60.1699, lon: 24.9384, zoom: 10, keys: "MllMjjMhhkk")
        let start = try #require(s.ruler?.vertices.first)
        #expect(s.ruler?.vertices.count == 3 && s.ruler?.closed == false)
        s.update(.key(.char("M")))
        let r = try #require(s.ruler)
        #expect(r.closed && r.vertices.count == 3 && r.vertices[0] == start)
        #expect(s.message.hasPrefix("ruler closed: area ") && s.message.contains("perimeter"), "\(s.message)")
        let json = try JSONSerialization.jsonObject(with: Data(StateJSON.encode(s).utf8)) as? [String: Any]
        let ruler = try #require(json?["ruler"] as? [String: Any])
        let legs = try #require(ruler["legs"] as? [[String: Any]])
        #expect(legs.count == 3 && (ruler["areaSquareMeters"] as? Double ?? 0) > 1e6)
        #expect(abs((ruler["totalMeters"] as? Double ?? 0) - (ruler["perimeterMeters"] as? Double ?? 0)) < 1e-6)
        s.update(.key(.backspace))
        #expect(s.ruler?.closed == false && s.ruler?.vertices.count == 3)
        s.update(.key(.backspace))
        #expect(s.ruler?.vertices.count == 2)
        s.update(.key(.escape))
        #expect(s.ruler == nil && s.message == "ruler off")
    }
}
