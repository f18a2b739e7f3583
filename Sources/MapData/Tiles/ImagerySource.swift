import GeoCore
import Glibc
import MapFormats
import Support
import Synchronization
import SystemSupport

/// A raster tileset as the imagery under the map (issue 47): its tiles decoded to pixels (libpng,
/// libjpeg-turbo, libwebp, loaded on demand), kept in a cache bounded in bytes. As with `TileSource`,
/// a view never loads a tile: it is drawn from the tiles at hand (a missing tile's nearest loaded
/// ancestor stretched in its place, as MapLibre's raster source does) and says which it lacks, and the
/// program loads them.
public final class ImagerySource: TileLoadable {
    public let archive: any TileArchive
    /// Its name as the status line and `render --json` say it.
    public let label: String
    private let state: Mutex<State>

    private struct State {
        var cache: LRUCache<TileID, TileImage>
        /// Tiles that could not be had, and when to ask again.
        var failed = FailedTiles()
        /// Tiles skipped because their bytes were no image of a tile (damaged, of the wrong size).
        var skipped = 0
        /// The pixels a side of its tiles (256 until one says otherwise: 512 for `@2x` tiles).
        var tilePixels = 256
        /// Why the last tile was skipped.
        var lastFault: String?
        /// The first skipped tile's reason (a damaged tile, a decoder library missing), to be said once.
        var unsaid: [String] = []
        /// Counts the loads and expiries that changed what is at hand.
        var generation = 0
    }

    /// The default bound of decoded tiles kept: 64 MiB, 256 tiles of 256 × 256 pixels.
    public static let defaultCacheBytes = 64 << 20

    /// A source over `archive`, keeping up to `cacheBytes` of decoded tiles.
    public init(archive: any TileArchive, label: String, cacheBytes: Int = ImagerySource.defaultCacheBytes) {
        self.archive = archive
        self.label = label
        state = Mutex(State(cache: LRUCache(limit: cacheBytes)))
    }

    /// What the tileset says of itself.
    public var info: TilesetInfo { archive.info }

    /// The credit its data asks for (the tileset's `attribution`), if it says.
    public var credits: [Credit] { info.attribution.map { [Credit(attribution: $0)] } ?? [] }

    /// The pixels a side of its tiles.
    public var tilePixels: Int { state.withLock { $0.tilePixels } }

    /// A number that changes whenever the tiles at hand (or those that failed) change: a view drawn
    /// twice at one generation draws the same.
    public var generation: Int { state.withLock { $0.generation } }

    /// Tiles skipped so far because their bytes were no tile image, and the last reason.
    public var skipped: (count: Int, lastFault: String?) { state.withLock { ($0.skipped, $0.lastFault) } }

    /// The tile zoom drawn at view zoom `zoom`: the one whose pixel is nearest half a cell (2 × 2 dots;
    /// a view's world is 256 · 2^zoom dots wide), nearest on a log scale, within the tileset's zooms.
    /// For 256-pixel tiles that is `zoom − 1`.
    public func tileZoom(_ zoom: Double) -> Int {
        let ideal = zoom + log2(256.0 / Double(tilePixels)) - 1
        return min(info.maxZoom, max(info.minZoom, Int(ideal.rounded())))
    }

    /// True when `tile` meets the tileset's bounds (tiles outside them are never asked for).
    public func covers(_ tile: TileID) -> Bool { TileSource.meets(tile, info.bounds) }

    /// The decoded tile, if it is at hand (drawing looks, it changes no tile's standing).
    public func image(_ tile: TileID) -> TileImage? { state.withLock { $0.cache.peek(tile) } }

    /// True when `tile` could not be had (and is not to be asked for again yet), and whether for want
    /// of a network.
    public func failure(_ tile: TileID) -> (failed: Bool, offline: Bool) {
        state.withLock { s in s.failed.failedOffline(tile).map { (true, $0) } ?? (false, false) }
    }

    public func hasTried(_ tile: TileID) -> Bool {
        let now = monotonicSeconds()
        return state.withLock { s in s.cache.contains(tile) || s.failed.isWaiting(tile, now: now) }
    }

