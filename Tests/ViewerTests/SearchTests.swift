import Foundation
import GeoCore
import MapData
import MapFormats
import Raster
import TestSupport
import Testing

@testable import MapRender
@testable import Viewer

/// Search that finds what people type (the cartography issue, section 4): other names, substrings,
/// abbreviations, a list of matches with region and country while typing, ↑/↓ to choose, Enter to go.
@Suite("Search")
struct SearchTests {
    func labels(_ query: String) -> [String] { bundledCitySources.matches(query, limit: 5).map(\.label) }

    /// Ranks (issue 45): the whole name, a start, a word's start, anywhere; within a rank what is near the
    /// view first, nearest first, with its distance; then the rest as places rank.
    @Test func matchesRankByHowTheyMatchThenByNearness() throws {
        let esplanade = SearchVicinity(center: Coordinate(latitude: 60.1679, longitude: 24.9486), radiusMeters: 600)
        // Helsinki's Esplanadi (its park, shop and streets, nearest first) before Brazil's Esplanada, a
        // typo away and 9,700 km off.
        let near = bundledCitySources.matches("Esplanadi", limit: 5, near: esplanade)
        #expect(near.prefix(4).allSatisfy { ($0.distanceMeters ?? .infinity) < 2000 }, "\(near.map(\.label))")
        #expect(near.prefix(4).map { $0.distanceMeters ?? 0 } == near.prefix(4).map { $0.distanceMeters ?? 0 }.sorted())
        #expect(near.last?.label == "Esplanada, BR")
        // A word's start: the cathedral is `Helsingin tuomiokirkko`.
        let cathedral = bundledCitySources.matches("Tuomiokirkko", limit: 5, near: esplanade)
        #expect(cathedral.first?.name == "Helsingin tuomiokirkko", "\(cathedral.map(\.label))")
        // The whole name before a start of one: `Paris` before `Paris 15 Vaugirard`, and of the whole
        // names the one near the view first (from Dallas, Texas's).
        let dallas = SearchVicinity(center: Coordinate(latitude: 32.78, longitude: -96.8), radiusMeters: 400_000)
        let paris = bundledCitySources.matches("Paris", limit: 3, near: dallas).map(\.label)
        #expect(paris.first == "Paris, Texas, US", "\(paris)")
        #expect(paris.dropFirst().first == "Paris, FR", "\(paris)")
        // Far from every match, places rank as before (largest first), each with its distance.
        let far = bundledCitySources.matches("portland", limit: 3, near: esplanade)
        #expect(far.map(\.label) == ["Portland, Oregon, US", "Portland, Maine, US", "Portland, Texas, US"])
        #expect(far.allSatisfy { ($0.distanceMeters ?? 0) > 5_000_000 })
    }

    /// The ranks one by one: a word's start before a match inside a word, whatever the places' order.
    @Test func aWordsStartRanksBeforeAMatchInsideAWord() {
        let index = PlaceSearch(
            names: ["Abcxyz Town", "Big Xyz", "Xyzville", "Xyz"], extras: Array(repeating: PlaceNames(), count: 4))
        let q = Array("xyz".utf8)
        #expect(PlaceSearch.rank(q, [Array("abcxyz town".utf8)], ownKeys: 1) == .infix)
        #expect(PlaceSearch.rank(q, [Array("big xyz".utf8)], ownKeys: 1) == .wordPrefix)
        #expect(PlaceSearch.rank(q, [Array("xyzville".utf8)], ownKeys: 1) == .prefix)
        #expect(PlaceSearch.rank(q, [Array("xyz".utf8)], ownKeys: 1) == .exact)
        #expect(index.matches("xyz", perRank: 5).map(\.place) == [3, 2, 1, 0])
    }

    /// Places of one name are told apart by US state and country, largest first.
    @Test func samePlaceNamesAreToldApart() {
        let found = labels("portland")
        #expect(Array(found.prefix(3)) == ["Portland, Oregon, US", "Portland, Maine, US", "Portland, Texas, US"])
    }

    /// Other names (GeoNames alternatenames), accents ignored: `Munchen` finds Munich before the towns
    /// whose own name holds the word.
    @Test func otherNames() {
        #expect(labels("Munchen").first == "Munich, DE")
        #expect(labels("München").first == "Munich, DE")
        #expect(labels("Lisboa").first == "Lisbon, PT")
    }

    /// `St` and `Saint` are one word: St Petersburg is Russia's, the largest of that name.
    @Test func abbreviations() {
        #expect(labels("St Petersburg").prefix(2) == ["Saint Petersburg, RU", "St. Petersburg, Florida, US"])
        #expect(labels("saint peter").first == "Saint Petersburg, RU")
    }

