import FoundationEssentials
import GeoCore
import Glibc
import MapData
import MapFormats

/// A level of detail to write: the zoom it is drawn from and its Douglas–Peucker tolerance.
public struct LevelSpec: Equatable, Sendable {
    /// The lowest zoom the level serves.
    public var minZoom: Double
    /// Tolerance in degrees (0 keeps every stored point).
    public var toleranceDegrees: Double

    /// A level.
    public init(minZoom: Double, toleranceDegrees: Double) {
        self.minZoom = minZoom
        self.toleranceDegrees = toleranceDegrees
    }

    /// Levels from tolerances, coarse to fine, each drawn from the zoom at which the coarser level's
    /// tolerance grows past one dot (360 / (256·2^z) degrees).
    public static func fromTolerances(_ tolerances: [Double]) -> [LevelSpec] {
        tolerances.enumerated().map { i, tol in
            LevelSpec(
                minZoom: i == 0 ? 0 : log2(360 / (WebMercator.tileSize * tolerances[i - 1])), toleranceDegrees: tol)
        }
    }

    /// Levels from zooms, coarse to fine: each simplified to half a dot at the zoom where the next one
    /// takes over; the last keeps every point.
    public static func fromZooms(_ zooms: [Double]) -> [LevelSpec] {
        zooms.enumerated().map { i, z in
            let tol = i + 1 < zooms.count ? 360 / (WebMercator.tileSize * exp2(zooms[i + 1])) / 2 : 0
            return LevelSpec(minZoom: z, toleranceDegrees: tol)
        }
    }
}

/// What goes into a map data file.
public struct MapContents: Sendable {
    /// Lines and areas.
    public var features: [SourceFeature]
    /// The gazetteer (stored largest first).
    public var places: [City]
    /// Levels of detail, coarse to fine. A class is in a level when the level serves a zoom at which the
    /// class is shown (`classMinZoom`).
    public var levels: [LevelSpec]
    /// Stored units per degree.
    public var unitsPerDegree: Int
    /// The area the data covers; nil: the box of the data.
    public var coverage: CoordinateBounds?
    /// `key=value` facts: source, attribution.
    public var metadata: [(String, String)]
    /// The zoom from which each class is shown (nil: from the first level).
    public var classMinZoom: (@Sendable (FeatureClass) -> Double)?
    /// Cut lines where a source closes rings artificially (±180°, the south pole): for world-wide data.
    public var cutsArtificialEdges: Bool
    /// The least Douglas–Peucker tolerance of a class in degrees at any level (nil: none), for classes
    /// that need less than every point even where the others keep them all.
    public var classMinTolerance: (@Sendable (FeatureClass) -> Double)?
    /// A class's tolerance as a multiple of the level's (nil: 1).
    public var classToleranceScale: (@Sendable (FeatureClass) -> Double)?
    /// Names for search that no feature drawn carries (a square), after the features' own.
    public var extraNames: [NamedPlace] = []
    /// The finest level keeps each feature's OpenStreetMap object, detail and tags (format version 5).
    public var keepsExtras = false
    /// The routable streets (version 6's network section), if any.
    public var network: RoadNetwork?

    /// Contents.
    public init(
        features: [SourceFeature], places: [City] = [], levels: [LevelSpec],
        unitsPerDegree: Int = MapAssetFormat.unitsPerDegreeV1, coverage: CoordinateBounds? = nil,
        metadata: [(String, String)] = [], classMinZoom: (@Sendable (FeatureClass) -> Double)? = nil,
        cutsArtificialEdges: Bool = false, classMinTolerance: (@Sendable (FeatureClass) -> Double)? = nil,
        classToleranceScale: (@Sendable (FeatureClass) -> Double)? = nil
    ) {
        self.features = features
        self.places = places
        self.levels = levels
        self.unitsPerDegree = unitsPerDegree
        self.coverage = coverage
        self.metadata = metadata
        self.classMinZoom = classMinZoom
        self.cutsArtificialEdges = cutsArtificialEdges
        self.classMinTolerance = classMinTolerance
        self.classToleranceScale = classToleranceScale
    }
}

/// Encodes map contents into the map data format, version 2: quantized, simplified per level of detail,
/// long lines split into pieces, grouped by class and grid cell into chunks with bounding boxes, delta +
/// zigzag varint coded, with CRC-32 checksums. The same input always gives the same bytes.
public enum MapAssetWriter {
    /// Douglas–Peucker tolerances in degrees of the world data, coarse to fine; 0 keeps every point.
    public static let defaultTolerances: [Double] = [0.5, 0.15, 0.05, 0.015, 0.004, 0]

