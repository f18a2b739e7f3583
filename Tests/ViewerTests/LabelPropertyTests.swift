import Foundation
import GeoCore
import MapData
import MapFormats
import Raster
import Testing

@testable import MapRender
@testable import Viewer

/// Properties of what the renderer places, checked over many views rather than held by golden screens
/// (re-recording a golden screen would accept a bug).
@Suite("Label and grid properties")
struct LabelPropertyTests {
    /// Views over dense and sparse places, at several sizes.
    static let views: [(lat: Double, lon: Double, zoom: Double, cols: Int, rows: Int)] = [
        (0, 0, 0, 200, 60), (0, 0, 0, 120, 40), (48, 10, 4, 200, 60), (48, 10, 4, 80, 24), (35.7, 139.7, 5, 160, 48),
        (22, 80, 4, 160, 48), (40, -75, 6, 120, 40), (-23, -46, 7, 100, 30), (52.5, 13.4, 9, 100, 30),
        (30, 114, 5, 200, 60), (6.5, 3.4, 6, 80, 24), (-17.7, 178.9, 5, 120, 40),
        // Where a new user saw names over the grid's labels: Tokyo at zoom 11, Rio at 8, Helsinki's corner.
        (35.68, 139.69, 11, 160, 48), (-22.9, -43.2, 8, 160, 48), (60.17, 24.94, 17, 160, 48),
        (60.17, 24.94, 9, 80, 24),
    ]

    func view(_ v: (lat: Double, lon: Double, zoom: Double, cols: Int, rows: Int)) throws -> MapView {
        try MapView(
            center: Coordinate(latitude: v.lat, longitude: v.lon), zoom: v.zoom,
            size: ViewSize(cols: v.cols, rows: v.rows))
    }

