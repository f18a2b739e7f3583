import FoundationEssentials
import GeoCore
import Glibc
import MapData
import MapFormats
import Support
import SystemSupport

/// Writes a PMTiles v3 archive (protomaps/PMTiles `spec/v3/spec.md`): clustered (tile data in tile-id
/// order), a tile whose bytes equal an earlier one's stored once, consecutive tiles of equal bytes one
/// directory entry with a run length, the root directory within the first 16 KiB and leaf
/// directories when the entries do not fit in it. Tiles are kept as given (gzip or not); directories
/// and metadata are gzip-compressed (internal compression 2, what the spec's readers expect).
public enum PMTilesBuilder {
    /// A tile to write: its id, length and hash (its bytes are read as it is written; the tile data
    /// section, each content once, is assembled in memory).
    public struct Tile {
        public var id: UInt64
        public var length: Int
        /// A hash of its bytes (equal bytes, equal hash).
        public var hash: UInt64
        public init(id: UInt64, length: Int, hash: UInt64) {
            (self.id, self.length, self.hash) = (id, length, hash)
        }
    }

    /// What the archive says about itself.
    public struct Description {
        public var bounds: CoordinateBounds
        public var metadata: [String: JSONText]
        public init(bounds: CoordinateBounds, metadata: [String: JSONText]) {
            self.bounds = bounds
            self.metadata = metadata
        }
    }

    /// A metadata value: a string, or JSON written as it is.
    public enum JSONText {
        case string(String)
        case raw(String)
    }

