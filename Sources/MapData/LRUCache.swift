import MapFormats

/// Values kept up to a total cost (decoded chunks by their points, tiles by their bytes); when over,
/// the least recently used go first, so that a pan keeps what it still shows instead of decoding it
/// again.
struct LRUCache<Key: Hashable, Value> {
    private var entries: [Key: (value: Value, cost: Int, lastUse: UInt64)] = [:]
    private var clock: UInt64 = 0
    /// The cost held now.
    private(set) var cost = 0
    /// The most cost held.
    let limit: Int

    init(limit: Int) { self.limit = max(0, limit) }

    /// How many values are held.
    var count: Int { entries.count }

    /// True when `key` is held.
    func contains(_ key: Key) -> Bool { entries[key] != nil }

    /// The value, left as it was used (what-is-here asks of what a view drew).
    func peek(_ key: Key) -> Value? { entries[key]?.value }

    /// The value, marked as just used.
    mutating func get(_ key: Key) -> Value? {
        guard let e = entries[key] else { return nil }
        clock += 1
        entries[key] = (e.value, e.cost, clock)
        return e.value
    }

    /// Keeps a value; over the limit, drops the least recently used others until three quarters of the
    /// limit is used (so that eviction, a sort, runs rarely). The newest value stays even when it alone
    /// passes the limit (the view being drawn needs it).
    mutating func put(_ key: Key, _ value: Value, cost: Int) {
        clock += 1
        if let old = entries[key] { self.cost -= old.cost }
        entries[key] = (value, cost, clock)
        self.cost += cost
        guard self.cost > limit else { return }
        for (k, e) in entries.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
            guard self.cost > limit * 3 / 4, k != key else { continue }
            entries[k] = nil
            self.cost -= e.cost
        }
    }

    /// Empties the cache.
    mutating func removeAll() {
        entries.removeAll()
        cost = 0
    }
}
