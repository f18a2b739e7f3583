import Testing

@testable import MapBuilders
@testable import MapData

/// Background areas cut along the level grid: each square's share fills what the whole area filled.
@Suite("Areas cut along the grid")
struct GridClipTests {
    /// Even–odd inside test of a point against rings (a ring's last point repeats its first).
    func inside(_ x: Double, _ y: Double, _ rings: [GridClip.Ring]) -> Bool {
        var odd = false
        for r in rings {
            for i in 0..<(r.xs.count - 1) {
                let (x0, y0, x1, y1) = (Double(r.xs[i]), Double(r.ys[i]), Double(r.xs[i + 1]), Double(r.ys[i + 1]))
                if (y0 > y) != (y1 > y), x < x0 + (y - y0) / (y1 - y0) * (x1 - x0) { odd.toggle() }
            }
        }
        return odd
    }

    /// A concave ring with a hole, cut into squares of 10: at 2,500 sample points the squares' pieces
    /// fill exactly where the whole area does, each point in the square its coordinates say.
    @Test func piecesFillWhatTheWholeFilled() {
        // A C shape (concave: it leaves the squares it crosses and comes back) around a square hole.
        let outer: GridClip.Ring = ([-23, 31, 31, -5, -5, 31, 31, -23, -23], [-17, -17, -9, -9, 14, 14, 27, 27, -17])
        let hole: GridClip.Ring = ([-18, -10, -10, -18, -18], [-4, -4, 6, 6, -4])
        let rings = [outer, hole]
        let squares = GridClip.split(rings, cellUnits: 10, originX: 100, originY: 100)
        #expect(squares.count > 12)
        var checked = 0
        for i in 0..<50 {
            for j in 0..<50 {
                let x = -25.5 + Double(i) * 1.17
                let y = -19.5 + Double(j) * 0.97
                let col = Int(((x + 100) / 10).rounded(.down))
                let row = Int(((y + 100) / 10).rounded(.down))
                let piece = squares.first { $0.0 == col && $0.1 == row }?.2 ?? []
                #expect(inside(x, y, piece) == inside(x, y, rings), "at \(x), \(y)")
                checked += 1
            }
        }
        #expect(checked == 2500)
    }

    /// A square wholly inside a ring that never enters it comes out as the square itself.
    @Test func anInnerSquareIsWhole() {
        let big: GridClip.Ring = ([0, 100, 100, 0, 0], [0, 0, 100, 100, 0])
        let squares = GridClip.split([big], cellUnits: 25, originX: 0, originY: 0)
        #expect(squares.count == 16)
        let middle = squares.first { $0.0 == 1 && $0.1 == 2 }?.2 ?? []
        #expect(middle.count == 1)
        #expect(abs(GridClip.area2(middle[0])) == 2 * 25 * 25)
    }
}
