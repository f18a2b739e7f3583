import Foundation
import GeoCore
import MapData
import MapFormats
import MapRender
import Raster
import TestSupport
import Viewer

// MARK: Imagery (issue 47)

/// A tileset whose tiles are made when asked (`tile(_:)`), none stored.
protocol GeneratedTiles: TileArchive, Sendable {
    static func tile(_ id: TileID) -> [UInt8]
}

extension GeneratedTiles {
    func storedTiles(_ ids: [TileID], wanted: @escaping @Sendable (TileID) -> Bool) -> [TileID: Result<
        [UInt8]?, TileFailure
    >] {
        var out: [TileID: Result<[UInt8]?, TileFailure>] = [:]
        for id in ids { out[id] = .success(Self.tile(id)) }
        return out
    }
}

/// A raster tileset made on demand: each 256-pixel tile a photograph's stand-in (smooth colour fields
/// of the world position with ±16 of seeded noise a pixel, so that neighbouring cells differ as aerial
/// imagery's do), PNG-encoded as a tile server would send it.
final class GeneratedImagery: GeneratedTiles {
    let info = TilesetInfo(
        format: "generated", name: "imagery", minZoom: 0, maxZoom: 14,
        bounds: CoordinateBounds(north: 85.0511, south: -85.0511, west: -180, east: 180), tileCount: nil,
        attribution: nil, layers: [], compression: "none", imageFormat: "png")

    static func tile(_ id: TileID) -> [UInt8] {
        var rgba = [UInt8](repeating: 255, count: 256 * 256 * 4)
        var random = SplitMix(state: UInt64(id.z) << 48 ^ UInt64(id.x) << 24 ^ UInt64(id.y))
        let n = Double(1 << id.z)
        for y in 0..<256 {
            for x in 0..<256 {
                let (u, v) = ((Double(id.x) + Double(x) / 256) / n, (Double(id.y) + Double(y) / 256) / n)
                let field = (sin(u * 900), sin(v * 700 + u * 300), sin((u - v) * 500))
                let i = (y * 256 + x) * 4
                for (k, f) in [field.0, field.1, field.2].enumerated() {
                    let noise = Double(random.below(33)) - 16
                    rgba[i + k] = UInt8(max(0, min(255, 110 + 70 * f + noise)))
                }
            }
        }
        return PNGWriter.png(width: 256, height: 256, rgba: rgba)
    }
}

/// Imagery's figures at 200 × 60: frame times (steady, and after a pan of a dot) in half blocks, and the
/// bytes of a full repaint and of a pan in 256 colours and truecolour, beside the street-level frame's.
func imageryLines(world: MapAsset, frames: Int) throws -> [String] {
    let imagery = ImagerySource(archive: GeneratedImagery(), label: "imagery")
    let sources = MapSources(features: FeatureSources(base: world, shorelines: nil, details: []), imagery: imagery)
    var start = SessionStart(cols: 200, rows: 60, center: Coordinate(latitude: 47.37, longitude: 8.54), zoom: 11)
    start.animations = false
    start.imagery = "imagery"
    var state = try start.state()
    var lines: [String] = []
    for mode in [ColorMode.ansi256, .truecolor] {
        let options = RenderOptions(mode: mode)
        _ = Renderer.drawLoaded(state, sources: sources, options: options)
        var steady: [Double] = []
        var panned: [Double] = []
        var sink = 0
        for i in 0..<(frames + 10) {
            let t0 = nowSeconds()
            sink &+= Renderer.draw(state, sources: sources, options: options).frame.cells.count
            let t1 = nowSeconds()
            state.view.pan(dx: i % 2 == 0 ? 1 : -1, dy: 0)
            let t2 = nowSeconds()
            sink &+= Renderer.draw(state, sources: sources, options: options).frame.cells.count
            let t3 = nowSeconds()
            if i >= 10 {
                steady.append((t1 - t0) * 1e6)
                panned.append((t3 - t2) * 1e6)
            }
        }
        precondition(sink > 0)
        lines.append(
            "imagery 200x60 \(mode.rawValue): steady median \(Int(median(steady))) µs, p99 \(Int(percentile(steady, 0.99))) µs; after a 1-dot pan median \(Int(median(panned))) µs, p99 \(Int(percentile(panned, 0.99))) µs"
        )
        lines.append(try repaintBytes(state, sources, mode))
    }
    lines += pictureLines(state, sources)
    // Today's street-level frame, for the bytes' yardstick.
    let city = try MapAsset(path: packageRoot.appendingPathComponent("assets/helsinki.tmap").path)
    let streets = MapSources(world: world, details: [city])
    var street = SessionStart(
        cols: 200, rows: 60, center: Coordinate(latitude: 60.16878, longitude: 24.94164), zoom: 16)
    street.animations = false
    lines.append("street level (Helsinki demo city z16): " + (try repaintBytes(try street.state(), streets, .ansi256)))
    return lines
}

