import FoundationEssentials
import GeoCore
import Glibc
import MapFormats
import Support
import Synchronization

/// The 127-byte PMTiles v3 header (protomaps/PMTiles `spec/v3/spec.md`): offsets and lengths of the
/// root directory, metadata, leaf directories and tile data (u64 little-endian), counts, flags and the
/// tileset's zooms, bounds and center (i32 degrees × 10⁷).
public struct PMTilesHeader: Equatable, Sendable {
    public static let size = 127
    public var rootOffset: UInt64, rootLength: UInt64
    public var metadataOffset: UInt64, metadataLength: UInt64
    public var leafOffset: UInt64, leafLength: UInt64
    public var tileDataOffset: UInt64, tileDataLength: UInt64
    public var addressedTiles: UInt64, tileEntries: UInt64, tileContents: UInt64
    public var clustered: Bool
    /// 0 unknown, 1 none, 2 gzip, 3 brotli, 4 zstd.
    public var internalCompression: UInt8, tileCompression: UInt8
    /// 0 unknown, 1 MVT, 2 PNG, 3 JPEG, 4 WebP, 5 AVIF.
    public var tileType: UInt8
    public var minZoom: UInt8, maxZoom: UInt8
    public var minLonE7: Int32, minLatE7: Int32, maxLonE7: Int32, maxLatE7: Int32
    public var centerZoom: UInt8
    public var centerLonE7: Int32, centerLatE7: Int32

    /// Parses the header; nil when the bytes are not a PMTiles v3 header.
    init?(_ bytes: [UInt8]) {
        guard bytes.count >= Self.size, bytes.starts(with: Array("PMTiles".utf8)), bytes[7] == 3 else { return nil }
        let parsed: PMTilesHeader? = bytes.withUnsafeBytes { raw in
            var r = ByteReader(raw, from: 8)
            func u64() -> UInt64 {
                let lo = r.u32() ?? 0
                return UInt64(lo) | UInt64(r.u32() ?? 0) << 32
            }
            var h = PMTilesHeader.zero
            (h.rootOffset, h.rootLength, h.metadataOffset, h.metadataLength) = (u64(), u64(), u64(), u64())
            (h.leafOffset, h.leafLength, h.tileDataOffset, h.tileDataLength) = (u64(), u64(), u64(), u64())
            (h.addressedTiles, h.tileEntries, h.tileContents) = (u64(), u64(), u64())
            h.clustered = r.u8() == 1
            (h.internalCompression, h.tileCompression, h.tileType) = (r.u8() ?? 0, r.u8() ?? 0, r.u8() ?? 0)
            (h.minZoom, h.maxZoom) = (r.u8() ?? 0, r.u8() ?? 0)
            (h.minLonE7, h.minLatE7, h.maxLonE7, h.maxLatE7) = (r.i32() ?? 0, r.i32() ?? 0, r.i32() ?? 0, r.i32() ?? 0)
            h.centerZoom = r.u8() ?? 0
            (h.centerLonE7, h.centerLatE7) = (r.i32() ?? 0, r.i32() ?? 0)
            return h
        }
        guard let parsed else { return nil }
        self = parsed
    }

    /// Every field zero (a start for writers).
    public static let zero = PMTilesHeader(
        rootOffset: 0, rootLength: 0, metadataOffset: 0, metadataLength: 0, leafOffset: 0, leafLength: 0,
        tileDataOffset: 0, tileDataLength: 0, addressedTiles: 0, tileEntries: 0, tileContents: 0, clustered: false,
        internalCompression: 0, tileCompression: 0, tileType: 0, minZoom: 0, maxZoom: 0, minLonE7: 0, minLatE7: 0,
        maxLonE7: 0, maxLatE7: 0, centerZoom: 0, centerLonE7: 0, centerLatE7: 0)

