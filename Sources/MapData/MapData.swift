/// The compact map asset format and its reader (coming with the data work).
public enum MapDataInfo {
    /// The format's name.
    public static let formatName = "termmap map data"
}
