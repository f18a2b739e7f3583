import Foundation
import GeoCore
import MapData
import MapFormats
import Raster
import Testing

@testable import MapRender
@testable import Viewer

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The bundled data, loaded once.
let bundledSources: MapSources = {
    do {
        return MapSources(world: try MapAsset(path: repositoryRoot.appendingPathComponent("assets/world.tmap").path))
    } catch {
        preconditionFailure("\(error)")
    }
}()

/// The cities of a run's base, projected: read straight from the file, not through the label path.
func projectedCities(_ sources: MapSources) throws -> [(city: City, point: MercatorPoint)] {
    try sources.features.base.places().filter(\.kind.isCity).map { ($0, WebMercator.project($0.coordinate)) }
}

/// Compares `text` with `Snapshots/<name>.txt`; set TERMMAP_RECORD_SNAPSHOTS=1 to re-record on purpose.
/// A failure lists the lines that differ.
func assertSnapshot(_ name: String, _ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Snapshots/\(name).txt")
    if ProcessInfo.processInfo.environment["TERMMAP_RECORD_SNAPSHOTS"] == "1" {
        try? (text + "\n").write(to: url, atomically: true, encoding: .utf8)
        return
    }
    guard let stored = try? String(contentsOf: url, encoding: .utf8) else {
        Issue.record("no snapshot \(name).txt: run with TERMMAP_RECORD_SNAPSHOTS=1", sourceLocation: sourceLocation)
        return
    }
    let expected = stored.hasSuffix("\n") ? String(stored.dropLast()) : stored
    guard expected != text else { return }
    let a = expected.components(separatedBy: "\n")
    let b = text.components(separatedBy: "\n")
    var diff: [String] = []
    for i in 0..<max(a.count, b.count) {
        let old = i < a.count ? a[i] : "<none>"
        let new = i < b.count ? b[i] : "<none>"
        guard old != new else { continue }
        diff.append("line \(i + 1):\n- " + old + "\n+ " + new)
        if diff.count >= 8 { break }
    }
    let report = diff.joined(separator: "\n")
    Issue.record("snapshot \(name) differs:\n\(report)", sourceLocation: sourceLocation)
}

/// A state after replaying a key script, as `termmap render` does.
func scripted(
    cols: Int, rows: Int, lat: Double, lon: Double, zoom: Double, circle: Double? = nil, keys: String = "",
    ascii: Bool = false
) throws -> ViewerState {
    var state = try ViewerState(cols: cols, rows: rows, center: Coordinate(latitude: lat, longitude: lon), zoom: zoom)
    state.animationsEnabled = false
    state.glyphMode = ascii ? .ascii : .braille
    if let circle {
        state.radiusMeters = circle
        state.circle = CircleOverlay(
            circle: try GeodesicCircle(center: state.view.center, radiusMeters: circle), ratio: CircleFit.defaultRatio)
    }
    guard case .success(let script) = KeyScript.parse(keys) else {
        Issue.record("bad key script \(keys)")
        return state
    }
    for key in script { state.update(key.event, places: bundledSources) }
    return state
}

func screen(_ state: ViewerState, mode: ColorMode = .plain) -> Frame {
    Renderer.render(state, sources: bundledSources, options: RenderOptions(mode: mode))
}

/// The style layer of a 256-colour frame: one letter per cell for the role whose style it has (read
/// back through the style table; `.` for the terminal's own colours), then, below a blank line, the
/// shade: `~` where the cell has the shade's background, `.` where not. The two are kept apart so that
/// a shaded cell still shows its role (a coastline outside the circle stays `C`).
func roleMap(_ frame: Frame) -> String {
    let letters: [StyleRole: Character] = [
        .plain: "p", .feature(.coastline): "C", .feature(.lake): "L", .feature(.border): "B", .grid: "g",
        .gridLabel: "G", .city: "o",
        .cityLabel: "n", .circleOutline: "R", .edge: "e", .status: "S", .message: "M", .error: "E", .prompt: "P",
        .help: "H", .feature(.motorway): "1", .feature(.trunk): "2", .feature(.primary): "3", .feature(.secondary): "4",
        .feature(.tertiary): "5", .feature(.minorRoad): "r",
        .feature(.serviceRoad): "v", .feature(.path): ":", .feature(.rail): "#", .feature(.tram): "t",
        .feature(.river): "W", .feature(.stream): "w", .feature(.water): "A", .feature(.park): "K",
        .feature(.wood): "D", .feature(.building): "b", .streetLabel: "N", .placeLabel: "Q", .credit: "c",
        .capitalLabel: "m", .feature(.worldRiver): "W", .feature(.stateBorder): "s", .feature(.land): "l",
        .feature(.lakeWater): "a", .attribution: "x",
    ]
    var byStyle: [CellStyle: Character] = [.plain: "."]
    // Keyed without backgrounds, as the cells are read (the status and message lines' band is one).
    for role in StyleRole.allCases {
        var style = StyleTable.style(role, mode: .ansi256)
        style.background = nil
        if byStyle[style] == nil { byStyle[style] = letters[role] ?? "?" }
    }
    let shades = [StyleTable.shade(mode: .ansi256), StyleTable.shade(mode: .ansi256, overLand: true)]
    func letter(_ c: Cell) -> Character {
        var s = c.style
        s.background = nil
        return byStyle[s] ?? "?"
    }
    let rows = 0..<frame.rows
    let roles = rows.map { row in String((0..<frame.cols).map { letter(frame[$0, row]) }) }
    let shaded = rows.map { row in
        String((0..<frame.cols).map { shades.contains(frame[$0, row].style.background) ? "~" : "." })
    }
    return (roles + [""] + shaded).joined(separator: "\n")
}

/// The bundled world with the bundled demo city (central Helsinki, imported from OpenStreetMap).
let bundledCitySources: MapSources = {
    do {
        return MapSources(
            world: try MapAsset(path: repositoryRoot.appendingPathComponent("assets/world.tmap").path),
            details: [try MapAsset(path: repositoryRoot.appendingPathComponent("assets/helsinki.tmap").path)])
    } catch {
        preconditionFailure("\(error)")
    }
}()

/// Cells of `frame` within `mask` drawn by a line of `styles` (braille with two dots or more;
/// backgrounds ignored), and how many of them the reference `mask` (rows of "0"/"1", from an
/// independent rasteriser) marks as on a way.
func cellsOnWays(_ frame: Frame, mask: [String], styles: Set<CellStyle>) -> (drawn: Int, onWays: Int) {
    let mask = mask.map { Array($0) }
    var drawn = 0
    var onWays = 0
    for row in 0..<min(frame.rows, mask.count) {
        for col in 0..<min(frame.cols, mask[row].count) {
            let cell = frame[col, row]
            guard (0x2800...0x28FF).contains(cell.glyph.value), (cell.glyph.value - 0x2800).nonzeroBitCount >= 2
            else { continue }
            var style = cell.style
            style.background = nil
            guard styles.contains(style) else { continue }
            drawn += 1
            if mask[row][col] == "1" { onWays += 1 }
        }
    }
    return (drawn, onWays)
}
