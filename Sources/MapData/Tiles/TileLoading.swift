import Dispatch
import MapFormats
import Synchronization

/// A source whose tiles are loaded by the program (a vector tileset, the imagery): safe to call from
/// any thread.
public protocol TileLoadable: AnyObject, Sendable {
    /// Reads and decodes tiles into the source's cache; a tile `wanted` says false for is not asked for.
    func load(_ tiles: [TileID], wanted: @escaping @Sendable (TileID) -> Bool)
    /// True when `tile` is loaded (or could not be, and is not to be asked for again yet).
    func hasTried(_ tile: TileID) -> Bool
}

/// Tiles a view lacks, or tiles that have arrived: which source (its place in `FeatureSources.all`,
/// the imagery after them) and which tiles, nearest the view's centre first.
public struct TileBatch: Hashable, Sendable {
    /// The source's place in `FeatureSources.all` (the imagery: `all.count`).
    public var source: Int
    /// The tiles.
    public var tiles: [TileID]

    /// A batch.
    public init(source: Int, tiles: [TileID]) {
        self.source = source
        self.tiles = tiles
    }
}

/// Loads the tiles views lack (bubbletea's commands: the viewer's update asks for them, their arrival
/// comes back as an input event). Injected, so that a test decides when tiles arrive.
public protocol TileLoading: AnyObject, Sendable {
    /// Starts loading `batch`; the tiles an earlier request of the same source wanted and this one does
    /// not are dropped (the view has moved on).
    func request(_ batch: TileBatch)
}

/// Loads at once, in the caller's thread (`render`, tests): each request's tiles are in the cache when
/// it returns, and `arrived` has been told.
public final class ImmediateTileLoader: TileLoading {
    private let sources: [(any TileLoadable)?]
    private let arrived: @Sendable (TileBatch) -> Void

    /// A loader for `sources` (`MapSources.loadable`: by the batches' source numbers) that tells
    /// `arrived` of each batch loaded.
    public init(sources: [(any TileLoadable)?], arrived: @escaping @Sendable (TileBatch) -> Void) {
        self.sources = sources
        self.arrived = arrived
    }

    public func request(_ batch: TileBatch) {
        guard sources.indices.contains(batch.source), let tiles = sources[batch.source] else { return }
        tiles.load(batch.tiles) { _ in true }
        arrived(batch)
    }
}

/// Loads in the background, a batch of `batchSize` at a time: of each source only its newest request
/// (the view the user looks at now) is kept, the sources in their order; `arrived` is told of each
/// batch from the loading thread.
public final class BackgroundTileLoader: TileLoading {
    /// Tiles loaded in one batch (a batch's tiles are drawn together).
    public static let batchSize = 8
    private let sources: [(any TileLoadable)?]
    private let arrived: @Sendable (TileBatch) -> Void
    private let queue = DispatchQueue(label: "termmap.tiles")
    private struct Work {
        /// Per source, the tiles its newest view still lacks.
        var wanted: [Int: [TileID]] = [:]
        /// Per source, all the tiles its newest view lacks: a queued request for another is dropped.
        var inView: [Int: Set<TileID>] = [:]
        var running = false
    }
    private let work = Mutex(Work())

    /// A loader for `sources` (`MapSources.loadable`: by the batches' source numbers) that tells
    /// `arrived` of each batch loaded.
    public init(sources: [(any TileLoadable)?], arrived: @escaping @Sendable (TileBatch) -> Void) {
        self.sources = sources
        self.arrived = arrived
    }

    public func request(_ batch: TileBatch) {
        guard sources.indices.contains(batch.source), sources[batch.source] != nil else { return }
        let start = work.withLock { w in
            w.wanted[batch.source] = batch.tiles
            w.inView[batch.source] = Set(batch.tiles)
            defer { w.running = true }
            return !w.running
        }
        if start { queue.async { [self] in run() } }
    }

    /// The loading thread: a batch at a time until nothing is wanted.
    private func run() {
        while true {
            let next: TileBatch? = work.withLock { w in
                guard let source = w.wanted.keys.sorted().first, let tiles = w.wanted[source] else {
                    w.running = false
                    return nil
                }
                let batch = Array(tiles.prefix(Self.batchSize))
                let rest = tiles.dropFirst(batch.count)
                w.wanted[source] = rest.isEmpty ? nil : Array(rest)
                return TileBatch(source: source, tiles: batch)
            }
            guard let next else { return }
            guard let tiles = sources[next.source] else { continue }
            let todo = next.tiles.filter { !tiles.hasTried($0) }
            let source = next.source
            if !todo.isEmpty {
                tiles.load(todo) { [self] tile in work.withLock { $0.inView[source]?.contains(tile) ?? false } }
            }
            arrived(next)
        }
    }
}
