import Foundation
import TestSupport
import Testing

@testable import MapData
@testable import MapFormats

/// The PMTiles v3 reader against what PyPI's `pmtiles` reads from the same files.
@Suite struct PMTilesTests {
    @Test(arguments: ["helsinki-omt.pmtiles", "helsinki-protomaps.pmtiles", "leaves.pmtiles"])
    func headerMatchesReference(_ file: String) throws {
        let a = try TileFixtures.archive(file)
        let h = try #require(TileFixtures.reference(file)["header"] as? [String: Any])
        let expected: [(String, UInt64)] = [
            ("root_offset", a.header.rootOffset), ("root_length", a.header.rootLength),
            ("metadata_offset", a.header.metadataOffset), ("metadata_length", a.header.metadataLength),
            ("leaf_directory_offset", a.header.leafOffset), ("leaf_directory_length", a.header.leafLength),
            ("tile_data_offset", a.header.tileDataOffset), ("tile_data_length", a.header.tileDataLength),
            ("addressed_tiles_count", a.header.addressedTiles), ("tile_entries_count", a.header.tileEntries),
            ("tile_contents_count", a.header.tileContents), ("min_zoom", UInt64(a.header.minZoom)),
            ("max_zoom", UInt64(a.header.maxZoom)), ("tile_compression", UInt64(a.header.tileCompression)),
            ("internal_compression", UInt64(a.header.internalCompression)), ("tile_type", UInt64(a.header.tileType)),
        ]
        for (key, ours) in expected {
            #expect(h[key] as? UInt64 == ours, "\(key)")
        }
        #expect(h["min_lon_e7"] as? Int == Int(a.header.minLonE7))
        #expect(h["max_lat_e7"] as? Int == Int(a.header.maxLatE7))
        #expect(h["center_lat_e7"] as? Int == Int(a.header.centerLatE7))
        #expect(h["clustered"] as? Bool == a.header.clustered)
        let metadata = try #require(TileFixtures.reference(file)["metadata"] as? [String: Any])
        #expect(a.metadata["name"] == metadata["name"] as? String)
        #expect(a.info.attribution == metadata["attribution"] as? String)
    }

    @Test(arguments: ["helsinki-omt.pmtiles", "helsinki-protomaps.pmtiles", "leaves.pmtiles"])
    func everyReferenceTileHasItsLengthAndContents(_ file: String) throws {
        let a = try TileFixtures.archive(file)
        let tiles = TileFixtures.tiles(file)
        #expect(tiles.count >= 7)
        let got = a.tiles(tiles.map(TileFixtures.tileID))
        for entry in tiles {
            let id = TileFixtures.tileID(entry)
            let place = try #require(try a.locate(id), "\(id)")
            #expect(place.length == entry["length"] as? Int, "\(id)")
            let bytes = try #require(try got[id]?.get())
            #expect(CRC32.checksum(bytes) == entry["crc"] as? UInt32, "\(id)")
        }
    }

    /// Every entry of the leaf-directory fixture, walked from the root through its leaves, in order:
    /// their count and the digest of `z/x/y/length/crc` lines the generator computed.
    @Test func leafDirectoriesGiveEveryTileInOrder() throws {
        let a = try TileFixtures.archive("leaves.pmtiles")
        let reference = TileFixtures.reference("leaves.pmtiles")
        let source = try LocalFileSource(path: TileFixtures.path("leaves.pmtiles"))
        let h = a.header
        #expect(h.leafLength > 0)
        let rootBytes = try source.read(offset: h.rootOffset, length: Int(h.rootLength))
        let root = try #require(PMTilesArchive.decodeDirectory(rootBytes, compression: h.internalCompression))
        #expect(root.allSatisfy { $0.runLength == 0 }, "the fixture's root holds only leaves")
        var lines = ""
        var count = 0
        for leafEntry in root {
            let bytes = try source.read(offset: h.leafOffset + leafEntry.offset, length: Int(leafEntry.length))
            let leaf = try #require(PMTilesArchive.decodeDirectory(bytes, compression: h.internalCompression))
            for e in leaf {
                for k in 0..<UInt64(e.runLength) {
                    let tile = try #require(TileID(pmtilesID: e.tileID + k))
                    let data = try #require(try a.tiles([tile])[tile]?.get())
                    lines += "\(tile.z)/\(tile.x)/\(tile.y)/\(e.length)/\(CRC32.checksum(data))\n"
                    count += 1
                }
            }
        }
        #expect(count == reference["count"] as? Int)
        #expect(CRC32.checksum(Array(lines.utf8)) == reference["digest"] as? UInt32)
    }

    @Test func absentTilesAreNil() throws {
        let a = try TileFixtures.archive("helsinki-omt.pmtiles")
        let far = TileID(z: 14, x: 0, y: 0)
        #expect(try a.locate(far) == nil)
        let got = a.tiles([far, TileID(z: 31, x: 0, y: 0)])
        #expect(try got[far]?.get() == .some(nil))
    }

