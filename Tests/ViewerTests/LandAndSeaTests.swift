import Foundation
import GeoCore
import MapBuilders
import MapData
import MapFormats
import Raster
import Testing

@testable import MapRender
@testable import Viewer

/// Land and sea at street level against `Tests/MapDataTests/Fixtures/osm/sea.json` (Tools/make_sea_fixtures.py:
/// pyosmium and shapely make the sea from the coastline, independently of the importer): three made-up
/// coasts and the Helsinki extract, each imported and drawn.
@Suite("Land and sea from the coastline")
struct LandAndSeaTests {
    struct Reference: Decodable {
        var box: [Double]
        var points: [Point]
        /// Helsinki: points inside buildings, with the building's OSM object (`way 123`).
        var buildings: [Point]?
        struct Point: Decodable {
            var lat: Double, lon: Double, kind: String
            init(from decoder: any Decoder) throws {
                var c = try decoder.unkeyedContainer()
                lat = try c.decode(Double.self)
                lon = try c.decode(Double.self)
                kind = try c.decode(String.self)
            }
        }
    }
    static let references: [String: Reference] = {
        struct Root: Decodable { var files: [String: Reference] }
        let url = repositoryRoot.appendingPathComponent("Tests/MapDataTests/Fixtures/osm/sea.json")
        do { return try JSONDecoder().decode(Root.self, from: Data(contentsOf: url)).files } catch {
            preconditionFailure("sea.json: \(error)")
        }
    }()
    static let world: MapAsset = {
        do { return try MapAsset(path: repositoryRoot.appendingPathComponent("assets/world.tmap").path) } catch {
            preconditionFailure("\(error)")
        }
    }()

    /// The file imported as `termmap data import-osm` does.
    static func imported(_ file: String) throws -> MapAsset {
        let url = repositoryRoot.appendingPathComponent("Tests/MapDataTests/Fixtures/osm/\(file)")
        let (contents, _) = try OSMImporter.contents(
            pbf: [UInt8](try Data(contentsOf: url)), name: file, source: file, classMinZoom: StyleTable.minZoom)
        return try MapAsset(bytes: MapAssetWriter.encode(contents), name: file)
    }

    static let waterClasses: Set<String> = ["sea", "water"]

    /// The data drawn for a case: an imported extract, or a Helsinki tileset (whose sea was made offline
    /// from the same coastline and written as OpenMapTiles' `ocean` or Protomaps' kind `ocean`).
    static func sources(_ file: String) throws -> (reference: String, sources: MapSources) {
        guard !file.hasSuffix(".osm.pbf") else {
            return (file, MapSources(world: Self.world, details: [try Self.imported(file)]))
        }
        let path = repositoryRoot.appendingPathComponent("Tests/MapDataTests/Fixtures/tiles/\(file)").path
        let tiles = TileSource(archive: try TileArchives.open(path), label: "tiles")
        return ("Helsinki.osm.pbf", MapSources(features: FeatureSources(base: Self.world, details: [tiles])))
    }