    /// A quantized feature: its parts as stored x (lon) and y (lat).
    /// What version 5 keeps of a feature besides its geometry and name.
    struct Extras {
        var osm: UInt64 = 0
        var detail: UInt32 = 0
        var tags: [UInt8] = []
    }

    struct Quantized {
        var featureClass: FeatureClass
        var parts: [(xs: [Int32], ys: [Int32])]
        var name: Int32
        var extras = Extras()
    }

    struct Piece {
        var featureClass: FeatureClass
        var parts: [(xs: [Int32], ys: [Int32])]
        var name: Int32
        var extras = Extras()
        var cellX: Int
        var cellY: Int
        var order: Int
        var points: Int { parts.reduce(0) { $0 + $1.xs.count } }
    }

    struct Chunk {
        var featureClass: FeatureClass
        var level: Int
        var minX: Int32, minY: Int32, maxX: Int32, maxY: Int32
        var featureCount: Int
        var pointCount: Int
        var payload: [UInt8]
        var hasExtras = false
        /// Version 5: the payload is its raw size (varint) and a zlib stream of it.
        var deflated = false
    }

    /// The least tolerance of the world's classes (degrees): its land and lake water are backgrounds
    /// filled by terminal cell and drawn below zoom 13, where a cell is at least 0.00034° wide; state
    /// lines need no more than a dot at zoom 11 (0.00069°). Every point of them would take the bundle
    /// past 16 MB.
    public static func worldMinTolerance(_ c: FeatureClass) -> Double {
        switch c {
        case .land, .lakeWater: return 0.002
        case .stateBorder: return 0.002
        default: return 0
        }
    }

    /// How much coarser than the level a class is simplified in the world file: state lines, dashed
    /// and dense (a country's départements at zoom 4), three times (at most 1.7 dots off at the level's
    /// first zoom), which halves what a small-scale frame draws of them.
    public static func worldToleranceScale(_ c: FeatureClass) -> Double { c == .stateBorder ? 3 : 1 }

    /// The file's bytes for Natural Earth–style lines (world-wide, 1e-5°, the default levels).
    public static func encode(
        lines: [SourceFeature], cities: [City], tolerances: [Double] = defaultTolerances,
        metadata: [(String, String)] = []
    ) -> [UInt8] {
        encode(
            MapContents(
                features: lines, places: cities, levels: LevelSpec.fromTolerances(tolerances),
                coverage: CoordinateBounds(north: 90, south: -90, west: -180, east: 180), metadata: metadata,
                cutsArtificialEdges: true, classMinTolerance: worldMinTolerance,
                classToleranceScale: worldToleranceScale))
    }

    /// The file's bytes for `contents`.
    public static func encode(_ contents: MapContents) -> [UInt8] {
        let units = Double(contents.unitsPerDegree)
        let (names, nameIndex) = nameTable(contents.features, extra: contents.extraNames)
        let features = quantize(contents, nameIndex: nameIndex)
        var chunks: [Chunk] = []
        var levelRanges: [(spec: LevelSpec, first: Int, count: Int)] = []
        for (levelIndex, spec) in contents.levels.enumerated() {
            let first = chunks.count
            let nextZoom = levelIndex + 1 < contents.levels.count ? contents.levels[levelIndex + 1].minZoom : .infinity
            let shown = features.filter { (contents.classMinZoom?($0.featureClass) ?? 0) < nextZoom }
            let pieces = simplify(
                shown, spec: spec, units: units, minTolerance: contents.classMinTolerance,
                scale: contents.classToleranceScale)
            // Only the finest level keeps each feature's object, detail and tags: what-is-here answers and
            // road widths are asked of it (a third of the size otherwise, for three copies).
            chunks += pack(
                pieces, level: levelIndex, extras: levelIndex == contents.levels.count - 1 && contents.keepsExtras)
            levelRanges.append((spec, first, chunks.count - first))
        }
        let coverage = contents.coverage ?? dataBox(features, units: units)
        return assemble(
            levelRanges: levelRanges, chunks: chunks, contents: contents, names: names, coverage: coverage)
    }

    // MARK: Steps