    private init(
        rootOffset: UInt64, rootLength: UInt64, metadataOffset: UInt64, metadataLength: UInt64, leafOffset: UInt64,
        leafLength: UInt64, tileDataOffset: UInt64, tileDataLength: UInt64, addressedTiles: UInt64,
        tileEntries: UInt64, tileContents: UInt64, clustered: Bool, internalCompression: UInt8,
        tileCompression: UInt8, tileType: UInt8, minZoom: UInt8, maxZoom: UInt8, minLonE7: Int32, minLatE7: Int32,
        maxLonE7: Int32, maxLatE7: Int32, centerZoom: UInt8, centerLonE7: Int32, centerLatE7: Int32
    ) {
        (self.rootOffset, self.rootLength, self.metadataOffset, self.metadataLength) =
            (rootOffset, rootLength, metadataOffset, metadataLength)
        (self.leafOffset, self.leafLength, self.tileDataOffset, self.tileDataLength) =
            (leafOffset, leafLength, tileDataOffset, tileDataLength)
        (self.addressedTiles, self.tileEntries, self.tileContents) = (addressedTiles, tileEntries, tileContents)
        (self.clustered, self.internalCompression, self.tileCompression, self.tileType) =
            (clustered, internalCompression, tileCompression, tileType)
        (self.minZoom, self.maxZoom, self.centerZoom) = (minZoom, maxZoom, centerZoom)
        (self.minLonE7, self.minLatE7, self.maxLonE7, self.maxLatE7) = (minLonE7, minLatE7, maxLonE7, maxLatE7)
        (self.centerLonE7, self.centerLatE7) = (centerLonE7, centerLatE7)
    }

    /// The 127 bytes of the header (protomaps/PMTiles spec v3, "Header"): the magic and version, then
    /// the fields in order, little-endian.
    public var bytes: [UInt8] {
        var h: [UInt8] = Array("PMTiles".utf8) + [3]
        func u64(_ v: UInt64) { for i in 0..<8 { h.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(i)))) } }
        func i32(_ v: Int32) {
            for i in 0..<4 { h.append(UInt8(truncatingIfNeeded: UInt32(bitPattern: v) >> (8 * UInt32(i)))) }
        }
        for v in [
            rootOffset, rootLength, metadataOffset, metadataLength, leafOffset, leafLength, tileDataOffset,
            tileDataLength,
        ] {
            u64(v)
        }
        for v in [addressedTiles, tileEntries, tileContents] { u64(v) }
        h += [clustered ? 1 : 0, internalCompression, tileCompression, tileType, minZoom, maxZoom]
        for v in [minLonE7, minLatE7, maxLonE7, maxLatE7] { i32(v) }
        h.append(centerZoom)
        i32(centerLonE7)
        i32(centerLatE7)
        return h
    }

    /// A compression's name.
    static func compressionName(_ c: UInt8) -> String {
        ["unknown", "none", "gzip", "brotli", "zstd"].indices.contains(Int(c))
            ? ["unknown", "none", "gzip", "brotli", "zstd"][Int(c)] : "type \(c)"
    }
}

/// One directory entry: tiles `tileID ..< tileID + runLength` share the bytes at `offset` (relative to
/// the tile data); a run length of 0 points to a leaf directory (relative to the leaf section).
public struct PMTilesEntry: Equatable, Sendable {
    public var tileID: UInt64
    public var offset: UInt64
    public var length: UInt32
    public var runLength: UInt32
    public init(tileID: UInt64, offset: UInt64, length: UInt32, runLength: UInt32) {
        (self.tileID, self.offset, self.length, self.runLength) = (tileID, offset, length, runLength)
    }
}

/// A PMTiles v3 archive over a byte-range source: the header and root directory from its first
/// 16 KiB, leaf directories read when a tile needs them (and kept), tiles read together.
public final class PMTilesArchive: TileArchive {
    public let info: TilesetInfo
    /// The header (read anew when the file changes on the server).
    public var header: PMTilesHeader { state.withLock { $0.header } }
    /// The metadata JSON object.
    public let metadata: [String: String]
    private let source: any ByteRangeSource
    private let state: Mutex<State>

