import MapFormats

/// Writes RGBA PNG images for tests (`PNGEncoder`'s).
public enum PNGWriter {
    /// A `width` × `height` PNG of `rgba` (4 bytes a pixel, rows top to bottom).
    public static func png(width: Int, height: Int, rgba: [UInt8]) -> [UInt8] {
        PNGEncoder.png(width: width, height: height, rgba: rgba) ?? []
    }

    /// An image of one colour.
    public static func png(width: Int, height: Int, colour: (UInt8, UInt8, UInt8)) -> [UInt8] {
        png(
            width: width, height: height,
            rgba: Array([[colour.0, colour.1, colour.2, 255]].joined()) * (width * height))
    }
}

extension Array {
    /// The array repeated `n` times.
    static func * (array: [Element], n: Int) -> [Element] {
        var out: [Element] = []
        out.reserveCapacity(array.count * n)
        for _ in 0..<n { out += array }
        return out
    }
}
