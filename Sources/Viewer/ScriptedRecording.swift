import MapRender
import Raster

/// `render --keys … --cast FILE` and `render --tour … --cast FILE`: the screens a session would show,
/// as an asciicast recording made without a terminal. Time is the script's, not the clock's: keys come
/// `keyInterval` apart, a tour's steps after their pauses, animation frames at 30 a second; so the same
/// input makes the same file.
public enum ScriptedRecording {
    /// Seconds between scripted keys.
    public static let keyInterval = 0.5
    /// Seconds the last screen stays before the recording ends (after keys; a tour's last step keeps its own).
    public static let hold = 2.0

    /// The recording: a header without a timestamp, then each screen as it changes. Terminal queries
    /// never appear in it.
    public static func cast(
        _ start: ViewerState, keys: [Key], tour: Tour?, sources: MapSources?, mode: ColorMode
    ) -> String {
        var state = start
        var out = Asciicast.header(
            cols: state.terminalCols, rows: state.terminalRows, timestamp: nil,
            term: mode == .ansi256 ? "xterm-256color" : "xterm", shell: "/bin/sh")
        // What the viewer would send an xterm: its painter's bytes (a pan moves what is shown).
        var painter = TerminalPainter(
            cols: state.terminalCols, rows: state.terminalRows, abilities: .xterm(mode))
        var shown: (frame: Frame, state: ViewerState)?
        var time = 0.0
        func show() {
            let screenful = Renderer.drawLoaded(state, sources: sources, options: RenderOptions(mode: mode))
            let frame = screenful.frame
            guard frame != shown?.frame else { return }
            var text = shown == nil ? "\u{1B}[?25l" : ""
            if let shown, let shift = ScreenShift.between(shown.state, state) {
                if shift.rows == 0 {
                    painter.moveColumns(by: shift.columns, rows: shift.mapRows)
                } else if shift.columns == 0 {
                    painter.moveRows(by: shift.rows, within: shift.mapRows)
                }
            }
            text += String(decoding: painter.paint(frame, fullRepaint: shown == nil), as: UTF8.self)
            out += Asciicast.output(at: time, text)
            shown = (frame, state)
        }
        /// Frames of the animation just started, one a frame period (as the viewer draws them).
        func animate() {
            let period = Double(EventLoop.animationFrameMilliseconds) / 1000
            var frames = 0
            while state.animation != nil, frames < 100 {
                time += period
                state.update(.tick(seconds: period), places: sources)
                show()
                frames += 1
            }
        }
        show()
        for key in keys {
            time += keyInterval
            if state.update(.key(key), places: sources).contains(.quit) { break }
            show()
            animate()
        }
        if let tour {
            for (i, step) in tour.steps.enumerated() {
                // After scripted keys, the tour starts a key later; then each step follows the last one's pause.
                if i == 0 && !keys.isEmpty { time += keyInterval }
                let began = time
                state.play(step, places: sources, mode: .playing(step: i + 1, steps: tour.steps.count))
                show()
                animate()
                time = max(time, began + step.seconds)
            }
            out += Asciicast.output(at: time, "")
        } else {
            out += Asciicast.output(at: time + hold, "")
        }
        return out
    }
}
