import Foundation
import Testing

@testable import GeoCore

/// Elevation profiles (issue 48) against a Python computation of the same rule
/// (`Tools/make_profile_fixtures.py`: 30 seeded walks with noise, gaps and short last steps), and
/// sampling every 10 m along geodesic legs.
struct ElevationProfileTests {
    struct Fixture: Decodable {
        struct Case: Decodable {
            let meters: [Double]
            let heights: [Double?]
            let ascent, descent: Double
            let minimum, maximum, steepestPercent: Double?
        }
        let cases: [Case]
    }

    @Test func figuresEqualPythonsOfTheSameRule() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "Fixtures/profiles.json")
        let fixture = try JSONDecoder().decode(Fixture.self, from: try Data(contentsOf: url))
        #expect(fixture.cases.count == 30)
        for (k, c) in fixture.cases.enumerated() {
            let p = ElevationProfile(meters: c.meters, heights: c.heights.map { $0 ?? .nan })
            #expect(abs(p.ascent - c.ascent) < 1e-6 && abs(p.descent - c.descent) < 1e-6, "case \(k)")
            #expect(p.minimum == c.minimum && p.maximum == c.maximum, "case \(k)")
            #expect(
                p.steepestPercent.map { s in c.steepestPercent.map { abs($0 - s) < 1e-9 } ?? false }
                    ?? (c.steepestPercent == nil), "case \(k)")
        }
    }

    /// A dead band of 2 m: a metre of noise adds nothing; a climb of 10 m in steps of 1.5 m counts 9 m
    /// (the last 1.5 m never reaches the band's edge).
    @Test func noiseWithinTheDeadBandCountsNothing() {
        let noisy = ElevationProfile(meters: [0, 10, 20, 30, 40], heights: [100, 101, 100, 101.9, 100])
        #expect(noisy.ascent == 0 && noisy.descent == 0)
        let steps = (0...7).map { 100 + 1.5 * Double($0) }
        let climb = ElevationProfile(meters: steps.indices.map { Double($0) * 10 }, heights: steps)
        #expect(climb.ascent == 9 && climb.descent == 0)
    }

    /// Samples every 10 m from the start along each leg, and the end; distances along the line.
    @Test func samplesEveryTenMetresAndTheEnd() throws {
        try #require(Geodesic.isAvailable)
        let a = Coordinate(latitude: 60, longitude: 25)
        let b = Geodesic.destination(from: a, bearing: 90, distance: 35)
        let c = Geodesic.destination(from: b, bearing: 0, distance: 20)
        let s = ElevationProfile.samples(along: [a, b, c])
        #expect(s.map(\.meters).map { ($0 * 1e6).rounded() / 1e6 } == [0, 10, 20, 30, 40, 50, 55])
        #expect(abs(Geodesic.distance(a, s[3].at) - 30) < 1e-6)
        #expect(abs(Geodesic.distance(b, s[4].at) - 5) < 1e-6)
    }
}
