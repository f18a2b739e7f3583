import Foundation
import TestSupport
import Testing

@testable import MapData

@Suite("Damaged files give typed errors")
struct CorruptionTests {
    /// Section boundaries of a file, from its own header.
    static func boundaries(_ bytes: [UInt8]) -> [Int] {
        func u32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
        let f = MapAssetFormat.self
        let levels = u32(f.HeaderField.levelCount)
        let chunks = u32(f.HeaderField.chunkCount)
        let dataOffset = u32(f.HeaderField.dataOffset)
        let cityOffset = u32(f.HeaderField.cityOffset)
        let indexStart = f.headerSize + f.levelEntrySize * levels
        let entry = f.chunkEntrySize
        return [
            0, 4, 8, 12, f.headerSize - 1, f.headerSize, indexStart - 1, indexStart, indexStart + entry,
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
        var v2 = FormatTests.sampleBytes
        v2[8] = 2
        #expect(throws: MapDataError(file: "v2", .unsupportedVersion(2))) { try MapAsset(bytes: v2, name: "v2") }
    }

    @Test func forgedCountsWithAMatchingChecksumAreRefused() throws {
        // A file can be made to match its checksum: the reader still checks every count and offset.
        var bytes = FormatTests.sampleBytes
        bytes[20] = 0xff
        bytes[21] = 0xff
        bytes[22] = 0x3f
        #expect(throws: MapDataError.self) { try MapAsset(bytes: bytes) }
    }

    @Test func errorMessagesNameTheFileAndTheFault() {
        let e = MapDataError(file: "/tmp/w.tmap", .checksumMismatch("chunk index"))
        #expect(e.description == "/tmp/w.tmap: checksum mismatch in the chunk index (the file is damaged)")
    }
}
