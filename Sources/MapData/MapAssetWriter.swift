/// Encodes lines and places into the map data format: quantized to 1e-5°, simplified per level of
/// detail, split into pieces, grouped by grid cell into chunks with bounding boxes, delta + zigzag
/// varint coded, with CRC-32 checksums. The same input always gives the same bytes.
public enum MapAssetWriter {
    /// Douglas–Peucker tolerances in degrees, coarse to fine; 0 keeps every quantized point.
    public static let defaultLevels: [Double] = [0.5, 0.15, 0.05, 0.015, 0.004, 0]

    struct Piece {
        var layer: MapLayer
        var xs: [Int32]
        var ys: [Int32]
        var cellX: Int
        var cellY: Int
        var order: Int
    }

    struct Chunk {
        var layer: MapLayer
        var level: Int
        var minX: Int32, minY: Int32, maxX: Int32, maxY: Int32
        var polylineCount: Int
        var payload: [UInt8]
    }

    /// The file's bytes for `polylines` (any resolution) and `cities` (stored largest first).
    public static func encode(polylines: [SourcePolyline], cities: [City], levels: [Double] = defaultLevels) -> [UInt8]
    {
        let lines = quantize(polylines)
        var chunks: [Chunk] = []
        var levelRanges: [(tolerance: Double, first: Int, count: Int)] = []
        for (levelIndex, tolerance) in levels.enumerated() {
            let first = chunks.count
            let pieces = simplify(lines, tolerance: tolerance)
            chunks += pack(pieces, level: levelIndex)
            levelRanges.append((tolerance, first, chunks.count - first))
        }
        return assemble(levelRanges: levelRanges, chunks: chunks, cities: cities)
    }

    // MARK: Steps

    static func quantize(_ polylines: [SourcePolyline]) -> [(MapLayer, [Int32], [Int32])] {
        var out: [(MapLayer, [Int32], [Int32])] = []
        for line in polylines {
            for piece in ArtificialEdges.split(line.points) {
                var xs: [Int32] = []
                var ys: [Int32] = []
                for p in piece where p.latitude.isFinite && p.longitude.isFinite {
                    let x = Int32((min(max(p.longitude, -540), 540) * MapAssetFormat.unitsPerDegree).rounded())
                    let y = Int32((min(max(p.latitude, -90), 90) * MapAssetFormat.unitsPerDegree).rounded())
                    if xs.last == x && ys.last == y { continue }
                    xs.append(x)
                    ys.append(y)
                }
                if xs.count >= 2 { out.append((line.layer, xs, ys)) }
            }
        }
        return out
    }

    static func simplify(_ lines: [(MapLayer, [Int32], [Int32])], tolerance: Double) -> [Piece] {
        let units = tolerance * MapAssetFormat.unitsPerDegree
        // Grid cells: big at coarse levels, 1° at the finest, so that a view touches few chunks.
        let cellUnits = Int(min(max(tolerance * 200, 1), 90) * MapAssetFormat.unitsPerDegree)
        var pieces: [Piece] = []
        for (order, (layer, xs, ys)) in lines.enumerated() {
            if units > 0 {
                // Lines smaller than the tolerance vanish at this level (tiny islands and lakes).
                let w = Double((xs.max() ?? 0) - (xs.min() ?? 0))
                let h = Double((ys.max() ?? 0) - (ys.min() ?? 0))
                if max(w, h) < 2 * units { continue }
            }
            let kept = DouglasPeucker.keep(xs, ys, tolerance: units)
            let kx = kept.map { xs[$0] }
            let ky = kept.map { ys[$0] }
            var start = 0
            while start < kx.count - 1 {
                let end = min(start + MapAssetFormat.maxPiecePoints, kx.count)
                let px = Array(kx[start..<end])
                let py = Array(ky[start..<end])
                pieces.append(
                    Piece(
                        layer: layer, xs: px, ys: py,
                        cellX: floorDiv(Int(px[0]) + 18_000_000, cellUnits),
                        cellY: floorDiv(Int(py[0]) + 9_000_000, cellUnits), order: order))
                start = end - 1  // pieces share their end points
            }
        }
        return pieces
    }