    /// Each distinct name once, in first-use order, with a point on its first feature (its middle point)
    /// and that feature's kind; then the `extra` names no feature has.
    static func nameTable(_ features: [SourceFeature], extra: [NamedPlace] = []) -> ([NamedPlace], [String: Int32]) {
        var names: [NamedPlace] = []
        var index: [String: Int32] = [:]
        for f in features {
            guard let name = f.name, !name.isEmpty, index[name] == nil,
                let part = f.parts.max(by: { $0.count < $1.count }),
                !part.isEmpty
            else { continue }
            index[name] = Int32(names.count)
            names.append(
                NamedPlace(
                    name: String(name.utf8.prefix(1024)) ?? name, coordinate: part[part.count / 2],
                    kind: NameKind(f.featureClass, detail: f.detail)))
        }
        for e in extra where !e.name.isEmpty && index[e.name] == nil {
            index[e.name] = Int32(names.count)
            names.append(
                NamedPlace(name: String(e.name.utf8.prefix(1024)) ?? e.name, coordinate: e.coordinate, kind: e.kind))
        }
        return (names, index)
    }

    static func quantize(_ contents: MapContents, nameIndex: [String: Int32]) -> [Quantized] {
        let units = Double(contents.unitsPerDegree)
        let lonLimit = min(540, Double(Int32.max) / units)
        var out: [Quantized] = []
        for feature in contents.features {
            var parts: [(xs: [Int32], ys: [Int32])] = []
            for part in feature.parts {
                // An area's edge along ±180° or the pole is filled, not drawn: areas stay closed rings.
                let cut = contents.cutsArtificialEdges && !feature.featureClass.isArea
                let pieces = cut ? ArtificialEdges.split(part) : [part]
                for piece in pieces {
                    var xs: [Int32] = []
                    var ys: [Int32] = []
                    for p in piece where p.latitude.isFinite && p.longitude.isFinite {
                        let x = Int32((min(max(p.longitude, -lonLimit), lonLimit) * units).rounded())
                        let y = Int32((min(max(p.latitude, -90), 90) * units).rounded())
                        if xs.last == x && ys.last == y { continue }
                        xs.append(x)
                        ys.append(y)
                    }
                    if feature.featureClass.isArea, xs.count >= 3, xs.first != xs.last || ys.first != ys.last {
                        xs.append(xs[0])  // areas are closed rings
                        ys.append(ys[0])
                    }
                    if xs.count >= (feature.featureClass.isArea ? 4 : feature.featureClass.isPoint ? 1 : 2) {
                        parts.append((xs, ys))
                    }
                }
            }
            guard !parts.isEmpty else { continue }
            let extras = Extras(
                osm: feature.osm?.packed ?? 0, detail: feature.detail,
                tags: Array(feature.tags.utf8.prefix(MapAssetFormat.maxTagBytes)))
            out.append(
                Quantized(
                    featureClass: feature.featureClass, parts: parts,
                    name: feature.name.flatMap { nameIndex[$0] } ?? -1,
                    extras: extras))
        }
        return out
    }

