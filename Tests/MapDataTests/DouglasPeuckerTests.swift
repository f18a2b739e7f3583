import Foundation
import Testing

@testable import MapData

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
        #expect(calls <= DouglasPeucker.budget(points.count) + 4 * points.count, "\(calls) reads of \(points.count) points")
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
