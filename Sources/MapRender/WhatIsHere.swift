import GeoCore
import Glibc
import MapData
import MapFormats
import Support

/// One answer to "what is here": a feature at a cell, in words, with what its data says of it.
public struct FeatureDetails: Equatable, Sendable {
    /// Its class in words (`primary road`, `building`; `file NAME` for a user's file).
    public var className: String
    /// Its name, when it has one.
    public var name: String?
    /// How its data names it and its properties (an import's OSM object and tags, a tile feature's id
    /// and properties, a user's feature's number and every property); nil when the data says nothing.
    public var identity: FeatureIdentity?
    /// Which feature it is.
    public var reference: FeatureReference

    /// An answer.
    public init(className: String, name: String? = nil, identity: FeatureIdentity? = nil, reference: FeatureReference) {
        self.className = className
        self.name = name
        self.identity = identity
        self.reference = reference
    }
}

extension Pick {
    /// What is at map cell (`col`, `row`): the topmost feature there first (`feature(col:row:)`), then
    /// every other feature the render's data has within the cell: the user's files, then the map's
    /// points, lines and areas as they are stacked (a road over the park it crosses, over the land). A
    /// line or a point is within the cell when some of it lies in the cell's square, an area when its
    /// edge crosses the square or the square's centre is inside it (even–odd, as it is filled). The
    /// chunks asked are the ones the view drew, each where its source drew it: a tile's inside its own
    /// square, a coarse source's not where a finer one draws the class. At most `limit` answers.
    public func features(atCol col: Int, row: Int, limit: Int = 40) -> [FeatureDetails] {
        guard col >= 0, row >= 0, col < cols, row < rows else { return [] }
        // The cell's square, a millionth of a dot wider each way: a line through its corner (the view's
        // centre, on an even-sized map) meets it whatever the projection's last bit says.
        let e = 1e-6
        let cell = (
            x0: Double(col * ViewSize.dotsPerCellX) - e, y0: Double(row * ViewSize.dotsPerCellY) - e,
            x1: Double((col + 1) * ViewSize.dotsPerCellX) + e, y1: Double((row + 1) * ViewSize.dotsPerCellY) + e
        )
        var out: [FeatureDetails] = []
        var seen = Set<FeatureReference>()
        var seenObjects = Set<String>()
        if let top = feature(col: col, row: row) {
            let d = details(top, cell: cell)
            out.append(d)
            seen.insert(top.reference)
            if let id = d.identity?.id, d.identity?.layer == nil, let s = top.reference.source {
                seenObjects.insert("\(s) \(id)")
            }
        }
        var found: [(stack: Int, details: FeatureDetails)] = []
        var filesAsked: [ObjectIdentifier] = []
        let all = sources?.features.all ?? []
        for set in buffer.sets {
            switch set {
            case .file(let file, _, _):
                // A file is asked whole (not the level drawn), once however many of its sets were drawn.
                guard !filesAsked.contains(ObjectIdentifier(file)) else { continue }
                filesAsked.append(ObjectIdentifier(file))
                for f in Self.fileFeatures(file, near: cell, transform) {
                    let reference = FeatureReference(source: nil, feature: .own(f))
                    guard seen.insert(reference).inserted else { continue }
                    found.append((Int.max, ownDetails(file, f)))
                }
            case .chunk(let hit, let s, let excluded):
                let featureClass = hit.chunk.info.featureClass
                // Each cell's land or sea tint is the first answer's business; a land square says nothing.
                // A chunk of names only (OpenMapTiles' `transportation_name`) names the lines drawn from
                // another: its names go to them (`nameAlong`), not answers of their own.
                guard featureClass != .land, !hit.namesOnly, all.indices.contains(s) else { continue }
                let place = ChunkPlacement(hit, transform)
                let middle = (x: (cell.x0 + cell.x1) / 2, y: (cell.y0 + cell.y1) / 2)
                if let r = place.clip, !(middle.x >= r.x0 && middle.x < r.x1 && middle.y >= r.y0 && middle.y < r.y1) {
                    continue
                }
                if excluded.contains(where: {
                    middle.x >= $0.x0 && middle.x < $0.x1 && middle.y >= $0.y0 && middle.y < $0.y1
                }) {
                    continue
                }
                let source = all[s]
                let stack = Int(StyleTable.ink(.feature(featureClass)))
                let candidates = 0..<hit.chunk.featureCount
                for f in Self.features(hit.chunk, candidates, near: cell, place.placement) {
                    let reference = FeatureReference(source: s, feature: chunkID(hit, f))
                    guard seen.insert(reference).inserted else { continue }
                    let n = hit.chunk.nameIndex[f]
                    let identity = source.identity(of: hit, feature: f)
                    // A way cut where chunks meet is one answer, not one a piece.
                    if let id = identity?.id, identity?.layer == nil, !seenObjects.insert("\(s) \(id)").inserted {
                        continue
                    }
                    found.append(
                        (
                            stack,
                            FeatureDetails(
                                className: StyleTable.className(featureClass),
                                name: n >= 0 ? source.featureName(n) : nameAlong(hit, source: s, cell: cell),
                                identity: identity, reference: reference)
                        ))
                }
            }
        }
        // Stable: within a class, the data's order.
        let stacked = found.enumerated().sorted { a, b in
            a.element.stack != b.element.stack ? a.element.stack > b.element.stack : a.offset < b.offset
        }
        out += stacked.map(\.element.details) + imageryAnswer(col: col, row: row, seen: seen, cell: cell)
        return Array(out.prefix(limit))
    }

