import MapBuilders
import MapData

/// Writes small PMTiles v3 archives in memory for tests and fuzzing: directories uncompressed (so that
/// mutations reach the varints, not gzip's checksum), tiles as given, optionally split into leaf
/// directories, or a leaf directory that points at itself.
public enum PMTilesWriter {
    /// A directory entry: tile id, offset, length, run length (0: a leaf directory).
    public typealias Entry = (tileID: UInt64, offset: UInt64, length: UInt64, runLength: UInt64)

    /// The bytes of a directory (protomaps/PMTiles spec v3, "Directories"): the count, then per column
    /// tile id deltas, run lengths, lengths, and offsets + 1 (0 when right after the entry before).
    public static func directory(_ entries: [Entry]) -> [UInt8] {
        PMTilesBuilder.directory(
            entries.map {
                PMTilesEntry(
                    tileID: $0.tileID, offset: $0.offset, length: UInt32($0.length), runLength: UInt32($0.runLength))
            })
    }

    /// An archive of `tiles` (id and bytes, ascending ids), tile compression `tileCompression`
    /// (1 none, 2 gzip). With `leafSize`, the entries go into leaf directories of that many each; with
    /// `loop`, the root points at a leaf that points at itself.
    public static func archive(
        tiles: [(id: UInt64, data: [UInt8])], tileCompression: UInt8 = 1, leafSize: Int? = nil, loop: Bool = false,
        maxZoom: UInt8 = 14, tileType: UInt8 = 1
    ) -> [UInt8] {
        var data: [UInt8] = []
        var entries: [Entry] = []
        for t in tiles {
            entries.append((t.id, UInt64(data.count), UInt64(t.data.count), 1))
            data += t.data
        }
        var root: [UInt8]
        var leaves: [UInt8] = []
        if loop {
            let leaf = directory([(0, 0, 0, 0)])
            // The leaf's one entry is itself (offset 0 in the leaf section, its own length).
            let selfLeaf = directory([(0, 0, UInt64(leaf.count), 0)])
            leaves = selfLeaf
            root = directory([(0, 0, UInt64(selfLeaf.count), 0)])
        } else if let leafSize, leafSize > 0 {
            var rootEntries: [Entry] = []
            var i = 0
            while i < entries.count {
                let part = Array(entries[i..<min(entries.count, i + leafSize)])
                let bytes = directory(part)
                rootEntries.append((part[0].tileID, UInt64(leaves.count), UInt64(bytes.count), 0))
                leaves += bytes
                i += leafSize
            }
            root = directory(rootEntries)
        } else {
            root = directory(entries)
        }
        let metadata = Array("{\"name\":\"fuzz\",\"vector_layers\":[{\"id\":\"roads\"}]}".utf8)
        let rootOffset = UInt64(PMTilesHeader.size)
        let metadataOffset = rootOffset + UInt64(root.count)
        let leafOffset = metadataOffset + UInt64(metadata.count)
        let dataOffset = leafOffset + UInt64(leaves.count)
        var header = PMTilesHeader.zero
        (header.rootOffset, header.rootLength) = (rootOffset, UInt64(root.count))
        (header.metadataOffset, header.metadataLength) = (metadataOffset, UInt64(metadata.count))
        (header.leafOffset, header.leafLength) = (leafOffset, UInt64(leaves.count))
        (header.tileDataOffset, header.tileDataLength) = (dataOffset, UInt64(data.count))
        (header.addressedTiles, header.tileEntries, header.tileContents) = (
            UInt64(tiles.count), UInt64(tiles.count), UInt64(tiles.count)
        )
        // Clustered, directories uncompressed, MVT (or `tileType`), the whole world.
        (header.clustered, header.internalCompression, header.tileCompression, header.tileType) = (
            true, 1, tileCompression, tileType
        )
        header.maxZoom = maxZoom
        (header.minLonE7, header.minLatE7, header.maxLonE7, header.maxLatE7) = (
            -1_800_000_000, -850_000_000, 1_800_000_000, 850_000_000
        )
        let h = header.bytes
        return h + root + metadata + leaves + data
    }
}
