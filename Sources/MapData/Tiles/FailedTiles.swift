import MapFormats

/// The tiles a source could not have, and when to ask for each again (monotonic seconds; infinity:
/// never): a damaged tile never, a server that asked to wait after its seconds, a missing network after
/// `offlineRetry`. Vector tiles and imagery keep one each.
struct FailedTiles {
    private var entries: [TileID: (retryAt: Double, offline: Bool)] = [:]

    /// Seconds before a tile that failed for want of a network is asked for again.
    static let offlineRetry = 30.0

    /// Records that `tile` failed, to be asked again as `retry` says, counted from `now`.
    mutating func record(_ tile: TileID, _ retry: TileFailure.Retry, now: Double) {
        switch retry {
        case .never: entries[tile] = (.infinity, false)
        case .after(let seconds): entries[tile] = (now + max(1, seconds), false)
        case .offline: entries[tile] = (now + Self.offlineRetry, true)
        }
    }

    /// Nil when `tile` has not failed (or was let go); else whether it failed for want of a network.
    func failedOffline(_ tile: TileID) -> Bool? { entries[tile]?.offline }

    /// True when `tile` failed and its wait is not over at `now`.
    func isWaiting(_ tile: TileID, now: Double) -> Bool { entries[tile].map { $0.retryAt > now } ?? false }

    /// Lets go of the failures whose wait is over at `now`.
    /// Returns true when some were let go.
    @discardableResult
    mutating func expire(now: Double) -> Bool {
        guard entries.values.contains(where: { $0.retryAt <= now }) else { return false }
        entries = entries.filter { $0.value.retryAt > now }
        return true
    }

    /// Forgets every failure (the tileset changed).
    mutating func removeAll() { entries.removeAll() }
}
