import GeoCore
import MapData
import MapFormats
import Raster

/// Contour lines from the run's elevation tiles (issue 48): every `interval(zoom:)` metres, each
/// fifth an index contour drawn solid and labelled with its height where it runs level across the
/// screen, the others dotted; over the land's tints and under every line and name of the map (their
/// inks are below all the data's). Each tile's lines are traced once (`TerrainSource.contours`), from
/// its pixel centres to its neighbours' first, so that a line crossing a tile's edge goes on through it.
public struct ContourLayer: MapLayer, Equatable {
    /// The layer.
    public init() {}

    /// The height between two contour lines at view zoom `zoom`, in metres: about one line every few
    /// cells on the slopes of hills (the steps of topographic maps: 500 m at zoom 8, 100 m at 11, 20 m
    /// at 14, 10 m at 16).
    public static func interval(zoom: Double) -> Double {
        switch zoom {
        case ..<8: 1000
        case ..<10: 500
        case ..<11: 200
        case ..<13: 100
        case ..<14: 50
        case ..<16: 20
        default: 10
        }
    }

    /// Every how many lines one is an index contour.
    public static let indexEvery = 5

    /// True when the line at `level` is an index contour (its height a multiple of five intervals).
    public static func isIndex(_ level: Double, interval: Double) -> Bool {
        let steps = (level / interval).rounded()
        return Int(steps) % indexEvery == 0
    }

    public func draw(into context: inout LayerContext) {
        guard let sources = context.sources, let source = sources.terrain else { return }
        let view = context.view
        let t = context.transform
        let interval = Self.interval(zoom: view.zoom)
        let z = source.tileZoom(view.zoom)
        let n = 1 << z
        // The tiles under the view, counted past the antimeridian (a copy of the world to either side).
        let (minX, maxX) = (t.center.x - t.halfWidth / t.worldSize, t.center.x + t.halfWidth / t.worldSize)
        let (minY, maxY) = (t.center.y - t.halfHeight / t.worldSize, t.center.y + t.halfHeight / t.worldSize)
        let xs = Int((minX * Double(n)).rounded(.down))...Int((maxX * Double(n)).rounded(.down))
        let ys = max(0, Int((minY * Double(n)).rounded(.down)))...min(n - 1, Int((maxY * Double(n)).rounded(.down)))
        guard xs.count < 64, ys.count < 64, !ys.isEmpty else { return }
        let contour = StyleTable.row(.contour)
        let (ink, indexInk) = (StyleTable.ink(.contour), StyleTable.ink(.indexContour))
        // Dotted lines keep their dots on the map as it pans.
        let (phaseX, phaseY) = (Int((-t.originX(copy: 0)).rounded()), Int((-t.originY).rounded()))
        var missing: [TileID] = []
        var index: [(level: Double, dots: [Double])] = []
        var tags: [Double: UInt32] = [:]
        for ty in ys {
            for tx in xs {
                let tile = TileID(z: z, x: (tx % n + n) % n, y: ty)
                guard let lines = source.contours(of: tile, interval: interval) else { continue }
                let size = Double(source.tiles.image(tile)?.width ?? 256)
                let scale = t.worldSize / (Double(n) * size)
                let (ox, oy) = (t.originX(copy: 0) + Double(tx) * size * scale, t.originY + Double(ty) * size * scale)
                for line in lines {
                    let isIndex = Self.isIndex(line.level, interval: interval)
                    let tag = tags[line.level] ?? context.pick.register(Self.feature(line.level, sources: sources))
                    tags[line.level] = tag
                    var dots = [Double]()
                    dots.reserveCapacity(line.points.count)
                    for k in stride(from: 0, to: line.points.count - 1, by: 2) {
                        dots.append(ox + Double(line.points[k]) * scale)
                        dots.append(oy + Double(line.points[k + 1]) * scale)
                    }
                    context.canvas.tag = tag
                    for k in stride(from: 0, to: dots.count - 3, by: 2) {
                        context.canvas.line(
                            dots[k], dots[k + 1], dots[k + 2], dots[k + 3], ink: isIndex ? indexInk : ink,
                            every: isIndex ? 1 : contour?.dotEvery ?? 1, phase: phaseX, phaseY: phaseY)
                    }
                    context.canvas.tag = 0
                    if isIndex { index.append((line.level, dots)) }
                }
            }
        }
        for ty in (ys.lowerBound - 1)...(ys.upperBound + 1) where ty >= 0 && ty < n {
            for tx in (xs.lowerBound - 1)...(xs.upperBound + 1) {
                let tile = TileID(z: z, x: (tx % n + n) % n, y: ty)
                if source.tiles.image(tile) == nil, source.tiles.covers(tile), !source.hasTried(tile),
                    !missing.contains(tile)
                {
                    missing.append(tile)
                }
            }
        }
        if !missing.isEmpty {
            context.report.missing.append(TileBatch(source: sources.terrainIndex, tiles: missing))
        }
        for line in index { Self.label(line.dots, level: line.level, into: &context.labels) }
    }

    /// What a contour cell answers to `i` and `--pick`: a contour, and its height.
    static func feature(_ level: Double, sources: MapSources) -> PickedFeature {
        PickedFeature(
            className: "contour", name: "\(Int(level.rounded())) m",
            reference: FeatureReference(source: sources.terrainIndex, feature: .contour(meters: level)))
    }

    /// The cells a label needs beside its text (a gap each side, so that it reads apart from the line).
    static let labelMargin = 1

    /// Labels an index contour (points in dots, x, y pairs) with its height where it runs level: along a
    /// stretch that stays in one row of cells for the text's width and a margin each side. One label
    /// every 40 cells of the line at most.
    static func label(_ dots: [Double], level: Double, into labels: inout LabelEngine) {
        let text = "\(Int(level.rounded())) m"
        let width = text.count + 2 * labelMargin
        let rows = labels.rows
        let cols = labels.cols
        var k = 0
        var sinceLast = Double.infinity
        while k + 3 < dots.count {
            // A stretch from point k: how far it goes across while staying in the row of its start.
            let row = Int((dots[k + 1] / Double(ViewSize.dotsPerCellY)).rounded(.down))
            var j = k
            var (lo, hi) = (dots[k], dots[k])
            while j + 3 < dots.count,
                Int((dots[j + 3] / Double(ViewSize.dotsPerCellY)).rounded(.down)) == row
            {
                j += 2
                (lo, hi) = (min(lo, dots[j]), max(hi, dots[j]))
            }
            let across = (hi - lo) / Double(ViewSize.dotsPerCellX)
            if across >= Double(width), sinceLast > 40, row >= 0, row < rows {
                // Centred on the stretch.
                let col =
                    Int((lo / Double(ViewSize.dotsPerCellX)).rounded(.down)) + Int((across - Double(text.count)) / 2)
                if col >= 0, col + text.count <= cols,
                    labels.place(MapLabel(text: text, col: col, row: row, role: .contourLabel))
                {
                    sinceLast = 0
                }
            }
            sinceLast += max(1, (hi - lo) / Double(ViewSize.dotsPerCellX))
            k = max(j, k + 2)
        }
    }
}
