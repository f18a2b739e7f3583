import GeoCore
import Glibc
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
    /// Each tile's contour lines by interval, traced once (`contours(of:interval:)`).
    private let traced = Mutex<[ContourKey: [ContourLine]]>([:])

    /// Each tile's hillshade (`shades(of:)`), computed once.
    private let shaded = Mutex<[TileID: [Float]]>([:])

    /// The last profile asked for, by its line, zoom and the tiles at hand then.
    private let lastProfile = Mutex<(key: Int, profile: ElevationProfile, missing: [TileID])?>(nil)

    /// The most tiles a profile reads: a longer line reads them at a lower zoom.
    static let profileTiles = 48

    /// A tile's lines at an interval.
    private struct ContourKey: Hashable {
        let tile: TileID
        let interval: Double
    }

    /// How many tiles' lines are kept (a 200 × 60 view shows about six; a few views' worth more).
    static let keptContours = 256

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

    /// The heights of `tile`'s pixel centres with a border of one pixel from its neighbours,
    /// `(side + 2)²` samples row by row from pixel (−1, −1) (NaN: no height: nodata, off the world, or a
    /// neighbour not at hand); and whether every neighbour that can come is at hand (else the border
    /// may fill in later). Nil when the tile itself is not.
    public func heightGrid(_ tile: TileID) -> (heights: [Float], side: Int, complete: Bool)? {
        guard let image = tiles.image(tile), image.width > 0, image.height == image.width else { return nil }
        let size = image.width
        let n = 1 << tile.z
        let side = size + 2
        var grid = [Float](repeating: .nan, count: side * side)
        var complete = true
        for dy in -1...1 {
            let ty = tile.y + dy
            guard ty >= 0, ty < n else { continue }
            for dx in -1...1 {
                let neighbour = TileID(z: tile.z, x: ((tile.x + dx) % n + n) % n, y: ty)
                guard let other = dx == 0 && dy == 0 ? image : tiles.image(neighbour), other.width == size,
                    other.height == size
                else {
                    if tiles.covers(neighbour) && !tiles.hasTried(neighbour) { complete = false }
                    continue
                }
                // The neighbour's pixels that fall in the grid: all of it for the tile, one row or column
                // (or a corner) for the others.
                let xs = dx == 0 ? 0..<size : (dx < 0 ? (size - 1)..<size : 0..<1)
                let ys = dy == 0 ? 0..<size : (dy < 0 ? (size - 1)..<size : 0..<1)
                other.rgba.withUnsafeBufferPointer { rgba in
                    for py in ys {
                        let gy = py + dy * size + 1
                        for px in xs {
                            let i = (py * size + px) * 4
                            guard rgba[i + 3] != 0 else { continue }
                            let gx = px + dx * size + 1
                            grid[gy * side + gx] = Float(
                                encoding.height(red: rgba[i], green: rgba[i + 1], blue: rgba[i + 2]))
                        }
                    }
                }
            }
        }
        return (grid, side, complete)
    }

    /// `tile`'s contour lines every `interval` metres, in the tile's pixel units (pixel centre `i` at
    /// `i + 0.5`), traced from its own pixel centres to the first of its right and lower neighbours'
    /// (so that the lines of two tiles meet at their shared samples and none is traced twice); kept once
    /// the neighbours are at hand. Nil when the tile is not.
    public func contours(of tile: TileID, interval: Double) -> [ContourLine]? {
        let key = ContourKey(tile: tile, interval: interval)
        if let kept = traced.withLock({ $0[key] }) { return kept }
        guard let grid = heightGrid(tile) else { return nil }
        // The samples from pixel centre 0 to `size` (the neighbour's first), each way.
        let side = grid.side - 1
        var heights = [Float](repeating: .nan, count: side * side)
        for j in 0..<side {
            for i in 0..<side { heights[j * side + i] = grid.heights[(j + 1) * grid.side + i + 1] }
        }
        var lines = ContourTracer.lines(heights: heights, width: side, height: side, interval: interval)
        for l in lines.indices {
            for p in lines[l].points.indices { lines[l].points[p] += 0.5 }
        }
        if grid.complete {
            traced.withLock { kept in
                if kept.count >= Self.keptContours { kept.removeAll(keepingCapacity: true) }
                kept[key] = lines
            }
        }
        return lines
    }

    /// `tile`'s hillshade under the standard sun (`Hillshade`), one value (0–1, NaN: no height) a
    /// pixel row by row; Horn's 3 × 3 reaches into the neighbours' edge pixels, and a pixel's size is its
    /// ground size (the Mercator pixel times the cosine of its latitude). Kept once the neighbours are at
    /// hand. Nil when the tile is not.
    public func shades(of tile: TileID) -> [Float]? {
        if let kept = shaded.withLock({ $0[tile] }) { return kept }
        guard let grid = heightGrid(tile) else { return nil }
        let size = grid.side - 2
        let worldPixels = Double(size << tile.z)
        let mercatorMeters = 2 * Double.pi * WebMercator.earthRadius / worldPixels
        let values = Hillshade.shades(
            heights: grid.heights, side: grid.side,
            metersApart: { row in
                // The latitude of the row's pixel centres (grid row 1 is the tile's row 0).
                let y = (Double(tile.y * size + row - 1) + 0.5) / worldPixels
                return mercatorMeters * cos(WebMercator.unproject(MercatorPoint(x: 0, y: y)).latitude * .pi / 180)
            })
        if grid.complete {
            shaded.withLock { kept in
                if kept.count >= Self.keptContours { kept.removeAll(keepingCapacity: true) }
                kept[tile] = values
            }
        }
        return values
    }

    /// The elevation profile of `line` (`ElevationProfile`: a sample every 10 m), its heights from the
    /// tiles of view zoom `zoom`'s tile zoom, or a lower one where the line would need more than
    /// `profileTiles` of them; and the tiles it lacks, to be loaded (their heights are NaN until then).
    /// The last one is kept until the line, the zoom or the tiles at hand change.
    public func profile(along line: [Coordinate], zoom: Double) -> (profile: ElevationProfile, missing: [TileID]) {
        var key = Hasher()
        for c in line {
            key.combine(c.latitude)
            key.combine(c.longitude)
        }
        key.combine(zoom)
        key.combine(tiles.generation)
        let made = key.finalize()
        if let kept = lastProfile.withLock({ $0 }), kept.key == made { return (kept.profile, kept.missing) }
        let samples = ElevationProfile.samples(along: line)
        let points = samples.map { WebMercator.project($0.at) }
        var z = tileZoom(zoom)
        var wanted: Set<TileID> = []
        while true {
            wanted = Set(points.flatMap { tiles(for: $0, tileZoom: z) })
            guard wanted.count > Self.profileTiles, z > max(0, tiles.info.minZoom) else { break }
            z -= 1
        }
        let heights = points.map { height(at: $0, tileZoom: z) ?? .nan }
        let missing = wanted.filter { tiles.image($0) == nil && tiles.covers($0) && !hasTried($0) }
            .sorted { ($0.y, $0.x) < ($1.y, $1.x) }
        let profile = ElevationProfile(meters: samples.map(\.meters), heights: heights)
        lastProfile.withLock { $0 = (made, profile, missing) }
        return (profile, missing)
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
