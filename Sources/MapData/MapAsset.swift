import FoundationEssentials
import GeoCore
import Glibc
import MapFormats
import Support
import Synchronization
import SystemSupport

/// A map data file, validated on load and decoded lazily chunk by chunk. Reads format versions 1
/// to 6. Safe to share between threads: decoded chunks, places and names are cached behind a lock.
public final class MapAsset: Sendable {
    /// The file's name, for messages.
    public let name: String
    /// Format version, 1 to 6.
    public let version: Int
    /// Levels of detail, coarse to fine.
    public let levels: [DetailLevel]
    /// The chunk index.
    public let chunks: [ChunkInfo]
    /// Number of places in the gazetteer.
    public let cityCount: Int
    /// Stored units per degree: 100 000 (version 1 and Natural Earth) or 10 000 000 (OpenStreetMap).
    public let unitsPerDegree: Double
    /// The area the file's data covers (version 1: the whole world).
    public let coverage: CoordinateBounds
    /// `key=value` facts about the file: source, attribution.
    public let metadata: [String: String]
    /// Entries in the name table.
    public let nameCount: Int
    /// The classes of its chunks.
    public let classes: Set<FeatureClass>
    /// Where the file comes from: bundled with termmap or imported by the user.
    public let kind: SourceKind
    /// What its lines and areas must be credited with (from its metadata, once).
    public let credits: [Credit]
    /// Its coverage without the boxes an import could not tell land from sea in (metadata
    /// `unclaimed`), as rectangles: what it claims from coarser sources; nil for all of its coverage.
    public let claimedBoxes: [CoordinateBounds]?

    /// The file's bytes: memory-mapped when loaded from a path, so only touched pages cost memory.
    private let bytes: Data
    private let dataOffset: Int
    private let cityRange: Range<Int>
    private let nameRange: Range<Int>
    private let searchRange: Range<Int>
    private let networkRange: Range<Int>
    private struct Cache {
        var chunks = LRUCache<Int, DecodedChunk>(limit: MapAsset.cacheLimitPoints)
        var cities: [City]?
        /// Places without names, the first ones or all (`complete`), and where each one's name starts.
        var points: (PlacePoints, nameStarts: [Int32], complete: Bool, end: Int)?
        var names: [NamedPlace]?
        var placeNames: [PlaceNames]?
        var network: RoadNetwork?
        /// Each level's grid index, built at the level's `gridFromQuery`th query (loading stays cheap).
        var indexes: [Int: IndexOnUse<BoxIndex>] = [:]
    }
    private let cache = Mutex(Cache())
    /// Points kept decoded (bounds memory on long sessions); the least recently used go first.
    public static let cacheLimitPoints = 3_000_000