    /// Tile ids of the spec's examples (0/0/0 → 0, the four tiles of zoom 1 → 1…4 along the curve,
    /// the first of zoom 2 → 5) and a round trip over every tile of zoom 5.
    @Test func hilbertTileIDs() {
        #expect(TileID(z: 0, x: 0, y: 0).pmtilesID == 0)
        #expect(TileID(z: 1, x: 0, y: 0).pmtilesID == 1)
        #expect(TileID(z: 1, x: 0, y: 1).pmtilesID == 2)
        #expect(TileID(z: 1, x: 1, y: 1).pmtilesID == 3)
        #expect(TileID(z: 1, x: 1, y: 0).pmtilesID == 4)
        #expect(TileID(z: 2, x: 0, y: 0).pmtilesID == 5)
        #expect(TileID(z: 12, x: 3423, y: 1763).pmtilesID == 19_078_479)
        #expect(TileID(z: 14, x: 9327, y: 4742).pmtilesID == 319_433_622)
        for x in 0..<32 {
            for y in 0..<32 {
                let t = TileID(z: 5, x: x, y: y)
                #expect(TileID(pmtilesID: t.pmtilesID) == t)
            }
        }
    }

    /// tilemaker writes the PMTiles metadata with `vector_layers` inside a nested `json` string: its layers
    /// are those of the `.mbtiles` twin (16, OpenMapTiles).
    @Test func tilemakersNestedLayersAreRead() throws {
        let pm = try PMTilesArchive(source: LocalFileSource(bytes: TileFixtures.bytes("helsinki-omt.pmtiles")))
        let mb = try MBTilesArchive(path: TileFixtures.path("helsinki-omt.mbtiles"))
        #expect(pm.metadata["json"] != nil && pm.info.layers.count == 16)
        #expect(pm.info.layers == mb.info.layers)
        #expect(TileSchema.detect(layers: pm.info.layers) == .openMapTiles)
    }

    @Test func openingErrorsNameTheFileInOneLine() throws {
        func error(_ bytes: [UInt8]) -> String {
            do {
                _ = try PMTilesArchive(source: LocalFileSource(bytes: bytes, name: "x.pmtiles"))
                return "opened"
            } catch {
                return error.description
            }
        }
        #expect(error(Array("hello".utf8)) == "x.pmtiles: not a PMTiles file (no PMTiles v3 header)")
        #expect(error(Array("PMTiles\u{3}abc".utf8)) == "x.pmtiles: truncated in the header")
        var good = TileFixtures.bytes("helsinki-omt.pmtiles")
        good[7] = 2
        #expect(error(good) == "x.pmtiles: PMTiles version 2 is not supported (this termmap reads version 3)")
        good[7] = 3
        good[98] = 3
        #expect(error(good) == "x.pmtiles: brotli compression is not supported (gzip or none)")
        good[98] = 2
        good[99] = 5
        #expect(error(good) == "x.pmtiles: AVIF tiles are not supported (vector, PNG, JPEG or WebP tiles)")
        // The PMTiles JavaScript fixture `test_fixture_mlt.pmtiles` is of type 6.
        good[99] = 6
        #expect(error(good) == "x.pmtiles: MapLibre Tiles (MLT) are not supported yet (Mapbox Vector Tiles only)")
        good[99] = 1
        // Cut short (an interrupted download): refused at open, not tile by tile.
        let rootEnd =
            good[8..<16].withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
            + good[16..<24].withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
        #expect(
            error(Array(good[0..<140]))
                == "x.pmtiles: truncated: the header's root directory ends at byte \(rootEnd), the file has 140 bytes (an interrupted download?)"
        )
        let third = Array(good[0..<(good.count / 3)])
        #expect(
            error(third).hasPrefix(
                "x.pmtiles: truncated: the header's tile data ends at byte \(good.count), the file has \(good.count / 3) bytes"
            ))
    }

    /// Archives written here (uncompressed directories): tiles through leaves, a leaf that points at
    /// itself, and entries pointing past the data are a failed tile each, never a trap or a hang.
    @Test func leavesLoopsAndForgedOffsets() throws {
        let tiles = (0..<300).map { i in
            (id: UInt64(5 + i * 3), data: [UInt8](repeating: UInt8(i % 251), count: 10 + i % 7))
        }
        let leafy = try PMTilesArchive(
            source: LocalFileSource(bytes: PMTilesWriter.archive(tiles: tiles, leafSize: 40)))
        for t in tiles.prefix(50) + tiles.suffix(5) {
            let id = try #require(TileID(pmtilesID: t.id))
            #expect(try leafy.tiles([id])[id]?.get() == t.data)
            // The id just after is in no run.
            if let next = TileID(pmtilesID: t.id + 1) { #expect(try leafy.tiles([next])[next]?.get() == .some(nil)) }
        }
        let looped = try PMTilesArchive(source: LocalFileSource(bytes: PMTilesWriter.archive(tiles: [], loop: true)))
        let any = TileID(z: 3, x: 2, y: 5)
        #expect(throws: TileFailure.self) { try looped.locate(any) }
        #expect(looped.tiles([any])[any].map { if case .failure = $0 { true } else { false } } == true)
        // Past the data: the last tile's length made larger than the file.
        var bytes = PMTilesWriter.archive(tiles: [(id: 0, data: [1, 2, 3])])
        let rootAt = 127
        bytes[rootAt + 3] = 0x7f  // the one entry's length: 127 bytes of 3
        let forged = try PMTilesArchive(source: LocalFileSource(bytes: bytes))
        let zero = TileID(z: 0, x: 0, y: 0)
        #expect(forged.tiles([zero])[zero].map { if case .failure = $0 { true } else { false } } == true)
    }
}
