import GeoCore

/// The viewer's state; the full app (actions, keymap, update, render) grows here.
public struct ViewerState: Equatable, Sendable {
    /// The map view being shown.
    public var view: MapView

    /// A state showing `view`.
    public init(view: MapView) {
        self.view = view
    }
}
