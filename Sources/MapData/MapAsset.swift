import Foundation
import GeoCore
import Synchronization

/// One entry of the chunk index: where a chunk's bytes are and what area they cover.
public struct ChunkInfo: Equatable, Sendable {
    /// The chunk's layer.
    public var layer: MapLayer
    /// Its level of detail (index into `levels`).
    public var level: Int
    /// Bounding box in stored units (1e-5°).
    public var minX: Int32, minY: Int32, maxX: Int32, maxY: Int32
    var offset: Int
    var length: Int
    var polylineCount: Int
    var checksum: UInt32
}

/// A level of detail: its Douglas–Peucker tolerance and its chunks.
public struct DetailLevel: Equatable, Sendable {
    /// Tolerance in degrees (0: every stored point).
    public var toleranceDegrees: Double
    /// The level's chunks in the index.
    public var chunks: Range<Int>
}

/// A decoded chunk: its lines as quantized lon/lat and as Web Mercator unit-square points.
public struct DecodedChunk: Sendable {
    /// The chunk's index entry.
    public let info: ChunkInfo
    /// Longitudes in 1e-5° units, all lines back to back.
    public let lon: [Int32]
    /// Latitudes in 1e-5° units.
    public let lat: [Int32]
    /// Mercator x of each point (0…1 for −180…180; unwrapped as stored).
    public let x: [Double]
    /// Mercator y of each point (0 at the north limit; clamped there).
    public let y: [Double]
    /// Start of each line in the point arrays, plus the end: line i is `starts[i]..<starts[i+1]`.
    public let starts: [Int]

    /// Number of lines.
    public var polylineCount: Int { starts.count - 1 }

    /// Line i in degrees (exact to the 1e-5° quantum).
    public func coordinates(ofLine i: Int) -> [Coordinate] {
        (starts[i]..<starts[i + 1]).map {
            Coordinate(
                latitude: Double(lat[$0]) * MapAssetFormat.quantum, longitude: Double(lon[$0]) * MapAssetFormat.quantum)
        }
    }
}

/// A chunk in view with the multiple of 360° to add to its longitudes to place it next to the view.
public struct ChunkHit: Sendable {
    /// The lines.
    public let chunk: DecodedChunk
    /// World copies to shift by (add `shift` to Mercator x, `360·shift` to longitude).
    public let shift: Int
}

/// A map data file, validated on load and decoded lazily chunk by chunk. Safe to share between
/// threads: the decoded chunks and places are cached behind a lock.
public final class MapAsset: Sendable {
    /// The file's name, for messages.
    public let name: String
    /// Levels of detail, coarse to fine.
    public let levels: [DetailLevel]
    /// The chunk index.
    public let chunks: [ChunkInfo]
    /// Number of places in the gazetteer.
    public let cityCount: Int

    /// The file's bytes: memory-mapped when loaded from a path, so only touched pages cost memory.
    private let bytes: Data
    private let dataOffset: Int
    private let cityRange: Range<Int>
    private struct Cache {
        var chunks: [Int: DecodedChunk] = [:]
        var points = 0
        var cities: [City]?
    }
    private let cache = Mutex(Cache())
    /// Points kept decoded before the cache is emptied (bounds memory on long sessions).
    public static let cacheLimitPoints = 3_000_000

