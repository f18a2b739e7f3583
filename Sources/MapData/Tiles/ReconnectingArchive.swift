import FoundationEssentials
import GeoCore
import MapFormats
import Support
import Synchronization
import SystemSupport

/// A remote tileset that gave no answer when the program started (no network, its host not found):
/// offline is a state, not an exit. Until it answers, it covers the world with tiles that fail as
/// offline (the status line says so, and the map's other sources draw in their place); each time tiles
/// are asked for, at most every `retrySeconds`, it is opened again, and once it answers it is the
/// tileset it names (`refreshIfChanged` says so once, and the source describes itself anew).
public final class ReconnectingArchive: TileArchive {
    /// What the user named (a URL or a named source).
    public let location: String
    /// Opens the tileset (the same as at the start: its cache, its credit).
    private let open: @Sendable () throws(MapDataError) -> any TileArchive
    private let state: Mutex<State>
    /// Seconds between tries.
    public static let retrySeconds = 10.0

    private struct State {
        var opened: (any TileArchive)?
        var lastTry: Double
        var reason: String
        var changed = false
        var notices: [String] = []
    }

    /// A tileset at `location` that `open` failed to reach (`reason`) at `triedAt` (monotonic seconds).
    public init(
        location: String, reason: String, triedAt: Double = monotonicSeconds(),
        open: @escaping @Sendable () throws(MapDataError) -> any TileArchive
    ) {
        self.location = location
        self.open = open
        state = Mutex(State(lastTry: triedAt, reason: reason))
    }

    /// The tileset once it answered, nil while offline.
    public var opened: (any TileArchive)? { state.withLock { $0.opened } }

    public var info: TilesetInfo {
        if let opened { return opened.info }
        // Imagery or not, as its name or its template says (a raster source stays the imagery).
        let named = NamedTileSource.named(location)
        let image = TilesetInfo.imageFormat(ofTemplate: named?.url ?? location)
        return TilesetInfo(
            format: "offline", name: TileArchives.label(location), minZoom: 0,
            maxZoom: named?.maxZoom ?? (image == nil ? 14 : 19),
            bounds: CoordinateBounds(
                north: WebMercator.maxLatitude, south: -WebMercator.maxLatitude, west: -180, east: 180),
            tileCount: nil, attribution: named?.credit, layers: [], compression: "", imageFormat: image)
    }

    public var isRemote: Bool { true }

    public func storedTiles(_ ids: [TileID], wanted: @escaping @Sendable (TileID) -> Bool) -> [TileID: Result<
        [UInt8]?, TileFailure
    >] {
        if let archive = opened ?? reopen() { return archive.storedTiles(ids, wanted: wanted) }
        let why = state.withLock { $0.reason }
        let failure = TileFailure("\(location): offline (\(why))", retry: .offline)
        return Dictionary(uniqueKeysWithValues: ids.map { ($0, .failure(failure)) })
    }

    /// Tries to open the tileset when the last try is `retrySeconds` old; the archive when it answered.
    private func reopen(now: Double = monotonicSeconds()) -> (any TileArchive)? {
        let due = state.withLock { s in
            guard s.opened == nil, now - s.lastTry >= Self.retrySeconds else { return false }
            s.lastTry = now
            return true
        }
        guard due else { return nil }
        do {
            let archive = try open()
            return state.withLock { s in
                if s.opened == nil {
                    s.opened = archive
                    s.changed = true
                    s.notices.append("\(location): answers again")
                }
                return s.opened
            }
        } catch {
            state.withLock { $0.reason = error.description.dropPrefix("\(location): ") }
            return nil
        }
    }

    public func refreshIfChanged() -> Bool {
        if let archive = opened, archive.refreshIfChanged() { return true }
        return state.withLock { s in
            defer { s.changed = false }
            return s.changed
        }
    }

    public func takeNotices() -> [String] {
        let own = state.withLock { s in
            defer { s.notices = [] }
            return s.notices
        }
        return own + (opened?.takeNotices() ?? [])
    }

    public func finish() { opened?.finish() }
}

extension String {
    /// The string without `prefix` when it starts with it.
    fileprivate func dropPrefix(_ prefix: String) -> String {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : self
    }
}
