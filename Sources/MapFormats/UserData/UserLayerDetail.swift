/// A user's layer at a level of detail: what a view `dotSize` wide a dot (in unit-square units) can
/// show of it. Lines and rings simplified with Douglas–Peucker to half a dot, rings smaller than a dot
/// dropped (an outside smaller than a dot becomes its first point), and of points one a cell (2 × 4
/// dots: a cell shows one marker); a line or area that fits in a dot is that dot (`dust`), one a dot.
/// A frame at zoom 0 of millions of vertices draws thousands.
public struct UserLayerDetail: Sendable {
    /// The simplified features.
    public let data: UserLayerData
    /// For each of them, the feature of the whole layer it stands for.
    public let feature: [Int]
    /// The lines and areas that fit in a dot, as that dot.
    public let dust: UserLayerDots
    /// The features of one point, one a cell (drawn as markers, without the index's per-feature calls).
    public let points: UserLayerDots

    /// `layer` at `dotSize`.
    public init(_ layer: UserLayerData, dotSize: Double) {
        var builder = LevelBuilder(layer: layer, dotSize: dotSize)
        layer.x.withValues { xs in
            layer.y.withValues { ys in
                for f in 0..<layer.count { builder.add(feature: f, xs, ys) }
            }
        }
        builder.out.west = layer.west
        builder.out.east = layer.east
        builder.out.south = layer.south
        builder.out.north = layer.north
        data = builder.out
        feature = builder.feature
        dust = UserLayerDots(builder.dust)
        points = UserLayerDots(builder.points)
    }
}

/// Makes a level of detail, a feature at a time.
private struct LevelBuilder {
    typealias Coordinates = CoordinateColumn.Values
    let layer: UserLayerData
    let dotSize: Double
    // Labels are stored (a level keeps no properties).
    var out = UserLayerData(labelKey: nil)
    var feature: [Int] = []
    var dots = Set<Int64>()
    var dustDots = Set<Int64>()
    var dust: [(Double, Double, Int32)] = []
    var points: [(Double, Double, Int32)] = []
    let tolerance: Double
    let (perCol, perRow): (Double, Double)
    /// The square of a quarter of a dot a point falls in (a view up to twice the level's zoom draws the
    /// level: its dots are smaller, and a way back within a quarter of a level's dot stays within
    /// Douglas–Peucker's half dot).
    let quarter: Double

    init(layer: UserLayerData, dotSize: Double) {
        self.layer = layer
        self.dotSize = dotSize
        tolerance = dotSize / 2
        (perCol, perRow) = (1 / (2 * dotSize), 1 / (4 * dotSize))
        quarter = dotSize / 4
    }

    func dot(_ x: Double, _ y: Double) -> Int64 {
        Int64((x / quarter).rounded(.down)) &* 1_000_003 &+ Int64((y / quarter).rounded(.down))
    }

    /// The cell of a point (one marker a cell).
    func cell(_ x: Double, _ y: Double) -> Int64 { Int64(x * perCol) &* 1_000_003 &+ Int64(y * perRow) }

    /// Feature `f`: a point (one a cell), a dot of dust (one a dot), or its pieces simplified.
    mutating func add(feature f: Int, _ xs: Coordinates, _ ys: Coordinates) {
        let piecesBefore = out.pieceTypes.count
        let box = layer.box(f)
        let (x0, y0, x1, y1) = box
        if layer.points(of: f).count == 1 {
            if dots.insert(cell(x0, y0)).inserted { points.append((x0, y0, Int32(f))) }
            return
        }
        if x1 - x0 < dotSize && y1 - y0 < dotSize, layer.pieceTypes[layer.featurePieces[f]] != .point {
            // A dot: one of the dots it touches stands for it, once a dot.
            let key = Int64(x0 / dotSize) &* 1_000_003 &+ Int64(y0 / dotSize)
            if dustDots.insert(key).inserted { dust.append(((x0 + x1) / 2, (y0 + y1) / 2, Int32(f))) }
            return
        }
        for p in layer.featurePieces[f]..<layer.featurePieces[f + 1] { add(piece: p, xs, ys) }
        guard out.pieceTypes.count > piecesBefore else { return }
        out.closeFeature(
            box: box, degreeBox: layer.degreeBox(f), stroke: layer.strokeColors[f], fill: layer.fillColors[f],
            name: layer.name(of: f), values: [])
        feature.append(f)
    }

