import GeoCore
import Viewer

/// A toy command, as a test (or a later capability) adds one: one row, registered from outside the
/// viewer. `toy-hop` (key `ä`) moves the map's centre to the Senate Square of Helsinki.
public enum ToyCommand {
    /// Its name in scripts and `[keys]`: `<toy-hop>`.
    public static let command = Command(rawValue: "toyHop")
    /// Where it goes.
    public static let senateSquare = Coordinate(latitude: 60.16952, longitude: 24.95253)

    /// Its row.
    public static let row = CommandRow(command, keys: [.char("ä")], "hop to the Senate Square (a toy command)") {
        state in
        try? state.view.setCenter(senateSquare)
    }
}