    static func simplify(
        _ features: [Quantized], spec: LevelSpec, units: Double,
        minTolerance: (@Sendable (FeatureClass) -> Double)? = nil, scale: (@Sendable (FeatureClass) -> Double)? = nil
    ) -> [Piece] {
        // Grid cells about two views wide at the level's first zoom, so that a view touches few chunks.
        let cellDegrees = min(max(720 / exp2(spec.minZoom), 0.005), 90)
        let cellUnits = max(1, Int(cellDegrees * units))
        var pieces: [Piece] = []
        for (order, feature) in features.enumerated() {
            let c = feature.featureClass
            let tolerance = max(spec.toleranceDegrees * (scale?(c) ?? 1), minTolerance?(c) ?? 0) * units
            var kept: [(xs: [Int32], ys: [Int32])] = []
            if c.isPoint {
                // A point is kept as it is, in the cell it lies in.
                for part in feature.parts {
                    pieces.append(
                        Piece(
                            featureClass: c, parts: [part], name: feature.name, extras: feature.extras,
                            cellX: floorDiv(Int(part.xs[0]) + 540 * Int(units), cellUnits),
                            cellY: floorDiv(Int(part.ys[0]) + 90 * Int(units), cellUnits), order: order))
                }
                continue
            }
            for part in feature.parts {
                if tolerance > 0 {
                    // Parts smaller than the tolerance vanish at this level (tiny islands, lakes, houses).
                    let w = Double((part.xs.max() ?? 0) - (part.xs.min() ?? 0))
                    let h = Double((part.ys.max() ?? 0) - (part.ys.min() ?? 0))
                    if max(w, h) < 2 * tolerance { continue }
                }
                let keep = DouglasPeucker.keep(part.xs, part.ys, tolerance: tolerance)
                let xs = keep.map { part.xs[$0] }
                let ys = keep.map { part.ys[$0] }
                if feature.featureClass.isArea && xs.count < 4 { continue }
                kept.append((xs, ys))
            }
            guard let first = kept.first else { continue }
            func cell(_ x: Int32, _ y: Int32) -> (Int, Int) {
                (floorDiv(Int(x) + 540 * Int(units), cellUnits), floorDiv(Int(y) + 90 * Int(units), cellUnits))
            }
            if feature.featureClass.isFillOnly {
                // A continent's ring would make every view in it decode and scan the whole ring: a
                // background area is cut along the level's grid, each square's share an area of its own.
                for (cx, cy, rings) in GridClip.split(
                    kept, cellUnits: cellUnits, originX: 540 * Int(units), originY: 90 * Int(units))
                {
                    pieces.append(
                        Piece(
                            featureClass: feature.featureClass, parts: rings, name: feature.name,
                            extras: feature.extras, cellX: cx, cellY: cy, order: order))
                }
                continue
            }
            if feature.featureClass.isArea {
                // An area stays whole: its rings are filled together.
                let (cx, cy) = cell(first.xs[0], first.ys[0])
                pieces.append(
                    Piece(
                        featureClass: feature.featureClass, parts: kept, name: feature.name, extras: feature.extras,
                        cellX: cx,
                        cellY: cy, order: order))
                continue
            }
            pieces += lineParts(kept, of: feature, order: order, cell: cell)
        }
        return pieces
    }

    /// A line cut into pieces of at most maxPiecePoints that share their end points; each piece is a
    /// feature of its own (with the line's name), so that chunks stay small and local.
    static func lineParts(
        _ kept: [(xs: [Int32], ys: [Int32])], of feature: Quantized, order: Int, cell: (Int32, Int32) -> (Int, Int)
    ) -> [Piece] {
        var pieces: [Piece] = []
        for part in kept {
            var start = 0
            while start < part.xs.count - 1 {
                let end = min(start + MapAssetFormat.maxPiecePoints, part.xs.count)
                let px = Array(part.xs[start..<end])
                let py = Array(part.ys[start..<end])
                let (cx, cy) = cell(px[0], py[0])
                pieces.append(
                    Piece(
                        featureClass: feature.featureClass, parts: [(px, py)], name: feature.name,
                        extras: feature.extras, cellX: cx, cellY: cy, order: order))
                start = end - 1
            }
        }
        return pieces
    }

    /// A chunk's payload deflated where that saves a tenth or more (a city's chunks: about half), behind
    /// its inflated length; true when it was.
    static func deflatedWhereSmaller(_ bytes: [UInt8]) -> ([UInt8], Bool) {
        guard bytes.count >= 64, let z = Zlib.deflate(bytes) else { return (bytes, false) }
        var packed = ByteWriter()
        packed.varint(UInt64(bytes.count))
        packed.bytes += z
        return packed.bytes.count * 10 <= bytes.count * 9 ? (packed.bytes, true) : (bytes, false)
    }

