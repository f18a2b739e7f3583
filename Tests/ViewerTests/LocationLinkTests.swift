import GeoCore
import Support
import Testing

@testable import Viewer

@Suite("Links people paste, and the ones termmap makes")
struct LocationLinkTests {
    /// How the links read. The openstreetmap.org zooms are what that site's `OSM.parseHash` makes of
    /// them: ECMAScript's `parseInt(s, 10)` (ECMA-262 §19.2.5) keeps the leading digits, so `12.7` is 12
    /// and `7abc` is 7; its coordinates are `parseFloat`'s.
    @Test(
        arguments: [
            ("https://www.openstreetmap.org/#map=16/60.16952/24.93545", 60.16952, 24.93545, 16.0),
            (
                "https://www.openstreetmap.org/?mlat=51.5&mlon=-0.1#map=12.7/51.50000/-0.10000&layers=C", 51.5, -0.1,
                12.0
            ),
            ("openstreetmap.org/#map=7abc/-33.9/151.2", -33.9, 151.2, 7.0),
            ("https://www.openstreetmap.org/#map=3/10.5x/20.25y", 10.5, 20.25, 3.0),
            ("geo:60.1,24.9", 60.1, 24.9, nil),
            ("geo:60.1,24.9,30;crs=wgs84;u=40?z=12", 60.1, 24.9, 12.0),
            ("GEO:-45.5,170.25?q=somewhere&z=9.5", -45.5, 170.25, 9.5),
            ("https://www.google.com/maps/@48.8584,2.2945,17.5z", 48.8584, 2.2945, 17.5),
            (
                "https://www.google.com/maps/place/Eiffel+Tower/@48.8583701,2.2944813,17z/data=!3m1!4b1", 48.8583701,
                2.2944813, 17.0
            ),
            ("https://www.google.com/maps/@40.7,-74.0,500m/data=!3m1!1e3", 40.7, -74.0, nil),
        ] as [(String, Double, Double, Double?)])
    func linksRead(text: String, lat: Double, lon: Double, zoom: Double?) throws {
        let p = try #require(LocationLinks.parse(text))
        #expect(p.coordinate.latitude == lat && p.coordinate.longitude == lon && p.zoom == zoom, "\(text)")
    }

    @Test(arguments: [
        "geo:60.1", "geo:60.1,24.9;crs=EPSG:3067", "geo:91,0", "geo:a,b", "https://www.openstreetmap.org/#map=/60/24",
        "https://www.openstreetmap.org/#map=12/x/24", "https://www.google.com/maps/@48.8", "https://example.com/",
    ])
    func notLinks(text: String) {
        #expect(LocationLinks.parse(text) == nil, "\(text)")
    }

    /// The openstreetmap.org link and the geo: URI of a view, pasted into `g`, go back to the view's
    /// centre within 1e-6° (6 decimals), the link at its zoom rounded to a whole number; 30 seeded views,
    /// across the antimeridian and near the poles' edge.
    @Test func linksRoundTripThroughGoTo() throws {
        var rng = SplitMix(seed: 30)
        for k in 0..<30 {
            let lat = (Double(rng.next() % 1_700_000) / 10_000) - 85
            let lon = (Double(rng.next() % 3_600_000) / 10_000) - 180
            let zoom = Double(rng.next() % 1800) / 100
            let center = Coordinate(latitude: lat, longitude: lon)
            for (link, wantZoom) in [
                (LocationLinks.openStreetMap(center: center, zoom: zoom), zoom.rounded()),
                (LocationLinks.geoURI(center), 3.0),
            ] {
                let s = try scripted(cols: 100, rows: 32, lat: 10, lon: 10, zoom: 3, keys: "g" + link + "<Enter>")
                #expect(
                    abs(s.view.center.latitude - lat) <= 1e-6 && abs(s.view.center.longitude - lon) <= 1e-6,
                    "\(k): \(link) → \(s.view.center)")
                #expect(abs(s.view.zoom - wantZoom) < 1e-9, "\(k): \(link) → zoom \(s.view.zoom)")
            }
        }
    }

    /// A link longer than the old 64-character limit is read whole at the prompt.
    @Test func aLongLinkIsReadWhole() throws {
        let link =
            "https://www.google.com/maps/place/Some+Rather+Long+Place+Name,+With+A+Street/@60.1699,24.9384,14z/data=!3m1!4b1!4m6!3m5"
        let s = try scripted(cols: 100, rows: 32, lat: 0, lon: 0, zoom: 2, keys: "g" + link + "<Enter>")
        #expect(link.count > 64 && abs(s.view.center.latitude - 60.1699) < 1e-9 && s.view.zoom == 14, "\(s.message)")
    }

    /// RFC 4648 §10's test vectors: what OSC 52 carries.
    @Test func base64AsRFC4648() {
        let vectors = [
            "": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=",
            "foobar": "Zm9vYmFy",
        ]
        for (plain, coded) in vectors { #expect(Base64.encode(plain.utf8) == coded, "\(plain)") }
    }

    /// `y` then a digit copies (an effect for the terminal, the text on the message line); another key
    /// copies nothing; the longitude is given within ±180.
    @Test func yCopiesWhatItsMenuSays() throws {
        var s = try scripted(cols: 100, rows: 32, lat: -33.856784, lon: 151.215297 + 360, zoom: 15.4)
        s.update(.key(.char("y")))
        #expect(s.showCopyMenu && s.message.hasPrefix("copy: 1 openstreetmap.org link"))
        #expect(s.update(.key(.char("1"))) == [.copy("https://www.openstreetmap.org/#map=15/-33.856784/151.215297")])
        // Sent, not "copied": a terminal may ignore OSC 52.
        #expect(
            s.message
                == "sent to your terminal's clipboard (OSC 52): https://www.openstreetmap.org/#map=15/-33.856784/151.215297"
                && !s.showCopyMenu)
        s.update(.key(.char("y")))
        #expect(s.update(.key(.char("2"))) == [.copy("geo:-33.856784,151.215297")])
        s.update(.key(.char("y")))
        #expect(s.update(.key(.char("3"))) == [.copy("-33.856784, 151.215297")])
        s.update(.key(.char("y")))
        #expect(s.update(.key(.escape)) == [] && s.message == "nothing copied")
    }
}
