import GeoCore
import MapFormats
import Synchronization

/// Several elevation tilesets read as one terrain (issue 48: `--terrain` repeatable, a fine local DEM
/// over a global source): a tile's heights are the first layer's where it has one, the next layer's
/// where it has none (nodata, outside its area, beyond its zooms), and so on. Layers may differ in
/// encoding, tile size and zooms: each layer's heights are sampled at the stack tile's pixel centres,
/// from its own tile of that zoom, or from its deepest tile above it where it stops short (bilinear,
/// as GDAL resamples; exact where the sizes and zooms agree). The stack's tiles are Terrarium PNGs, so
/// that `TerrainSource` reads them as it reads any one tileset.
public final class TerrainStack: TileArchive {
    /// One tileset of the stack.
    public struct Layer: Sendable {
        public let archive: any TileArchive
        public let label: String
        public let encoding: TerrainEncoding

        /// A layer of `archive`'s tiles, their colours heights by `encoding`.
        public init(archive: any TileArchive, label: String, encoding: TerrainEncoding) {
            (self.archive, self.label, self.encoding) = (archive, label, encoding)
        }
    }

    /// The layers, first the one that wins.
    public let layers: [Layer]
    public let info: TilesetInfo
    /// The stack's tile side: the widest tile of the first tile made (then fixed: a `TerrainSource`'s
    /// tiles are of one size).
    private let side = Mutex<Int?>(nil)
    private let unsaid = Mutex<[String]>([])
    private let saidOnce = Mutex<Set<String>>([])

    /// A stack of `layers`, the first winning where it has a height.
    public init(layers: [Layer]) {
        self.layers = layers
        let infos = layers.map(\.archive.info)
        let bounds = infos.dropFirst().reduce(
            infos.first?.bounds ?? CoordinateBounds(north: 90, south: -90, west: -180, east: 180)
        ) { b, i in
            CoordinateBounds(
                north: max(b.north, i.bounds.north), south: min(b.south, i.bounds.south),
                west: min(b.west, i.bounds.west), east: max(b.east, i.bounds.east))
        }
        var info = TilesetInfo(
            format: "terrain stack", name: layers.map(\.label).joined(separator: " + "),
            minZoom: infos.map(\.minZoom).min() ?? 0, maxZoom: infos.map(\.maxZoom).max() ?? 0, bounds: bounds,
            tileCount: nil, attribution: Self.joined(infos.compactMap(\.attribution)), layers: [],
            compression: "none", imageFormat: "png")
        info.encoding = .terrarium
        self.info = info
    }

    /// The attributions, each once, in the layers' order.
    static func joined(_ credits: [String]) -> String? {
        var seen: [String] = []
        for c in credits where !seen.contains(c) { seen.append(c) }
        return seen.isEmpty ? nil : seen.joined(separator: "; ")
    }

    /// The tile of `layer` that holds `tile`'s area: its own, else its ancestor at the layer's deepest
    /// zoom; nil when the layer has nothing there (above its zooms, outside its bounds).
    static func source(_ tile: TileID, in info: TilesetInfo) -> TileID? {
        guard tile.z >= info.minZoom else { return nil }
        let up = max(0, tile.z - info.maxZoom)
        let source = TileID(z: tile.z - up, x: tile.x >> up, y: tile.y >> up)
        return TileSource.meets(source, info.bounds) ? source : nil
    }

    public func storedTiles(_ ids: [TileID], wanted: @escaping @Sendable (TileID) -> Bool) -> [TileID: Result<
        [UInt8]?, TileFailure
    >] {
        let asked = ids.filter(wanted)
        // Each layer's tiles under the asked ones, read once even where several asked tiles share one.
        var images: [[TileID: TileImage]] = []
        var failures: [[TileID: TileFailure]] = []
        for layer in layers {
            let needed = Array(Set(asked.compactMap { Self.source($0, in: layer.archive.info) }))
            var got: [TileID: TileImage] = [:]
            var failed: [TileID: TileFailure] = [:]
            for (tile, result) in layer.archive.tiles(needed) {
                switch result {
                case .success(let bytes?):
                    do throws(MapDataError) {
                        got[tile] = try TileImage.decode(bytes, name: "\(layer.label) tile \(tile)")
                    } catch {
                        sayOnce(layer.label, "\(error); the terrain there is drawn from the others")
                    }
                case .success(nil): break
                case .failure(let why):
                    failed[tile] = why
                    sayOnce(layer.label, "\(layer.label): \(why.reason); the terrain there is drawn from the others")
                }
            }
            images.append(got)
            failures.append(failed)
        }
        var out: [TileID: Result<[UInt8]?, TileFailure>] = [:]
        for tile in asked {
            let sources = layers.indices.map { l in
                Self.source(tile, in: layers[l].archive.info).flatMap { s in images[l][s].map { (s, $0) } }
            }
            guard sources.contains(where: { $0 != nil }) else {
                // Nothing anywhere: a failure if one layer could not answer (ask again), else no tile.
                let failure = layers.indices.lazy.compactMap { l in
                    Self.source(tile, in: self.layers[l].archive.info).flatMap { failures[l][$0] }
                }.first
                out[tile] = failure.map { .failure($0) } ?? .success(nil)
                continue
            }
            let size = side.withLock { s in
                if s == nil { s = sources.compactMap { $0?.1.width }.max() }
                return s ?? 256
            }
            out[tile] = .success(Self.merged(tile, size: size, layers: layers.map(\.encoding), sources: sources))
        }
        return out
    }