    /// How far from a cell a tile's name line may run and still name the line drawn there: 12 m (half a
    /// wide street, where a dual carriageway's name line runs along one of its two ways), or a cell.
    static let nameReachMeters = 12.0

    /// The name of a tile's line that has none of its own, from the chunk of names only of its class in
    /// the same tile (OpenMapTiles keeps a street's name in `transportation_name`, whose lines are merged
    /// and simplified otherwise than `transportation`'s): the first named line of that class within
    /// `nameReachMeters` (at least a cell) of `cell`. Nil for map data files, which name their own lines.
    func nameAlong(_ hit: ChunkHit, source s: Int, cell: CellSquare) -> String? {
        guard let square = hit.tile, let all = sources?.features.all, all.indices.contains(s) else { return nil }
        let featureClass = hit.chunk.info.featureClass
        let middle = transform.coordinate(at: DotPoint(x: (cell.x0 + cell.x1) / 2, y: (cell.y0 + cell.y1) / 2))
        let metersPerDot = WebMercator.metersPerDot(latitude: middle.latitude, worldSize: transform.worldSize)
        let reach = max(Double(ViewSize.dotsPerCellY), Self.nameReachMeters / metersPerDot)
        let around = (x0: cell.x0 - reach, y0: cell.y0 - reach, x1: cell.x1 + reach, y1: cell.y1 + reach)
        for case .chunk(let names, let s2, _) in buffer.sets
        where s2 == s && names.namesOnly && names.chunk.info.featureClass == featureClass
            && names.tile.map({ $0 == square }) == true
        {
            let place = ChunkPlacement(names, transform)
            for f in Self.features(names.chunk, 0..<names.chunk.featureCount, near: around, place.placement) {
                let n = names.chunk.nameIndex[f]
                if n >= 0 { return all[s].featureName(n) }
            }
        }
        return nil
    }

    /// A picked feature with what its data says of it (a tile's unnamed line its name along it at `cell`).
    func details(_ picked: PickedFeature, cell: CellSquare? = nil) -> FeatureDetails {
        var d = FeatureDetails(className: picked.className, name: picked.name, reference: picked.reference)
        if picked.reference.feature == .imagery {
            d.identity = imageryIdentity(cell)
            return d
        }
        for set in buffer.sets {
            switch (set, picked.reference.feature) {
            case (.file(let file, _, _), .own(let f)) where file.className == picked.className:
                return f < file.data.count ? ownDetails(file, f) : d
            case (.chunk(let hit, let s, _), .chunk(_, let f)), (.chunk(let hit, let s, _), .tile(_, _, let f)):
                guard s == picked.reference.source, chunkMatches(hit, picked.reference.feature),
                    let all = sources?.features.all, all.indices.contains(s)
                else { continue }
                d.identity = all[s].identity(of: hit, feature: f)
                if d.name == nil, let cell { d.name = nameAlong(hit, source: s, cell: cell) }
                return d
            default: continue
            }
        }
        return d
    }

    /// The imagery under everything, where the cell shows it (unless it is the first answer already).
    func imageryAnswer(col: Int, row: Int, seen: Set<FeatureReference>, cell: CellSquare) -> [FeatureDetails] {
        guard let imagery = imageryFeature(col: col, row: row), !seen.contains(imagery.reference) else { return [] }
        return [details(imagery, cell: cell)]
    }

    /// The imagery at a cell's centre: its tile, the pixel there and its colour.
    func imageryIdentity(_ cell: CellSquare?) -> FeatureIdentity? {
        guard let cell, let source = sources?.imagery else { return nil }
        let middle = DotPoint(x: (cell.x0 + cell.x1) / 2, y: (cell.y0 + cell.y1) / 2)
        let zoom = log2(transform.worldSize / 256)
        guard let found = source.pixel(at: transform.mercator(at: middle), zoom: zoom) else { return nil }
        let (r, g, b, a) = found.rgba
        func hex(_ v: UInt8) -> String {
            String(v, radix: 16).count == 1 ? "0" + String(v, radix: 16) : String(v, radix: 16)
        }
        return FeatureIdentity(
            id: "tile \(found.tile)",
            properties: [
                FeatureProperty("pixel", "\(found.x), \(found.y)"),
                FeatureProperty("colour", "#" + hex(r) + hex(g) + hex(b) + (a == 255 ? "" : " (alpha \(a))")),
            ])
    }