    private struct State {
        var header: PMTilesHeader
        var root: [PMTilesEntry]
        /// Leaf directories by offset, with their last use (kept up to `leafCacheLimit`).
        var leaves: [UInt64: (entries: [PMTilesEntry], lastUse: UInt64)] = [:]
        var clock: UInt64 = 0
    }

    /// Leaf directories kept (each a few hundred KB at most once decoded).
    static let leafCacheLimit = 64
    /// Directory lookups a tile may take: the root and three levels of leaves (the spec's writer uses
    /// one or two); a deeper chain is a loop.
    static let maxDepth = 4
    /// The most entries a directory may have (a forged count must not allocate the machine).
    static let maxEntries = 10_000_000

    /// Opens an archive: reads and checks the header, root directory and metadata.
    public init(source: any ByteRangeSource) throws(MapDataError) {
        self.source = source
        let name = source.name
        func fail(_ kind: MapDataError.Kind) -> MapDataError { MapDataError(file: name, kind) }
        // The spec keeps the header and root directory within the first 16 KiB: one request.
        let head = try source.read(offset: 0, length: 16_384)
        let h = try Self.checkedHeader(head, source: source)
        let rootBytes: [UInt8]
        if h.rootOffset <= UInt64(head.count), h.rootLength <= UInt64(head.count) - h.rootOffset {
            rootBytes = Array(head[Int(h.rootOffset)..<Int(h.rootOffset + h.rootLength)])
        } else {
            rootBytes = try source.read(offset: h.rootOffset, length: Int(h.rootLength))
        }
        guard rootBytes.count == Int(h.rootLength) else { throw fail(.truncated("root directory")) }
        guard let root = Self.decodeDirectory(rootBytes, compression: h.internalCompression) else {
            throw fail(.corrupt("root directory"))
        }
        let (meta, layers) = try Self.metadata(h, head: head, source: source)
        metadata = meta
        state = Mutex(State(header: h, root: root))
        let e7 = 1e-7
        var bounds = CoordinateBounds(
            north: Double(h.maxLatE7) * e7, south: Double(h.minLatE7) * e7, west: Double(h.minLonE7) * e7,
            east: Double(h.maxLonE7) * e7)
        if !(bounds.north > bounds.south && bounds.east > bounds.west) {
            bounds = CoordinateBounds(north: 90, south: -90, west: -180, east: 180)
        }
        let file = name.split(separator: "/").last.map(String.init) ?? name
        var described = TilesetInfo(
            format: "PMTiles v3", name: meta["name"] ?? file, minZoom: Int(h.minZoom), maxZoom: Int(h.maxZoom),
            bounds: bounds, tileCount: Int(exactly: h.addressedTiles),
            attribution: TilesetInfo.plainAttribution(meta["attribution"]),
            layers: layers, compression: PMTilesHeader.compressionName(h.tileCompression),
            imageFormat: [2: "png", 3: "jpg", 4: "webp"][h.tileType])
        described.encoding = meta["encoding"].flatMap(TerrainEncoding.init(named:))
        info = described
    }

