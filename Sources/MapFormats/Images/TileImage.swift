import CImage

/// A raster tile's pixels (issue 47): 8-bit RGBA rows, decoded by libpng, libjpeg(-turbo) or libwebp,
/// each loaded on first use (a missing library is one line; the vector map goes on).
public struct TileImage: Equatable, Sendable {
    public let width: Int
    public let height: Int
    /// Rows top to bottom, 4 bytes a pixel: red, green, blue, alpha.
    public let rgba: [UInt8]

    /// The most pixels a side a tile may have: 4096 (a decoded tile is then at most 64 MiB).
    public static let maxSide = 4096

    /// What an image's first bytes say it is.
    public enum Kind: Int32, Sendable {
        case png = 0
        case jpeg = 1
        case webp = 2

        /// The kind of `bytes` by their signature, nil for anything else.
        public init?(signature bytes: [UInt8]) {
            if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
                self = .png
            } else if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
                self = .jpeg
            } else if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)),
                Array(bytes[8..<12]) == Array("WEBP".utf8)
            {
                self = .webp
            } else {
                return nil
            }
        }
    }

    /// An image of `width` × `height` pixels.
    public init(width: Int, height: Int, rgba: [UInt8]) {
        (self.width, self.height, self.rgba) = (width, height, rgba)
    }

    /// The pixels of a PNG, JPEG or WebP; a typed error naming `name` and the fault otherwise.
    public static func decode(_ bytes: [UInt8], name: String) throws(MapDataError) -> TileImage {
        guard let kind = Kind(signature: bytes) else {
            throw MapDataError(file: name, .badInput("not a PNG, JPEG or WebP image"))
        }
        var pixels: UnsafeMutablePointer<UInt8>?
        var (w, h): (Int32, Int32) = (0, 0)
        var message = [CChar](repeating: 0, count: 256)
        let status = bytes.withUnsafeBufferPointer { b in
            cimage_decode(
                b.baseAddress, b.count, kind.rawValue, Int32(maxSide), &pixels, &w, &h, &message, message.count)
        }
        guard status == 0, let pixels, w > 0, h > 0 else {
            let words = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw MapDataError(file: name, .badInput(words.isEmpty ? "cannot decode the image" : words))
        }
        defer { cimage_free(pixels) }
        let rgba = Array(UnsafeBufferPointer(start: pixels, count: Int(w) * Int(h) * 4))
        return TileImage(width: Int(w), height: Int(h), rgba: rgba)
    }

    /// The colour at pixel (`x`, `y`): red, green, blue, alpha.
    public func pixel(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8, UInt8) {
        let i = (y * width + x) * 4
        return (rgba[i], rgba[i + 1], rgba[i + 2], rgba[i + 3])
    }
}
