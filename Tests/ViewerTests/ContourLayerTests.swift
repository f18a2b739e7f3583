import Testing

@testable import MapRender

/// The contour layer's rules (issue 48): the interval by zoom, and which lines are index contours.
struct ContourLayerTests {
    /// The steps: 500 m at zoom 8, 100 m at 11, 20 m at 14, 10 m at 16; finer as the zoom grows.
    @Test func intervalsNarrowAsTheZoomGrows() {
        #expect(ContourLayer.interval(zoom: 8) == 500)
        #expect(ContourLayer.interval(zoom: 11) == 100)
        #expect(ContourLayer.interval(zoom: 14) == 20)
        #expect(ContourLayer.interval(zoom: 16) == 10)
        let steps = stride(from: 0.0, through: 22, by: 0.25).map { ContourLayer.interval(zoom: $0) }
        #expect(zip(steps, steps.dropFirst()).allSatisfy { $0 >= $1 })
    }

    /// Every fifth line from sea level is an index contour: 0, 500, 1000 m at 100 m; 0, 100 m at 20 m.
    @Test func everyFifthLineFromZeroIsAnIndexContour() {
        let at100 = stride(from: -500.0, through: 1500, by: 100).filter { ContourLayer.isIndex($0, interval: 100) }
        #expect(at100 == [-500, 0, 500, 1000, 1500])
        let at20 = stride(from: 0.0, through: 200, by: 20).filter { ContourLayer.isIndex($0, interval: 20) }
        #expect(at20 == [0, 100, 200])
    }
}
