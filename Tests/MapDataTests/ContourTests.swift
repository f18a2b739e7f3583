import GeoCore
import MapFormats
import TestSupport
import Testing

@testable import MapData

/// Contour lines (issue 48): marching squares on grids of known heights, and lines through tile edges.
struct ContourTests {
    /// A grid of `w` × `h` samples of `f(i, j)`.
    static func grid(_ w: Int, _ h: Int, _ f: (Double, Double) -> Double) -> [Float] {
        (0..<h).flatMap { j in (0..<w).map { i in Float(f(Double(i), Double(j))) } }
    }

    /// A plane rising 3 m a sample eastwards: each level is one straight line down the grid at x =
    /// level / 3, from the top row to the bottom one.
    @Test func aPlaneGivesStraightLinesWhereItsHeightIsTheLevel() throws {
        let lines = ContourTracer.lines(
            heights: Self.grid(20, 12) { i, _ in 3 * i }, width: 20, height: 12, interval: 10)
        #expect(lines.map(\.level) == [10, 20, 30, 40, 50])
        for line in lines {
            #expect(!line.closed)
            let xs = stride(from: 0, to: line.points.count, by: 2).map { Double(line.points[$0]) }
            let ys = stride(from: 1, to: line.points.count, by: 2).map { Double(line.points[$0]) }
            #expect(xs.allSatisfy { abs($0 - line.level / 3) < 1e-5 }, "\(line.level): \(xs)")
            #expect(Set(ys.map { Int($0) }) == Set(0..<12) && ys.count == 12)
        }
    }

    /// A cone 100 m high falling 1 m a sample: each level inside the grid a closed ring at its radius
    /// (within the chords' sag), one line a level.
    @Test func aConeGivesClosedRingsAtTheirRadius() throws {
        let heights = Self.grid(61, 61) { i, j in 100 - ((i - 30) * (i - 30) + (j - 30) * (j - 30)).squareRoot() }
        let lines = ContourTracer.lines(heights: heights, width: 61, height: 61, interval: 10)
        let rings = lines.filter { $0.level > 70 && $0.level < 100 }
        #expect(rings.map(\.level) == [80, 90])
        for line in rings {
            #expect(line.closed)
            #expect(line.points.prefix(2) == line.points.suffix(2))
            let radius = 100 - line.level
            for k in stride(from: 0, to: line.points.count, by: 2) {
                let r =
                    ((Double(line.points[k]) - 30) * (Double(line.points[k]) - 30)
                    + (Double(line.points[k + 1]) - 30) * (Double(line.points[k + 1]) - 30)).squareRoot()
                #expect(abs(r - radius) < 0.05, "level \(line.level) point at \(r)")
            }
            // About 2πr of points: one a cell edge crossed.
            #expect(Double(line.points.count / 2) > 4 * radius)
        }
    }

    /// No height (NaN) leaves its cells out: a line stops at the hole and goes on past it.
    @Test func cellsWithoutHeightsAreSkipped() {
        var heights = Self.grid(10, 10) { i, _ in i }
        heights[5 * 10 + 4] = .nan
        let lines = ContourTracer.lines(heights: heights, width: 10, height: 10, interval: 4.5)
        #expect(lines.filter { $0.level == 4.5 }.count == 2)
    }

    /// A saddle cell (two high corners on one diagonal, two low on the other) is joined by its mean,
    /// as GDAL's contour generator does: a mean at or above the level joins the high corners (the lines
    /// cut off the low ones), a mean below joins the low.
    @Test func aSaddleIsResolvedByTheCellsMean() {
        /// The corner each line cuts off: the one nearest its midpoint.
        func cut(_ heights: [Float]) -> Set<String> {
            let lines = ContourTracer.lines(heights: heights, width: 2, height: 2, interval: 6)
            return Set(
                lines.map { l in
                    let (x, y) = ((l.points[0] + l.points[2]) / 2, (l.points[1] + l.points[3]) / 2)
                    return (y < 0.5 ? "top " : "bottom ") + (x < 0.5 ? "left" : "right")
                })
        }
        // Top left and bottom right high; level 6.
        #expect(cut([10, 2, 2, 10]) == ["top right", "bottom left"])  // mean 6
        #expect(cut([10, 0, 0, 10]) == ["top left", "bottom right"])  // mean 5
        #expect(cut([2, 10, 10, 2]) == ["top left", "bottom right"])
        #expect(cut([0, 10, 10, 0]) == ["top right", "bottom left"])
    }

