import Foundation
import Testing

@testable import MapData
@testable import MapFormats

/// Douglas–Peucker bounded to O(n log n): the jagged ring whose teeth grow along it (each split takes off
/// one point, the classic algorithm's quadratic case: a million points took 147 s) costs at most its
/// budget, and every point left out stays within the tolerance; a line the budget suffices for is
/// simplified exactly as the unbounded algorithm does.
@Suite("Line simplification")
struct DouglasPeuckerTests {
    /// The adversary: points round an ellipse, alternately in and out by an amount that grows along it.
    static func jagged(_ n: Int) -> [(Double, Double)] {
        (0..<n).map { i in
            let a = 2 * Double.pi * Double(i) / Double(n)
            let r = 5 * (1 + 0.5 * (i % 2 == 1 ? 1 : -1) * Double(i) / Double(n))
            return (r * cos(a), 0.5 * r * sin(a))
        } + [(2.5, 0)]
    }

    /// The distance from a point to the polyline through `kept` of `points` (the segment it lies under).
    static func deviation(_ points: [(Double, Double)], kept: [Int]) -> Double {
        var worst = 0.0
        for (a, b) in zip(kept, kept.dropFirst()) {
            let (ax, ay) = points[a]
            let (bx, by) = points[b]
            let (dx, dy) = (bx - ax, by - ay)
            let len2 = dx * dx + dy * dy
            for i in a...b {
                let (px, py) = (points[i].0 - ax, points[i].1 - ay)
                let t = len2 == 0 ? 0 : max(0, min(1, (px * dx + py * dy) / len2))
                let (qx, qy) = (px - t * dx, py - t * dy)
                worst = max(worst, (qx * qx + qy * qy).squareRoot())
            }
        }
        return worst
    }

    /// The textbook algorithm, unbounded (recursive over an explicit stack, no budget).
    static func reference(_ p: [(Double, Double)], tolerance: Double) -> [Int] {
        var keep = [Bool](repeating: false, count: p.count)
        keep[0] = true
        keep[p.count - 1] = true
        var stack = [(0, p.count - 1)]
        while let (a, b) = stack.popLast() {
            guard b > a + 1 else { continue }
            let (dx, dy) = (p[b].0 - p[a].0, p[b].1 - p[a].1)
            let len2 = dx * dx + dy * dy
            var (best, at) = (-1.0, a)
            for i in (a + 1)..<b {
                let (px, py) = (p[i].0 - p[a].0, p[i].1 - p[a].1)
                let t = len2 == 0 ? 0 : max(0, min(1, (px * dx + py * dy) / len2))
                let d = (px - t * dx) * (px - t * dx) + (py - t * dy) * (py - t * dy)
                if d > best { (best, at) = (d, i) }
            }
            if best > tolerance * tolerance {
                keep[at] = true
                stack += [(a, at), (at, b)]
            }
        }
        return keep.indices.filter { keep[$0] }
    }

    @Test(arguments: [10_000, 200_000])
    func theQuadraticCaseCostsItsBudgetAtMost(n: Int) {
        let points = Self.jagged(n)
        var calls = 0
        let tolerance = 0.001
        let kept = DouglasPeucker.keep(count: points.count, tolerance: tolerance) { i in
            calls += 1
            return points[i]
        }
        // The budget's evaluations, two reads a stretch, and a radial pass over what is left.
        #expect(
            calls <= DouglasPeucker.budget(points.count) + 4 * points.count, "\(calls) reads of \(points.count) points")
        #expect(kept.first == 0 && kept.last == points.count - 1)
        #expect(Self.deviation(points, kept: kept) <= tolerance * (1 + 1e-9))
    }

    /// A random walk (seeded): the budget is never reached, and the result is the textbook one.
    @Test(arguments: [1_000, 50_000])
    func ordinaryLinesAreSimplifiedAsTheTextbookDoes(n: Int) {
        var state: UInt64 = 2026
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53) - 0.5
        }
        var (x, y) = (0.0, 0.0)
        let points = (0..<n).map { _ in
            x += next()
            y += next()
            return (x, y)
        }
        for tolerance in [0.05, 0.5, 5] {
            let ours = DouglasPeucker.keep(count: n, tolerance: tolerance) { points[$0] }
            #expect(ours == Self.reference(points, tolerance: tolerance), "tolerance \(tolerance)")
        }
    }
}

/// A level of detail draws a way out and back once: a ring of teeth finer than a dot (each longer than a
/// dot, so Douglas–Peucker keeps every one) is a few of its points at a coarse level, its box the same
/// to a quarter of a dot (a ring of ten million such teeth drew ten million lines a frame, 1.8 s).
@Suite("Levels of detail")
struct UserLayerDetailTests {
    @Test func teethFinerThanADotAreDrawnOnce() throws {
        let n = 200_000
        let ring = DouglasPeuckerTests.jagged(n).map { (24.9 + $0.0, 60 + $0.1) }
        let coordinates = ring.map { "[\($0.0),\($0.1)]" }.joined(separator: ",")
        let text =
            #"{"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[["#
            + coordinates + "," + "[\(ring[0].0),\(ring[0].1)]" + "]]}}"
        let layer = try GeoJSONReader.read(Array(text.utf8), file: "teeth.geojson")
        let dotSize = 1.0 / 4096
        let level = UserLayerDetail(layer, dotSize: dotSize)
        #expect(level.data.count == 1)
        // Douglas–Peucker alone keeps all but a few hundred of them.
        #expect(level.data.x.count < n / 20, "\(level.data.x.count) points kept of \(n)")
        // What is kept reaches as far as the ring, to a quarter of a dot, every way.
        let (minX, minY, maxX, maxY) = layer.box(0)
        let (xs, ys) = (Array(level.data.x), Array(level.data.y))
        let near = { (a: Double?, b: Double) in a.map { abs($0 - b) <= dotSize / 4 } == true }
        #expect(near(xs.min(), minX) && near(xs.max(), maxX) && near(ys.min(), minY) && near(ys.max(), maxY))
    }
}