    /// Inside a name: at a word's start (`fulton` → South Fulton) and anywhere (`ngeles` → Los Angeles).
    @Test func substrings() {
        #expect(labels("ngeles").first == "Los Angeles, California, US")
        #expect(labels("south fulton").first == "South Fulton, Georgia, US")
        #expect(labels("fulton").contains("South Fulton, Georgia, US"))
    }

    /// Typing lists up to five matches, ↓ and ↑ choose (wrapping), Enter goes to the chosen one; the list
    /// is drawn above the status line with the chosen one marked.
    @Test func chooseWithArrows() throws {
        var s = try scripted(cols: 80, rows: 24, lat: 0, lon: 0, zoom: 2)
        for c in "/portland" { s.update(.key(.char(c)), places: bundledCitySources) }
        let prompt = try #require(s.prompt)
        #expect(prompt.choices.count == 5 && prompt.chosen == 0)
        let frame = Renderer.render(s, sources: bundledCitySources, options: RenderOptions(mode: .plain))
        let screen = (0..<frame.rows).map { frame.line($0) }
        #expect(screen[17].hasPrefix("> Portland, Oregon, US") && screen[18].hasPrefix("  Portland, Maine, US"))
        #expect(screen[23].hasPrefix("search place or street: portland_"))
        s.update(.key(.up), places: bundledCitySources)
        #expect(s.prompt?.chosen == 4)
        s.update(.key(.down), places: bundledCitySources)
        s.update(.key(.down), places: bundledCitySources)
        s.update(.key(.enter), places: bundledCitySources)
        #expect(s.prompt == nil)
        // Portland, Maine: 43.66°N 70.26°W.
        #expect(abs(s.view.center.latitude - 43.66) < 0.01 && abs(s.view.center.longitude + 70.26) < 0.01)
        #expect(s.message.hasPrefix("Portland, Maine, US (pop. "), "\(s.message)")
    }

    /// Search keys: case, accents and punctuation ignored, the same for ASCII names (folded on bytes)
    /// as for the others.
    @Test func keys() {
        #expect(PlaceSearch.key("Saint-Pétersbourg") == "saint petersbourg")
        #expect(PlaceSearch.key("St. Petersburg") == "st petersburg")
        #expect(PlaceSearch.key("  New   York-City ") == "new york city")
        #expect(PlaceSearch.key("N'Djamena") == "n djamena" && PlaceSearch.key("N’Djamena") == "n djamena")
        #expect(PlaceSearch.key("Hà Nội") == "ha noi" && PlaceSearch.key("MÜNCHEN 2") == "munchen 2")
    }

    /// Streets follow places, from the street-level data.
    @Test func streetsToo() {
        #expect(labels("Mannerheimintie").first == "Mannerheimintie, street")
    }

    /// Each match says what it is, from the class the import gave it: a botanical garden is a park, a
    /// school a building, and a square (a pedestrian multipolygon, drawn as nothing) is found.
    @Test func matchesSayWhatTheyAre() {
        #expect(labels("Kaisaniemen kasvitieteellinen").first == "Kaisaniemen kasvitieteellinen puutarha, park")
        #expect(labels("Helsingin eurooppalainen").first == "Helsingin eurooppalainen koulu, building")
        let square = bundledCitySources.matches("Kauppatori", limit: 5).first { $0.label == "Kauppatori, square" }
        // The market square: 60.1675°N 24.9530°E.
        #expect(
            square.map {
                abs($0.coordinate.latitude - 60.1675) < 0.001 && abs($0.coordinate.longitude - 24.953) < 0.002
            } == true)
    }

    /// One letter missing, added or changed still finds the place, after every match as typed.
    @Test func oneTypoAway() {
        #expect(labels("Helsnki").first == "Helsinki, FI")
        #expect(labels("Helsinkii").first == "Helsinki, FI")
        #expect(labels("Hwlsinki").first == "Helsinki, FI")
        #expect(labels("Portlamd").first == "Portland, Oregon, US")
        #expect(PlaceSearch.oneEditFromAPrefix(Array("helsnk".utf8), of: Array("helsinki".utf8)))
        #expect(!PlaceSearch.oneEditFromAPrefix(Array("hlsnki".utf8), of: Array("helsinki".utf8)))
        // Three letters are not matched with a typo.
        #expect(labels("Hxl").isEmpty)
    }

    /// Typing what matches nothing says so at once, not only after Enter.
    @Test func noMatchWhileTyping() throws {
        var s = try scripted(cols: 80, rows: 24, lat: 0, lon: 0, zoom: 2)
        for c in "/qqzzxq" { s.update(.key(.char(c)), places: bundledCitySources) }
        #expect(s.prompt?.choices.isEmpty == true)
        let frame = Renderer.render(s, sources: bundledCitySources, options: RenderOptions(mode: .plain))
        #expect(frame.line(21).hasPrefix("  no match"))
        #expect(frame.line(23).hasPrefix("search place or street: qqzzxq_"))
    }
}
