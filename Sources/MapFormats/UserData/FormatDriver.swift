import Synchronization

/// One format of the user's files, as GDAL has a driver per format: how its bytes are told apart, and
/// how they are read to features. Each format is one driver (beside its reader) and one line in
/// `FormatDrivers.builtIn`; a driver registered later (`FormatDrivers.register`) is asked after them.
public protocol FormatDriver: Sendable {
    /// The format's name, as `render --json` and the layer list give it.
    var format: UserDataFormat { get }
    /// The format as the help names it: `GeoJSON`.
    var title: String { get }
    /// The names its files end in (lower case, no dot), asked when no driver knows the content.
    var extensions: [String] { get }
    /// True when the file's content is this format's: `head` is its first bytes after a byte-order mark
    /// and white space, `ext` its name's extension (lower case).
    func claims(content head: ArraySlice<UInt8>, extension ext: String) -> Bool
    /// True when text no driver claimed by content or extension is this format's by its first line
    /// (a CSV's header); false by default.
    func claims(firstLine: String) -> Bool
    /// The features of `bytes`, the contents of `file`.
    func read(_ bytes: UnsafeBufferPointer<UInt8>, file: String, progress: ReadProgress?) throws(MapDataError)
        -> UserLayerData
    /// Its fuzz entry: a small document with its syntax's corners in it, which `termmap-fuzz` mutates
    /// (bytes flipped, cut, repeated, and `fuzzTokens` put in) for every driver it knows.
    var fuzzSample: String { get }
    /// Pieces of its syntax the fuzzer puts into the sample (`{`, `</`, a separator).
    var fuzzTokens: [String] { get }
}

extension FormatDriver {
    public func claims(firstLine: String) -> Bool { false }
    public var fuzzTokens: [String] { ["\"", ",", "\r\n", "\0", "-", "1e999"] }
}

/// A reader of one format from bytes in memory; the array form comes with it.
public protocol BufferReader {
    /// The features of `bytes`, the contents of `file`.
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, file: String, progress: ReadProgress?) throws(MapDataError)
        -> UserLayerData
}

extension BufferReader {
    /// The features of `bytes`, the contents of `file`.
    public static func read(_ bytes: [UInt8], file: String, progress: ReadProgress? = nil) throws(MapDataError)
        -> UserLayerData
    {
        try bytes.withUnsafeBufferPointer { buffer throws(MapDataError) in
            try read(buffer, file: file, progress: progress)
        }
    }
}

/// The format drivers, in the order they are asked: the built-in ones, then those registered.
public enum FormatDrivers {
    /// The drivers termmap comes with.
    public static let builtIn: [any FormatDriver] = [GeoJSONDriver(), GPXDriver(), KMLDriver(), CSVDriver()]

    private static let registered = Mutex<[any FormatDriver]>([])

    /// Every driver, in the order they are asked.
    public static var all: [any FormatDriver] { builtIn + registered.withLock { $0 } }

    /// Adds a driver (after the built-in ones and those registered before it); one of a format already
    /// registered replaces it.
    public static func register(_ driver: any FormatDriver) {
        registered.withLock { list in
            list.removeAll { $0.format == driver.format }
            list.append(driver)
        }
    }

    /// The driver that reads `format` (what ogr2ogr and a stream give is GeoJSON).
    public static func driver(for format: UserDataFormat) -> (any FormatDriver)? {
        let reading = format == .ogr || format == .stream ? .geojson : format
        return all.first { $0.format == reading }
    }

    /// The formats the help names, in order: `GeoJSON, GPX, KML, CSV`.
    public static var titles: [String] { all.map(\.title) }
}
