import MapFormats
import Testing

@testable import termmap

/// A file no reader knows: ogr2ogr's list of the drivers it tried (which names GDAL's `Memory` driver)
/// is neither the reason given nor taken for running out of memory; the line says what the file looks
/// like instead.
@Suite("A file no reader knows")
struct UnreadableFileTests {
    static let driverList = """
        FAILURE:
        Unable to open datasource `junk.bin' with the following drivers.
          -> `PCIDSK'
          -> `Memory'
          -> `HTTP'
        """

    @Test func theDriverListIsNoReasonAndNoMemoryError() {
        let result = Ogr2ogr.outcome(
            .exited(1), said: Self.driverList, reproject: false, limits: .standard, data: UserLayerData())
        guard case .failure(let why) = result else {
            Issue.record("read")
            return
        }
        #expect(why.description == Ogr2ogr.Reason.noDriver.description)
        #expect(!Ogr2ogr.saysOutOfMemory(Self.driverList))
        #expect(Ogr2ogr.saysOutOfMemory("ERROR 1: Out of memory allocating 12 bytes"))
        #expect(Ogr2ogr.saysOutOfMemory("terminate called after throwing an instance of 'std::bad_alloc'"))
        #expect(Ogr2ogr.saysOutOfMemory("MemoryError"))
    }

    @Test(
        arguments: [
            ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A], "its first bytes look like a PNG image"),
            (Array("%PDF-1.7\n".utf8), "its first bytes look like a PDF document"),
            (Array("name;place\nOslo;x\n".utf8), "its first bytes look like text: \"name;place\""),
            // A file's start is shown as the screen shows names: an escape is a replacement character.
            (
                Array("name and a hidden OSC 52 \u{1b}]52;c;eA== here\n".utf8),
                "its first bytes look like text: \"name and a hidden OSC 52 \u{FFFD}]52;c;eA== her\u{2026}\""
            ),
            (
                [0x00, 0x01, 0x00, 0x00, 0x00, 0x14, 0x01, 0x00, 0x00, 0x04],
                "its first bytes look like binary data: 00 01 00 00 00 14 01 00"
            ),
        ] as [([UInt8], String)])
    func whatTheFirstBytesLookLike(bytes: [UInt8], said: String) {
        #expect(FirstBytes.describe(bytes) == said)
    }
}
