import Raster
import Viewer

/// A terminal in memory for the event loop (swift-nio's embedded channel, for a screen): scripted
/// events in, frames out, and what a real terminal would then show.
///
/// It keeps the picture the way `CursesScreen` does through `TerminalPainter`: a shift moves what is
/// shown (columns by delete/insert character, rows by scrolling), then only cells that look different
/// are sent.
/// A blank looks the same as another blank of the same background and visible attributes, whatever
/// its foreground (`Cell.looksLike`, the rule `BlankStyling` relies on). So a test can count what a
/// pan sends, and a shift in the wrong direction shows as a screen that is sent almost whole.
public final class FakeScreen: Screen {
    /// Events still to come; nil is a timeout. When they run out, the screen types `q`.
    public var events: [InputEvent?]
    /// Every frame presented.
    public private(set) var presented: [Frame] = []
    /// The shift hint of each present.
    public private(set) var shifts: [ScreenShift?] = []
    /// Whether each present was a full repaint.
    public private(set) var fullRepaints: [Bool] = []
    /// Cells sent by each present: those that differ from the shown picture after the shift.
    public private(set) var cellsSent: [Int] = []
    /// What the terminal shows now.
    public private(set) var shown: Frame?

    public let size: (cols: Int, rows: Int)
    public let colorMode: ColorMode

    /// How the terminal answers "tell me when this is shown": not asked (a screen that cannot), after
    /// this many reads of input (a link that takes that long), or never.
    public enum Answers: Equatable, Sendable {
        case cannotAsk
        case afterReads(Int)
        case never
    }
    /// How this terminal answers.
    public var answers: Answers = .cannotAsk
    /// Questions asked, and the most ever waiting for an answer at once.
    public private(set) var questions = 0
    public private(set) var mostOutstanding = 0
    /// Reads left before each waiting question is answered.
    private var outstanding: [Int] = []
    private var answered = 0

    /// A screen of `cols × rows` in `mode` that replays `events`.
    public init(_ events: [InputEvent?], cols: Int = 80, rows: Int = 24, mode: ColorMode = .plain) {
        self.events = events
        size = (cols, rows)
        colorMode = mode
    }

    public func present(_ frame: Frame, fullRepaint: Bool, shift: ScreenShift?) {
        presented.append(frame)
        shifts.append(shift)
        fullRepaints.append(fullRepaint)
        var picture = fullRepaint ? nil : shown
        // The terminal is asked to move only along one axis, as the real screen asks it (`isMoved`).
        if var moved = picture, let shift, shift.isMoved, moved.cols == frame.cols, moved.rows == frame.rows {
            Self.apply(shift, to: &moved)
            picture = moved
        }
        var sent = 0
        var next = picture ?? Frame(cols: frame.cols, rows: frame.rows)
        for row in 0..<frame.rows {
            for col in 0..<frame.cols {
                let want = frame[col, row]
                if picture == nil || !next[col, row].looksLike(want) {
                    next[col, row] = want
                    sent += 1
                }
            }
        }
        cellsSent.append(sent)
        shown = next
    }

    public func askWhenShown() -> Bool {
        switch answers {
        case .cannotAsk: return false
        case .afterReads(let n): outstanding.append(n)
        case .never: break
        }
        questions += 1
        mostOutstanding = max(mostOutstanding, outstanding.count)
        return true
    }

    public func takeShownAnswers() -> Int {
        defer { answered = 0 }
        return answered
    }

    public func nextEvent(timeoutMilliseconds: Int) -> InputEvent? {
        // An answer that comes is read like input and taken out of it: this read returns nothing.
        outstanding = outstanding.map { $0 - 1 }
        if let first = outstanding.first, first <= 0 {
            outstanding.removeFirst()
            answered += 1
            return nil
        }
        // A zero timeout only takes what is already waiting: a scripted timeout is not consumed by it.
        guard let first = events.first else { return .key(.char("q")) }
        if first == nil && timeoutMilliseconds == 0 { return nil }
        events.removeFirst()
        return first
    }

    public func stopRequested() -> Bool { false }

    /// Moves the map rows of `frame` as the terminal does for `shift`; blanks come in.
    static func apply(_ shift: ScreenShift, to frame: inout Frame) {
        let old = frame
        for row in shift.mapRows where row >= 0 && row < frame.rows {
            for col in 0..<frame.cols {
                let fromCol = col - shift.columns
                let fromRow = row - shift.rows
                let inside = shift.mapRows.contains(fromRow) && fromCol >= 0 && fromCol < frame.cols
                frame[col, row] = inside ? old[fromCol, fromRow] : Cell()
            }
        }
    }
}