    /// The header, checked: a PMTiles v3 of vector tiles (or tiles told by their magic) compressed with
    /// gzip or nothing, whose sections lie inside the file where its size is known (a cut file, an
    /// interrupted download, keeps a healthy header).
    static func checkedHeader(_ head: [UInt8], source: any ByteRangeSource) throws(MapDataError) -> PMTilesHeader {
        let name = source.name
        func fail(_ kind: MapDataError.Kind) -> MapDataError { MapDataError(file: name, kind) }
        let magic = head.starts(with: Array("PMTiles".utf8))
        guard let h = PMTilesHeader(head) else {
            if magic && head.count < PMTilesHeader.size { throw fail(.truncated("header")) }
            if magic && head.count > 7 {
                throw fail(.badInput("PMTiles version \(head[7]) is not supported (this termmap reads version 3)"))
            }
            throw fail(.badInput("not a PMTiles file (no PMTiles v3 header)"))
        }
        // Unknown (0) tile compression is told by each tile's magic; brotli and zstd have no decoder here.
        for c in [h.internalCompression, h.tileCompression] where c > 2 {
            throw fail(.badInput("\(PMTilesHeader.compressionName(c)) compression is not supported (gzip or none)"))
        }
        // Types 2–4 are PNG, JPEG and WebP raster tiles (the imagery layer's).
        guard (0...4).contains(h.tileType) else {
            // Type 6 is MapLibre Tiles (spec v3.0.1): vector tiles, in another encoding.
            if h.tileType == 6 {
                throw fail(.badInput("MapLibre Tiles (MLT) are not supported yet (Mapbox Vector Tiles only)"))
            }
            let kind =
                ["", "", "PNG", "JPEG", "WebP", "AVIF"].indices.contains(Int(h.tileType))
                ? ["", "", "PNG", "JPEG", "WebP", "AVIF"][Int(h.tileType)] : "type \(h.tileType)"
            throw fail(.badInput("\(kind) tiles are not supported (vector, PNG, JPEG or WebP tiles)"))
        }
        guard h.rootLength > 0, h.rootLength <= 1 << 24, h.metadataLength <= 1 << 24 else {
            throw fail(.badOffset("header (root directory or metadata length)"))
        }
        // Every section it names must lie inside the file, or each tile past the cut would fail one by one.
        if let size = source.knownSize {
            let sections = [
                ("root directory", h.rootOffset, h.rootLength), ("metadata", h.metadataOffset, h.metadataLength),
                ("leaf directories", h.leafOffset, h.leafLength), ("tile data", h.tileDataOffset, h.tileDataLength),
            ]
            for (part, offset, length) in sections where length > 0 {
                let (end, overflow) = offset.addingReportingOverflow(length)
                guard overflow || end > size else { continue }
                throw fail(
                    .badInput(
                        "truncated: the header's \(part) ends at byte \(overflow ? UInt64.max : end), the file has \(size) bytes (an interrupted download?)"
                    ))
            }
        }
        return h
    }

    /// The metadata's text values and the vector layers it names (usually within the first 16 KiB too:
    /// the spec's writer puts it right after the root).
    static func metadata(_ h: PMTilesHeader, head: [UInt8], source: any ByteRangeSource) throws(MapDataError) -> (
        [String: String], [String]
    ) {
        let name = source.name
        func fail(_ kind: MapDataError.Kind) -> MapDataError { MapDataError(file: name, kind) }
        var meta: [String: String] = [:]
        var layers: [String] = []
        if h.metadataLength > 0 {
            let raw: [UInt8] =
                h.metadataOffset <= UInt64(head.count) && h.metadataLength <= UInt64(head.count) - h.metadataOffset
                ? Array(head[Int(h.metadataOffset)..<Int(h.metadataOffset + h.metadataLength)])
                : try source.read(offset: h.metadataOffset, length: Int(h.metadataLength))
            guard raw.count == Int(h.metadataLength) else { throw fail(.truncated("metadata")) }
            let text: [UInt8]? =
                h.internalCompression == 2 ? raw.withUnsafeBytes { Zlib.inflate(gzipOrZlib: $0, limit: 1 << 26) } : raw
            guard let text, let json = JSONValue.parse(text)?.object else {
                throw fail(.corrupt("metadata (not a JSON object)"))
            }
            for (k, v) in json {
                if let s = v.text { meta[k] = s }
            }
            layers = TilesetInfo.layerNames(json)
        }
        return (meta, layers)
    }

