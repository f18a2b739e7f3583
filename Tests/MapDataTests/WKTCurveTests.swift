import Foundation
import Testing

@testable import MapData
@testable import MapFormats

/// WKT curves as GDAL linearises them (`Tools/make_wkt_curve_fixtures.py`: GDAL's own lines for seeded
/// arcs, compound curves, curve polygons, multicurves and multisurfaces): the same ends, the same
/// number of points, each point where GDAL's is (GDAL hides the arc in its coordinates' last bits: to
/// 1e-9 of the extent).
@Suite("WKT curves")
struct WKTCurveTests {
    struct Case: Decodable, CustomTestStringConvertible {
        var wkt: String
        var lines: [[[Double]]]
        var testDescription: String { String(wkt.prefix(60)) }
    }
    struct Fixture: Decodable {
        var gdal: String
        var cases: [Case]
    }
    static let fixture: Fixture = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "Fixtures/wkt-curves.json")
        do { return try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: url)) } catch {
            preconditionFailure("\(error)")
        }
    }()

    /// The distance from `p` to the polyline `line`.
    static func distance(_ p: (Double, Double), to line: [(Double, Double)]) -> Double {
        var best = Double.infinity
        for (a, b) in zip(line, line.dropFirst()) {
            let (dx, dy) = (b.0 - a.0, b.1 - a.1)
            let len2 = dx * dx + dy * dy
            let t = len2 == 0 ? 0 : max(0, min(1, ((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2))
            let (qx, qy) = (a.0 + t * dx - p.0, a.1 + t * dy - p.1)
            best = min(best, (qx * qx + qy * qy).squareRoot())
        }
        return line.count == 1 ? hypot(line[0].0 - p.0, line[0].1 - p.1) : best
    }

    @Test func theFixtureIsThere() { #expect(Self.fixture.cases.count == 20 && Self.fixture.gdal.hasPrefix("GDAL")) }

    @Test(arguments: fixture.cases)
    func linesAsGDALMakesThem(_ c: Case) throws {
        let pieces = try WKT.parse(c.wkt).get()
        let ours = pieces.flatMap(\.rings)
        let theirs = c.lines.map { $0.map { ($0[0], $0[1]) } }
        #expect(ours.count == theirs.count)
        for (mine, gdal) in zip(ours, theirs) {
            let extent = gdal.reduce(0.0) { max($0, abs($1.0 - gdal[0].0), abs($1.1 - gdal[0].1)) }
            // A 4° step's chord leaves the arc by r(1 − cos 2°) ≈ 0.0006 r: lines that agree lie within that.
            let tolerance = max(1e-12, 0.0007 * extent)
            #expect(abs(mine[0].0 - gdal[0].0) < 1e-9 && abs(mine[mine.count - 1].1 - gdal[gdal.count - 1].1) < 1e-9)
            #expect(mine.allSatisfy { Self.distance($0, to: gdal) <= tolerance }, "\(c.wkt)")
            #expect(gdal.allSatisfy { Self.distance($0, to: mine) <= tolerance }, "\(c.wkt)")
            #expect(mine.count == gdal.count, "\(mine.count) points, GDAL \(gdal.count)")
            if mine.count == gdal.count {
                #expect(
                    zip(mine, gdal).allSatisfy {
                        abs($0.0 - $1.0) <= 1e-9 * max(1, extent) && abs($0.1 - $1.1) <= 1e-9 * max(1, extent)
                    }, "\(c.wkt)")
            }
        }
    }

    @Test func zAndMAndBadArcs() throws {
        #expect(try WKT.parse("CIRCULARSTRING Z (0 0 5,1 1 5,2 0 5)").get().first?.rings[0].count == 46)
        // A small arc still has GDAL's seven steps.
        #expect(try WKT.parse("CIRCULARSTRING(0 0,0.1 0.01,0.2 0)").get().first?.rings[0].count == 8)
        #expect(try WKT.parse("CIRCULARSTRING(0 0,1 1,2 2)").get().first?.rings[0].count == 3)
        #expect((try? WKT.parse("CIRCULARSTRING(0 0,1 1)").get()) == nil)
        #expect((try? WKT.parse("COMPOUNDCURVE(POINT(1 2))").get()) == nil)
    }
}
