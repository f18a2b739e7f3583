/// The ceilings every reader of the user's data stops at, each ending in one line naming the file and
/// the ceiling (never a crash, never memory without end): what a hostile or broken input can cost.
public enum ReadLimits {
    /// A line of a stream or of GeoJSON text sequences, a record of CSV.
    public static let lineBytes = 256 << 20
    /// Nesting of JSON (arrays and objects) and of GeometryCollections.
    public static let nesting = 512
    /// Features read into one layer, those a later one of their id replaced included (a stream that
    /// moves one marker for ever ends here too).
    public static let features = 100_000_000
    /// Points of one layer (its offsets are 32-bit numbers).
    public static let points = UserOffsets.limit
    /// What is read whole from standard input or a pipe: a GeoJSON document over many lines, GPX, KML, CSV.
    public static let wholeInputBytes = 4 << 30
}
