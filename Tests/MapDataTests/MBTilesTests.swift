import Foundation
import GeoCore
import Testing

@testable import MapData
@testable import MapFormats

/// The MBTiles reader against Python's sqlite3 on the same file, and against the PMTiles copy.
@Suite struct MBTilesTests {
    static let file = "helsinki-omt.mbtiles"

    @Test func metadataAndEveryTileMatchTheReference() throws {
        let a = try MBTilesArchive(path: TileFixtures.path(Self.file))
        let reference = TileFixtures.reference(Self.file)
        let metadata = try #require(reference["metadata"] as? [String: String])
        #expect(a.metadata == metadata)
        #expect(a.info.minZoom == 0)
        #expect(a.info.maxZoom == 14)
        #expect(a.info.attribution == "© OpenStreetMap contributors")
        #expect(a.info.layers.contains("transportation"))
        let b = a.info.bounds
        #expect([b.west, b.south, b.east, b.north] == [24.9352, 60.1642, 24.9534, 60.1791])
        let tiles = TileFixtures.tiles(Self.file)
        #expect(a.countTiles() == tiles.count)
        let got = a.tiles(tiles.map(TileFixtures.tileID))
        for entry in tiles {
            let id = TileFixtures.tileID(entry)
            let bytes = try #require(try got[id]?.get(), "\(id)")
            #expect(CRC32.checksum(bytes) == entry["crc"] as? UInt32, "\(id)")
        }
        // TMS rows: the tile one row south of a stored one, in XYZ, is not there.
        let first = TileFixtures.tileID(tiles[tiles.count - 1])
        #expect(try a.tiles([TileID(z: first.z, x: first.x, y: first.y + 5)]).first?.value.get() == .some(nil))
    }

    /// The same tileset as `.mbtiles` and as `.pmtiles` (pmtiles-convert made one from the other): the
    /// same tiles with the same contents.
    @Test func sameTilesAsThePMTilesCopy() throws {
        let m = try MBTilesArchive(path: TileFixtures.path(Self.file))
        let p = try TileFixtures.archive("helsinki-omt.pmtiles")
        let ids = TileFixtures.tiles(Self.file).map(TileFixtures.tileID)
        // The reference lists the tiles (an unreadable reference must fail, not compare nothing).
        #expect(ids.count == m.countTiles() && ids.count >= 10, "\(ids.count) tiles in the reference")
        let fromM = m.tiles(ids)
        let fromP = p.tiles(ids)
        var withFeatures = 0
        for id in ids {
            let a = try #require(try fromM[id]?.get(), "\(id) missing from the .mbtiles")
            let b = try #require(try fromP[id]?.get(), "\(id) missing from the .pmtiles")
            #expect(a == b, "\(id)")
            if !a.isEmpty { withFeatures += 1 }
        }
        #expect(withFeatures >= ids.count / 2, "\(withFeatures) of \(ids.count) tiles have bytes")
    }

    @Test func openingErrorsNameTheFileInOneLine() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mbtiles-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = dir.appendingPathComponent("text.mbtiles").path
        try Data("hello".utf8).write(to: URL(fileURLWithPath: text))
        func error(_ path: String) -> String {
            do {
                _ = try MBTilesArchive(path: path)
                return "opened"
            } catch {
                return error.description
            }
        }
        #expect(error(text) == "\(text): not an MBTiles file (not a SQLite database)")
        #expect(error(dir.path + "/none.mbtiles") == "\(dir.path)/none.mbtiles: cannot read (no such file)")
        // A SQLite file without the MBTiles tables: the first 4 KiB page of the fixture only.
        let cut = dir.appendingPathComponent("cut.mbtiles").path
        var bytes = TileFixtures.bytes(Self.file)
        bytes.removeSubrange(4096...)
        try Data(bytes).write(to: URL(fileURLWithPath: cut))
        #expect(error(cut).hasPrefix("\(cut): not an MBTiles file ("))
    }

    /// Raster tilesets without a `format` row (node-mbtiles' `plain_1`) are told by their tiles' magic:
    /// imagery (issue 47).
    @Test(arguments: [("png", "png"), ("jpg", "jpg"), ("webp", "webp")])
    func rasterTilesWithoutAFormatRowAreToldByTheirTiles(file: String, format: String) throws {
        let archive = try MBTilesArchive(path: TileFixtures.path("raster-\(file)-no-format.mbtiles"))
        #expect(archive.info.imageFormat == format)
    }

    /// Formats that are not images are named as what they are, not as raster tiles.
    @Test func formatsAreNamedAsWhatTheyAre() {
        #expect(MBTilesArchive.unsupported("json") == "JSON tiles (UTFGrid) are not supported (vector tiles only)")
        #expect(
            MBTilesArchive.unsupported("mlt") == "MapLibre Tiles (MLT) are not supported yet (Mapbox Vector Tiles only)"
        )
        #expect(MBTilesArchive.unsupported("avif") == "AVIF raster tiles are not supported (PNG, JPEG or WebP)")
        #expect(MBTilesArchive.unsupported("x-custom").contains("format 'x-custom'"))
    }

    /// Metadata saying maxzoom 14 over tiles that stop at 13 (planetiler's test tilesets): the deepest
    /// zoom that exists is found at open, and deeper views scale its tiles.
    @Test func aMaxzoomPastTheTilesOverzoomsTheLastOne() throws {
        let archive = try MBTilesArchive(path: TileFixtures.path("maxzoom-past-tiles.mbtiles"))
        #expect(archive.metadata["maxzoom"] == "14" && archive.info.maxZoom == 13)
        let source = TileSource(archive: archive, label: "t")
        let b = archive.info.bounds
        let view = try source.chunks(in: b, zoom: 15, classes: Set(FeatureClass.allCases))
        #expect(!view.missing.isEmpty && view.missing.allSatisfy { $0.z == 13 })
        source.load(view.missing)
        let loaded = try source.chunks(in: b, zoom: 15, classes: Set(FeatureClass.allCases))
        #expect(loaded.failed == 0 && loaded.hits.count > 10)
    }
}
