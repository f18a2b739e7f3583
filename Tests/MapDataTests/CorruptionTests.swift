import Foundation
import TestSupport
import Testing

@testable import MapData
@testable import MapFormats

@Suite("Damaged files give typed errors")
struct CorruptionTests {
    /// Section boundaries of a file, from its own header.
    static func boundaries(_ bytes: [UInt8]) -> [Int] {
        func u32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
        let f = MapAssetFormat.self
        let layout = f.layout(version: Int(bytes[f.HeaderField.version]))
        let levels = u32(f.HeaderField.levelCount)
        let chunks = u32(f.HeaderField.chunkCount)
        let dataOffset = u32(f.HeaderField.dataOffset)
        let cityOffset = u32(f.HeaderField.cityOffset)
        let indexStart = layout.header + layout.levelEntry * levels
        let entry = layout.chunkEntry
        return [
            0, 4, 8, 12, layout.header - 1, layout.header, indexStart - 1, indexStart, indexStart + entry,
            indexStart + entry * chunks - 1,
            dataOffset, dataOffset + 1, (dataOffset + cityOffset) / 2, cityOffset - 1, cityOffset,
            cityOffset + 1, bytes.count - 1,
        ]
    }

    @Test func truncatedAtEverySectionBoundary() {
        for bytes in [
            FormatTests.sampleBytes,
            (try? Data(contentsOf: URL(fileURLWithPath: bundledWorldPath))).map { [UInt8]($0) } ?? [],
        ] {
            #expect(bytes.count > 1000)
            for cut in Self.boundaries(bytes) where cut < bytes.count {
                #expect(throws: MapDataError.self, "cut at \(cut)") {
                    try MapAsset(bytes: Array(bytes.prefix(cut)), name: "cut.tmap")
                }
            }
        }
    }

    @Test func seededByteFlipsAreAlwaysCaught() {
        var r = SeededRandom(state: 2026)
        let original = FormatTests.sampleBytes
        var caughtAtLoad = 0
        var caughtAtDecode = 0
        for _ in 0..<400 {
            var bytes = original
            let at = r.below(bytes.count)
            bytes[at] ^= UInt8(1 + r.below(255))
            do {
                let asset = try MapAsset(bytes: bytes, name: "flipped.tmap")
                try decodeEverything(asset)
                Issue.record("flip at \(at) went unnoticed")
            } catch {
                // Typed throws: the error is a MapDataError by construction; it must name the file.
                #expect(error.file == "flipped.tmap")
                if (try? MapAsset(bytes: bytes)) == nil { caughtAtLoad += 1 } else { caughtAtDecode += 1 }
            }
        }
        #expect(caughtAtLoad + caughtAtDecode == 400)
        #expect(caughtAtDecode > 0)  // chunk payloads are checked when first decoded
    }

    @Test func flipsInTheBundledFilesMetadataAreCaughtAtLoad() throws {
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: bundledWorldPath)))
        var r = SeededRandom(state: 99)
        let indexEnd = Self.boundaries(original)[9]
        for _ in 0..<200 {
            var bytes = original
            let at = r.below(indexEnd)
            bytes[at] ^= UInt8(1 + r.below(255))
            #expect(throws: MapDataError.self) { try MapAsset(bytes: bytes) }
        }
    }

    @Test func foreignFilesAndWrongVersion() {
        #expect(throws: MapDataError(file: "x.png", .badMagic)) {
            try MapAsset(bytes: Array("\u{89}PNG\r\n\u{1a}\n and some more bytes of an image".utf8), name: "x.png")
        }
        #expect(throws: MapDataError(file: "empty", .truncated("header"))) { try MapAsset(bytes: [], name: "empty") }
        var v7 = FormatTests.sampleBytes
        v7[8] = 7
        #expect(throws: MapDataError(file: "v7", .unsupportedVersion(7))) { try MapAsset(bytes: v7, name: "v7") }
    }

    @Test func forgedCountsWithAMatchingChecksumAreRefused() throws {
        // A file can be made to match its checksum: the reader still checks every count and offset.
        var bytes = FormatTests.sampleBytes
        let at = MapAssetFormat.HeaderField.chunkCount
        bytes[at..<(at + 4)] = [0x01, 0x00, 0x40, 0x00]  // 2^22 + 1 chunks, one more than a reader accepts
        let forged = try #require(MapAsset.resealed(bytes))
        #expect(throws: MapDataError(file: "forged", .corrupt("header counts"))) {
            try MapAsset(bytes: forged, name: "forged")
        }
    }

    /// A chunk's box (min lon, min lat, max lon, max lat at bytes 4–19 of its index entry) must lie within
    /// ±540° of longitude and ±90° of latitude and not be inverted, even when the checksum is recomputed.
    @Test(arguments: [
        (4, -54_000_001), (12, 54_000_001), (8, -9_000_001), (16, 9_000_001), (4, 54_000_000),
    ])
    func forgedChunkBoxesAreRefused(field: Int, value: Int32) throws {
        var bytes = FormatTests.sampleBytes
        let f = MapAssetFormat.self
        let levels = Int(bytes[f.HeaderField.levelCount])
        let entry = f.headerSize + f.levelEntrySize * levels + field
        for i in 0..<4 { bytes[entry + i] = UInt8(truncatingIfNeeded: value >> (8 * Int32(i))) }
        let forged = try #require(MapAsset.resealed(bytes))
        #expect(throws: MapDataError(file: "box", .badOffset("chunk index entry 0"))) {
            try MapAsset(bytes: forged, name: "box")
        }
    }

    /// A latitude of −2^63 (the zigzag of the largest 10-byte varint) in the first record of the place
    /// section or of the name table, resealed: its magnitude does not fit in an Int64, so taking its absolute
    /// value would stop the program. It must be refused.
    @Test(arguments: [MapAssetFormat.HeaderField.cityOffset, MapAssetFormat.HeaderField.nameOffset])
    func aLatitudeOfTheMostNegativeVarintIsRefused(section: Int) throws {
        // The bundled demo city: it has both places (suburbs) and a name table (streets).
        let path = bundledWorldPath.replacingOccurrences(of: "world.tmap", with: "helsinki.tmap")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let f = MapAssetFormat.self
        func u32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
        let sectionLength = section == f.HeaderField.cityOffset ? f.HeaderField.cityLength : f.HeaderField.nameLength
        try #require(u32(sectionLength) > 0, "the file has records in the section")
        // The record: a varint text length, the text, then the latitude.
        var at = u32(section)
        var length = 0
        var shift = 0
        while bytes[at] & 0x80 != 0 {
            length |= Int(bytes[at] & 0x7F) << shift
            shift += 7
            at += 1
        }
        let latitude = at + 1 + (length | Int(bytes[at]) << shift)
        var end = latitude
        while bytes[end] & 0x80 != 0 { end += 1 }
        let huge: [UInt8] = Array(repeating: 0xFF, count: 9) + [0x01]
        var forged = Array(bytes[..<latitude]) + huge + Array(bytes[(end + 1)...])
        let grown = huge.count - (end + 1 - latitude)
        // The section grows; every section after it moves.
        for field in [
            sectionLength, f.HeaderField.nameOffset, f.HeaderField.metadataOffset, f.HeaderField.searchOffset,
        ]
        where u32(field) != 0 && (field == sectionLength || u32(field) > u32(section)) {
            let value = u32(field) + grown
            for i in 0..<4 { forged[field + i] = UInt8(truncatingIfNeeded: value >> (8 * i)) }
        }
        let sealed = try #require(MapAsset.resealed(forged))
        #expect(throws: MapDataError.self) {
            let asset = try MapAsset(bytes: sealed, name: "pole")
            _ = try asset.placePoints()
            _ = try asset.cities()
            _ = try asset.names()
        }
    }

    @Test func errorMessagesNameTheFileAndTheFault() {
        let e = MapDataError(file: "/tmp/w.tmap", .checksumMismatch("chunk index"))
        #expect(e.description == "/tmp/w.tmap: checksum mismatch in the chunk index (the file is damaged)")
    }
}

/// Version 5's deflated chunks: a raw size that deflate could not have come from (more than 1,032 times
/// the stream: refused before allocating it), or one the stream does not inflate to exactly, is refused.
@Suite("Deflated chunks")
struct DeflatedChunkTests {
    static func payload(size: UInt64, of raw: [UInt8]) -> [UInt8] {
        var w: [UInt8] = []
        var v = size
        repeat {
            w.append(UInt8(v & 0x7F) | (v >= 0x80 ? 0x80 : 0))
            v >>= 7
        } while v > 0
        return w + (Zlib.deflate(raw) ?? [])
    }

    @Test func theRawSizeMustBeTheStreamsOwn() throws {
        let raw = [UInt8](repeating: 7, count: 5000) + Array(0..<200)
        let good = Self.payload(size: UInt64(raw.count), of: raw)
        #expect(good.withUnsafeBytes { MapAsset.inflated($0) } == raw)
        for size in [UInt64(60 << 20), UInt64(good.count * 1033), 3, UInt64(raw.count + 1), 70 << 20] {
            let forged = Self.payload(size: size, of: raw)
            #expect(forged.withUnsafeBytes { MapAsset.inflated($0) } == nil, "raw size \(size)")
        }
    }
}