    /// A directory: the number of entries, then per column (tile id deltas, run lengths, lengths,
    /// offsets) one varint an entry; an offset of 0 after the first entry means "right after the one
    /// before". Nil when malformed (ids must ascend, so that a lookup can search them).
    static func decodeDirectory(_ stored: [UInt8], compression: UInt8) -> [PMTilesEntry]? {
        let bytes: [UInt8]
        if compression == 2 {
            guard let b = stored.withUnsafeBytes({ Zlib.inflate(gzipOrZlib: $0, limit: TileLimits.inflatedBytes) })
            else { return nil }
            bytes = b
        } else {
            bytes = stored
        }
        return bytes.withUnsafeBytes { raw -> [PMTilesEntry]? in
            var r = ByteReader(raw)
            // Every entry takes at least four bytes.
            guard let n = r.varint(), n <= UInt64(r.remaining / 4), n <= UInt64(maxEntries) else { return nil }
            let count = Int(n)
            var entries = [PMTilesEntry](
                repeating: PMTilesEntry(tileID: 0, offset: 0, length: 0, runLength: 0), count: count)
            var id: UInt64 = 0
            for i in 0..<count {
                guard let d = r.varint() else { return nil }
                let (next, overflow) = id.addingReportingOverflow(d)
                guard !overflow, i == 0 || d > 0 else { return nil }
                id = next
                entries[i].tileID = id
            }
            for i in 0..<count {
                guard let v = r.varint(), v <= UInt64(UInt32.max) else { return nil }
                entries[i].runLength = UInt32(v)
            }
            for i in 0..<count {
                guard let v = r.varint(), v <= UInt64(UInt32.max), v > 0 else { return nil }
                entries[i].length = UInt32(v)
            }
            for i in 0..<count {
                guard let v = r.varint() else { return nil }
                if v == 0 {
                    guard i > 0 else { return nil }
                    entries[i].offset = entries[i - 1].offset &+ UInt64(entries[i - 1].length)
                } else {
                    entries[i].offset = v - 1
                }
            }
            return r.remaining == 0 ? entries : nil
        }
    }

    /// The entry holding `id` (a tile run or a leaf directory), by binary search: the last entry whose
    /// id is at most `id`.
    static func find(_ id: UInt64, in entries: [PMTilesEntry]) -> PMTilesEntry? {
        var lo = 0
        var hi = entries.count - 1
        while lo <= hi {
            let mid = (lo + hi) / 2
            if entries[mid].tileID == id { return entries[mid] }
            if entries[mid].tileID < id { lo = mid + 1 } else { hi = mid - 1 }
        }
        guard hi >= 0 else { return nil }
        let e = entries[hi]
        // A leaf directory covers every id from its first on; a tile run only its run.
        if e.runLength == 0 || id - e.tileID < UInt64(e.runLength) { return e }
        return nil
    }

    /// Where a tile's bytes are (relative to the file), nil when the archive has no such tile.
    public func locate(_ tile: TileID) throws(TileFailure) -> (offset: UInt64, length: Int)? {
        guard tile.isValid else { return nil }
        let id = tile.pmtilesID
        let header = state.withLock { $0.header }
        var entries = state.withLock { $0.root }
        for _ in 0..<Self.maxDepth {
            guard let e = Self.find(id, in: entries) else { return nil }
            if e.runLength > 0 {
                let (offset, overflow) = header.tileDataOffset.addingReportingOverflow(e.offset)
                // Within the tile data section (subtraction, so that forged offsets cannot overflow).
                guard !overflow, e.offset <= header.tileDataLength, UInt64(e.length) <= header.tileDataLength - e.offset
                else { throw TileFailure("tile \(tile) lies past the tile data") }
                return (offset, Int(e.length))
            }
            entries = try leaf(at: e.offset, length: Int(e.length), header: header)
        }
        throw TileFailure("tile \(tile): leaf directories nest deeper than \(Self.maxDepth - 1) levels (a loop)")
    }