    /// Piece `p`'s rings, each kept, simplified or dropped; the piece goes when no ring is kept.
    mutating func add(piece p: Int, _ xs: Coordinates, _ ys: Coordinates) {
        let ringRange = layer.pieceRings[p]..<layer.pieceRings[p + 1]
        var type = layer.pieceTypes[p]
        var ringsKept = 0
        for r in ringRange {
            let (start, end) = (layer.ringStarts[r], layer.ringStarts[r + 1])
            if type == .point {
                if dots.insert(cell(xs[start], ys[start])).inserted {
                    keepPoint(start, xs, ys)
                    endRing(&ringsKept)
                }
                continue
            }
            if type == .polygon, Self.isSmallerThan(dotSize, start..<end, xs, ys) {
                // Smaller than a dot: a hole goes, an outside is its first point.
                guard r == ringRange.lowerBound else { continue }
                type = .point
                if dots.insert(cell(xs[start], ys[start])).inserted {
                    keepPoint(start, xs, ys)
                    endRing(&ringsKept)
                }
                break
            }
            simplify(start..<end, closes: type == .polygon, xs, ys)
            endRing(&ringsKept)
        }
        guard ringsKept > 0 else { return }
        out.pieceTypes.append(type)
        out.pieceRings.append(out.ringStarts.count - 1)
    }

    /// Points go straight into the level (no list of kept indices: a ring whose every point is kept
    /// would cost eight bytes a point more).
    mutating func keepPoint(_ i: Int, _ xs: Coordinates, _ ys: Coordinates) {
        out.x.append(xs[i])
        out.y.append(ys[i])
    }

    mutating func endRing(_ ringsKept: inout Int) {
        out.ringStarts.append(out.x.count)
        ringsKept += 1
    }

    /// True when the ring's box is smaller than a dot both ways.
    static func isSmallerThan(_ dotSize: Double, _ ring: Range<Int>, _ xs: Coordinates, _ ys: Coordinates) -> Bool {
        var minX = Double.infinity
        var maxX = -Double.infinity
        var minY = Double.infinity
        var maxY = -Double.infinity
        for i in ring {
            minX = min(minX, xs[i])
            maxX = max(maxX, xs[i])
            minY = min(minY, ys[i])
            maxY = max(maxY, ys[i])
        }
        return maxX - minX < dotSize && maxY - minY < dotSize
    }

    /// A line or ring simplified with Douglas–Peucker to half a dot; a ring keeps four points (a triangle
    /// closed).
    mutating func simplify(_ ring: Range<Int>, closes: Bool, _ xs: Coordinates, _ ys: Coordinates) {
        let (start, end) = (ring.lowerBound, ring.upperBound)
        let mask = DouglasPeucker.keepMask(count: end - start, tolerance: tolerance) {
            (xs[start + $0], ys[start + $0])
        }
        let kept = mask.reduce(0) { $0 + ($1 ? 1 : 0) }
        if closes && kept < 4 {
            for i in start..<min(end, start + 4) { keepPoint(i, xs, ys) }
            return
        }
        let ringBegin = out.x.count
        for k in 0..<(end - start) where mask[k] {
            let inRing = out.x.count - ringBegin
            if inRing >= 3 && k < end - start - 1
                && dot(xs[start + k], ys[start + k]) == dot(out.x[out.x.count - 2], out.y[out.y.count - 2])
                && dot(out.x[out.x.count - 1], out.y[out.y.count - 1])
                    == dot(out.x[out.x.count - 3], out.y[out.y.count - 3])
            {
                // A, B, A and now B again (dot for dot): the way back and out again draws what A–B drew
                // and encloses nothing, so it goes. A ring of ten million teeth finer than a dot (each
                // kept by Douglas–Peucker: every tooth is longer than a dot) drew 10 M lines a frame,
                // 1.8 s; it draws a few thousand.
                out.x.truncate(to: out.x.count - 1)
                out.y.truncate(to: out.y.count - 1)
                continue
            }
            keepPoint(start + k, xs, ys)
        }
    }
}

