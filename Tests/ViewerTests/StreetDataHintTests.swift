import GeoCore
import Testing

@testable import Viewer

/// The street-data hints win over a key's routine message, come once each time the views enter a place
/// that earns them, and go with the next key.
@Suite("Street-data hints")
struct StreetDataHintTests {
    /// Paris at zoom 16, with no street data.
    static func paris() throws -> ViewerState {
        var s = try ViewerState(cols: 80, rows: 24, center: Coordinate(latitude: 48.8584, longitude: 2.2945), zoom: 16)
        s.animationsEnabled = false
        return s
    }

    @Test func theHintWinsOverAPansMessageAndGoesWithTheNextKey() throws {
        var s = try Self.paris()
        _ = s.update(.key(.char("l")))
        #expect(s.message.hasPrefix("pan to"))
        _ = s.update(.rendered(missing: [], streetDataInView: false))
        #expect(s.message == StreetDataHint.noneHere.text)
        // The next key clears it; its own message (a pan's) shows, and the hint does not come back while
        // the views stay without street data.
        _ = s.update(.key(.char("#")))
        #expect(s.message != StreetDataHint.noneHere.text)
        _ = s.update(.rendered(missing: [], streetDataInView: false))
        #expect(s.message != StreetDataHint.noneHere.text)
        _ = s.update(.key(.char("l")))
        _ = s.update(.rendered(missing: [], streetDataInView: false))
        #expect(s.message.hasPrefix("pan to"))
    }

    @Test func aKeyWithoutAMessageOfItsOwnLeavesTheLineEmpty() throws {
        var s = try Self.paris()
        _ = s.update(.rendered(missing: [], streetDataInView: false))
        #expect(s.message == StreetDataHint.noneHere.text)
        _ = s.update(.key(.escape))
        #expect(s.message == "")
    }

    @Test func enteringAgainSaysItAgain() throws {
        var s = try Self.paris()
        _ = s.update(.rendered(missing: [], streetDataInView: false))
        _ = s.update(.key(.char("l")))
        // Into street data (the demo city), then out of it again: said again.
        _ = s.update(.rendered(missing: [], streetDataInView: true))
        _ = s.update(.key(.char("l")))
        _ = s.update(.rendered(missing: [], streetDataInView: false))
        #expect(s.message == StreetDataHint.noneHere.text)
        // The data's edge in view is a place of its own.
        _ = s.update(.key(.char("l")))
        _ = s.update(.rendered(missing: [], streetDataEnds: true))
        #expect(s.message == StreetDataHint.endsHere.text)
    }

    @Test func anErrorStaysAndTheHintComesAfterIt() throws {
        var s = try Self.paris()
        s.setError("cannot read walks.gpx")
        _ = s.update(.rendered(missing: [], streetDataInView: false))
        #expect(s.message == "cannot read walks.gpx")
        s.message = ""
        _ = s.update(.rendered(missing: [], streetDataInView: false))
        #expect(s.message == StreetDataHint.noneHere.text)
    }

    @Test func belowStreetZoomAndInKioskModeNothingIsSaid() throws {
        var low = try ViewerState(
            cols: 80, rows: 24, center: Coordinate(latitude: 48.8584, longitude: 2.2945), zoom: 11)
        _ = low.update(.rendered(missing: [], streetDataInView: false))
        #expect(low.message != StreetDataHint.noneHere.text)
        var kiosk = try Self.paris()
        kiosk.suggestsStreetData = false
        _ = kiosk.update(.rendered(missing: [], streetDataInView: false))
        #expect(kiosk.message != StreetDataHint.noneHere.text)
    }

    @Test func aToursCaptionIsNoPlaceForAHint() throws {
        var s = try Self.paris()
        s.tour = .playing(step: 0, steps: 2)
        s.setMessage("the Eiffel tower")
        _ = s.update(.rendered(missing: [], streetDataInView: false))
        #expect(s.message == "the Eiffel tower")
        // Nor once the tour is over, for the place it left the view in.
        s.tour = .off
        _ = s.update(.rendered(missing: [], streetDataInView: false))
        #expect(s.message == "the Eiffel tower")
    }
}
