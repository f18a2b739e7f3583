import MapData
import MapFormats

/// A toy format driver, as a test (or a later format) adds one: one point a line, `TOY lat lon name`, in files that begin with `TOY ` or end in `.toy`.
public struct ToyDriver: FormatDriver {
    public init() {}
    public let format = UserDataFormat(rawValue: "toy")
    public let title = "Toy"
    public let extensions = ["toy"]

    public func claims(content head: ArraySlice<UInt8>, extension ext: String) -> Bool {
        head.starts(with: Array("TOY ".utf8))
    }

    public func read(_ bytes: UnsafeBufferPointer<UInt8>, file: String, progress: ReadProgress?) throws(MapDataError)
        -> UserLayerData
    {
        var builder = UserLayerBuilder()
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let words = line.split(separator: " ")
            guard words.count >= 4, let lat = Double(words[1]), let lon = Double(words[2]) else { continue }
            builder.addPoint(longitude: lon, latitude: lat)
            _ = builder.endFeature(id: nil, name: String(words[3]), properties: [("name", String(words[3]))])
        }
        return builder.finished()
    }

    public let fuzzSample = "TOY 60.1700 24.9440 Senaatintori\nTOY 1e999 -0 x\nTOY 60 24\n"
}