/// A layer's features that are one dot at a level of detail (lines and areas that fit in a dot, or
/// points): where they lie (by the squares of a grid of 64 × 64 over the unit square) and which feature
/// of the layer each is.
public struct UserLayerDots: Sendable {
    /// The dots in the unit square, square by square.
    public let x: [Double]
    public let y: [Double]
    /// The feature of the whole layer each stands for.
    public let feature: [Int32]
    /// Per square of the grid, its first dot (one more entry than squares).
    private let squareStarts: [Int32]

    /// The grid's squares a side.
    public static let side = 64

    /// No dust.
    public init() { self.init([]) }

    /// Dust of dots (x, y, feature).
    public init(_ dots: [(Double, Double, Int32)]) {
        let n = Self.side
        let squares = dots.map { Self.square($0.1) * n + Self.square($0.0) }
        var starts = [Int32](repeating: 0, count: n * n + 1)
        for s in squares { starts[s + 1] += 1 }
        for i in 0..<(n * n) { starts[i + 1] += starts[i] }
        var next = starts
        var (x, y, feature) = (
            [Double](repeating: 0, count: dots.count), [Double](repeating: 0, count: dots.count),
            [Int32](repeating: 0, count: dots.count)
        )
        for (d, s) in zip(dots, squares) {
            let i = Int(next[s])
            next[s] += 1
            (x[i], y[i], feature[i]) = d
        }
        (self.x, self.y, self.feature, squareStarts) = (x, y, feature, starts)
    }

    /// The number of dots.
    public var count: Int { x.count }

    /// The range of dots in the squares of row `row` from column `from` through `to`.
    public func dots(row: Int, from: Int, to: Int) -> Range<Int> {
        let n = Self.side
        return Int(squareStarts[row * n + from])..<Int(squareStarts[row * n + to + 1])
    }

    /// The square of the grid a coordinate falls in (0 ..< side).
    static func square(_ v: Double) -> Int { max(0, min(side - 1, Int((v * Double(side)).rounded(.down)))) }

    /// The rows and columns of squares that [minX, maxX] × [minY, maxY] meets, nil for none.
    public static func squares(minX: Double, minY: Double, maxX: Double, maxY: Double) -> (
        rows: ClosedRange<Int>, columns: ClosedRange<Int>
    )? {
        let (x0, y0) = (Self.square(minX), Self.square(minY))
        let (x1, y1) = (Self.square(maxX), Self.square(maxY))
        guard x0 <= x1, y0 <= y1, maxX >= 0, minX <= 1, maxY >= 0, minY <= 1 else { return nil }
        return (y0...y1, x0...x1)
    }
}

/// Which features of a layer lie where: the grid over boxes the map's chunks have (`BoxIndex`), over the
/// features' boxes in the layer's fixed-point units, so that a view far in looks at the features near
/// it, not at a million.
extension BoxIndex {
    /// The index of `layer`'s features (a grid of at most a cell a feature, and at least 4,096: a
    /// cell costs four bytes).
    public init(features layer: UserLayerData) {
        self.init(0..<layer.count, maxCells: max(4096, Int64(layer.count))) { f in
            let (x0, y0, x1, y1) = layer.box(f)
            return Self.units(x0, y0, x1, y1)
        }
    }

    /// A box of the unit square in the layer's units (widened to whole units).
    static func units(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Box {
        let u = CoordinateColumn.unitsPerWorld
        return Box(
            minX: Int64((x0 * u).rounded(.down)), minY: Int64((y0 * u).rounded(.down)),
            maxX: Int64((x1 * u).rounded(.up)), maxY: Int64((y1 * u).rounded(.up)))
    }

    /// Calls `body` once for each feature whose box may meet [minX, maxX] × [minY, maxY] (the unit
    /// square of one world copy), in the layer's order (a later feature is drawn over an earlier one).
    public func features(minX: Double, minY: Double, maxX: Double, maxY: Double, _ body: (Int) -> Void) {
        for f in candidates([Self.units(minX, minY, maxX, maxY)]) { body(f) }
    }
}