    /// Known sea and water points show water, known land points land (≥ 95 % each), at zoom 14 to 17;
    /// no row's tint is the same over both.
    @Test(arguments: [
        "coast-island.osm.pbf", "coast-bay.osm.pbf", "coast-reentry.osm.pbf", "Helsinki.osm.pbf",
        "helsinki-omt.pmtiles",
        "helsinki-protomaps.pmtiles",
    ])
    func seaAndLandAreWhereTheCoastlineSays(file: String) throws {
        let (name, sources) = try Self.sources(file)
        let reference = try #require(Self.references[name])
        // Views centred on the box and on the sea points.
        let box = Coordinate(
            latitude: (reference.box[1] + reference.box[3]) / 2, longitude: (reference.box[0] + reference.box[2]) / 2)
        let sea = reference.points.filter { $0.kind != "land" }
        let mean = (
            lat: sea.map(\.lat).reduce(0, +) / Double(max(1, sea.count)),
            lon: sea.map(\.lon).reduce(0, +) / Double(max(1, sea.count))
        )
        // The sea point nearest the sea's mean (which may be land: an island's middle).
        let nearest = sea.min {
            abs($0.lat - mean.lat) + abs($0.lon - mean.lon) < abs($1.lat - mean.lat) + abs($1.lon - mean.lon)
        }
        let seaCenter = Coordinate(latitude: nearest?.lat ?? box.latitude, longitude: nearest?.lon ?? box.longitude)
        for zoom in [14.0, 15, 16, 17] {
            for center in [box, seaCenter] {
                let view = try MapView(center: center, zoom: zoom, size: try ViewSize(cols: 200, rows: 60))
                var frame = Frame(cols: 200, rows: 60)
                for batch in MapRenderer.missingTiles(view: view, sources: sources) {
                    (sources.features.all[batch.source] as? TileSource)?.load(batch.tiles)
                }
                let pick = MapRenderer.render(
                    into: &frame, view: view, sources: sources, style: MapStyle(mode: .ansi256)
                ).pick
                var counts: [String: (right: Int, all: Int)] = [:]
                // Per row, the tints of the sea and land points in it: no tint may span both.
                var rowTints: [Int: [String: Set<String>]] = [:]
                for p in reference.points {
                    let dot = view.dotPoint(for: Coordinate(latitude: p.lat, longitude: p.lon))
                    let col = Int(dot.x / 2)
                    let row = Int(dot.y / 4)
                    guard col >= 0, row >= 0, col < 200, row < 60 else { continue }
                    let shown = pick.area(col: col, row: row)?.className ?? "nothing"
                    let water = p.kind != "land"
                    let right =
                        water
                        ? Self.waterClasses.contains(shown) : !Self.waterClasses.contains(shown) && shown != "nothing"
                    counts[water ? "water" : "land", default: (0, 0)].all += 1
                    if right { counts[water ? "water" : "land", default: (0, 0)].right += 1 }
                    rowTints[row, default: [:]][shown, default: []].insert(water ? "water" : "land")
                }
                for (kind, c) in counts {
                    #expect(Double(c.right) >= 0.95 * Double(c.all), "\(file) z\(zoom) \(kind): \(c.right) of \(c.all)")
                }
                if center == seaCenter {
                    #expect(counts["water"]?.all ?? 0 > 0, "\(file) z\(zoom): no sea point in view")
                }
                let spanning = rowTints.filter { $0.value.values.contains { $0.count > 1 } }
                #expect(
                    spanning.count <= max(1, rowTints.count / 20),
                    "\(file) z\(zoom): rows whose tint spans land and sea: \(spanning.keys.sorted())")
            }
        }
    }

    /// The side of the demo city's box in view is drawn faint (the edge's ink) in the cells it runs
    /// through, and the render says the street data ends there; a view inside the box says nothing.
    @Test func whereStreetDataEndsIsShownAndSaidOnce() throws {
        let reference = try #require(Self.references["Helsinki.osm.pbf"])
        let east = reference.box[2]
        let lat = (reference.box[1] + reference.box[3]) / 2
        let sources = bundledCitySources
        let view = try MapView(
            center: Coordinate(latitude: lat, longitude: east), zoom: 15, size: try ViewSize(cols: 100, rows: 30))
        let context = MapRenderer.drawn(view: view, sources: sources, layers: [BaseMapLayer()])
        #expect(context.report.streetDataEnds)
        let col = Int(view.dotPoint(for: Coordinate(latitude: lat, longitude: east)).x / 2)
        let edgeCells = (0..<30).filter { row in
            (col - 1...col + 1).contains { StyleTable.role(ink: context.canvas.ink(col: $0, row: row)) == .edge }
        }
        #expect(edgeCells.count >= 25, "edge ink in \(edgeCells.count) of 30 rows at column \(col)")
        let inside = try MapView(
            center: Coordinate(latitude: lat, longitude: (reference.box[0] + east) / 2), zoom: 17,
            size: try ViewSize(cols: 40, rows: 12))
        #expect(!MapRenderer.drawn(view: inside, sources: sources, layers: [BaseMapLayer()]).report.streetDataEnds)
        // The viewer says it once, and not over another message.
        var s = try ViewerState(cols: 100, rows: 30, center: view.center, zoom: 15)
        _ = s.update(.rendered(missing: [], streetDataEnds: true))
        #expect(s.message == "no street data beyond here")
        s.message = ""
        _ = s.update(.rendered(missing: [], streetDataEnds: true))
        #expect(s.message == "")
    }

    /// A street view with no street data says once how to get some (not below zoom 12, not in kiosk
    /// mode); the demo city's view has street data, Paris's has none.
    @Test func aStreetViewWithoutStreetDataSaysHowToGetSome() throws {
        let sources = bundledCitySources
        let paris = try MapView(
            center: Coordinate(latitude: 48.8566, longitude: 2.3522), zoom: 16, size: try ViewSize(cols: 80, rows: 24))
        #expect(!MapRenderer.drawn(view: paris, sources: sources, layers: [BaseMapLayer()]).report.streetDataInView)
        let helsinki = try MapView(
            center: Coordinate(latitude: 60.1690, longitude: 24.9420), zoom: 16, size: try ViewSize(cols: 80, rows: 24))
        #expect(MapRenderer.drawn(view: helsinki, sources: sources, layers: [BaseMapLayer()]).report.streetDataInView)
        var s = try ViewerState(cols: 80, rows: 24, center: paris.center, zoom: 16)
        _ = s.update(.rendered(missing: [], streetDataInView: false))
        #expect(s.message == ViewerState.noStreetDataHint)
        s.message = ""
        _ = s.update(.rendered(missing: [], streetDataInView: false))
        #expect(s.message == "")
        var low = try ViewerState(cols: 80, rows: 24, center: paris.center, zoom: 11)
        _ = low.update(.rendered(missing: [], streetDataInView: false))
        #expect(low.message == "")
        var kiosk = try ViewerState(cols: 80, rows: 24, center: paris.center, zoom: 16)
        kiosk.suggestsStreetData = false
        _ = kiosk.update(.rendered(missing: [], streetDataInView: false))
        #expect(kiosk.message == "")
    }

    /// Inside building polygons (libosmium's, points at least 3 m from their edges) the cells carry the
    /// building look at zoom 16, 17 and 18 (≥ 90 %); where a road is drawn over a building its line keeps
    /// the road's look (the pick's topmost feature is the road).
    @Test func buildingsAreBlocksBelowTheRoads() throws {
        let buildings = try #require(Self.references["Helsinki.osm.pbf"]?.buildings)
        for zoom in [16.0, 17, 18] {
            var right = 0
            var all = 0
            var roadsOver = 0
            // Views centred on every 10th building point, 120×40.
            for centre in stride(from: 0, to: buildings.count, by: 10).map({ buildings[$0] }) {
                let view = try MapView(
                    center: Coordinate(latitude: centre.lat, longitude: centre.lon), zoom: zoom,
                    size: try ViewSize(cols: 120, rows: 40))
                var frame = Frame(cols: 120, rows: 40)
                let pick = MapRenderer.render(
                    into: &frame, view: view, sources: bundledCitySources, style: MapStyle(mode: .ansi256)
                ).pick
                let d = view.dotPoint(for: Coordinate(latitude: centre.lat, longitude: centre.lon))
                let (col, row) = (Int(d.x / 2), Int(d.y / 4))
                all += 1
                if pick.area(col: col, row: row)?.className == "building" { right += 1 }
                // Every cell where a road's or path's line crosses a building shows that line's colour (its
                // dots: a label may stand over it).
                for r in 0..<40 {
                    for c in 0..<120
                    where pick.area(col: c, row: r)?.className == "building"
                        && (0x2801...0x28FF).contains(frame[c, r].glyph.value)
                    {
                        guard let top = pick.feature(col: c, row: r),
                            let line = FeatureClass.allCases.first(where: { StyleTable.className($0) == top.className }
                            ),
                            line.isRoad || line == .path
                        else { continue }
                        roadsOver += 1
                        #expect(
                            frame[c, r].style.foreground == StyleTable.style(.feature(line), mode: .ansi256).foreground)
                    }
                }
            }
            #expect(
                Double(right) >= 0.9 * Double(all), "z\(zoom): \(right) of \(all) building points show the building")
            #expect(roadsOver > 0, "z\(zoom): no road over a building to look at")
        }
    }

    /// A coastline that ends far inside its box is left out of the sea: the import says so, and around
    /// that stretch (its box, 250 m wider) the world's coast decides (Natural Earth's land here), while
    /// the rest of the box is the import's own land.
    @Test func aBrokenCoastlineMakesNoSeaAndTheWorldsLandShows() throws {
        let url = repositoryRoot.appendingPathComponent("Tests/MapDataTests/Fixtures/osm/coast-broken.osm.pbf")
        let (contents, report) = try OSMImporter.contents(
            pbf: [UInt8](try Data(contentsOf: url)), name: "coast-broken.osm.pbf", source: "b",
            classMinZoom: StyleTable.minZoom)
        #expect(report.coastEndsInside == 1 && report.seaRings == 0)
        #expect(!contents.features.contains { $0.featureClass == .sea })
        let asset = try MapAsset(bytes: MapAssetWriter.encode(contents), name: "coast-broken.tmap")
        let sources = MapSources(world: Self.world, details: [asset])
        // The stretch runs along 50.005°N from 10.0002°E to 10.015°E.
        for (lat, lon, fromImport) in [(50.005, 10.008, false), (50.0085, 10.025, true)] {
            let view = try MapView(
                center: Coordinate(latitude: lat, longitude: lon), zoom: 17, size: try ViewSize(cols: 40, rows: 12))
            var frame = Frame(cols: 40, rows: 12)
            let pick = MapRenderer.render(into: &frame, view: view, sources: sources, style: MapStyle(mode: .ansi256))
                .pick
            let area = try #require(pick.area(col: 20, row: 6))
            // Central Germany is Natural Earth's land too: the source tells them apart.
            #expect(area.className == "land")
            #expect(
                (area.reference.source == 0) == fromImport,
                "\(lat),\(lon): \(String(describing: area.reference.source))")
        }
    }

    /// Street data without land of its own (an import of format 4, made before imports had land areas)
    /// takes over the roads and shores in its box but not the world's land tint: the cells between its
    /// streets are the world's land, not blank.
    @Test func streetDataWithoutLandLetsTheWorldsLandShow() throws {
        let old = try MapAsset(
            path: repositoryRoot.appendingPathComponent("Tests/MapDataTests/Fixtures/helsinki-v4.tmap").path)
        #expect(!old.classes.contains(.land) && old.claimsShorelines)
        let sources = MapSources(world: Self.world, details: [old])
        let view = try MapView(
            center: Coordinate(latitude: 60.1712, longitude: 24.9440), zoom: 16, size: try ViewSize(cols: 40, rows: 12))
        var frame = Frame(cols: 40, rows: 12)
        let pick = MapRenderer.render(into: &frame, view: view, sources: sources, style: MapStyle(mode: .ansi256)).pick
        let land = (0..<12).flatMap { row in (0..<40).map { (col: $0, row: row) } }.filter {
            pick.area(col: $0.col, row: $0.row)?.className == "land"
        }
        #expect(land.count > 100, "\(land.count) of 480 cells show the world's land")
    }
}