    static func pack(_ pieces: [Piece], level: Int, extras: Bool = false) -> [Chunk] {
        let sorted = pieces.sorted {
            ($0.featureClass.rawValue, $0.cellY, $0.cellX, $0.order)
                < ($1.featureClass.rawValue, $1.cellY, $1.cellX, $1.order)
        }
        var chunks: [Chunk] = []
        var group: [Piece] = []
        var groupPoints = 0
        func flush() {
            guard let first = group.first else { return }
            // Peaks keep their detail (their height) at every level: they are drawn from zoom 11, and few.
            let extras = extras || first.featureClass == .peak
            let (minX, minY, maxX, maxY) = box(group.lazy.flatMap(\.parts))
            var w = ByteWriter()
            // Version 5's extras: the chunk's distinct tag texts first (features name them by index), and
            // each feature's object as the difference from the one before (neighbours' ids are close).
            var tagIndex: [[UInt8]: Int] = [:]
            var previousObject: UInt64 = 0
            if extras {
                var texts: [[UInt8]] = []
                for piece in group where !piece.extras.tags.isEmpty && tagIndex[piece.extras.tags] == nil {
                    tagIndex[piece.extras.tags] = texts.count
                    texts.append(piece.extras.tags)
                }
                w.varint(UInt64(texts.count))
                for t in texts {
                    w.varint(UInt64(t.count))
                    w.bytes += t
                }
            }
            for piece in group {
                w.varint(UInt64(piece.name + 1))
                w.varint(UInt64(piece.parts.count))
                if extras {
                    w.signedVarint(Int64(bitPattern: piece.extras.osm &- previousObject))
                    previousObject = piece.extras.osm
                    w.varint(UInt64(piece.extras.detail))
                    w.varint(piece.extras.tags.isEmpty ? 0 : UInt64((tagIndex[piece.extras.tags] ?? -1) + 1))
                }
                for part in piece.parts {
                    w.varint(UInt64(part.xs.count))
                    var px = minX
                    var py = minY
                    for i in part.xs.indices {
                        w.signedVarint(Int64(part.xs[i]) - Int64(px))
                        w.signedVarint(Int64(part.ys[i]) - Int64(py))
                        px = part.xs[i]
                        py = part.ys[i]
                    }
                }
            }
            let (payload, deflated) = deflatedWhereSmaller(w.bytes)
            chunks.append(
                Chunk(
                    featureClass: first.featureClass, level: level, minX: minX, minY: minY, maxX: maxX, maxY: maxY,
                    featureCount: group.count, pointCount: groupPoints, payload: payload, hasExtras: extras,
                    deflated: deflated))
            group = []
            groupPoints = 0
        }
        for piece in sorted {
            if let g = group.first,
                g.featureClass != piece.featureClass || g.cellX != piece.cellX || g.cellY != piece.cellY
                    || groupPoints + piece.points > MapAssetFormat.maxChunkPoints
            {
                flush()
            }
            group.append(piece)
            groupPoints += piece.points
        }
        flush()
        return chunks
    }

    /// The box of the points of `parts` in stored units (min x > max x when there are none).
    static func box<S: Sequence>(_ parts: S) -> (Int32, Int32, Int32, Int32)
    where S.Element == (xs: [Int32], ys: [Int32]) {
        var minX = Int32.max
        var minY = Int32.max
        var maxX = Int32.min
        var maxY = Int32.min
        for part in parts {
            minX = min(minX, part.xs.min() ?? minX)
            maxX = max(maxX, part.xs.max() ?? maxX)
            minY = min(minY, part.ys.min() ?? minY)
            maxY = max(maxY, part.ys.max() ?? maxY)
        }
        return (minX, minY, maxX, maxY)
    }

    /// The box of every point, or the world when there is none.
    static func dataBox(_ features: [Quantized], units: Double) -> CoordinateBounds {
        let (minX, minY, maxX, maxY) = box(features.lazy.flatMap(\.parts))
        guard minX <= maxX else { return CoordinateBounds(north: 90, south: -90, west: -180, east: 180) }
        return CoordinateBounds(
            north: Double(maxY) / units, south: Double(minY) / units, west: Double(minX) / units,
            east: Double(maxX) / units)
    }