    /// A leaf directory, from the cache or read.
    private func leaf(at offset: UInt64, length: Int, header: PMTilesHeader) throws(TileFailure) -> [PMTilesEntry] {
        let cached = state.withLock { s -> [PMTilesEntry]? in
            guard let hit = s.leaves[offset] else { return nil }
            s.clock += 1
            s.leaves[offset] = (hit.entries, s.clock)
            return hit.entries
        }
        if let cached { return cached }
        guard offset <= header.leafLength, UInt64(length) <= header.leafLength - offset,
            length <= TileLimits.compressedBytes
        else { throw TileFailure("leaf directory at \(offset) lies past the leaf section") }
        let bytes: [UInt8]
        do {
            bytes = try source.read(offset: header.leafOffset &+ offset, length: length)
        } catch {
            throw TileFailure(error.description, retry: (source as? HTTPRangeSource)?.retry(after: error) ?? .never)
        }
        guard bytes.count == length, let entries = Self.decodeDirectory(bytes, compression: header.internalCompression)
        else { throw TileFailure("corrupt leaf directory at \(offset)") }
        state.withLock { s in
            s.clock += 1
            s.leaves[offset] = (entries, s.clock)
            if s.leaves.count > Self.leafCacheLimit,
                let oldest = s.leaves.min(by: { $0.value.lastUse < $1.value.lastUse })
            {
                s.leaves[oldest.key] = nil
            }
        }
        return entries
    }

    public var isRemote: Bool { source is HTTPRangeSource }

    /// True when the source found the file changed: the directories are read anew (the tiles' new
    /// places follow from them).
    public func refreshIfChanged() -> Bool {
        guard source.takeChanged() else { return false }
        try? reloadDirectories()
        return true
    }

    /// Drops the cached leaf directories and reads the root anew (the file changed on the server).
    func reloadDirectories() throws(MapDataError) {
        let fresh = try PMTilesArchive(source: source)
        let (header, root) = fresh.state.withLock { ($0.header, $0.root) }
        state.withLock { s in
            s.header = header
            s.root = root
            s.leaves = [:]
        }
    }

    public func storedTiles(_ ids: [TileID], wanted: @escaping @Sendable (TileID) -> Bool) -> [TileID: Result<
        [UInt8]?, TileFailure
    >] {
        var out: [TileID: Result<[UInt8]?, TileFailure>] = [:]
        var toRead: [(tile: TileID, offset: UInt64, length: Int)] = []
        // A remote file's tiles seen before are on disk (they hold while the file's ETag does).
        let disk = (source as? HTTPRangeSource)?.cache
        for tile in ids {
            if let kept = disk?.tile(tile) {
                out[tile] = .success(kept.body)
                continue
            }
            do {
                if let place = try locate(tile) {
                    guard place.length <= TileLimits.compressedBytes else {
                        out[tile] = .failure(TileFailure("tile \(tile) of \(place.length) bytes (more than 4 MB)"))
                        continue
                    }
                    toRead.append((tile, place.offset, place.length))
                } else {
                    out[tile] = .success(nil)
                    disk?.put(tile, TileDiskCache.Entry(body: nil, expires: .max))
                }
            } catch {
                out[tile] = .failure(error)
            }
        }
        guard !toRead.isEmpty else { return out }
        do {
            let data = try source.read(ranges: toRead.map { ($0.offset, $0.length) })
            for (w, bytes) in zip(toRead, data) {
                guard bytes.count == w.length else {
                    out[w.tile] = .failure(TileFailure("tile \(w.tile) is cut short"))
                    continue
                }
                out[w.tile] = .success(bytes)
                disk?.put(w.tile, TileDiskCache.Entry(body: bytes, expires: .max))
            }
        } catch {
            let retry = (source as? HTTPRangeSource)?.retry(after: error) ?? .never
            for w in toRead { out[w.tile] = .failure(TileFailure(error.description, retry: retry)) }
        }
        return out
    }

    public func takeNotices() -> [String] { (source as? HTTPRangeSource)?.cache?.takeNotices() ?? [] }

    public func finish() { (source as? HTTPRangeSource)?.cache?.close() }
}
