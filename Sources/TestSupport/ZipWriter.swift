/// A zip archive of one entry, stored (PKWARE's APPNOTE 6.3: a local header, the data, the central
/// directory, its end), for tests and the fuzzer: a KMZ whose KML is `content`.
public enum ZipWriter {
    /// The archive's bytes.
    public static func stored(name: String, content: [UInt8]) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { u16(v & 0xFFFF) + u16(v >> 16 & 0xFFFF) }
        let n = Array(name.utf8)
        let local =
            u32(0x0403_4B50) + u16(20) + u16(0) + u16(0) + u16(0) + u16(0) + u32(0) + u32(content.count)
            + u32(content.count)
            + u16(n.count) + u16(0) + n + content
        let central =
            u32(0x0201_4B50) + u16(20) + u16(20) + u16(0) + u16(0) + u16(0) + u16(0) + u32(0) + u32(content.count)
            + u32(content.count) + u16(n.count) + u16(0) + u16(0) + u16(0) + u16(0) + u32(0) + u32(0) + n
        let end = u32(0x0605_4B50) + u16(0) + u16(0) + u16(1) + u16(1) + u32(central.count) + u32(local.count) + u16(0)
        return local + central + end
    }
}