    static func assemble(
        levelRanges: [(spec: LevelSpec, first: Int, count: Int)], chunks: [Chunk], contents: MapContents,
        names: [NamedPlace], coverage: CoordinateBounds
    ) -> [UInt8] {
        let f = MapAssetFormat.self
        let units = Double(contents.unitsPerDegree)
        let indexStart = f.headerSize + levelRanges.count * f.levelEntrySize
        let dataOffset = indexStart + chunks.count * f.chunkEntrySize
        let (index, data) = chunkIndexAndData(chunks)
        let ordered = contents.places.enumerated().sorted {
            ($0.element.population, $1.offset) > ($1.element.population, $0.offset)
        }.map(\.element)
        let placeSection = placeSection(ordered, units: units)
        let searchSection = searchSection(ordered)
        let nameSection = nameSection(names, units: units)
        let metadata = Array(
            contents.metadata.map { k, v in
                k.filter { $0 != "=" && $0 != "\n" } + "=" + v.filter { $0 != "\n" } + "\n"
            }.joined().utf8)
        let cityOffset = dataOffset + data.bytes.count
        let nameOffset = cityOffset + placeSection.bytes.count
        let metadataOffset = nameOffset + nameSection.bytes.count
        let network = contents.network.map(RoadNetworkCoding.encode) ?? []
        func stored(_ degrees: Double) -> Int32 {
            Int32(clamping: Int64((degrees * units).rounded()))
        }

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
        out.u32(UInt32(placeSection.bytes.count))
        out.u32(0)  // metadata checksum, patched below
        out.u32(UInt32(contents.unitsPerDegree))
        out.i32(stored(coverage.west))
        out.i32(stored(coverage.south))
        out.i32(stored(coverage.east))
        out.i32(stored(coverage.north))
        out.u32(UInt32(nameOffset))
        out.u32(UInt32(nameSection.bytes.count))
        out.u32(UInt32(names.count))
        out.u32(UInt32(metadataOffset))
        out.u32(UInt32(metadata.count))
        out.u32(UInt32(metadataOffset + metadata.count))
        out.u32(UInt32(searchSection.bytes.count))
        let networkOffset = metadataOffset + metadata.count + searchSection.bytes.count
        out.u32(network.isEmpty ? 0 : UInt32(networkOffset))
        out.u32(UInt32(network.count))
        while out.bytes.count < f.headerSize { out.u8(0) }
        for level in levelRanges {
            out.f64(level.spec.toleranceDegrees)
            out.f64(level.spec.minZoom)
            out.u32(UInt32(level.first))
            out.u32(UInt32(level.count))
        }
        out.append(index.bytes)
        out.append(data.bytes)
        out.append(placeSection.bytes)
        out.append(nameSection.bytes)
        out.append(metadata)
        out.append(searchSection.bytes)
        out.append(network)
        out.patchU32(
            MapAsset.metadataChecksum(out.bytes, dataOffset: dataOffset, cityOffset: cityOffset),
            at: f.HeaderField.checksum)
        return out.bytes
    }

    /// The chunk index (an entry a chunk) and the chunks' data, one after another.
    static func chunkIndexAndData(_ chunks: [Chunk]) -> (ByteWriter, ByteWriter) {
        var data = ByteWriter()
        var index = ByteWriter()
        for c in chunks {
            index.u8(c.featureClass.rawValue)
            index.u8(c.featureClass.geometry.rawValue)
            index.u8(UInt8(c.level))
            index.u8((c.hasExtras ? 1 : 0) | (c.deflated ? 2 : 0))  // flags
            index.i32(c.minX)
            index.i32(c.minY)
            index.i32(c.maxX)
            index.i32(c.maxY)
            index.u32(UInt32(data.bytes.count))
            index.u32(UInt32(c.payload.count))
            index.u32(UInt32(c.featureCount))
            index.u32(CRC32.checksum(c.payload))
            index.u32(UInt32(c.pointCount))
            data.append(c.payload)
        }
        return (index, data)
    }

    /// The places, most populous first: name, position, population, country and kind.
    static func placeSection(_ ordered: [City], units: Double) -> ByteWriter {
        var placeSection = ByteWriter()
        for city in ordered {
            placeSection.text(city.name, limit: 255)
            placeSection.position(city.coordinate, units: units)
            placeSection.varint(UInt64(max(0, city.population)))
            let cc = Array(city.countryCode.utf8.prefix(2))
            placeSection.u8(cc.count > 0 ? cc[0] : 32)
            placeSection.u8(cc.count > 1 ? cc[1] : 32)
            placeSection.u8(city.kind.rawValue)
        }
        return placeSection
    }

    /// Version 3: what search needs beyond names (region and alternate names), kept apart so that
    /// loading places stays cheap; empty when no place has any.
    static func searchSection(_ ordered: [City]) -> ByteWriter {
        var searchSection = ByteWriter()
        if ordered.contains(where: { !$0.names.isEmpty }) {
            for city in ordered {
                searchSection.text(city.names.region, limit: 255)
                let alternates = city.names.alternates.prefix(255)
                searchSection.varint(UInt64(alternates.count))
                for alternate in alternates { searchSection.text(alternate, limit: 255) }
            }
        }
        return searchSection
    }

    /// The other names (streets, squares): name, position and kind.
    static func nameSection(_ names: [NamedPlace], units: Double) -> ByteWriter {
        var nameSection = ByteWriter()
        for entry in names {
            nameSection.text(entry.name, limit: 1024)
            nameSection.position(entry.coordinate, units: units)
            nameSection.u8(entry.kind.rawValue)
        }
        return nameSection
    }

    static func floorDiv(_ a: Int, _ b: Int) -> Int {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }
}