    /// A ridge running across the edge of two zoom-1 tiles: every line that reaches the edge of the
    /// first at its last pixel centre's next goes on in the second from the same point (no seam).
    @Test func linesGoOnThroughTileEdges() throws {
        // Heights by world pixel: a ridge along the diagonal, crossing x = 256 (the edge of tiles 0 and 1).
        func pixels(_ tx: Int) -> [UInt8] {
            var rgba: [UInt8] = []
            for y in 0..<256 {
                for x in 0..<256 {
                    let wx = Double(tx * 256 + x)
                    let h = 500 - abs(wx - Double(y) - 100) * 3.3
                    let v = Int(((h + 32768) * 256).rounded())
                    rgba += [UInt8(v >> 16), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF), 255]
                }
            }
            return rgba
        }
        let (left, right) = (TileID(z: 1, x: 0, y: 0), TileID(z: 1, x: 1, y: 0))
        let bytes = PMTilesWriter.archive(
            tiles: [left, right].map { ($0.pmtilesID, PNGWriter.png(width: 256, height: 256, rgba: pixels($0.x))) }
                .sorted { $0.0 < $1.0 },
            maxZoom: 1, tileType: 2)
        let source = TerrainSource(
            archive: try PMTilesArchive(source: LocalFileSource(bytes: bytes)), label: "ridge", encoding: .terrarium)
        source.load([left, right]) { _ in true }
        let a = try #require(source.contours(of: left, interval: 50))
        let b = try #require(source.contours(of: right, interval: 50))
        // Ends of `a`'s lines on its right edge (x = 256.5 in its pixels) and starts of `b`'s on its left
        // (x = 0.5): the same heights at the same y.
        func ends(_ lines: [ContourLine], x: Float) -> [String] {
            lines.flatMap { l -> [String] in
                [(l.points[0], l.points[1]), (l.points[l.points.count - 2], l.points[l.points.count - 1])]
                    .filter { abs($0.0 - x) < 1e-4 }.map { "\(l.level)@\($0.1)" }
            }.sorted()
        }
        let atEdge = ends(a, x: 256.5)
        #expect(atEdge.count >= 10)
        #expect(atEdge == ends(b, x: 0.5))
    }
}

/// Hillshade (issue 48): Horn's slope and aspect under the standard sun (315°, 45°) on planes whose
/// shade is known in closed form: flat cos 45°; facing the sun at a 45° slope fully lit; facing away at
/// 45° unlit; a slope side-on to the sun cos 45° · cos(slope).
struct HillshadeTests {
    /// The shade of the middle of a plane rising `dx` metres a sample eastwards and `dy` southwards.
    static func shade(_ dx: Double, _ dy: Double, azimuth: Double = Hillshade.azimuth) -> Double {
        let heights = ContourTests.grid(3, 3) { i, j in dx * i + dy * j }
        return Double(Hillshade.shades(heights: heights, side: 3, metersApart: { _ in 1 }, azimuth: azimuth)[0])
    }

    @Test func planesAreShadedAsTheSunSeesThem() {
        let s = 1 / 2.0.squareRoot()  // a 45° slope along a diagonal: rise 1 a metre, √½ a metre each way
        #expect(abs(Self.shade(0, 0) - s) < 1e-6)
        #expect(abs(Self.shade(s, s) - 1) < 1e-6)  // rising to the south-east: it faces the north-west sun
        #expect(abs(Self.shade(-s, -s) - 0) < 1e-6)  // faces the south-east, away
        #expect(abs(Self.shade(s, -s) - s * s) < 1e-6)  // faces the south-west: side-on
        #expect(abs(Self.shade(-s, s) - s * s) < 1e-6)  // faces the north-east: side-on
        // The sun in the south-east instead: the two facings swap.
        #expect(abs(Self.shade(-s, -s, azimuth: 135) - 1) < 1e-6)
    }
}