    /// No label (grid, place or street) shares a cell with another, or with the cell on either side of
    /// another on its row, or with a place's marker; every label stands on the map.
    static func checkNoOverlap(_ engine: LabelEngine, _ what: String) {
        var owner: [Int: Int] = [:]  // cell index → label
        for (n, label) in engine.labels.enumerated() {
            #expect(
                label.col >= 0 && label.col + label.text.count <= engine.cols && label.row >= 0
                    && label.row < engine.rows,
                "\(what): '\(label.text)' leaves the map")
            for col in label.col..<(label.col + label.text.count) {
                let cell = label.row * engine.cols + col
                if let other = owner[cell] {
                    Issue.record(
                        "\(what): '\(label.text)' overlaps '\(engine.labels[other].text)' at \(col),\(label.row)")
                }
                owner[cell] = n
            }
        }
        for (n, label) in engine.labels.enumerated() {
            for col in [label.col - 1, label.col + label.text.count] where col >= 0 && col < engine.cols {
                // A point of interest's sign stands right beside its own name (the name's margin is the sign).
                if let other = owner[label.row * engine.cols + col], other != n,
                    !((label.role == .feature(.poi) || engine.labels[other].role == .feature(.poi))
                        && label.feature == engine.labels[other].feature)
                {
                    Issue.record("\(what): '\(engine.labels[other].text)' touches '\(label.text)'")
                }
            }
        }
        for m in engine.markers {
            if let other = owner[m.row * engine.cols + m.col] {
                Issue.record("\(what): '\(engine.labels[other].text)' covers a place's marker")
            }
        }
    }

    @Test(arguments: views.indices)
    func labelsNeverOverlap(index: Int) throws {
        let view = try view(Self.views[index])
        let engine = MapRenderer.drawn(
            view: view, sources: bundledCitySources, layers: [GraticuleLayer(), PlacesLayer()]
        )
        .labels
        let places = engine.labels.filter { [.cityLabel, .capitalLabel, .placeLabel].contains($0.role) }
        // As many names as the view has places its zoom names, up to three (a view over the sea or at
        // street level may have none; there the grid's labels are what is checked).
        let t = view.transform
        let namable = try projectedCities(bundledCitySources).filter { c in
            let x = t.nearestDotX(c.point.x)
            let y = t.dotY(c.point.y)
            return PlaceTable.rank(population: c.city.population, kind: c.city.kind)
                >= PlacesLayer.populationFloor(zoom: view.zoom)
                && x >= 0 && y >= 0 && x < view.size.widthDots && y < view.size.heightDots
        }.count
        #expect(places.count >= min(3, namable), "view \(index): \(places.count) place labels of \(namable)")
        Self.checkNoOverlap(engine, "view \(index)")
    }

    /// A pan moves names with the map: a name well inside both frames stays beside its place, and few
    /// new ones appear well inside the part both frames show (a count budget once made dozens come and
    /// go whenever a larger place entered the view, and the terminal had to redraw them). Near the
    /// edges a name may change sides, as room beside its place opens or closes.
    @Test(arguments: [(50.0, 10.0, 5.0), (35.7, 139.7, 6.0), (40.0, -75.0, 6.0), (22.0, 80.0, 4.0), (48.0, 2.0, 8.0)])
    func namesMoveWithTheMap(lat: Double, lon: Double, zoom: Double) throws {
        let cols = 160
        let rows = 46
        for key in "hjkl" {
            let start = try scripted(cols: cols, rows: rows + 2, lat: lat, lon: lon, zoom: zoom)
            var s = start
            s.update(.key(.char(key)))
            let shift = try #require(ScreenShift.between(start, s))
            func names(_ s: ViewerState) -> [MapLabel] {
                MapRenderer.drawn(
                    view: s.view, sources: bundledSources, layers: [BaseMapLayer(), GraticuleLayer(), PlacesLayer()]
                ).labels.labels.filter { $0.role != .gridLabel }
            }
            // Well inside a frame: room for any of a name's four positions, away from the grid's top row.
            func inside(_ col: Int, _ row: Int, _ width: Int) -> Bool {
                row >= 3 && row < rows - 2 && col >= width + 2 && col + 2 * width + 2 < cols
            }
            var gone: [String] = []
            var kept = 0
            let after = names(s)
            for l in names(start) where inside(l.col, l.row, l.text.count) {
                let (c, r) = (l.col + shift.columns, l.row + shift.rows)
                guard inside(c, r, l.text.count) else { continue }
                if after.contains(where: { $0.text == l.text && $0.col == c && $0.row == r }) {
                    kept += 1
                } else {
                    gone.append(l.text)
                }
            }
            let before = Set(names(start).map(\.text))
            let appeared = after.filter { l in
                let (c, r) = (l.col - shift.columns, l.row - shift.rows)
                return inside(l.col, l.row, l.text.count) && inside(c, r, l.text.count) && !before.contains(l.text)
            }
            // One name in twenty may change sides as room beside its place opens or closes.
            #expect(
                gone.count <= max(1, (kept + gone.count) / 20),
                "\(key) at \(lat),\(lon): \(gone.count) of \(kept + gone.count) moved: \(gone)")
            #expect(appeared.count <= 2, "\(key) at \(lat),\(lon): new \(appeared.map(\.text))")
            #expect(kept >= 3, "\(key) at \(lat),\(lon): \(kept) kept")
        }
    }

    /// Below zoom 7 a frame decodes only the places above the next zoom's floor: its labels are the
    /// ones it would place from all 34,006 places, at 12 zooms from 0 to 6.9.
    @Test func smallScaleViewsNameTheSameFromTheirFewPlaces() throws {
        let world = repositoryRoot.appendingPathComponent("assets/world.tmap").path
        let few = MapSources(world: try MapAsset(path: world))
        let all = MapSources(features: FeatureSources(base: try MapAsset(path: world)), usesTiers: false)
        for (i, zoom) in [0.0, 0.5, 1, 1.7, 2, 3.2, 4, 4.9, 5, 5.5, 6, 6.9].enumerated() {
            let s = try scripted(
                cols: 160, rows: 48, lat: [48.0, 35, -20][i % 3], lon: [10.0, 100, -50][i % 3], zoom: zoom)
            let a = Renderer.render(s, sources: few, options: RenderOptions(mode: .plain)).text
            let b = Renderer.render(s, sources: all, options: RenderOptions(mode: .plain)).text
            #expect(a == b, "zoom \(zoom)")
        }
        let counts = try [0, 4].map {
            try few.topPlaces(tier: $0, floor: Int(4_000_000 * exp2(-Double($0 + 1)))).id.count
        }
        #expect(counts[0] < 400 && counts[1] < 34_006 / 3, "the tiers hold the few, not all: \(counts)")
    }

    /// The ladder of grid spacings, coarse to fine (degrees): 30°, 10°, 5°, 2°, 1°, 30′ … 1″, 0.5″ … 0.00001″.
    static let ladder: [Double] = {
        var s = [30.0, 10, 5, 2, 1] + [30.0, 10, 5, 2, 1].map { $0 / 60 } + [30.0, 10, 5, 2, 1].map { $0 / 3600 }
        var decade = 0.1 / 3600
        for _ in 0..<5 {
            s += [5 * decade, 2 * decade, decade]
            decade /= 10
        }
        return s
    }()

    /// `12°30′15.5″E` → 12.504305…; S and W negative.
    static func degrees(_ label: String) -> Double? {
        var rest = Substring(label)
        var total = 0.0
        for (mark, unit) in [("°", 1.0), ("′", 60.0), ("″", 3600.0)] {
            guard let i = rest.firstIndex(of: Character(mark)) else { continue }
            guard let v = Double(rest[..<i]) else { return nil }
            total += v / unit
            rest = rest[rest.index(after: i)...]
        }
        return rest == "S" || rest == "W" ? -total : total
    }

    /// The step between grid lines, read off the labels of the picture, is the finest step of the ladder
    /// that keeps lines 40 dots apart (or the coarsest, 30°, when none does), for every zoom 0…28.
    @Test(arguments: 0...28)
    func gridStepIsTheOneTheLadderPicks(zoom: Int) throws {
        let view = try MapView(
            center: Coordinate(latitude: 12.34567, longitude: 56.78901), zoom: Double(zoom) + 0.3,
            size: ViewSize(cols: 120, rows: 40))
        var context = LayerContext(view: view, sources: nil, ascii: false)
        let labels = GraticuleLayer().drawLines(&context)
        let dotsPerDegree = view.worldSize / 360
        let expected = Self.ladder.last { $0 * dotsPerDegree >= 40 } ?? Self.ladder[0]
        let meridians = labels.filter { $0.col > 0 }.sorted { $0.col < $1.col }.compactMap { Self.degrees($0.text) }
        let parallels = labels.filter { $0.col == 0 }.sorted { $0.row > $1.row }.compactMap { Self.degrees($0.text) }
        #expect(meridians.count >= 2 && parallels.count >= 2, "zoom \(zoom): \(labels.map(\.text))")
        for (a, b) in zip(meridians, meridians.dropFirst()) {
            let step = (b - a + 360).truncatingRemainder(dividingBy: 360)
            #expect(abs(step - expected) < expected * 1e-3, "zoom \(zoom): meridians \(a) → \(b), expected \(expected)")
        }
        for (a, b) in zip(parallels, parallels.dropFirst()) {
            #expect(abs((b - a) - expected) < expected * 1e-3, "zoom \(zoom): parallels \(a) → \(b)")
        }
    }
}