    static func pack(_ pieces: [Piece], level: Int) -> [Chunk] {
        let sorted = pieces.sorted {
            ($0.layer.rawValue, $0.cellY, $0.cellX, $0.order) < ($1.layer.rawValue, $1.cellY, $1.cellX, $1.order)
        }
        var chunks: [Chunk] = []
        var group: [Piece] = []
        var groupPoints = 0
        func flush() {
            guard let first = group.first else { return }
            var minX = Int32.max
            var minY = Int32.max
            var maxX = Int32.min
            var maxY = Int32.min
            for p in group {
                minX = min(minX, p.xs.min() ?? minX)
                maxX = max(maxX, p.xs.max() ?? maxX)
                minY = min(minY, p.ys.min() ?? minY)
                maxY = max(maxY, p.ys.max() ?? maxY)
            }
            var w = ByteWriter()
            for p in group {
                w.varint(UInt64(p.xs.count))
                var px = minX
                var py = minY
                for i in p.xs.indices {
                    w.signedVarint(Int64(p.xs[i]) - Int64(px))
                    w.signedVarint(Int64(p.ys[i]) - Int64(py))
                    px = p.xs[i]
                    py = p.ys[i]
                }
            }
            chunks.append(
                Chunk(
                    layer: first.layer, level: level, minX: minX, minY: minY, maxX: maxX, maxY: maxY,
                    polylineCount: group.count, payload: w.bytes))
            group = []
            groupPoints = 0
        }
        for piece in sorted {
            if let g = group.first,
                g.layer != piece.layer || g.cellX != piece.cellX || g.cellY != piece.cellY
                    || groupPoints + piece.xs.count > MapAssetFormat.maxChunkPoints
            {
                flush()
            }
            group.append(piece)
            groupPoints += piece.xs.count
        }
        flush()
        return chunks
    }

    static func assemble(levelRanges: [(tolerance: Double, first: Int, count: Int)], chunks: [Chunk], cities: [City])
        -> [UInt8]
    {
        let f = MapAssetFormat.self
        let indexStart = f.headerSize + levelRanges.count * f.levelEntrySize
        let dataOffset = indexStart + chunks.count * f.chunkEntrySize
        var data = ByteWriter()
        var index = ByteWriter()
        for c in chunks {
            index.u8(c.layer.rawValue)
            index.u8(UInt8(c.level))
            index.u16(0)
            index.i32(c.minX)
            index.i32(c.minY)
            index.i32(c.maxX)
            index.i32(c.maxY)
            index.u32(UInt32(data.bytes.count))
            index.u32(UInt32(c.payload.count))
            index.u32(UInt32(c.polylineCount))
            index.u32(CRC32.checksum(c.payload))
            data.append(c.payload)
        }
        var citySection = ByteWriter()
        let ordered = cities.enumerated().sorted {
            ($0.element.population, $1.offset) > ($1.element.population, $0.offset)
        }.map(\.element)
        for city in ordered {
            let name = Array(city.name.utf8.prefix(255))
            citySection.varint(UInt64(name.count))
            citySection.append(name)
            citySection.signedVarint(Int64((city.coordinate.latitude * f.unitsPerDegree).rounded()))
            citySection.signedVarint(Int64((city.coordinate.longitude * f.unitsPerDegree).rounded()))
            citySection.varint(UInt64(max(0, city.population)))
            let cc = Array(city.countryCode.utf8.prefix(2))
            citySection.u8(cc.count > 0 ? cc[0] : 32)
            citySection.u8(cc.count > 1 ? cc[1] : 32)
        }
        let cityOffset = dataOffset + data.bytes.count

        var out = ByteWriter()
        out.append(f.magic)
        out.u16(f.version)
        out.u16(UInt16(f.headerSize))
        out.u32(0)  // flags
        out.u32(UInt32(levelRanges.count))
        out.u32(UInt32(chunks.count))
        out.u32(UInt32(ordered.count))
        out.u32(UInt32(dataOffset))
        out.u32(UInt32(data.bytes.count))
        out.u32(UInt32(cityOffset))
        out.u32(UInt32(citySection.bytes.count))
        out.u32(0)  // metadata checksum, patched below
        for level in levelRanges {
            out.f64(level.tolerance)
            out.u32(UInt32(level.first))
            out.u32(UInt32(level.count))
        }
        out.append(index.bytes)
        out.append(data.bytes)
        out.append(citySection.bytes)
        out.patchU32(
            MapAsset.metadataChecksum(out.bytes, dataOffset: dataOffset, cityOffset: cityOffset),
            at: f.HeaderField.checksum)
        return out.bytes
    }

    static func floorDiv(_ a: Int, _ b: Int) -> Int {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }
}
