import GeoCore
import Glibc
import MapData
import MapFormats
import Raster

/// The colours of a view's half-cells from a raster tileset's pixels (issue 47). Each cell is two
/// half-cells of 2 × 2 dots (the upper and lower halves of `▀`); each half-cell's colour is the mean of
/// the tile pixels it covers, each weighed by how much of it the half-cell covers and by its alpha (a
/// box filter: a photo's detail averages rather than aliases). Where a half-cell is smaller than a
/// pixel (deeper than the tileset goes, or a lower zoom's tile stretched while the right one loads),
/// the pixels are filtered bilinearly at its centre.
struct ImagerySampler {
    /// One tile position of the view: its tile's pixels, or a loaded ancestor's stretched over it.
    struct Slot {
        var image: TileImage?
        /// How many zooms up the image is (0: the tile itself).
        var levelsUp = 0
        /// The tile's place within the ancestor, in the ancestor's pixels.
        var offsetX = 0.0, offsetY = 0.0
    }

    /// What a view found: the colours (per half-cell, 0: nothing drawn, else `1 << 24 | rgb`), the
    /// tiles it lacks, nearest the centre first, and how the source stands.
    struct Sampled {
        var halves: [UInt32]
        var missing: [TileID]
        var status: SourceStatus
        var tileZoom: Int
        var drawn: Bool
    }

    let zoom: Int
    let tilePixels: Int
    /// Level-`zoom` pixels of the world, and of a dot.
    let worldPixels: Double, scale: Double
    let transform: ViewTransform
    let cols: Int, rows: Int
    /// The first tile column and row of the view (columns not wrapped: a view may cross the antimeridian).
    let firstX: Int, firstY: Int
    let slotCols: Int, slotRows: Int
    var slots: [Slot] = []

    /// A sampler of `source` for a view of `cols × rows` cells through `transform` at view zoom
    /// `viewZoom`, its tiles not yet gathered.
    init(_ source: ImagerySource, transform: ViewTransform, viewZoom: Double, cols: Int, rows: Int) {
        zoom = source.tileZoom(viewZoom)
        tilePixels = source.tilePixels
        worldPixels = Double(tilePixels) * Double(1 << zoom)
        scale = worldPixels / transform.worldSize
        (self.transform, self.cols, self.rows) = (transform, cols, rows)
        let (x0, x1) = (0.0, Double(cols * 2))
        let (y0, y1) = (0.0, Double(rows * 4))
        let tile = Double(tilePixels)
        firstX = Int((Self.pixelX(x0, transform, scale, worldPixels) / tile).rounded(.down))
        let lastX = Int(((Self.pixelX(x1, transform, scale, worldPixels) - 1e-9) / tile).rounded(.down))
        let top = max(0, Self.pixelY(y0, transform, scale, worldPixels))
        let bottom = min(worldPixels, Self.pixelY(y1, transform, scale, worldPixels))
        firstY = Int((top / tile).rounded(.down))
        let lastY = Int(((bottom - 1e-9) / tile).rounded(.down))
        slotCols = max(0, lastX - firstX + 1)
        slotRows = bottom > top ? max(0, lastY - firstY + 1) : 0
    }

    /// Level-`zoom` pixel coordinates of a dot.
    static func pixelX(_ dot: Double, _ t: ViewTransform, _ scale: Double, _ world: Double) -> Double {
        (dot - t.halfWidth) * scale + t.center.x * world
    }
    static func pixelY(_ dot: Double, _ t: ViewTransform, _ scale: Double, _ world: Double) -> Double {
        (dot - t.halfHeight) * scale + t.center.y * world
    }
    func pixelX(_ dot: Double) -> Double { Self.pixelX(dot, transform, scale, worldPixels) }
    func pixelY(_ dot: Double) -> Double { Self.pixelY(dot, transform, scale, worldPixels) }

    /// The tiles `source` lacks for a view, nearest its centre first (what a program loads before it draws).
    static func missing(_ source: ImagerySource, view: MapView) -> [TileID] {
        var sampler = ImagerySampler(
            source, transform: view.transform, viewZoom: view.zoom, cols: view.size.cols, rows: view.size.rows)
        var status = SourceStatus()
        return sampler.gather(source, &status)
    }