    /// Reads and validates a file (`kind`: bundled or imported).
    public convenience init(path: String, kind: SourceKind = .import) throws(MapDataError) {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        } catch {
            throw MapDataError(file: path, .unreadable(fileErrorReason(error)))
        }
        try self.init(data: data, name: path, kind: kind)
    }

    /// Validates bytes (see `init(data:name:)`).
    public convenience init(bytes: [UInt8], name: String = "<memory>") throws(MapDataError) {
        try self.init(data: Data(bytes), name: name)
    }

    /// Validates a file's contents: magic, version, metadata checksum, and every count, offset and length.
    public init(data bytes: Data, name: String = "<memory>", kind: SourceKind = .import) throws(MapDataError) {
        self.name = name
        self.kind = kind
        self.bytes = bytes
        let h = try Header(bytes, name: name)
        func fail(_ kind: MapDataError.Kind) -> MapDataError { MapDataError(file: name, kind) }
        let checksum = MapAsset.metadataChecksum(bytes, dataOffset: h.dataOffset, cityOffset: h.cityOffset)
        guard checksum == h.checksum else { throw fail(.checksumMismatch("header, index or city section")) }

        // The checksum matched; still check every value, since a file can be made to match.
        guard let (read, chunks) = Self.readIndex(bytes, h) else { throw fail(.corrupt("chunk index")) }
        var levels = read
        try Self.checkIndex(&levels, chunks, h, name: name)
        self.version = h.version
        self.levels = levels
        self.chunks = chunks
        self.dataOffset = h.dataOffset
        self.cityRange = h.cityOffset..<(h.cityOffset + h.cityLength)
        self.nameRange = h.nameOffset..<(h.nameOffset + h.nameLength)
        self.searchRange = h.searchRange
        self.networkRange = h.networkRange
        self.cityCount = h.cities
        self.nameCount = h.names
        self.unitsPerDegree = Double(h.unitsPerDegree)
        self.coverage = h.coverage
        self.metadata = h.metadata
        credits = Self.credits(
            attribution: h.metadata["attribution"], label: Self.label(metadata: h.metadata, name: name))
        claimedBoxes = Self.claimedBoxes(unclaimed: h.metadata["unclaimed"], coverage: h.coverage)
        // Marked in a table first: hashing every chunk's class into a set cost more than reading the index.
        var present = [Bool](repeating: false, count: 256)
        for c in chunks { present[Int(c.featureClass.rawValue)] = true }
        self.classes = Set(FeatureClass.allCases.filter { present[Int($0.rawValue)] })
    }

    /// The level table and the chunk index as the file has them; nil where an entry is cut short or
    /// names a class or kind that does not exist.
    private static func readIndex(_ bytes: Data, _ h: Header) -> ([DetailLevel], [ChunkInfo])? {
        let v1 = h.version == 1
        var levels: [DetailLevel] = []
        var chunks: [ChunkInfo] = []
        let ok: Bool = bytes.withUnsafeBytes { raw in
            var r = ByteReader(raw, from: h.headerSize, to: h.dataOffset)
            for _ in 0..<h.levels {
                guard let tol = r.f64() else { return false }
                let minZoom: Double
                if v1 {
                    minZoom = 0  // filled in below from the tolerances
                } else {
                    guard let z = r.f64() else { return false }
                    minZoom = z
                }
                guard let first = r.u32(), let count = r.u32() else { return false }
                levels.append(
                    DetailLevel(
                        toleranceDegrees: tol, minZoom: minZoom, chunks: Int(first)..<(Int(first) + Int(count))))
            }
            for _ in 0..<h.chunks {
                guard let classRaw = r.u8(), let featureClass = FeatureClass(rawValue: classRaw) else { return false }
                var kind = GeometryKind.lines
                if !v1 {
                    guard let k = r.u8().flatMap(GeometryKind.init(rawValue:)) else { return false }
                    kind = k
                }
                guard let level = r.u8(), let flags = (v1 ? r.u16().map({ _ in 0 }) : r.u8().map(UInt16.init)),
                    let minX = r.i32(), let minY = r.i32(), let maxX = r.i32(), let maxY = r.i32(),
                    let offset = r.u32(), let length = r.u32(), let features = r.u32(), let crc = r.u32()
                else { return false }
                if !v1 { guard r.u32() != nil else { return false } }  // point count (a hint for readers)
                chunks.append(
                    ChunkInfo(
                        featureClass: featureClass, kind: kind, level: Int(level), minX: minX, minY: minY, maxX: maxX,
                        maxY: maxY, offset: Int(offset), length: Int(length), featureCount: Int(features),
                        checksum: crc,
                        hasExtras: h.version >= 5 && flags & 1 != 0, deflated: h.version >= 5 && flags & 2 != 0))
            }
            return true
        }
        return ok ? (levels, chunks) : nil
    }

    /// Checks the levels (in order, finer and from deeper zooms, covering the chunks) and each chunk's
    /// place and box; a version 1 file's levels get their zooms from their tolerances.
    private static func checkIndex(_ levels: inout [DetailLevel], _ chunks: [ChunkInfo], _ h: Header, name: String)
        throws(MapDataError)
    {
        func fail(_ kind: MapDataError.Kind) -> MapDataError { MapDataError(file: name, kind) }
        let v1 = h.version == 1
        var expectedFirst = 0
        for (i, level) in levels.enumerated() {
            guard level.toleranceDegrees.isFinite, level.toleranceDegrees >= 0, level.minZoom.isFinite,
                level.chunks.lowerBound == expectedFirst, level.chunks.upperBound <= chunks.count,
                i == 0 || level.toleranceDegrees < levels[i - 1].toleranceDegrees,
                i == 0 || level.minZoom > levels[i - 1].minZoom || v1
            else { throw fail(.corrupt("level table")) }
            expectedFirst = level.chunks.upperBound
        }
        guard expectedFirst == chunks.count else { throw fail(.corrupt("level table")) }
        if v1 {
            // Version 1 chose a level by its tolerance against one dot; as zooms: a level serves from where
            // the coarser level's tolerance grows past a dot (dot = 360 / (256·2^z) degrees).
            for i in levels.indices.dropFirst() {
                levels[i].minZoom = log2(360 / (WebMercator.tileSize * levels[i - 1].toleranceDegrees))
            }
        }
        let units = Double(h.unitsPerDegree)
        let limit = Int64(min(540 * units, Double(Int32.max)))
        let latLimit = Int64(90 * units)
        for (i, c) in chunks.enumerated() {
            guard c.offset + c.length <= h.dataLength, c.length >= 2 * c.featureCount, c.featureCount >= 1,
                c.level < levels.count, levels[c.level].chunks.contains(i),
                c.minX <= c.maxX, c.minY <= c.maxY, Int64(c.minX) >= -limit, Int64(c.maxX) <= limit,
                Int64(c.minY) >= -latLimit, Int64(c.maxY) <= latLimit
            else { throw fail(.badOffset("chunk index entry \(i)")) }
        }
    }

    /// The fixed header and the small sections it points to, checked against the file's length.
    private struct Header {
        var version = 1
        var headerSize = MapAssetFormat.headerSizeV1
        var levels = 0, chunks = 0, cities = 0, names = 0
        var dataOffset = 0, dataLength = 0, cityOffset = 0, cityLength = 0, nameOffset = 0, nameLength = 0
        var checksum: UInt32 = 0
        var unitsPerDegree = MapAssetFormat.unitsPerDegreeV1
        var coverage = CoordinateBounds(north: 90, south: -90, west: -180, east: 180)
        var metadata: [String: String] = [:]
        var searchRange = 0..<0
        var networkRange = 0..<0

        init(_ bytes: Data, name: String) throws(MapDataError) {
            let f = MapAssetFormat.self
            func fail(_ kind: MapDataError.Kind) -> MapDataError { MapDataError(file: name, kind) }
            guard bytes.count >= 8 else { throw fail(.truncated("header")) }
            guard [UInt8](bytes.prefix(8)) == f.magic else { throw fail(.badMagic) }
            var fault: MapDataError.Kind?
            var metaRange = 0..<0
            bytes.withUnsafeBytes { raw in
                var r = ByteReader(raw, from: 8)
                guard let version = r.u16(), let headerSize = r.u16() else {
                    fault = .truncated("header")
                    return
                }
                guard f.readableVersions.contains(version) else {
                    fault = .unsupportedVersion(Int(version))
                    return
                }
                self.version = Int(version)
                self.headerSize = f.headerSize(version: Int(version))
                guard Int(headerSize) == self.headerSize else {
                    fault = .corrupt("header size")
                    return
                }
                guard r.u32() != nil, let levels = r.u32(), let chunks = r.u32(), let cities = r.u32(),
                    let dataOffset = r.u32(), let dataLength = r.u32(), let cityOffset = r.u32(),
                    let cityLength = r.u32(), let checksum = r.u32()
                else {
                    fault = .truncated("header")
                    return
                }
                (self.levels, self.chunks, self.cities) = (Int(levels), Int(chunks), Int(cities))
                (self.dataOffset, self.dataLength) = (Int(dataOffset), Int(dataLength))
                (self.cityOffset, self.cityLength, self.checksum) = (Int(cityOffset), Int(cityLength), checksum)
                self.nameOffset = self.cityOffset + self.cityLength
                guard version >= 2 else { return }
                guard let units = r.u32(), let west = r.i32(), let south = r.i32(), let east = r.i32(),
                    let north = r.i32(), let nameOffset = r.u32(), let nameLength = r.u32(), let names = r.u32(),
                    let metaOffset = r.u32(), let metaLength = r.u32()
                else {
                    fault = .truncated("header")
                    return
                }
                guard units >= 1, units <= 10_000_000, west <= east, south <= north else {
                    fault = .corrupt("header (resolution or coverage)")
                    return
                }
                self.unitsPerDegree = Int(units)
                let u = Double(units)
                coverage = CoordinateBounds(
                    north: Double(north) / u, south: Double(south) / u, west: Double(west) / u, east: Double(east) / u)
                (self.nameOffset, self.nameLength, self.names) = (Int(nameOffset), Int(nameLength), Int(names))
                metaRange = Int(metaOffset)..<(Int(metaOffset) + Int(metaLength))
                guard version >= 3 else { return }
                guard let searchOffset = r.u32(), let searchLength = r.u32() else {
                    fault = .truncated("header")
                    return
                }
                searchRange = Int(searchOffset)..<(Int(searchOffset) + Int(searchLength))
                guard version >= 6 else { return }
                guard let networkOffset = r.u32(), let networkLength = r.u32() else {
                    fault = .truncated("header")
                    return
                }
                networkRange = Int(networkOffset)..<(Int(networkOffset) + Int(networkLength))
            }
            if let fault { throw fail(fault) }
            try checkSections(bytes.count, metaRange: metaRange, name: name)
            if !metaRange.isEmpty {
                let text = String(decoding: bytes[metaRange], as: UTF8.self)
                for line in text.split(separator: "\n") {
                    guard let eq = line.firstIndex(of: "=") else { throw fail(.corrupt("metadata")) }
                    metadata[String(line[..<eq])] = String(line[line.index(after: eq)...])
                }
            }
        }

        /// The counts within their ceilings, and the sections one after another to the file's end.
        func checkSections(_ size: Int, metaRange: Range<Int>, name: String) throws(MapDataError) {
            let f = MapAssetFormat.self
            func fail(_ kind: MapDataError.Kind) -> MapDataError { MapDataError(file: name, kind) }
            guard levels >= 1, levels <= f.maxLevels, chunks <= f.maxChunks, cities <= f.maxCities, names <= f.maxNames
            else { throw fail(.corrupt("header counts")) }
            let levelSize = version == 1 ? f.levelEntrySizeV1 : f.levelEntrySize
            let entrySize = version == 1 ? f.chunkEntrySizeV1 : f.chunkEntrySize
            let expectedDataOffset = headerSize + levels * levelSize + chunks * entrySize
            guard size >= expectedDataOffset else { throw fail(.truncated("chunk index")) }
            guard dataOffset == expectedDataOffset else { throw fail(.badOffset("header (data offset)")) }
            guard cityOffset == dataOffset + dataLength else { throw fail(.badOffset("header (city offset)")) }
            guard cityOffset <= size else { throw fail(.truncated("chunk data")) }
            guard cityOffset + cityLength <= size else { throw fail(.truncated("city section")) }
            // Version 2: the name table and the metadata follow the places, and the file ends there.
            var end: Int
            if version == 1 {
                end = cityOffset + cityLength
            } else {
                guard nameOffset == cityOffset + cityLength, metaRange.lowerBound == nameOffset + nameLength else {
                    throw fail(.badOffset("header (name or metadata offset)"))
                }
                guard metaRange.upperBound <= size else { throw fail(.truncated("name table or metadata")) }
                end = metaRange.upperBound
            }
            // Version 3: the search section follows the metadata, and the file ends there.
            if version >= 3 {
                guard searchRange.lowerBound == end else { throw fail(.badOffset("header (search section offset)")) }
                guard searchRange.upperBound <= size else { throw fail(.truncated("search section")) }
                end = searchRange.upperBound
            }
            // Version 6: the network section, if any, follows the search section.
            if version >= 6, !networkRange.isEmpty {
                guard networkRange.lowerBound == end else { throw fail(.badOffset("header (network offset)")) }
                guard networkRange.upperBound <= size else { throw fail(.truncated("network section")) }
                end = networkRange.upperBound
            }
            guard end == size else { throw fail(.corrupt("file length")) }
        }
    }

    /// The same bytes with the header checksum recomputed, and with `chunkChecksums` each chunk's too
    /// (for tools that edit files, and for fuzzers that forge them: the decoders behind the checksums
    /// must refuse what is wrong); nil when the header's offsets do not fit the bytes.
    public static func resealed(_ bytes: [UInt8], chunkChecksums: Bool = false) -> [UInt8]? {
        let f = MapAssetFormat.self
        guard bytes.count >= f.headerSizeV1 else { return nil }
        func u32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
        let dataOffset = u32(f.HeaderField.dataOffset)
        let cityOffset = u32(f.HeaderField.cityOffset)
        guard dataOffset >= f.headerSizeV1, dataOffset <= cityOffset, cityOffset <= bytes.count else { return nil }
        var out = bytes
        if chunkChecksums {
            // Index entries (both layouts): payload offset at +20, length at +24, CRC-32 at +32.
            let layout = f.layout(version: Int(bytes[f.HeaderField.version]))
            let first = layout.header + layout.levelEntry * u32(f.HeaderField.levelCount)
            for entry in stride(from: first, to: dataOffset - layout.chunkEntry + 1, by: layout.chunkEntry) {
                let start = dataOffset + u32(entry + 20)
                let length = u32(entry + 24)
                guard start <= cityOffset, length <= cityOffset - start else { continue }
                let crc = bytes.withUnsafeBytes {
                    CRC32.update(0, UnsafeRawBufferPointer(rebasing: $0[start..<(start + length)]))
                }
                for i in 0..<4 { out[entry + 32 + i] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(i))) }
            }
        }
        let crc = metadataChecksum(bytes, dataOffset: dataOffset, cityOffset: cityOffset)
        for i in 0..<4 { out[f.HeaderField.checksum + i] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(i))) }
        return out
    }

    /// CRC-32 over the header (without its checksum field), level table, chunk index and every section
    /// after the chunk data (places; in version 2 also names and metadata).
    public static func metadataChecksum(_ bytes: [UInt8], dataOffset: Int, cityOffset: Int) -> UInt32 {
        bytes.withUnsafeBytes { metadataChecksum($0, dataOffset: dataOffset, cityOffset: cityOffset) }
    }

    public static func metadataChecksum(_ bytes: Data, dataOffset: Int, cityOffset: Int) -> UInt32 {
        bytes.withUnsafeBytes { metadataChecksum($0, dataOffset: dataOffset, cityOffset: cityOffset) }
    }

    public static func metadataChecksum(_ raw: UnsafeRawBufferPointer, dataOffset: Int, cityOffset: Int) -> UInt32 {
        let f = MapAssetFormat.self
        var crc = CRC32.update(0, UnsafeRawBufferPointer(rebasing: raw[0..<f.HeaderField.checksum]))
        crc = CRC32.update(crc, UnsafeRawBufferPointer(rebasing: raw[(f.HeaderField.checksum + 4)..<dataOffset]))
        return CRC32.update(crc, UnsafeRawBufferPointer(rebasing: raw[cityOffset..<raw.count]))
    }

    // MARK: The network

    /// Whether the file keeps its streets' network (an import of format version 6 or later).
    public var hasNetwork: Bool { !networkRange.isEmpty }

    /// The routable streets, decoded on first use and kept; nil when the file has none.
    public func network() throws(MapDataError) -> RoadNetwork? {
        guard hasNetwork else { return nil }
        if let hit = cache.withLock({ $0.network }) { return hit }
        let range = networkRange
        let decoded = bytes.withUnsafeBytes { raw in
            RoadNetworkCoding.decode(UnsafeRawBufferPointer(rebasing: raw[range]))
        }
        guard let network = decoded else { throw MapDataError(file: name, .corrupt("network section")) }
        cache.withLock { $0.network = network }
        return network
    }

    // MARK: Chunks

    /// A deflated chunk payload's bytes (version 5): its raw size first, then the zlib stream; nil when
    /// either is wrong. Deflate inflates at most 1,032 to 1 (zlib's technical details), so a larger size
    /// is forged, and refused before anything is allocated.
    static func inflated(_ payload: UnsafeRawBufferPointer) -> [UInt8]? {
        var r = ByteReader(payload)
        guard let size = r.varint(), size <= 64 << 20, size <= UInt64(payload.count) * 1032,
            let stream = r.bytes(r.remaining)
        else { return nil }
        return Zlib.inflate(stream, size: Int(size))
    }

    /// Decodes chunk `index` (cached), checking its checksum and that every point lies in its box.
    public func chunk(_ index: Int) throws(MapDataError) -> DecodedChunk {
        if let hit = cache.withLock({ $0.chunks.get(index) }) { return hit }
        guard chunks.indices.contains(index) else { throw MapDataError(file: name, .badOffset("chunk \(index)")) }
        let info = chunks[index]
        let start = dataOffset + info.offset
        let units = unitsPerDegree
        let version = version
        let nameCount = nameCount
        let decoded: DecodedChunk? = bytes.withUnsafeBytes { raw in
            let payload = UnsafeRawBufferPointer(rebasing: raw[start..<(start + info.length)])
            guard CRC32.update(0, payload) == info.checksum else { return nil }
            guard info.deflated else {
                return ChunkDecoder.decode(
                    payload, info: info, unitsPerDegree: units, version: version, nameCount: nameCount)
            }
            guard let raw = Self.inflated(payload) else { return nil }
            return raw.withUnsafeBytes {
                ChunkDecoder.decode($0, info: info, unitsPerDegree: units, version: version, nameCount: nameCount)
            }
        }
        guard let chunk = decoded else { throw MapDataError(file: name, .corrupt("chunk \(index)")) }
        cache.withLock { $0.chunks.put(index, chunk, cost: chunk.pointCount) }
        return chunk
    }

    // MARK: Queries

    /// The level drawn at `zoom`: the finest whose first zoom is at most `zoom`.
    public func level(forZoom zoom: Double) -> Int {
        levels.lastIndex { $0.minZoom <= zoom } ?? 0
    }

    /// The coarsest level whose tolerance is still finer than one dot at `metersPerDot` on `latitude`
    /// (the same choice as `level(forZoom:)`: the cosines cancel).
    public func level(forMetersPerDot metersPerDot: Double, latitude: Double) -> Int {
        let metersPerDegree =
            2 * Double.pi * WebMercator.earthRadius / 360 * cos(WebMercator.clampLatitude(latitude) * .pi / 180)
        for (i, level) in levels.enumerated() where level.toleranceDegrees * metersPerDegree <= metersPerDot {
            return i
        }
        return levels.count - 1
    }

    /// The query of a level from which it has a grid. Building the finest level's grid (13,306 chunks)
    /// costs as many instructions as 11 queries that test every chunk (7.4 M and 0.68 M): the grid comes
    /// when the tests have cost about as much as it does, so that a few views never cost twice theirs.
    static let gridFromQuery = 8

    /// The decoded chunks of `classes` at `level` that meet `bounds`, with the world copies they meet it in.
    public func query(
        bounds: CoordinateBounds, level: Int, classes: Set<FeatureClass> = Set(FeatureClass.allCases)
    ) throws(MapDataError) -> [ChunkHit] {
        guard levels.indices.contains(level), bounds.west.isFinite, bounds.east.isFinite, bounds.west <= bounds.east
        else { return [] }
        let u = unitsPerDegree
        // World copies that can meet the view: the data lies within ±540°.
        guard let shifts = WorldCopies.meeting(bounds.west...bounds.east, -540...540) else { return [] }
        let firstShift = -shifts.upperBound
        let lastShift = -shifts.lowerBound
        // A level's first queries test every chunk's box; from the `gridFromQuery`th on, its grid is built
        // and used. A view or two at a level (a `render`, a glance while zooming through) never pays for it.
        let south = (bounds.south * u).rounded(.down)
        let north = (bounds.north * u).rounded(.up)
        var (index, makeNow) = cache.withLock { c in
            c.indexes[level, default: IndexOnUse(after: Self.gridFromQuery)].use()
        }
        if makeNow {
            let built = BoxIndex(chunks: chunks, range: levels[level].chunks)
            cache.withLock { $0.indexes[level]?.made(built) }
            index = built
        }
        // The classes as a table, and the view's latitudes in stored units (widened to whole units): a
        // chunk away from the view (most of a level's, when every chunk is tested) costs two comparisons.
        var wanted = [Bool](repeating: false, count: 256)
        for c in classes { wanted[Int(c.rawValue)] = true }
        // The chunks that meet the view, in index order (the order they were written), and the world
        // copies they meet it in.
        var meeting: [(chunk: Int, shifts: ClosedRange<Int>)] = []
        func consider(_ i: Int) {
            let c = chunks[i]
            guard Double(c.maxY) >= south, Double(c.minY) <= north, wanted[Int(c.featureClass.rawValue)],
                Double(c.maxY) / u >= bounds.south, Double(c.minY) / u <= bounds.north
            else { return }
            guard let k = WorldCopies.meeting((Double(c.minX) / u)...(Double(c.maxX) / u), bounds.west...bounds.east)
            else { return }
            meeting.append((i, k.lowerBound...min(k.upperBound, k.lowerBound + 64)))
        }
        if let index {
            var boxes: [BoxIndex.Box] = []
            for shift in firstShift...min(lastShift, firstShift + 64) {
                let west = max(-540, bounds.west - 360 * Double(shift))
                let east = min(540, bounds.east - 360 * Double(shift))
                guard west <= east else { continue }
                boxes.append(
                    BoxIndex.Box(
                        minX: Int64((west * u).rounded(.down)), minY: Int64(south),
                        maxX: Int64((east * u).rounded(.up)), maxY: Int64(north)))
            }
            for i in index.candidates(boxes) { consider(i) }
        } else {
            for i in levels[level].chunks { consider(i) }
        }
        var hits: [ChunkHit] = []
        for (i, shifts) in meeting {
            let decoded = try chunk(i)
            for shift in shifts { hits.append(ChunkHit(chunk: decoded, shift: shift)) }
        }
        return hits
    }

    /// True when `level` has its grid (for tests).
    func hasGrid(level: Int) -> Bool { cache.withLock { $0.indexes[level]?.index != nil } }

    /// True when chunk `index` is decoded and cached (for tests of the cache).
    func isCached(_ index: Int) -> Bool { cache.withLock { $0.chunks.contains(index) } }

    // MARK: Gazetteer and names

    /// All places, largest first (decoded on first use).
    public func cities() throws(MapDataError) -> [City] {
        if let c = cache.withLock({ $0.cities }) { return c }
        let cities = try decodeCities()
        cache.withLock { $0.cities = cities }
        return cities
    }

    /// One record of the place section, checked (name length, latitude, longitude, population, kind);
    /// nil when it is cut short or out of range. Offsets and integers only: the first street-level view
    /// reads all 34,006 of the world's places, and buffers, strings or floating point per record made that
    /// scan cost as much as the rest of the key.
    @inline(__always)
    private static func placeRecord(_ r: inout ByteReader, units: Double, v1: Bool) -> PlaceRecord? {
        guard let n = r.varint(), n <= 255 else { return nil }
        let nameStart = r.offset
        guard r.skip(Int(n)), let lat = r.signedVarint(), let lon = r.signedVarint(), let pop = r.varint() else {
            return nil
        }
        let countryStart = r.offset
        // The limits as integers: the units per degree are a whole number (a u32 of the header).
        guard r.skip(2), lat.magnitude <= UInt64(90 * units), lon.magnitude <= UInt64(180 * units), pop < 1 << 40
        else { return nil }
        var kind = PlaceKind.city
        if !v1 {
            guard let k = r.u8().flatMap(PlaceKind.init(rawValue:)) else { return nil }
            kind = k
        }
        return PlaceRecord(
            nameStart: nameStart, nameCount: Int(n), countryStart: countryStart, latitude: lat, longitude: lon,
            population: Int(pop), kind: kind)
    }

    /// Every place, with its name and country.
    private func decodeCities() throws(MapDataError) -> [City] {
        let units = unitsPerDegree
        let v1 = version == 1
        let decoded: [City]? = bytes.withUnsafeBytes { raw in
            var r = ByteReader(raw, from: cityRange.lowerBound, to: cityRange.upperBound)
            var out: [City] = []
            out.reserveCapacity(min(cityCount, r.remaining / 6))
            for _ in 0..<cityCount {
                guard let p = Self.placeRecord(&r, units: units, v1: v1) else { return nil }
                out.append(
                    City(
                        name: String(decoding: raw[p.nameStart..<(p.nameStart + p.nameCount)], as: UTF8.self),
                        coordinate: Coordinate(
                            latitude: Double(p.latitude) * (1 / units), longitude: Double(p.longitude) * (1 / units)),
                        countryCode: String(decoding: raw[p.countryStart..<(p.countryStart + 2)], as: UTF8.self),
                        population: p.population, kind: p.kind))
            }
            return r.remaining == 0 ? out : nil
        }
        guard let cities = decoded else { throw MapDataError(file: name, .corrupt("city section")) }
        return cities
    }

    /// Every place's position, size and kind, without its name (decoded on first use): what a view needs
    /// to choose which places to name. Making 34,006 names into strings cost more than the rest of a
    /// street-level render, and a view names a few dozen.
    public func placePoints() throws(MapDataError) -> PlacePoints {
        try decodedPoints(populationAtLeast: 0).0
    }

    /// The first places without their names, until one has fewer than `population` people: the place
    /// section stores them largest first, so a small-scale view decodes its few hundred and no more.
    public func placePoints(populationAtLeast population: Int) throws(MapDataError) -> PlacePoints {
        try decodedPoints(populationAtLeast: population).0
    }

    /// The name of place `index` (of `placePoints()`, the order of `cities()`), or nil.
    public func placeName(_ index: Int) -> String? {
        guard index >= 0 else { return nil }
        var starts = cache.withLock { $0.points?.nameStarts } ?? []
        if index >= starts.count { starts = (try? decodedPoints(populationAtLeast: 0).nameStarts) ?? [] }
        guard index < starts.count else { return nil }
        return bytes.withUnsafeBytes { raw in
            var r = ByteReader(raw, from: Int(starts[index]), to: cityRange.upperBound)
            guard let n = r.varint(), let name = r.bytes(Int(n)) else { return nil }
            return String(decoding: name, as: UTF8.self)
        }
    }

    /// The places from the first until one has fewer than `minimum` people (0: all of them, and then the
    /// section must end after the last), from what is kept when it holds them.
    private func decodedPoints(populationAtLeast minimum: Int) throws(MapDataError)
        -> (PlacePoints, nameStarts: [Int32])
    {
        if let p = cache.withLock({ $0.points }),
            p.complete || (minimum > 0 && p.0.population.last.map { $0 < minimum } == true)
        {
            guard minimum > 0 else { return (p.0, p.nameStarts) }
            let n = p.0.population.firstIndex { $0 < minimum } ?? p.0.count
            return (p.0.prefix(n), Array(p.nameStarts.prefix(n)))
        }
        let units = unitsPerDegree
        let v1 = version == 1
        let count = cityCount
        // A wider prefix goes on from where the kept one ends.
        let kept = cache.withLock { $0.points }
        let decoded: (PlacePoints, nameStarts: [Int32], complete: Bool, end: Int)? = bytes.withUnsafeBytes { raw in
            var r = ByteReader(raw, from: kept?.end ?? cityRange.lowerBound, to: cityRange.upperBound)
            // Four columns filled here, made `PlacePoints` once at the end.
            var (lat, lon) = (kept?.0.latitude ?? [], kept?.0.longitude ?? [])
            var (population, kind) = (kept?.0.population ?? [], kept?.0.kind ?? [])
            var starts = kept?.nameStarts ?? []
            let capacity = minimum > 0 ? 1024 : min(count, kind.count + r.remaining / 6)
            lat.reserveCapacity(capacity)
            lon.reserveCapacity(capacity)
            population.reserveCapacity(capacity)
            kind.reserveCapacity(capacity)
            starts.reserveCapacity(capacity)
            func points() -> PlacePoints {
                PlacePoints(latitude: lat, longitude: lon, population: population, kind: kind)
            }
            for _ in kind.count..<count {
                let start = r.offset
                guard let p = Self.placeRecord(&r, units: units, v1: v1) else { return nil }
                // One place past the last asked for: kept, so that the cache knows where the prefix ends.
                starts.append(Int32(start))
                lat.append(Double(p.latitude) * (1 / units))
                lon.append(Double(p.longitude) * (1 / units))
                population.append(p.population)
                kind.append(p.kind)
                if p.population < minimum { return (points(), starts, false, r.offset) }
            }
            return r.remaining == 0 ? (points(), starts, true, r.offset) : nil
        }
        guard let decoded else { throw MapDataError(file: name, .corrupt("city section")) }
        cache.withLock { c in
            if c.points.map({ !$0.complete && $0.0.count < decoded.0.count }) ?? true { c.points = decoded }
        }
        return try decodedPoints(populationAtLeast: minimum)
    }

    /// Each place's region and other names, in the order of `cities()` (decoded on first use; empty
    /// names for files without a search section).
    public func placeNames() throws(MapDataError) -> [PlaceNames] {
        if let n = cache.withLock({ $0.placeNames }) { return n }
        let count = cityCount
        let range = searchRange
        let decoded: [PlaceNames]? =
            range.isEmpty
            ? [PlaceNames](repeating: PlaceNames(), count: count)
            : bytes.withUnsafeBytes { raw in
                var r = ByteReader(raw, from: range.lowerBound, to: range.upperBound)
                func text() -> String? {
                    guard let n = r.varint(), n <= 255, let b = r.bytes(Int(n)) else { return nil }
                    return String(decoding: b, as: UTF8.self)
                }
                var out: [PlaceNames] = []
                out.reserveCapacity(count)
                for _ in 0..<count {
                    guard let region = text(), let n = r.varint(), n <= 255 else { return nil }
                    var alternates: [String] = []
                    for _ in 0..<n {
                        guard let a = text() else { return nil }
                        alternates.append(a)
                    }
                    out.append(PlaceNames(region: region, alternates: alternates))
                }
                return r.remaining == 0 ? out : nil
            }
        guard let names = decoded else { throw MapDataError(file: name, .corrupt("search section")) }
        cache.withLock { $0.placeNames = names }
        return names
    }

    /// The name table: each named feature's name and a point on it (decoded on first use).
    public func names() throws(MapDataError) -> [NamedPlace] {
        if let n = cache.withLock({ $0.names }) { return n }
        let units = unitsPerDegree
        let hasKinds = version >= 4
        let decoded: [NamedPlace]? = bytes.withUnsafeBytes { raw in
            var r = ByteReader(raw, from: nameRange.lowerBound, to: nameRange.upperBound)
            var out: [NamedPlace] = []
            out.reserveCapacity(min(nameCount, r.remaining / 4))
            for _ in 0..<nameCount {
                guard let n = r.varint(), n <= 1024, let text = r.bytes(Int(n)),
                    let lat = r.signedVarint(), let lon = r.signedVarint(),
                    Double(lat.magnitude) <= 90 * units, Double(lon.magnitude) <= 540 * units
                else { return nil }
                var kind = NameKind.unknown
                if hasKinds {
                    // An unknown kind (a newer writer's) reads as unknown, not as damage.
                    guard let k = r.u8() else { return nil }
                    kind = NameKind(rawValue: k) ?? .unknown
                }
                out.append(
                    NamedPlace(
                        name: String(decoding: text, as: UTF8.self),
                        coordinate: Coordinate(
                            latitude: Double(lat) * (1 / units), longitude: Double(lon) * (1 / units)), kind: kind))
            }
            return r.remaining == 0 ? out : nil
        }
        guard let names = decoded else { throw MapDataError(file: name, .corrupt("name table")) }
        cache.withLock { $0.names = names }
        return names
    }

    /// The name of a feature (its `nameIndex` entry), or nil.
    public func name(at index: Int32) -> String? {
        guard index >= 0, let table = try? names(), Int(index) < table.count else { return nil }
        return table[Int(index)].name
    }
}

/// One record of the place section as read: where its name and country code are in the file, its position
/// in stored units, its population and kind.
private struct PlaceRecord {
    var nameStart: Int
    var nameCount: Int
    var countryStart: Int
    var latitude: Int64
    var longitude: Int64
    var population: Int
    var kind: PlaceKind
}