    /// Feature `f` of a user's file: its number in the file (from 1) and every property.
    func ownDetails(_ file: UserFile, _ f: Int) -> FeatureDetails {
        FeatureDetails(
            className: file.className, name: file.data.name(of: f),
            identity: FeatureIdentity(
                id: String(f + 1), properties: file.data.properties(of: f).map { FeatureProperty($0.0, $0.1) }),
            reference: FeatureReference(source: nil, feature: .own(f)))
    }

    /// How the pick names feature `f` of a chunk.
    func chunkID(_ hit: ChunkHit, _ f: Int) -> FeatureID {
        if let square = hit.tile, let tile = TileID(unitSquare: square) {
            return .tile(tile, chunk: Int(hit.chunk.info.featureClass.rawValue), index: f)
        }
        return .chunk(hit.chunk.info.offset, index: f)
    }

    /// True when `id` names a feature of `hit`.
    func chunkMatches(_ hit: ChunkHit, _ id: FeatureID) -> Bool {
        switch id {
        case .chunk(let offset, _): return hit.tile == nil && hit.chunk.info.offset == offset
        case .tile(let tile, let c, _):
            return hit.tile.flatMap { TileID(unitSquare: $0) } == tile && Int(hit.chunk.info.featureClass.rawValue) == c
        default: return false
        }
    }

    typealias CellSquare = (x0: Double, y0: Double, x1: Double, y1: Double)

    /// The features among `candidates` of `data` placed at `place` that meet a cell's square (in dots):
    /// some piece of them does.
    static func features(
        _ data: some FeatureColumns, _ candidates: some Sequence<Int>, near cell: CellSquare, _ place: WorldPlacement
    ) -> [Int] {
        let (ws, ox, oy) = (place.ws, place.offsetX, place.offsetY)
        var out: [Int] = []
        for f in candidates {
            let (minX, minY, maxX, maxY) = data.box(f)
            guard maxX * ws + ox >= cell.x0, minX * ws + ox <= cell.x1, maxY * ws + oy >= cell.y0,
                minY * ws + oy <= cell.y1
            else { continue }
            let point = { (i: Int) in
                let p = data.point(i)
                return (p.x * ws + ox, p.y * ws + oy)
            }
            for piece in data.pieces(of: f) {
                let rings = data.rings(of: piece).map { data.points(ofRing: $0) }
                if meets(rings, point, cell, area: data.pieceType(piece) == .polygon) {
                    out.append(f)
                    break
                }
            }
        }
        return out
    }

    /// The features of a user's file within a cell's square, on any world copy in view: those its
    /// index has near the cell, asked one by one.
    static func fileFeatures(_ file: UserFile, near cell: CellSquare, _ t: ViewTransform) -> [Int] {
        file.prepare(UserFile.finestLevel)
        guard let whole = file.readyLevel(UserFile.finestLevel) else { return [] }
        var out: [Int] = []
        for place in WorldPlacement.copies(t) {
            // The cell's square in the unit square of this copy.
            let (x0, x1) = ((cell.x0 - place.offsetX) / place.ws, (cell.x1 - place.offsetX) / place.ws)
            let (y0, y1) = ((cell.y0 - place.offsetY) / place.ws, (cell.y1 - place.offsetY) / place.ws)
            var candidates: [Int] = []
            whole.index.features(minX: x0, minY: y0, maxX: x1, maxY: y1) { candidates.append($0) }
            out += features(file.data, candidates, near: cell, place)
        }
        return out
    }

    /// True when the parts (point ranges; `point` gives a point in dots) meet a cell's square: a point
    /// in it, a segment through it, or for an area the square's centre inside (even–odd).
    static func meets(_ parts: [Range<Int>], _ point: (Int) -> (Double, Double), _ cell: CellSquare, area: Bool) -> Bool
    {
        let middle = ((cell.x0 + cell.x1) / 2, (cell.y0 + cell.y1) / 2)
        var inside = false
        for part in parts where !part.isEmpty {
            var (px, py) = point(part.lowerBound)
            if px >= cell.x0, px <= cell.x1, py >= cell.y0, py <= cell.y1 { return true }
            for i in part.dropFirst() {
                let (qx, qy) = point(i)
                if LineClipper.clip(px, py, qx, qy, minX: cell.x0, minY: cell.y0, maxX: cell.x1, maxY: cell.y1) != nil {
                    return true
                }
                // The crossing rule of a ray from the middle to the right (Shimrat 1962, as the fills count).
                if area, (py > middle.1) != (qy > middle.1), middle.0 < px + (middle.1 - py) * (qx - px) / (qy - py) {
                    inside.toggle()
                }
                (px, py) = (qx, qy)
            }
        }
        return area && inside
    }
}
