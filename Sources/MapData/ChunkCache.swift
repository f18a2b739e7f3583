/// Decoded chunks kept for reuse, bounded by their total points: when full, the least recently used
/// go first (a pan keeps what it still shows instead of decoding everything again).
struct ChunkCache {
    private var entries: [Int: (chunk: DecodedChunk, lastUse: UInt64)] = [:]
    private var clock: UInt64 = 0
    /// Points held now.
    private(set) var points = 0
    /// Most points held.
    let limit: Int

    init(limit: Int) { self.limit = limit }

    /// The chunk at `index`, marked as just used.
    mutating func get(_ index: Int) -> DecodedChunk? {
        guard let hit = entries[index] else { return nil }
        clock += 1
        entries[index] = (hit.chunk, clock)
        return hit.chunk
    }

    /// Keeps `chunk`; when that passes the limit, drops the least recently used until a quarter of the
    /// room is free again (so that eviction, a sort, runs rarely).
    mutating func put(_ index: Int, _ chunk: DecodedChunk) {
        clock += 1
        if let old = entries[index] { points -= old.chunk.pointCount }
        entries[index] = (chunk, clock)
        points += chunk.pointCount
        guard points > limit else { return }
        for (key, entry) in entries.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
            guard points > limit * 3 / 4, key != index else { continue }
            entries[key] = nil
            points -= entry.chunk.pointCount
        }
    }

    /// How many chunks are held.
    var count: Int { entries.count }
    /// True when `index` is held.
    func contains(_ index: Int) -> Bool { entries[index] != nil }
}
