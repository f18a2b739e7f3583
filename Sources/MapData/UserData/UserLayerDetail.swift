/// A user's layer at a level of detail: what a view `dotSize` wide a dot (in unit-square units) can
/// show of it. Lines and rings simplified with Douglas–Peucker to half a dot, rings smaller than a dot
/// dropped (an outside smaller than a dot becomes its first point), and of points one a cell (2 × 4
/// dots: a cell shows one marker). A frame at
/// zoom 0 of millions of vertices draws thousands.
public struct UserLayerDetail: Sendable {
    /// The simplified features.
    public let data: UserLayerData
    /// For each of them, the feature of the whole layer it stands for.
    public let feature: [Int]

    /// `layer` at `dotSize`.
    public init(_ layer: UserLayerData, dotSize: Double) {
        var out = UserLayerData()
        var feature: [Int] = []
        var dots = Set<Int64>()
        let tolerance = dotSize / 2
        let (perCol, perRow) = (1 / (2 * dotSize), 1 / (4 * dotSize))
        out.columns = []
        out.values = []
        layer.x.withUnsafeBufferPointer { xs in
            layer.y.withUnsafeBufferPointer { ys in
                for f in 0..<layer.count {
                    let piecesBefore = out.pieceTypes.count
                    for p in layer.featurePieces[f]..<layer.featurePieces[f + 1] {
                        let rings = layer.pieceRings[p]..<layer.pieceRings[p + 1]
                        var type = layer.pieceTypes[p]
                        var kept: [[Int]] = []
                        for r in rings {
                            let (start, end) = (layer.ringStarts[r], layer.ringStarts[r + 1])
                            if type == .point {
                                let key = Int64(xs[start] * perCol) &* 1_000_003 &+ Int64(ys[start] * perRow)
                                if dots.insert(key).inserted { kept.append([start]) }
                                continue
                            }
                            if type == .polygon {
                                var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
                                for i in start..<end {
                                    minX = min(minX, xs[i])
                                    maxX = max(maxX, xs[i])
                                    minY = min(minY, ys[i])
                                    maxY = max(maxY, ys[i])
                                }
                                if maxX - minX < dotSize && maxY - minY < dotSize {
                                    // Smaller than a dot: a hole goes, an outside is its first point.
                                    if r == rings.lowerBound {
                                        type = .point
                                        let key = Int64(xs[start] * perCol) &* 1_000_003 &+ Int64(ys[start] * perRow)
                                        if dots.insert(key).inserted { kept.append([start]) }
                                        break
                                    }
                                    continue
                                }
                            }
                            let keep = DouglasPeucker.keep(count: end - start, tolerance: tolerance) { (xs[start + $0], ys[start + $0]) }
                            var ring = keep.map { start + $0 }
                            // A ring keeps four points (a triangle closed); a line two.
                            if type == .polygon && ring.count < 4 {
                                ring = Array(start..<min(end, start + 4))
                            }
                            kept.append(ring)
                        }
                        guard !kept.isEmpty else { continue }
                        out.pieceTypes.append(type)
                        for ring in kept {
                            for i in ring {
                                out.x.append(xs[i])
                                out.y.append(ys[i])
                            }
                            out.ringStarts.append(out.x.count)
                        }
                        out.pieceRings.append(out.ringStarts.count - 1)
                    }
                    guard out.pieceTypes.count > piecesBefore else { continue }
                    out.featurePieces.append(out.pieceTypes.count)
                    out.boxes += layer.boxes[(4 * f)..<(4 * f + 4)]
                    out.degreeBoxes += layer.degreeBoxes[(4 * f)..<(4 * f + 4)]
                    out.names.append(layer.names[f])
                    out.strokeColors.append(layer.strokeColors[f])
                    out.fillColors.append(layer.fillColors[f])
                    feature.append(f)
                }
            }
        }
        out.west = layer.west
        out.east = layer.east
        out.south = layer.south
        out.north = layer.north
        data = out
        self.feature = feature
    }
}

/// Which features of a layer lie where: a grid of 64 × 64 squares of the unit square, each listing the
/// features whose box meets it (a feature over more than 4 squares a side is listed once, among the
/// large ones), so that a view far in looks at the features near it, not at a million.
public struct UserLayerIndex: Sendable {
    public static let side = 64
    private var squares: [[Int32]]
    private var large: [Int32] = []
    /// Per feature, the square of its box's top left corner (x, y).
    private var corner: [(Int16, Int16)] = []

    /// The index of `layer`.
    public init(_ layer: UserLayerData) {
        let n = Self.side
        squares = [[Int32]](repeating: [], count: n * n)
        corner.reserveCapacity(layer.count)
        for f in 0..<layer.count {
            let (x0, y0) = (Self.square(layer.boxes[4 * f]), Self.square(layer.boxes[4 * f + 1]))
            let (x1, y1) = (Self.square(layer.boxes[4 * f + 2]), Self.square(layer.boxes[4 * f + 3]))
            corner.append((Int16(x0), Int16(y0)))
            if x1 - x0 >= 4 || y1 - y0 >= 4 {
                large.append(Int32(f))
                continue
            }
            for y in y0...y1 { for x in x0...x1 { squares[y * n + x].append(Int32(f)) } }
        }
    }

    static func square(_ v: Double) -> Int { max(0, min(side - 1, Int((v * Double(side)).rounded(.down)))) }

    /// Calls `body` once for each feature whose box may meet [minX, maxX] × [minY, maxY] (the unit
    /// square of one world copy), the large ones first.
    public func features(minX: Double, minY: Double, maxX: Double, maxY: Double, _ body: (Int) -> Void) {
        for f in large { body(Int(f)) }
        let n = Self.side
        let (x0, y0, x1, y1) = (Self.square(minX), Self.square(minY), Self.square(maxX), Self.square(maxY))
        guard x0 <= x1, y0 <= y1 else { return }
        for y in y0...y1 {
            for x in x0...x1 {
                for f in squares[y * n + x] {
                    // Listed in several squares: called from the first of them in the range.
                    let c = corner[Int(f)]
                    if max(Int(c.0), x0) == x && max(Int(c.1), y0) == y { body(Int(f)) }
                }
            }
        }
    }
}
