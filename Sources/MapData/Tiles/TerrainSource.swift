import GeoCore
import MapFormats
import Synchronization

/// Elevation tiles as heights (issue 48): Terrarium or Mapbox terrain-RGB PNG/WebP tiles, read and
/// kept as the imagery's tiles are (the same loading, cache, bad-tile rules), their colours turned into
/// metres where asked. A view never loads a tile; it asks for the heights at hand.
public final class TerrainSource: TileLoadable {
    /// The tiles, decoded to pixels.
    public let tiles: ImagerySource
    /// How a pixel's colour gives its height.
    public let encoding: TerrainEncoding
    /// The first height that is no place on Earth: noticed (once), and not yet said.
    private let implausible = Mutex<(noticed: Bool, unsaid: Double?)>((false, nil))

    /// Heights from `archive`'s tiles by `encoding`.
    public init(
        archive: any TileArchive, label: String, encoding: TerrainEncoding,
        cacheBytes: Int = ImagerySource.defaultCacheBytes
    ) {
        tiles = ImagerySource(archive: archive, label: label, cacheBytes: cacheBytes)
        self.encoding = encoding
    }

    /// Its name as the status line and `render --json` say it.
    public var label: String { tiles.label }

    public func load(_ tiles: [TileID], wanted: @escaping @Sendable (TileID) -> Bool) {
        self.tiles.load(tiles, wanted: wanted)
    }

    public func hasTried(_ tile: TileID) -> Bool { tiles.hasTried(tile) }

    /// The tile zoom heights are read from at view zoom `zoom`: a tile pixel about a braille dot, as deep
    /// as the tileset goes.
    public func tileZoom(_ zoom: Double) -> Int { tiles.tileZoom(zoom + 1) }

    /// The tile holding unit-square point `p` at tile zoom `z`.
    public static func tile(at p: MercatorPoint, zoom z: Int) -> TileID {
        let n = 1 << z
        let x = p.x - p.x.rounded(.down)
        return TileID(z: z, x: min(n - 1, max(0, Int(x * Double(n)))), y: min(n - 1, max(0, Int(p.y * Double(n)))))
    }

    /// The tiles of zoom `z` whose pixels a height at `p` is filtered from: its own and, within half a
    /// pixel of its edge, its neighbours.
    public func tiles(for p: MercatorPoint, tileZoom z: Int) -> [TileID] {
        let size = tiles.tilePixels
        let n = 1 << z
        let worldPixels = n * size
        let x = p.x - p.x.rounded(.down)
        let gx = Int((x * Double(worldPixels) - 0.5).rounded(.down))
        let gy = Int((p.y * Double(worldPixels) - 0.5).rounded(.down))
        var out: [TileID] = []
        for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            let wx = ((gx + dx) % worldPixels + worldPixels) % worldPixels
            let wy = min(worldPixels - 1, max(0, gy + dy))
            let tile = TileID(z: z, x: wx / size, y: wy / size)
            if !out.contains(tile) { out.append(tile) }
        }
        return out
    }

    /// The height at unit-square point `p`, in metres, filtered bilinearly between the four pixel
    /// centres around it (as GDAL's bilinear resampling does), from the deepest loaded zoom at or above
    /// `zoom`'s tile zoom; and that zoom. Nil where no tile is at hand or the pixels there have no
    /// height (alpha 0: nodata).
    public func height(at p: MercatorPoint, zoom: Double) -> (meters: Double, tileZoom: Int)? {
        guard p.y >= 0, p.y < 1 else { return nil }
        var z = tileZoom(zoom)
        while z >= max(0, tiles.info.minZoom) {
            if let h = height(at: p, tileZoom: z) { return (h, z) }
            if tiles.image(Self.tile(at: p, zoom: z)).map({ $0.width > 0 }) == true { return nil }
            z -= 1
        }
        return nil
    }

    /// The height at `p` from the tiles of zoom `z` (a neighbour tile not at hand: the edge pixel).
    func height(at p: MercatorPoint, tileZoom z: Int) -> Double? {
        let home = Self.tile(at: p, zoom: z)
        guard let image = tiles.image(home), image.width > 0 else { return nil }
        let size = image.width
        let n = 1 << z
        // Pixel centres sit at half pixels: the sample point in pixel units from the first centre.
        let x = p.x - p.x.rounded(.down)
        let gx = x * Double(n * size) - 0.5
        let gy = p.y * Double(n * size) - 0.5
        let (x0, y0) = (Int(gx.rounded(.down)), Int(gy.rounded(.down)))
        let (fx, fy) = (gx - Double(x0), gy - Double(y0))
        func sample(_ px: Int, _ py: Int) -> Double? {
            let worldPixels = n * size
            let (wx, wy) = (((px % worldPixels) + worldPixels) % worldPixels, min(worldPixels - 1, max(0, py)))
            let tile = TileID(z: z, x: wx / size, y: wy / size)
            let c: (UInt8, UInt8, UInt8, UInt8)
            if tile != home, let other = tiles.image(tile), other.width == size {
                c = other.pixel(wx - tile.x * size, wy - tile.y * size)
            } else {
                // This tile's own pixel, or its edge pixel where the neighbour is not at hand.
                c = image.pixel(min(size - 1, max(0, px - home.x * size)), min(size - 1, max(0, py - home.y * size)))
            }
            guard c.3 != 0 else { return nil }
            return encoding.height(red: c.0, green: c.1, blue: c.2)
        }
        guard let a = sample(x0, y0), let b = sample(x0 + 1, y0), let c = sample(x0, y0 + 1),
            let d = sample(x0 + 1, y0 + 1)
        else { return nil }
        let h = (a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy
        if !TerrainEncoding.plausible.contains(h) { noteImplausible(h) }
        return h
    }

    private func noteImplausible(_ h: Double) {
        implausible.withLock { n in
            guard !n.noticed else { return }
            n = (true, h)
        }
    }

    /// Lines to say once, taken: the tiles' (a damaged tile), and heights that are no place on Earth
    /// (a terrain source that is imagery).
    public func takeNotices() -> [String] {
        var lines = tiles.takeNotices()
        if let h = implausible.withLock({ n -> Double? in
            defer { n.unsaid = nil }
            return n.unsaid
        }) {
            lines.append(
                "\(label): a height of \(Int(h.rounded())) m is no place on Earth: is it imagery, not \(encoding.rawValue) terrain?"
            )
        }
        return lines
    }
}