/// Bytes of a full repaint of `state`'s frame, and of the frame after a pan of one column over it: the
/// terminal moves what it shows one column (as the viewer has it do), then the cells that changed.
func repaintBytes(_ state: ViewerState, _ sources: MapSources, _ mode: ColorMode) throws -> String {
    let options = RenderOptions(mode: mode)
    let frame = Renderer.drawLoaded(state, sources: sources, options: options).frame
    var moved = state
    moved.view.pan(dx: 2, dy: 0)
    let next = Renderer.drawLoaded(moved, sources: sources, options: options).frame
    let abilities = TerminalPainter.Abilities.xterm(mode)
    var painter = TerminalPainter(cols: frame.cols, rows: frame.rows, abilities: abilities)
    let full = painter.paint(frame, fullRepaint: true).count
    painter.moveColumns(by: -1, rows: 0..<state.view.size.rows)
    let pan = painter.paint(next).count
    return "\(mode.rawValue) full repaint \(full) bytes, a 1-column pan \(pan) bytes"
}

/// The imagery as pictures for the same view: kitty's bytes for a new view and for pans (the terminal
/// keeps the chunks it holds), sixel's for a view, and the time to make each.
func pictureLines(_ state: ViewerState, _ sources: MapSources) -> [String] {
    var lines: [String] = []
    // The picture kitty's protocol is sent for the same view: its bytes, and the time to make them.
    let pictures = RenderOptions(mode: .truecolor, pictures: .dots)
    let shot = Renderer.drawLoaded(state, sources: sources, options: pictures)
    var encode: [Double] = []
    var bytes = 0
    // Two views a cell apart in turn: the sources keep only the last picture, so each is made anew.
    var nextDoor = state
    nextDoor.view.pan(dx: Double(ViewSize.dotsPerCellX), dy: 0)
    for i in 0..<20 {
        let t0 = nowSeconds()
        let screenful = Renderer.draw(i % 2 == 0 ? state : nextDoor, sources: sources, options: pictures)
        var fresh = Screenful.kittyPlacements()
        bytes = screenful.pictureCommands(&fresh).count
        encode.append((nowSeconds() - t0) * 1000)
    }
    precondition(shot.picture != nil)
    // A quarter view's pan (`←`, 50 columns) and a small one (5): the terminal keeps the chunks it holds.
    var kitty = Screenful.kittyPlacements()
    _ = shot.pictureCommands(&kitty)
    var pans: [String] = []
    for cols in [50, 5] {
        var moved = state
        moved.view.pan(dx: Double(-cols * ViewSize.dotsPerCellX), dy: 0)
        var held = kitty
        let bytes = Renderer.drawLoaded(moved, sources: sources, options: pictures).pictureCommands(&held).count
        pans.append("a \(cols)-column pan \(bytes) bytes")
    }
    lines.append(
        "kitty picture 200x60: \(bytes) bytes a new view (\(CoordinateFormat.fixed(Double(bytes) / 32768, 1)) s at 32 KB/s), \(pans.joined(separator: ", ")); frame and picture made in \(CoordinateFormat.fixed(median(encode), 1)) ms median of 20"
    )
    // Sixel at 10 x 20 pixels a cell: a new view's chunks, and the time to make them (a pan moves
    // every chunk: sixel cannot move what the terminal shows, so it sends them all again).
    let sixelOptions = RenderOptions(mode: .truecolor, pictures: PictureCell(width: 10, height: 20))
    // The same view drawn again (a panel opened, a message): the sources' last picture is reused.
    var again: [Double] = []
    _ = Renderer.draw(state, sources: sources, options: sixelOptions)
    for _ in 0..<6 {
        let t0 = nowSeconds()
        _ = Renderer.draw(state, sources: sources, options: sixelOptions)
        again.append((nowSeconds() - t0) * 1000)
    }
    let sixelShot = Renderer.drawLoaded(state, sources: sources, options: sixelOptions)
    var sixelTimes: [Double] = []
    var sixelBytes = 0
    for i in 0..<6 {
        let t0 = nowSeconds()
        let screenful = Renderer.draw(i % 2 == 0 ? state : nextDoor, sources: sources, options: sixelOptions)
        let t1 = nowSeconds()
        var chunks = SixelChunks()
        sixelBytes = chunks.update(screenful.picture, cols: 200, rows: screenful.pictureRows).bytes.count
        sixelTimes.append((t1 - t0) * 1000)
        sixelTimes.append((nowSeconds() - t1) * 1000)
    }
    precondition(sixelShot.picture != nil)
    let (drawn, encoded) = (
        sixelTimes.enumerated().filter { $0.offset % 2 == 0 }.map(\.element),
        sixelTimes.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
    )
    lines.append(
        "sixel 200x60 at 10x20 pixels a cell: \(sixelBytes) bytes a view (\(CoordinateFormat.fixed(Double(sixelBytes) / 32768, 1)) s at 32 KB/s); frame and picture \(CoordinateFormat.fixed(median(drawn), 1)) ms, sixel encoding \(CoordinateFormat.fixed(median(encoded), 1)) ms; the same view again \(CoordinateFormat.fixed(median(again), 1)) ms (medians of 6)"
    )
    return lines
}