    /// FNV-1a over bytes (for telling equal tiles; equal hashes are compared byte for byte).
    public static func hash(_ bytes: [UInt8]) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes {
            h ^= UInt64(b)
            h = h &* 0x100_0000_01b3
        }
        return h ^ UInt64(bytes.count)
    }

    /// The bytes of a directory: the count, then per column tile id deltas, run lengths, lengths, and
    /// offsets + 1 (0 when right after the entry before).
    public static func directory(_ entries: [PMTilesEntry]) -> [UInt8] {
        var out: [UInt8] = []
        func varint(_ v: UInt64) {
            var v = v
            while v >= 0x80 {
                out.append(UInt8(v & 0x7f) | 0x80)
                v >>= 7
            }
            out.append(UInt8(v))
        }
        varint(UInt64(entries.count))
        var last: UInt64 = 0
        for e in entries {
            varint(e.tileID - last)
            last = e.tileID
        }
        for e in entries { varint(UInt64(e.runLength)) }
        for e in entries { varint(UInt64(e.length)) }
        for (i, e) in entries.enumerated() {
            if i > 0, e.offset == entries[i - 1].offset + UInt64(entries[i - 1].length) {
                varint(0)
            } else {
                varint(e.offset + 1)
            }
        }
        return out
    }

    /// Root and leaf directories for `entries`: the root alone when it fits in the first 16 KiB with
    /// the header, else leaves of the fewest entries that let the root fit.
    static func directories(_ entries: [PMTilesEntry]) -> (root: [UInt8], leaves: [UInt8]) {
        let rootRoom = 16_384 - PMTilesHeader.size
        let whole = gzipped(directory(entries))
        if whole.count <= rootRoom { return (whole, []) }
        var leafSize = 4_096
        while true {
            var rootEntries: [PMTilesEntry] = []
            var leaves: [UInt8] = []
            var i = 0
            while i < entries.count {
                let part = Array(entries[i..<min(entries.count, i + leafSize)])
                let bytes = gzipped(directory(part))
                rootEntries.append(
                    PMTilesEntry(
                        tileID: part[0].tileID, offset: UInt64(leaves.count), length: UInt32(bytes.count), runLength: 0)
                )
                leaves += bytes
                i += leafSize
            }
            let root = gzipped(directory(rootEntries))
            if root.count <= rootRoom { return (root, leaves) }
            leafSize *= 2
        }
    }

    /// Writes the archive of `tiles` (any order; each id once) to `path`, reading each tile's bytes
    /// with `bytes`. Returns the number of distinct tile contents.
    public static func write(
        _ tiles: [Tile], to path: String, description: Description, bytes: (Tile) throws -> [UInt8]
    ) throws -> Int {
        let sorted = tiles.sorted { $0.id < $1.id }
        // Tile data: each distinct content once, in id order of its first tile.
        var data: [UInt8] = []
        var stored: [UInt64: [(offset: UInt64, length: Int)]] = [:]
        var entries: [PMTilesEntry] = []
        var gzipTiles = 0
        // The tiles' type (PMTiles v3: 1 MVT, 2 PNG, 3 JPEG, 4 WebP), told by their bytes: an area of
        // imagery makes a raster archive.
        var types = Set<UInt8>()
        var minZoom = 31
        var maxZoom = 0
        for tile in sorted {
            let content = try bytes(tile)
            if content.starts(with: [0x1f, 0x8b]) { gzipTiles += 1 }
            if !content.isEmpty { types.insert(Self.tileType(content)) }
            if let z = TileID(pmtilesID: tile.id)?.z { (minZoom, maxZoom) = (min(minZoom, z), max(maxZoom, z)) }
            var offset: UInt64?
            for candidate in stored[tile.hash] ?? [] where candidate.length == content.count {
                let start = Int(candidate.offset)
                if data[start..<start + candidate.length].elementsEqual(content) {
                    offset = candidate.offset
                    break
                }
            }
            if offset == nil {
                offset = UInt64(data.count)
                stored[tile.hash, default: []].append((UInt64(data.count), content.count))
                data += content
            }
            let at = offset ?? 0
            if let last = entries.last, last.offset == at, last.tileID + UInt64(last.runLength) == tile.id {
                entries[entries.count - 1].runLength += 1
            } else {
                entries.append(PMTilesEntry(tileID: tile.id, offset: at, length: UInt32(content.count), runLength: 1))
            }
        }
        let (root, leaves) = directories(entries)
        let metadata = gzipped(Array(metadataJSON(description.metadata).utf8))
        let rootOffset = UInt64(PMTilesHeader.size)
        let metadataOffset = rootOffset + UInt64(root.count)
        let leafOffset = metadataOffset + UInt64(metadata.count)
        let dataOffset = leafOffset + UInt64(leaves.count)
        var header = PMTilesHeader.zero
        (header.rootOffset, header.rootLength) = (rootOffset, UInt64(root.count))
        (header.metadataOffset, header.metadataLength) = (metadataOffset, UInt64(metadata.count))
        (header.leafOffset, header.leafLength) = (leafOffset, UInt64(leaves.count))
        (header.tileDataOffset, header.tileDataLength) = (dataOffset, UInt64(data.count))
        header.addressedTiles = UInt64(sorted.count)
        header.tileEntries = UInt64(entries.count)
        header.tileContents = UInt64(stored.values.reduce(0) { $0 + $1.count })
        // Clustered; internal compression gzip; tile compression gzip, none, or unknown when mixed; the
        // tiles' type (unknown when mixed).
        let tileCompression: UInt8 = gzipTiles == sorted.count ? 2 : gzipTiles == 0 ? 1 : 0
        if sorted.isEmpty { (minZoom, maxZoom) = (0, 0) }
        (header.clustered, header.internalCompression, header.tileCompression, header.tileType) = (
            true, 2, tileCompression, types.count > 1 ? 0 : types.first ?? 1
        )
        (header.minZoom, header.maxZoom, header.centerZoom) = (UInt8(minZoom), UInt8(maxZoom), UInt8(minZoom))
        let b = description.bounds
        func e7(_ degrees: Double) -> Int32 { Int32((degrees * 10_000_000).rounded()) }
        (header.minLonE7, header.minLatE7, header.maxLonE7, header.maxLatE7) = (
            e7(b.west), e7(b.south), e7(b.east), e7(b.north)
        )
        (header.centerLonE7, header.centerLatE7) = (e7((b.west + b.east) / 2), e7((b.south + b.north) / 2))
        let h = header.bytes
        let file = h + root + metadata + leaves + data
        try writeFile(file, to: path)
        return stored.values.reduce(0) { $0 + $1.count }
    }

    /// A tile's PMTiles type by its bytes: 2 PNG, 3 JPEG, 4 WebP, else 1 (MVT, gzipped or not).
    static func tileType(_ content: [UInt8]) -> UInt8 {
        switch TileImage.Kind(signature: Array(content.prefix(16))) {
        case .png?: 2
        case .jpeg?: 3
        case .webp?: 4
        case nil: 1
        }
    }

    /// The metadata as a JSON object, its keys in order.
    static func metadataJSON(_ metadata: [String: JSONText]) -> String {
        var json = "{"
        for (i, (key, value)) in metadata.sorted(by: { $0.key < $1.key }).enumerated() {
            if i > 0 { json += "," }
            json += Self.quoted(key) + ":"
            switch value {
            case .string(let s): json += Self.quoted(s)
            case .raw(let r): json += r
            }
        }
        json += "}"
        return json
    }

    /// Writes `file` to `path` and syncs it to the disk; one line when it cannot.
    static func writeFile(_ file: [UInt8], to path: String) throws(MapDataError) {
        guard let f = fopen(path, "wb") else {
            throw MapDataError(file: path, .unreadable("cannot write: \(systemErrorReason())"))
        }
        let written = file.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, f) }
        let flushed = fflush(f) == 0 && fsync(fileno(f)) == 0
        guard fclose(f) == 0, flushed, written == file.count else {
            throw MapDataError(file: path, .unreadable("cannot write: \(systemErrorReason())"))
        }
    }

    /// `bytes` gzip-compressed (zlib does not fail on memory it has).
    static func gzipped(_ bytes: [UInt8]) -> [UInt8] { Zlib.gzip(bytes) ?? [] }

    /// A JSON string.
    public static func quoted(_ s: String) -> String { jsonQuoted(s) }
}