    /// Samples `source` for a view of `cols × rows` cells through `transform` at view zoom `viewZoom`.
    static func sample(_ source: ImagerySource, transform: ViewTransform, viewZoom: Double, cols: Int, rows: Int)
        -> Sampled
    {
        var sampler = ImagerySampler(source, transform: transform, viewZoom: viewZoom, cols: cols, rows: rows)
        var status = SourceStatus()
        let missing = sampler.gather(source, &status)
        var halves = [UInt32](repeating: 0, count: cols * rows * 2)
        guard sampler.slotRows > 0 else {
            return Sampled(halves: halves, missing: missing, status: status, tileZoom: sampler.zoom, drawn: false)
        }
        // Each column's and each half row's footprint in pixels (a half-cell is 2 × 2 dots).
        let xs = (0...cols).map { sampler.pixelX(Double($0 * 2)) }
        let ys = (0...(rows * 2)).map { sampler.pixelY(Double($0 * 2)) }
        var drawn = false
        for half in 0..<(rows * 2) {
            let (top, bottom) = (ys[half], ys[half + 1])
            guard bottom > 0, top < sampler.worldPixels else { continue }
            for col in 0..<cols {
                let colour = sampler.colour(x0: xs[col], x1: xs[col + 1], y0: top, y1: bottom)
                if colour != 0 {
                    halves[((half / 2) * cols + col) * 2 + half % 2] = colour
                    drawn = true
                }
            }
        }
        return Sampled(halves: halves, missing: missing, status: status, tileZoom: sampler.zoom, drawn: drawn)
    }

    /// The imagery of a view as a picture, one pixel a braille dot (RGBA, clear where there is none),
    /// from the tiles whose pixel is nearest a dot (a zoom deeper than the half blocks'), over the
    /// chunks of the world's cell grid that meet the view's `cols` × `rows` cells; and the tiles it lacks.
    static func picture(
        _ source: ImagerySource, transform: ViewTransform, viewZoom: Double, cols: Int, rows: Int,
        cell: PictureCell = .dots
    ) -> (picture: MapPicture, missing: [TileID]) {
        // The view's top left in world cells. Pans move by whole cells, so where the cells fall on the
        // world (the phase) stays; kept to 1/256 of a dot, so that rounding in a pan does not move it.
        let left = ((transform.center.x * transform.worldSize - transform.halfWidth) * 256).rounded() / 256
        let top = ((transform.center.y * transform.worldSize - transform.halfHeight) * 256).rounded() / 256
        let (cellX, cellY) = (Int((left / 2).rounded(.down)), Int((top / 4).rounded(.down)))
        let (cw, ch) = (MapPicture.chunkCols, MapPicture.chunkRows)
        let (chunkX, chunkY) = (floorDiv(cellX, cw), floorDiv(cellY, ch))
        let (col, row) = (chunkX * cw - cellX, chunkY * ch - cellY)
        let pictureCols = (floorDiv(cellX + cols - 1, cw) - chunkX + 1) * cw
        let pictureRows = (floorDiv(cellY + rows - 1, ch) - chunkY + 1) * ch
        let chunksAcross = transform.worldSize / Double(2 * cw)
        let worldChunks = chunksAcross == chunksAcross.rounded() && chunksAcross < 1e9 ? Int(chunksAcross) : 0
        var grid = Hasher()
        grid.combine(viewZoom)
        grid.combine(cell.width)
        grid.combine(cell.height)
        grid.combine(left - Double(cellX * 2))
        grid.combine(top - Double(cellY * 4))
        let (cells, missing) = pixels(
            source, transform: transform.shifted(cols: -col, rows: -row), viewZoom: viewZoom, cols: pictureCols,
            rows: pictureRows, cell: cell)
        return (
            MapPicture(
                width: pictureCols * cell.width, height: pictureRows * cell.height, rgba: cells,
                cellWidth: cell.width, cellHeight: cell.height, col: col, row: row, chunkX: chunkX, chunkY: chunkY,
                worldChunks: worldChunks, grid: grid.finalize()),
            missing
        )
    }

    /// Floor division (rounds towards minus infinity, as the grid's chunks do).
    static func floorDiv(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }

    /// The RGBA pixels, `cell` a cell, of `cols` × `rows` cells seen through `transform`.
    static func pixels(
        _ source: ImagerySource, transform: ViewTransform, viewZoom: Double, cols: Int, rows: Int, cell: PictureCell
    ) -> (rgba: [UInt8], missing: [TileID]) {
        // Tiles whose pixel is nearest a picture pixel: a dot's (2 × 4 a cell), or finer.
        let finer = log2(Double(cell.width) / 2)
        var sampler = ImagerySampler(
            source, transform: transform, viewZoom: viewZoom + 1 + finer, cols: cols, rows: rows)
        var status = SourceStatus()
        let missing = sampler.gather(source, &status)
        let (width, height) = (cols * cell.width, rows * cell.height)
        let (dotsX, dotsY) = (2 / Double(cell.width), 4 / Double(cell.height))
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        guard sampler.slotRows > 0 else { return (rgba, missing) }
        let xs = (0...width).map { sampler.pixelX(Double($0) * dotsX) }
        for y in 0..<height {
            let (top, bottom) = (sampler.pixelY(Double(y) * dotsY), sampler.pixelY(Double(y + 1) * dotsY))
            guard bottom > 0, top < sampler.worldPixels else { continue }
            for x in 0..<width {
                let c = sampler.colour(x0: xs[x], x1: xs[x + 1], y0: top, y1: bottom)
                guard c != 0 else { continue }
                let i = (y * width + x) * 4
                (rgba[i], rgba[i + 1], rgba[i + 2], rgba[i + 3]) = (
                    UInt8(c >> 16 & 0xFF), UInt8(c >> 8 & 0xFF), UInt8(c & 0xFF), 255
                )
            }
        }
        return (rgba, missing)
    }

    /// Fills the slots with the tiles at hand (or their nearest loaded ancestors); returns the tiles
    /// the view lacks, nearest the view's centre first, and counts them in `status`.
    mutating func gather(_ source: ImagerySource, _ status: inout SourceStatus) -> [TileID] {
        let center = (pixelX(Double(cols)), pixelY(Double(rows * 2)))
        let n = 1 << zoom
        let minZoom = source.info.minZoom
        var missing: [(TileID, Double)] = []
        slots.reserveCapacity(slotCols * slotRows)
        for row in 0..<slotRows {
            for col in 0..<slotCols {
                let y = firstY + row
                let x = ((firstX + col) % n + n) % n
                let tile = TileID(z: zoom, x: x, y: y)
                if let image = source.image(tile) {
                    slots.append(Slot(image: image))
                    status.cached += 1
                    continue
                }
                let failure = source.failure(tile)
                if failure.failed {
                    if failure.offline { status.offline += 1 } else { status.failed += 1 }
                } else if source.covers(tile) {
                    let dx = (Double(firstX + col) + 0.5) * Double(tilePixels) - center.0
                    let dy = (Double(y) + 0.5) * Double(tilePixels) - center.1
                    missing.append((tile, dx * dx + dy * dy))
                    status.loading += 1
                }
                slots.append(ancestor(of: tile, in: source, downTo: minZoom))
            }
        }
        return missing.sorted { $0.1 < $1.1 }.map(\.0)
    }

    /// The nearest loaded ancestor of `tile`, stretched over it (an empty slot when none is loaded).
    func ancestor(of tile: TileID, in source: ImagerySource, downTo minZoom: Int) -> Slot {
        var up = 1
        while tile.z - up >= max(0, minZoom) {
            let parent = TileID(z: tile.z - up, x: tile.x >> up, y: tile.y >> up)
            if let image = source.image(parent), image.width > 0 {
                // The tile's corner in the parent's pixels.
                let share = Double(image.width) / Double(1 << up)
                let ox = Double(tile.x - (parent.x << up)) * share
                let oy = Double(tile.y - (parent.y << up)) * share
                return Slot(image: image, levelsUp: up, offsetX: ox, offsetY: oy)
            }
            up += 1
        }
        return Slot()
    }

    /// The premultiplied colour (r·a, g·a, b·a, a; 0–1) of level-`zoom` pixel (`x`, `y`) of the view
    /// (x not wrapped): the tile's pixel, or a point of a stretched ancestor filtered bilinearly.
    @inline(__always)
    func pixel(_ x: Int, _ y: Int) -> (Double, Double, Double, Double) {
        let tx = x >= 0 ? x / tilePixels : (x - tilePixels + 1) / tilePixels
        let ty = y / tilePixels
        let (col, row) = (tx - firstX, ty - firstY)
        guard y >= 0, col >= 0, row >= 0, col < slotCols, row < slotRows else { return (0, 0, 0, 0) }
        let slot = slots[row * slotCols + col]
        guard let image = slot.image, image.width > 0 else { return (0, 0, 0, 0) }
        let (lx, ly) = (x - tx * tilePixels, y - ty * tilePixels)
        if slot.levelsUp == 0 {
            guard lx < image.width, ly < image.height else { return (0, 0, 0, 0) }
            return Self.premultiplied(image, lx, ly)
        }
        // The pixel's centre in the ancestor's pixels, filtered between its four nearest.
        let shrink = Double(image.width) / Double(tilePixels << slot.levelsUp)
        let ax = slot.offsetX + (Double(lx) + 0.5) * shrink - 0.5
        let ay = slot.offsetY + (Double(ly) + 0.5) * shrink - 0.5
        return Self.bilinear(image, ax, ay)
    }