    /// Reads and validates a file.
    public convenience init(path: String) throws(MapDataError) {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        } catch {
            throw MapDataError(file: path, .unreadable((error as NSError).localizedDescription))
        }
        try self.init(data: data, name: path)
    }

    /// Validates bytes (see `init(data:name:)`).
    public convenience init(bytes: [UInt8], name: String = "<memory>") throws(MapDataError) {
        try self.init(data: Data(bytes), name: name)
    }

    /// Validates a file's contents: magic, version, metadata checksum, and every count, offset and length.
    public init(data bytes: Data, name: String = "<memory>") throws(MapDataError) {
        self.name = name
        self.bytes = bytes
        let f = MapAssetFormat.self
        func fail(_ kind: MapDataError.Kind) -> MapDataError { MapDataError(file: name, kind) }

        let header:
            (
                levels: Int, chunks: Int, cities: Int, dataOffset: Int, dataLength: Int, cityOffset: Int,
                cityLength: Int, checksum: UInt32
            )
        do {
            let parsed: (Int, Int, Int, Int, Int, Int, Int, UInt32)? = bytes.withUnsafeBytes { raw in
                var r = ByteReader(raw)
                guard let magic = r.bytes(8) else { return nil }
                guard Array(magic) == f.magic else { return (-1, 0, 0, 0, 0, 0, 0, 0) }
                guard let version = r.u16(), let headerSize = r.u16(), r.u32() != nil,
                    let levels = r.u32(), let chunks = r.u32(), let cities = r.u32(),
                    let dataOffset = r.u32(), let dataLength = r.u32(), let cityOffset = r.u32(),
                    let cityLength = r.u32(), let checksum = r.u32()
                else { return nil }
                if version != f.version { return (-2, Int(version), 0, 0, 0, 0, 0, 0) }
                if Int(headerSize) != f.headerSize { return (-3, 0, 0, 0, 0, 0, 0, 0) }
                return (
                    Int(levels), Int(chunks), Int(cities), Int(dataOffset), Int(dataLength), Int(cityOffset),
                    Int(cityLength), checksum
                )
            }
            guard let p = parsed else {
                throw fail(bytes.count < 8 || [UInt8](bytes.prefix(8)) == f.magic ? .truncated("header") : .badMagic)
            }
            if p.0 == -1 { throw fail(.badMagic) }
            if p.0 == -2 { throw fail(.unsupportedVersion(p.1)) }
            if p.0 == -3 { throw fail(.corrupt("header size")) }
            header = p
        }
        guard header.levels >= 1, header.levels <= f.maxLevels, header.chunks <= f.maxChunks,
            header.cities <= f.maxCities
        else { throw fail(.corrupt("header counts")) }
        let indexStart = f.headerSize + header.levels * f.levelEntrySize
        let expectedDataOffset = indexStart + header.chunks * f.chunkEntrySize
        guard bytes.count >= expectedDataOffset else { throw fail(.truncated("chunk index")) }
        guard header.dataOffset == expectedDataOffset else { throw fail(.badOffset("header (data offset)")) }
        guard header.cityOffset == header.dataOffset + header.dataLength else {
            throw fail(.badOffset("header (city offset)"))
        }
        guard header.cityOffset <= bytes.count else { throw fail(.truncated("chunk data")) }
        guard header.cityOffset + header.cityLength <= bytes.count else { throw fail(.truncated("city section")) }
        guard header.cityOffset + header.cityLength == bytes.count else { throw fail(.corrupt("file length")) }
        let checksum = MapAsset.metadataChecksum(bytes, dataOffset: header.dataOffset, cityOffset: header.cityOffset)
        guard checksum == header.checksum else { throw fail(.checksumMismatch("header, index or city section")) }

        // The checksum matched; still check every value, since a file can be made to match.
        var levels: [DetailLevel] = []
        var chunks: [ChunkInfo] = []
        let ok: Bool = bytes.withUnsafeBytes { raw in
            var r = ByteReader(raw, from: f.headerSize, to: header.dataOffset)
            for _ in 0..<header.levels {
                guard let tol = r.f64(), let first = r.u32(), let count = r.u32() else { return false }
                levels.append(DetailLevel(toleranceDegrees: tol, chunks: Int(first)..<(Int(first) + Int(count))))
            }
            for _ in 0..<header.chunks {
                guard let layerRaw = r.u8(), let layer = MapLayer(rawValue: layerRaw), let level = r.u8(),
                    r.u16() != nil, let minX = r.i32(), let minY = r.i32(), let maxX = r.i32(), let maxY = r.i32(),
                    let offset = r.u32(), let length = r.u32(), let lines = r.u32(), let crc = r.u32()
                else { return false }
                chunks.append(
                    ChunkInfo(
                        layer: layer, level: Int(level), minX: minX, minY: minY, maxX: maxX, maxY: maxY,
                        offset: Int(offset), length: Int(length), polylineCount: Int(lines), checksum: crc))
            }
            return true
        }
        guard ok else { throw fail(.corrupt("chunk index")) }
        var expectedFirst = 0
        for (i, level) in levels.enumerated() {
            guard level.toleranceDegrees.isFinite, level.toleranceDegrees >= 0,
                level.chunks.lowerBound == expectedFirst,
                level.chunks.upperBound <= chunks.count,
                i == 0 || level.toleranceDegrees < levels[i - 1].toleranceDegrees
            else { throw fail(.corrupt("level table")) }
            expectedFirst = level.chunks.upperBound
        }
        guard expectedFirst == chunks.count else { throw fail(.corrupt("level table")) }
        let limit = Int32(540 * MapAssetFormat.unitsPerDegree)
        let latLimit = Int32(90 * MapAssetFormat.unitsPerDegree)
        for (i, c) in chunks.enumerated() {
            guard c.offset + c.length <= header.dataLength, c.length >= 2 * c.polylineCount, c.polylineCount >= 1,
                c.level < levels.count, levels[c.level].chunks.contains(i),
                c.minX <= c.maxX, c.minY <= c.maxY, c.minX >= -limit, c.maxX <= limit,
                c.minY >= -latLimit, c.maxY <= latLimit
            else { throw fail(.badOffset("chunk index entry \(i)")) }
        }
        self.levels = levels
        self.chunks = chunks
        self.dataOffset = header.dataOffset
        self.cityRange = header.cityOffset..<(header.cityOffset + header.cityLength)
        self.cityCount = header.cities
    }

    /// The same bytes with the header checksum recomputed (for tools that edit files, and for fuzzers that
    /// forge them); nil when the header's offsets do not fit the bytes.
    public static func resealed(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count >= MapAssetFormat.headerSize else { return nil }
        func u32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
        let dataOffset = u32(MapAssetFormat.HeaderField.dataOffset)
        let cityOffset = u32(MapAssetFormat.HeaderField.cityOffset)
        guard dataOffset >= MapAssetFormat.headerSize, dataOffset <= cityOffset, cityOffset <= bytes.count else {
            return nil
        }
        var out = bytes
        let crc = metadataChecksum(bytes, dataOffset: dataOffset, cityOffset: cityOffset)
        for i in 0..<4 {
            out[MapAssetFormat.HeaderField.checksum + i] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(i)))
        }
        return out
    }

    /// CRC-32 over the header (without its checksum field), level table, chunk index and city section.
    static func metadataChecksum(_ bytes: [UInt8], dataOffset: Int, cityOffset: Int) -> UInt32 {
        bytes.withUnsafeBytes { metadataChecksum($0, dataOffset: dataOffset, cityOffset: cityOffset) }
    }

    static func metadataChecksum(_ bytes: Data, dataOffset: Int, cityOffset: Int) -> UInt32 {
        bytes.withUnsafeBytes { metadataChecksum($0, dataOffset: dataOffset, cityOffset: cityOffset) }
    }

    static func metadataChecksum(_ raw: UnsafeRawBufferPointer, dataOffset: Int, cityOffset: Int) -> UInt32 {
        let f = MapAssetFormat.self
        var crc = CRC32.update(0, UnsafeRawBufferPointer(rebasing: raw[0..<f.HeaderField.checksum]))
        crc = CRC32.update(crc, UnsafeRawBufferPointer(rebasing: raw[f.headerSize..<dataOffset]))
        return CRC32.update(crc, UnsafeRawBufferPointer(rebasing: raw[cityOffset..<raw.count]))
    }

    // MARK: Chunks

    /// Decodes chunk `index` (cached), checking its checksum and that every point lies in its box.
    public func chunk(_ index: Int) throws(MapDataError) -> DecodedChunk {
        if let hit = cache.withLock({ $0.chunks[index] }) { return hit }
        guard chunks.indices.contains(index) else { throw MapDataError(file: name, .badOffset("chunk \(index)")) }
        let info = chunks[index]
        let start = dataOffset + info.offset
        let decoded: DecodedChunk? = bytes.withUnsafeBytes { raw in
            let payload = UnsafeRawBufferPointer(rebasing: raw[start..<(start + info.length)])
            guard CRC32.update(0, payload) == info.checksum else { return nil }
            return Self.decode(payload, info: info)
        }
        guard let chunk = decoded else { throw MapDataError(file: name, .corrupt("chunk \(index)")) }
        cache.withLock { c in
            if c.points + chunk.lon.count > Self.cacheLimitPoints {
                c.chunks.removeAll(keepingCapacity: true)
                c.points = 0
            }
            c.chunks[index] = chunk
            c.points += chunk.lon.count
        }
        return chunk
    }

    static func decode(_ payload: UnsafeRawBufferPointer, info: ChunkInfo) -> DecodedChunk? {
        var r = ByteReader(payload)
        var lon: [Int32] = []
        var lat: [Int32] = []
        var starts: [Int] = [0]
        // Each point takes at least 2 bytes: this bounds the arrays by the payload size.
        lon.reserveCapacity(payload.count / 2)
        lat.reserveCapacity(payload.count / 2)
        for _ in 0..<info.polylineCount {
            guard let n = r.varint(), n >= 2, n <= UInt64(r.remaining / 2) else { return nil }
            var x = Int64(info.minX)
            var y = Int64(info.minY)
            for _ in 0..<Int(n) {
                guard let dx = r.signedVarint(), let dy = r.signedVarint() else { return nil }
                x = x &+ dx
                y = y &+ dy
                guard x >= Int64(info.minX), x <= Int64(info.maxX), y >= Int64(info.minY), y <= Int64(info.maxY)
                else { return nil }
                lon.append(Int32(x))
                lat.append(Int32(y))
            }
            starts.append(lon.count)
        }
        guard r.remaining == 0 else { return nil }
        var xs = [Double](repeating: 0, count: lon.count)
        var ys = [Double](repeating: 0, count: lon.count)
        for i in lon.indices {
            let p = WebMercator.project(
                Coordinate(
                    latitude: Double(lat[i]) * MapAssetFormat.quantum,
                    longitude: Double(lon[i]) * MapAssetFormat.quantum))
            xs[i] = p.x
            ys[i] = p.y
        }
        return DecodedChunk(info: info, lon: lon, lat: lat, x: xs, y: ys, starts: starts)
    }

    // MARK: Queries

    /// The coarsest level whose tolerance is still finer than one dot at `metersPerDot` on `latitude`.
    public func level(forMetersPerDot metersPerDot: Double, latitude: Double) -> Int {
        let metersPerDegree =
            2 * Double.pi * WebMercator.earthRadius / 360 * cos(WebMercator.clampLatitude(latitude) * .pi / 180)
        for (i, level) in levels.enumerated() where level.toleranceDegrees * metersPerDegree <= metersPerDot {
            return i
        }
        return levels.count - 1
    }

    /// The decoded chunks of `layers` at `level` that meet `bounds`, with the world copies they meet it in.
    public func query(bounds: CoordinateBounds, level: Int, layers: Set<MapLayer> = Set(MapLayer.allCases))
        throws(MapDataError) -> [ChunkHit]
    {
        guard levels.indices.contains(level), bounds.west.isFinite, bounds.east.isFinite else { return [] }
        let u = MapAssetFormat.unitsPerDegree
        var hits: [ChunkHit] = []
        for i in levels[level].chunks {
            let c = chunks[i]
            guard layers.contains(c.layer) else { continue }
            guard Double(c.maxY) / u >= bounds.south, Double(c.minY) / u <= bounds.north else { continue }
            let minLon = Double(c.minX) / u
            let maxLon = Double(c.maxX) / u
            let firstShift = Int(((bounds.west - maxLon) / 360).rounded(.up))
            let lastShift = Int(((bounds.east - minLon) / 360).rounded(.down))
            guard firstShift <= lastShift else { continue }
            let decoded = try chunk(i)
            for shift in firstShift...min(lastShift, firstShift + 64) {
                hits.append(ChunkHit(chunk: decoded, shift: shift))
            }
        }
        return hits
    }

    /// `query` at the level for `metersPerDot` at the bounds' middle latitude.
    public func query(bounds: CoordinateBounds, metersPerDot: Double, layers: Set<MapLayer> = Set(MapLayer.allCases))
        throws(MapDataError) -> [ChunkHit]
    {
        let level = level(forMetersPerDot: metersPerDot, latitude: (bounds.north + bounds.south) / 2)
        return try query(bounds: bounds, level: level, layers: layers)
    }

    // MARK: Gazetteer

    /// All places, largest first (decoded on first use).
    public func cities() throws(MapDataError) -> [City] {
        if let c = cache.withLock({ $0.cities }) { return c }
        let decoded: [City]? = bytes.withUnsafeBytes { raw in
            var r = ByteReader(raw, from: cityRange.lowerBound, to: cityRange.upperBound)
            var out: [City] = []
            out.reserveCapacity(min(cityCount, r.remaining / 6))
            for _ in 0..<cityCount {
                guard let n = r.varint(), n <= 255, let nameBytes = r.bytes(Int(n)),
                    let lat = r.signedVarint(), let lon = r.signedVarint(), let pop = r.varint(),
                    let c1 = r.u8(), let c2 = r.u8(),
                    abs(lat) <= 9_000_000, abs(lon) <= 18_000_000, pop < 1 << 40
                else { return nil }
                out.append(
                    City(
                        name: String(decoding: nameBytes, as: UTF8.self),
                        coordinate: Coordinate(
                            latitude: Double(lat) * MapAssetFormat.quantum,
                            longitude: Double(lon) * MapAssetFormat.quantum),
                        countryCode: String(decoding: [c1, c2], as: UTF8.self), population: Int(pop)))
            }
            return r.remaining == 0 ? out : nil
        }
        guard let cities = decoded else { throw MapDataError(file: name, .corrupt("city section")) }
        cache.withLock { $0.cities = cities }
        return cities
    }

    /// Places whose name starts with `prefix`, ignoring case and accents, largest first.
    public func searchCities(_ prefix: String, limit: Int = 10) throws(MapDataError) -> [City] {
        let key = NameFolding.fold(prefix)
        guard !key.isEmpty else { return [] }
        var out: [City] = []
        for city in try cities() where NameFolding.fold(city.name).hasPrefix(key) {
            out.append(city)
            if out.count >= limit { break }
        }
        return out
    }
}

/// Case- and accent-insensitive keys for name search: compatibility decomposition, marks dropped, lowercased.
public enum NameFolding {
    /// `"Hà Nội"` → `"ha noi"`, `"Đà Nẵng"` → `"da nang"`.
    public static func fold(_ s: String) -> String {
        var scalars = String.UnicodeScalarView()
        for u in s.decomposedStringWithCompatibilityMapping.unicodeScalars {
            switch u.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark: continue
            default: scalars.append(u)
            }
        }
        // Letters with strokes do not decompose: map the common ones by hand.
        var out = ""
        for ch in String(scalars).lowercased() {
            switch ch {
            case "đ", "ð": out += "d"
            case "ø": out += "o"
            case "ł": out += "l"
            case "ß": out += "ss"
            case "æ": out += "ae"
            case "œ": out += "oe"
            case "ı": out += "i"
            default: out.append(ch)
            }
        }
        return out
    }
}