    /// `tile` as a Terrarium PNG of `size` pixels a side: each pixel the first source's height at its
    /// centre that has one (`sources[l]`: layer `l`'s tile over `tile` and its pixels); nil when no
    /// pixel has a height.
    static func merged(
        _ tile: TileID, size: Int, layers encodings: [TerrainEncoding], sources: [(TileID, TileImage)?]
    ) -> [UInt8]? {
        var rgba = [UInt8](repeating: 0, count: size * size * 4)
        var any = false
        for y in 0..<size {
            for x in 0..<size {
                for (l, source) in sources.enumerated() {
                    guard let (from, image) = source, image.width > 0,
                        let h = height(
                            at: (Double(x) + 0.5) / Double(size), (Double(y) + 0.5) / Double(size), of: tile,
                            in: from, image, encodings[l])
                    else { continue }
                    let (r, g, b) = TerrainEncoding.terrariumColor(h)
                    let i = (y * size + x) * 4
                    (rgba[i], rgba[i + 1], rgba[i + 2], rgba[i + 3]) = (r, g, b, 255)
                    any = true
                    break
                }
            }
        }
        return any ? PNGEncoder.png(width: size, height: size, rgba: rgba, level: 1) : nil
    }

    /// The height at fraction (`u`, `v`) across `tile` from `image`, the pixels of `from` (`tile` or an
    /// ancestor): bilinear between the four pixel centres around it (clamped at the image's edge), or the
    /// nearest pixel's where one of the four has none; nil where that has none either.
    static func height(
        at u: Double, _ v: Double, of tile: TileID, in from: TileID, _ image: TileImage, _ encoding: TerrainEncoding
    ) -> Double? {
        let scale = Double(1 << (tile.z - from.z))
        let fu = (Double(tile.x) - Double(from.x) * scale + u) / scale
        let fv = (Double(tile.y) - Double(from.y) * scale + v) / scale
        let (w, h) = (image.width, image.height)
        let gx = fu * Double(w) - 0.5
        let gy = fv * Double(h) - 0.5
        let (x0, y0) = (Int(gx.rounded(.down)), Int(gy.rounded(.down)))
        let (tx, ty) = (gx - Double(x0), gy - Double(y0))
        func sample(_ px: Int, _ py: Int) -> Double? {
            let c = image.pixel(min(w - 1, max(0, px)), min(h - 1, max(0, py)))
            return c.3 == 0 ? nil : encoding.height(red: c.0, green: c.1, blue: c.2)
        }
        guard let a = sample(x0, y0), let b = sample(x0 + 1, y0), let c = sample(x0, y0 + 1),
            let d = sample(x0 + 1, y0 + 1)
        else {
            return sample(Int((gx + 0.5).rounded(.down)), Int((gy + 0.5).rounded(.down)))
        }
        return (a * (1 - tx) + b * tx) * (1 - ty) + (c * (1 - tx) + d * tx) * ty
    }

    private func sayOnce(_ label: String, _ line: String) {
        guard saidOnce.withLock({ $0.insert(label).inserted }) else { return }
        unsaid.withLock { $0.append(line) }
    }

    public func refreshIfChanged() -> Bool {
        layers.reduce(false) { changed, layer in layer.archive.refreshIfChanged() || changed }
    }

    public func takeNotices() -> [String] {
        layers.flatMap { $0.archive.takeNotices() }
            + unsaid.withLock { u in
                defer { u = [] }
                return u
            }
    }

    public func finish() {
        for layer in layers { layer.archive.finish() }
    }
}