    /// Pixel (`x`, `y`) of `image`, premultiplied, 0–1.
    @inline(__always)
    static func premultiplied(_ image: TileImage, _ x: Int, _ y: Int) -> (Double, Double, Double, Double) {
        let i = (y * image.width + x) * 4
        let a = Double(image.rgba[i + 3]) / 255
        return (
            Double(image.rgba[i]) / 255 * a, Double(image.rgba[i + 1]) / 255 * a, Double(image.rgba[i + 2]) / 255 * a, a
        )
    }

    /// `image` at (`x`, `y`) in pixel-centre coordinates, between its four nearest pixels (clamped at
    /// its edges), premultiplied.
    static func bilinear(_ image: TileImage, _ x: Double, _ y: Double) -> (Double, Double, Double, Double) {
        let fx = max(0, min(Double(image.width - 1), x))
        let fy = max(0, min(Double(image.height - 1), y))
        let (x0, y0) = (Int(fx), Int(fy))
        let (x1, y1) = (min(x0 + 1, image.width - 1), min(y0 + 1, image.height - 1))
        let (wx, wy) = (fx - Double(x0), fy - Double(y0))
        let a = premultiplied(image, x0, y0)
        let b = premultiplied(image, x1, y0)
        let c = premultiplied(image, x0, y1)
        let d = premultiplied(image, x1, y1)
        func mix(_ p: Double, _ q: Double, _ r: Double, _ s: Double) -> Double {
            (p * (1 - wx) + q * wx) * (1 - wy) + (r * (1 - wx) + s * wx) * wy
        }
        return (mix(a.0, b.0, c.0, d.0), mix(a.1, b.1, c.1, d.1), mix(a.2, b.2, c.2, d.2), mix(a.3, b.3, c.3, d.3))
    }

    /// The colour of the footprint [x0, x1) × [y0, y1) (level-`zoom` pixels) as `1 << 24 | rgb`, or 0
    /// where less than half of it is covered.
    func colour(x0: Double, x1: Double, y0: Double, y1: Double) -> UInt32 {
        var sum = (0.0, 0.0, 0.0, 0.0)
        var area = 0.0
        if x1 - x0 < 1 || y1 - y0 < 1 {
            // Smaller than a pixel: bilinear at the centre, between the four nearest pixels.
            let cx = (x0 + x1) / 2 - 0.5
            let cy = (y0 + y1) / 2 - 0.5
            let (ix, iy) = (Int(cx.rounded(.down)), Int(cy.rounded(.down)))
            let (wx, wy) = (cx - Double(ix), cy - Double(iy))
            for (dx, dy, w) in [
                (0, 0, (1 - wx) * (1 - wy)), (1, 0, wx * (1 - wy)), (0, 1, (1 - wx) * wy), (1, 1, wx * wy),
            ]
            where w > 0 {
                let p = pixel(ix + dx, max(0, iy + dy))
                sum = (sum.0 + p.0 * w, sum.1 + p.1 * w, sum.2 + p.2 * w, sum.3 + p.3 * w)
            }
            area = 1
        } else {
            var y = Int(y0.rounded(.down))
            while Double(y) < y1 {
                let wy = min(y1, Double(y + 1)) - max(y0, Double(y))
                var x = Int(x0.rounded(.down))
                while Double(x) < x1 {
                    let w = (min(x1, Double(x + 1)) - max(x0, Double(x))) * wy
                    let p = pixel(x, y)
                    sum = (sum.0 + p.0 * w, sum.1 + p.1 * w, sum.2 + p.2 * w, sum.3 + p.3 * w)
                    x += 1
                }
                area += wy * (x1 - x0)
                y += 1
            }
        }
        guard area > 0, sum.3 >= area / 2 else { return 0 }
        func channel(_ v: Double) -> UInt32 { UInt32(max(0, min(255, (v / sum.3 * 255).rounded()))) }
        return 1 << 24 | channel(sum.0) << 16 | channel(sum.1) << 8 | channel(sum.2)
    }
}
