import GeoCore
import Testing

@testable import MapRender
@testable import Viewer

/// Each key and wheel event moves the view the way it says, undo brings back exactly what was, and an
/// animation takes the short way round.
@Suite("View changes: directions, undo, animation paths")
struct ViewChangeTests {
    /// 100×30 terminal (100×28 map cells) over Georgia Tech at zoom 5.
    func start() throws -> ViewerState {
        try scripted(cols: 100, rows: 30, lat: 33.777328, lon: -84.397348, zoom: 5)
    }

    /// Every pan binding: cells the map content moves (right and down positive). A quarter of 100×28 is
    /// 25 columns or 7 rows; a whole view is 100 or 28.
    @Test(arguments: [
        (Key.char("h"), 25, 0), (Key.left, 25, 0), (Key.char("l"), -25, 0), (Key.right, -25, 0),
        (Key.char("k"), 0, 7), (Key.up, 0, 7), (Key.char("j"), 0, -7), (Key.down, 0, -7),
        (Key.modifiedLeft, 100, 0), (Key.char("L"), -100, 0), (Key.char("K"), 0, 28), (Key.char("J"), 0, -28),
    ])
    func panKeysMoveTheMapTheWayTheySay(key: Key, columns: Int, rows: Int) throws {
        let before = try start()
        var after = before
        after.update(.key(key))
        // Where the old center now is: moved with the content.
        let moved = after.view.dotPoint(for: before.view.center)
        #expect(abs(moved.x - (after.view.size.widthDots / 2 + Double(2 * columns))) < 1e-6, "\(key)")
        #expect(abs(moved.y - (after.view.size.heightDots / 2 + Double(4 * rows))) < 1e-6, "\(key)")
        // Seen as the center: content moving down means the view went north.
        if rows > 0 { #expect(after.view.center.latitude > before.view.center.latitude) }
        if rows < 0 { #expect(after.view.center.latitude < before.view.center.latitude) }
        if columns > 0 { #expect(after.view.center.longitude < before.view.center.longitude) }
        if columns < 0 { #expect(after.view.center.longitude > before.view.center.longitude) }
        #expect(after.view.zoom == before.view.zoom)
        #expect(after.lastAction?.name == .pan)
    }

    @Test func wheelDownZoomsOutByTheButtonStepAroundThePointer() throws {
        var s = try start()
        var button = s
        button.update(.key(.char("-")))
        let p = DotPoint(x: 61, y: 22)  // cell (30, 5)
        let under = s.view.coordinate(at: p)
        s.update(.mouse(.wheelDown(col: 30, row: 5)))
        #expect(s.view.zoom < 5)
        #expect(s.view.zoom == button.view.zoom)
        #expect(s.lastAction?.name == .wheelOut)
        let after = s.view.coordinate(at: p)
        #expect(abs(after.latitude - under.latitude) < 1e-9 && abs(after.longitude - under.longitude) < 1e-9)
        var up = try start()
        up.update(.mouse(.wheelUp(col: 30, row: 5)))
        #expect(up.view.zoom > 5 && up.lastAction?.name == .wheelIn)
    }

    @Test func aFullHistoryDropsTheOldestView() throws {
        var s = try start()
        var views = [s.view]
        for _ in 0..<(ViewerState.historyLimit + 5) {
            s.update(.key(.char("l")))
            views.append(s.view)
        }
        #expect(s.history.count == ViewerState.historyLimit)
        // The newest is the view before the last pan; the oldest five (the start among them) are gone.
        #expect(s.history.last?.view == views[views.count - 2])
        #expect(s.history.first?.view == views[5])
        s.update(.key(.char("u")))
        #expect(s.view == views[views.count - 2])
    }

    @Test func undoBringsBackZoomAndCenterAtTodaysSize() throws {
        var s = try start()
        s.update(.key(.char("+")))
        let afterFirst = s.view
        s.update(.key(.char("+")))
        s.update(.key(.char("u")))
        #expect(s.view.zoom == afterFirst.zoom && s.view.center == afterFirst.center)
        s.update(.key(.char("u")))
        let origin = try start().view.center
        #expect(s.view.zoom == 5 && s.view.center == origin)
        #expect(s.lastAction?.name == .undo && s.lastAction?.zoomAfter == 5)
        // A resize between the change and the undo: the old view comes back at the new size.
        for key in "z12\r" { s.update(.key(key == "\r" ? .enter : .char(key))) }
        s.update(.resize(cols: 60, rows: 20))
        s.update(.key(.char("u")))
        #expect(s.view.zoom == 5)
        #expect(s.view.size.cols == 60 && s.view.size.rows == 18)
        #expect(s.terminalCols == 60 && s.terminalRows == 20)
        s.update(.key(.char("u")))
        #expect(s.message == "nothing to undo" && s.messageIsError)
    }

    @Test func zoomAnimationAcrossTheAntimeridianTakesTheShortWay() throws {
        var s = try scripted(cols: 100, rows: 30, lat: -17, lon: 179, zoom: 6)
        s.animationsEnabled = true
        for key in "g-17,-179\r" { s.update(.key(key == "\r" ? .enter : .char(key))) }
        #expect(s.animation != nil && abs(s.view.center.longitude - -179) < 1e-9)
        // Every in-between center stays within a degree of 180°, never passing Greenwich.
        for _ in 0..<9 {
            s.update(.tick(seconds: ViewAnimation.duration / 10))
            let lon = s.displayedView.center.longitude
            #expect(abs(lon) >= 179 - 1e-9, "in-between longitude \(lon)")
        }
        // The same through the interpolation directly, both ways.
        let a = try MapView(
            center: Coordinate(latitude: 0, longitude: 170), zoom: 3, size: ViewSize(cols: 80, rows: 22))
        let b = try MapView(
            center: Coordinate(latitude: 0, longitude: -170), zoom: 5, size: ViewSize(cols: 80, rows: 22))
        for t in stride(from: 0.1, through: 0.9, by: 0.1) {
            #expect(abs(ViewInterpolation.between(a, b, t: t).center.longitude) >= 170 - 1e-9)
            #expect(abs(ViewInterpolation.between(b, a, t: t).center.longitude) >= 170 - 1e-9)
        }
        let middle = ViewInterpolation.between(a, b, t: 0.5)
        #expect(abs(middle.zoom - 4) < 1e-9)
    }

    /// The prompt's own checks say what is wrong: the message, not only the unchanged view, shows that
    /// the prompt refused the input (the model's checks behind it would refuse with other words).
    @Test(arguments: [
        ("z-3", "zoom level -3 is below 0; view unchanged"),
        ("zabc", "zoom level must be a number from 0 to 28; view unchanged"),
        ("z", "zoom level must be a number from 0 to 28; view unchanged"),
        ("g91,0", "latitude 91 is outside -90…90; view unchanged"),
        ("g1,2,3", "expected latitude, longitude, e.g. 33.7773, -84.3973 or 48°51′30″N 2°17′40″E; view unchanged"),
        ("g0,10000000", "longitude 10000000 is too large; view unchanged"),
        ("r0", "radius must be more than 0 and at most 20000 km; circle unchanged"),
        ("r30000km", "radius must be more than 0 and at most 20000 km; circle unchanged"),
        ("r5 parsecs", "radius must be a distance like 500, 2km, 1.5mi or 800ft; circle unchanged"),
        ("/", "type a place or street name"),
        ("/zzzzqqq", "no place or street is called 'zzzzqqq'"),
    ])
    func promptRefusalsSayWhy(input: String, message: String) throws {
        let before = try start()
        let s = try scripted(cols: 100, rows: 30, lat: 33.777328, lon: -84.397348, zoom: 5, keys: input + "<Enter>")
        #expect(s.message == message)
        #expect(s.messageIsError)
        #expect(s.view == before.view && s.circle == nil)
    }
}
