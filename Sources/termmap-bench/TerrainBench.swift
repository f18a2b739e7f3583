import Foundation
import GeoCore
import MapBuilders
import MapData
import MapFormats
import MapRender
import Raster
import TestSupport
import Viewer

// MARK: Terrain (issue 48)

/// Elevation tiles made on demand: Terrarium PNGs of rolling hills (sums of sines of the world
/// position, ±600 m about 800 m), steep enough that a 200 × 60 view at zoom 14 holds many contours.
final class GeneratedTerrain: GeneratedTiles {
    let info: TilesetInfo = {
        var info = TilesetInfo(
            format: "generated", name: "terrain", minZoom: 0, maxZoom: 14,
            bounds: CoordinateBounds(north: 85.0511, south: -85.0511, west: -180, east: 180), tileCount: nil,
            attribution: nil, layers: [], compression: "none", imageFormat: "png")
        info.encoding = .terrarium
        return info
    }()

    static func tile(_ id: TileID) -> [UInt8] {
        var rgba = [UInt8](repeating: 255, count: 256 * 256 * 4)
        let n = Double(1 << id.z)
        for y in 0..<256 {
            for x in 0..<256 {
                let (u, v) = ((Double(id.x) + Double(x) / 256) / n, (Double(id.y) + Double(y) / 256) / n)
                let h = 800 + 300 * sin(u * 40_000) + 200 * sin(v * 30_000 + u * 9_000) + 100 * sin((u - v) * 70_000)
                let (r, g, b) = TerrainEncoding.terrariumColor(h)
                let i = (y * 256 + x) * 4
                (rgba[i], rgba[i + 1], rgba[i + 2]) = (r, g, b)
            }
        }
        return PNGWriter.png(width: 256, height: 256, rgba: rgba)
    }
}

/// Terrain's frame times at 200 × 60, zoom 14, 256 colours: the map alone, with contours, and with
/// contours and hillshade; steady (the tiles' lines and shades computed once) and the first frame.
func terrainLines(world: MapAsset, frames: Int) throws -> [String] {
    var lines: [String] = []
    for (name, terrain, hillshade) in [
        ("no terrain", false, false), ("contours", true, false), ("contours and hillshade", true, true),
    ] {
        let source = terrain ? TerrainSource(archive: GeneratedTerrain(), label: "terrain", encoding: .terrarium) : nil
        let sources = MapSources(features: FeatureSources(base: world, shorelines: nil, details: []), terrain: source)
        var start = SessionStart(cols: 200, rows: 60, center: Coordinate(latitude: 46.55, longitude: 7.98), zoom: 14)
        start.animations = false
        start.terrain = terrain ? "terrain" : nil
        var state = try start.state()
        state.showHillshade = hillshade
        let options = RenderOptions(mode: .ansi256)
        let t0 = nowSeconds()
        _ = Renderer.drawLoaded(state, sources: sources, options: options)
        let first = nowSeconds() - t0
        var steady: [Double] = []
        var sink = 0
        for i in 0..<(frames + 10) {
            let t = nowSeconds()
            sink &+= Renderer.draw(state, sources: sources, options: options).frame.cells.count
            if i >= 10 { steady.append((nowSeconds() - t) * 1e6) }
        }
        precondition(sink > 0)
        lines.append(
            "terrain 200x60 zoom 14, \(name): steady median \(Int(median(steady))) µs, p99 \(Int(percentile(steady, 0.99))) µs; first frame (tiles loaded, traced) \(Int(first * 1000)) ms"
        )
    }
    return lines
}
