import Raster

/// What the event loop shows on: a terminal's display (`TerminalUI` implements it with
/// `TerminalPainter`; tests and scripts with screens of their own).
public protocol Display: AnyObject {
    /// Columns and rows now.
    var size: (cols: Int, rows: Int) { get }
    /// What the terminal shows of styles (decided once, by `ColorMode.choose`).
    var colorMode: ColorMode { get }
    /// Shows a frame; `fullRepaint` redraws every cell (Ctrl-L); `shift` says how the map moved since
    /// the frame before, so that the terminal can move what it shows instead of redrawing it.
    func present(_ frame: Frame, fullRepaint: Bool, shift: ScreenShift?)
    /// Shows a screen: its frame as `present` does (a screen that keeps what the map drew takes it).
    func present(_ screenful: Screenful, fullRepaint: Bool, shift: ScreenShift?)
    /// Asks the terminal to answer once it has shown everything sent before (a Primary Device Attributes
    /// query, answered in order after the frame); false when this screen cannot ask.
    func askWhenShown() -> Bool
    /// Puts `text` on the clipboard of the terminal the person sits at (a screen without one ignores it).
    func copyToClipboard(_ text: String)
    /// Takes the mouse's reports, or leaves the mouse to the terminal (a screen without one ignores it).
    func captureMouse(_ on: Bool)
    /// Restores the terminal, stops until continued (`fg`), and takes the terminal again, blank: the
    /// next frame is drawn whole (a screen without a terminal ignores it).
    func suspend()
    /// False for a screen that shows only the last frame (`render`): nothing is drawn, and no tile is
    /// loaded, for the views the input passes through.
    var showsEveryFrame: Bool { get }
    /// A cell's pixels when the terminal draws pictures (kitty's graphics protocol, sixel): the imagery
    /// is then a picture; nil: half blocks.
    var pictureCell: PictureCell? { get }
}

/// Where the event loop's input comes from: the keys, mouse and size of a terminal, or a script's.
public protocol Input: AnyObject {
    /// The next event, waiting at most `timeoutMilliseconds` (0: only what is already there); nil when
    /// none came: the time is up, the inbox woke the wait, or what came was the terminal's reply.
    func nextEvent(timeoutMilliseconds: Int) -> InputEvent?
    /// True when the program was asked to end from outside (SIGTERM, SIGHUP, SIGINT).
    func stopRequested() -> Bool
    /// How many answers to `askWhenShown` came since the last call (they come with the input and are
    /// taken out of it: never a key).
    func takeShownAnswers() -> Int
    /// True when the input has run out for good (a script's): the terminal's never does.
    var inputEnded: Bool { get }
}

/// A terminal, or what stands in for one: its display and its input.
public protocol Screen: Display, Input {}

extension Display {
    public func askWhenShown() -> Bool { false }
    public func copyToClipboard(_ text: String) {}
    public func captureMouse(_ on: Bool) {}
    public func suspend() {}
    public func present(_ screenful: Screenful, fullRepaint: Bool, shift: ScreenShift?) {
        present(screenful.frame, fullRepaint: fullRepaint, shift: shift)
    }
    public var showsEveryFrame: Bool { true }
    public var pictureCell: PictureCell? { nil }
}

extension Input {
    public func takeShownAnswers() -> Int { 0 }
    public var inputEnded: Bool { false }
}