@Suite("Street label properties")
struct StreetLabelPropertyTests {
    /// Over views of the demo city: street names never share a cell with each other or with the labels
    /// placed before them, each name is on screen once, and every name stands on the map.
    @Test(arguments: [
        (60.16878, 24.94164, 14.0), (60.1685, 24.944, 15.0), (60.1699, 24.9384, 16.0),
        (60.1720, 24.9470, 16.5), (60.1660, 24.9420, 17.0), (60.16878, 24.94164, 18.0),
    ])
    func streetNamesNeverOverlapAndAppearOnce(lat: Double, lon: Double, zoom: Double) throws {
        let view = try MapView(
            center: Coordinate(latitude: lat, longitude: lon), zoom: zoom, size: ViewSize(cols: 120, rows: 38))
        let engine = MapRenderer.drawn(view: view, sources: bundledCitySources).labels
        let placed = engine.labels.filter { $0.role == .streetLabel }
        #expect(!placed.isEmpty, "no street name at zoom \(zoom)")
        #expect(Set(placed.map(\.text)).count == placed.count, "a name twice: \(placed.map(\.text))")
        LabelPropertyTests.checkNoOverlap(engine, "zoom \(zoom)")
    }
}

/// The map's names give way to the user's data: no name placed covers a cell a file's line or point
/// draws in (a zigzag run across central Washington, over its name and the grid's labels).
@Suite("Names give way to the user's data")
struct NamesGiveWayTests {
    @Test func noNameCoversAFilesLine() throws {
        let points = (0...40).map { i in "[\(-77.0564 + Double(i) * 0.001),\(38.8951 + (i % 2 == 0 ? -0.004 : 0.004))]"
        }
        let text =
            #"{"type":"Feature","properties":{"name":"Zigzag run"},"geometry":{"type":"LineString","coordinates":["#
            + points.joined(separator: ",") + "]}}"
        let data = try UserDataReader.read(Array(text.utf8), format: .geojson, file: "run.geojson")
        let layer = UserDataLayer(file: UserFile(file: "run.geojson", format: .geojson, data: data), look: 0)
        let view = try MapView(
            center: Coordinate(latitude: 38.8951, longitude: -77.0364), zoom: 14.5,
            size: try ViewSize(cols: 120, rows: 40))
        let c = MapRenderer.drawn(view: view, sources: bundledSources, layers: MapRenderer.baseLayers + [layer])
        let firstUserInk = StyleTable.ink(.overlay(0))
        var covered: [String] = []
        var userCells = 0
        for row in 0..<40 {
            for col in 0..<120 where c.canvas.ink(col: col, row: row) >= firstUserInk {
                userCells += 1
                if let l = c.labels.labels.first(where: {
                    $0.row == row && (($0.col)..<($0.col + $0.text.count)).contains(col)
                }) {
                    covered.append("\(l.text) at \(col),\(row)")
                }
            }
        }
        #expect(userCells > 200)
        #expect(covered.isEmpty, "\(covered)")
        // The grid's labels are still on the map where the run leaves room.
        #expect(c.labels.labels.contains { $0.role == .gridLabel })
    }