    /// Lets go of the failures whose wait is over (the program calls it before it draws).
    public func expireFailures(now: Double = monotonicSeconds()) {
        state.withLock { s in
            if s.failed.expire(now: now) { s.generation += 1 }
        }
    }

    /// Reads and decodes tiles into the cache. A tile whose bytes are no image (or an image of the wrong
    /// size: tiles are square, of one size) is skipped and counted, never asked for again.
    public func load(_ tiles: [TileID], wanted: @escaping @Sendable (TileID) -> Bool = { _ in true }) {
        expireFailures()
        let results = archive.storedTiles(tiles, wanted: wanted)
        let now = monotonicSeconds()
        defer { state.withLock { $0.generation += 1 } }
        for tile in tiles {
            guard let result = results[tile] else { continue }
            switch result {
            case .success(let bytes?):
                do throws(MapDataError) {
                    let image = try decode(bytes, tile: tile)
                    state.withLock { $0.cache.put(tile, image, cost: image.rgba.count + 64) }
                } catch {
                    state.withLock { s in
                        s.skipped += 1
                        s.lastFault = "\(error)"
                        if s.skipped == 1 {
                            s.unsaid.append("\(error); skipped (counted), the rest of the map is drawn")
                        }
                        s.failed.record(tile, .never, now: now)
                    }
                }
            case .success(nil):
                // No such tile: nothing to draw there (a transparent tile).
                state.withLock { $0.cache.put(tile, TileImage(width: 0, height: 0, rgba: []), cost: 64) }
            case .failure(let failure):
                state.withLock { $0.failed.record(tile, failure.retry, now: now) }
            }
        }
    }

    /// A tile's pixels, checked: square, of the tileset's size (the first square tile sets it: 256 or
    /// 512 as a rule, but any side up to the decoders' 4096 is a tile, down to go-pmtiles' 1-pixel ones).
    func decode(_ bytes: [UInt8], tile: TileID) throws(MapDataError) -> TileImage {
        let name = "\(label) tile \(tile)"
        let image = try TileImage.decode(bytes, name: name)
        let size = state.withLock { s in
            if s.cache.count == 0, s.skipped == 0, image.width == image.height, image.width > 0 {
                s.tilePixels = image.width
            }
            return s.tilePixels
        }
        guard image.width == size, image.height == size else {
            throw MapDataError(
                file: name, .badInput("an image of \(image.width)×\(image.height) pixels, not \(size)×\(size)"))
        }
        return image
    }

    /// The tile pixel under unit-square point `p` at view zoom `zoom`: the tile's id, the pixel's column
    /// and row in it and its colour (red, green, blue, alpha), from the tile drawn there (the tile of the
    /// view's tile zoom, else its nearest loaded ancestor); nil where no tile is at hand.
    public func pixel(at p: MercatorPoint, zoom: Double) -> (
        tile: TileID, x: Int, y: Int, rgba: (UInt8, UInt8, UInt8, UInt8)
    )? {
        guard p.y >= 0, p.y < 1 else { return nil }
        let x = p.x - (p.x.rounded(.down))
        var z = tileZoom(zoom)
        while z >= max(0, info.minZoom) {
            let n = Double(1 << z)
            let tile = TileID(z: z, x: min(Int(x * n), (1 << z) - 1), y: min(Int(p.y * n), (1 << z) - 1))
            if let image = image(tile), image.width > 0 {
                let px = min(image.width - 1, Int((x * n - Double(tile.x)) * Double(image.width)))
                let py = min(image.height - 1, Int((p.y * n - Double(tile.y)) * Double(image.height)))
                return (tile, px, py, image.pixel(px, py))
            }
            z -= 1
        }
        return nil
    }

    /// Lines to say once, taken: the archive's, and the first skipped tile's reason.
    public func takeNotices() -> [String] {
        archive.takeNotices()
            + state.withLock { s in
                defer { s.unsaid = [] }
                return s.unsaid
            }
    }
}