    /// A file's own name stands beside its line, not on it: a level line's name goes above or below it.
    @Test func aLinesNameStandsBesideIt() throws {
        let text =
            #"{"type":"Feature","properties":{"name":"Level road"},"geometry":{"type":"LineString","coordinates":[[-20,0.5],[20,0.5]]}}"#
        let data = try UserDataReader.read(Array(text.utf8), format: .geojson, file: "road.geojson")
        let layer = UserDataLayer(file: UserFile(file: "road.geojson", format: .geojson, data: data), look: 0)
        let view = try MapView(
            center: Coordinate(latitude: 0, longitude: 0), zoom: 3, size: try ViewSize(cols: 80, rows: 20))
        let c = MapRenderer.drawn(view: view, sources: nil, layers: [layer])
        let name = try #require(c.labels.labels.first { $0.text == "Level road" })
        let firstUserInk = StyleTable.ink(.overlay(0))
        let onLine = (name.col..<(name.col + name.text.count)).filter {
            c.canvas.ink(col: $0, row: name.row) >= firstUserInk
        }
        #expect(onLine.isEmpty, "the name covers its line at columns \(onLine)")
        #expect(
            (0..<80).contains {
                c.canvas.ink(col: $0, row: name.row + 1) >= firstUserInk
                    || c.canvas.ink(col: $0, row: name.row - 1) >= firstUserInk
            })
    }
}
