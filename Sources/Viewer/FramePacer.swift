/// When the next frame may go to the terminal: a value the event loop keeps and asks, with no clock of
/// its own (every time is given), so that pacing is tested without a loop.
///
/// Frames are paced by the terminal: after one is drawn the terminal is asked to answer when it has
/// shown it (a Primary Device Attributes query, answered in order after the frame), and until the answer
/// comes the next frame waits; the one drawn then is the newest. Over a slow link nothing else would
/// hold frames back: sshd reads the pty as fast as it can, so a write never blocks while frames queue in
/// its window. Until the terminal has answered once, only frames in the middle of an animation wait (one
/// that never answers still shows every key and the end of every animation), and after
/// `shownAnswerTimeout` without an answer it is asked no more. When an answer took longer than an
/// animation lasts, an animation jumps to its end at once: on such a link each frame costs more than the
/// whole animation.
///
/// On a link where a frame takes longer than `burstQuiet` to be shown, keys that came while one was on
/// its way are taken for a burst still being typed: the next frame waits until no key has come for one
/// and a half of the burst's last gap between keys (`burstQuiet`…`burstHoldLimit`; at most
/// `burstHoldLimit` in all), so that it shows the burst's end rather than its middle.
public struct FramePacer: Equatable, Sendable {
    /// Milliseconds between frames while animating (30 per second: each zoom frame changes every cell,
    /// which over a slow SSH link is what costs).
    public static let animationFrameMilliseconds = 33
    /// How long to wait for the terminal to say it has shown a frame before going on without asking; an
    /// answer that comes later turns asking back on.
    public static let shownAnswerTimeout = 3.0
    /// The shortest pause taken for a burst's end, and the longest hold for one.
    public static let burstQuiet = 0.15
    public static let burstHoldLimit = 0.35

    /// When the question went out; nil when no answer is outstanding.
    public private(set) var askedAt: Double?
    /// Whether the terminal answers: nil until known.
    public private(set) var terminalAnswers: Bool?
    /// How long the last answer took.
    public private(set) var answerDelay = 0.0
    /// When the last frame was drawn: an answer that comes early does not make frames come faster.
    public private(set) var drawnAt: Double
    /// Keys came while a frame was on its way; since when the next frame has waited for the burst's end.
    private var keysInFlight = false
    private var burstHoldSince: Double?
    /// The last gap between two keys of a burst.
    private var keyGap = FramePacer.burstQuiet

    /// A pacer that has drawn nothing yet, at `now`.
    public init(now: Double) { drawnAt = now }

    private var period: Double { Double(Self.animationFrameMilliseconds) / 1000 }
    /// How long a hold waits for quiet after the last key.
    private var quiet: Double { min(Self.burstHoldLimit, max(Self.burstQuiet, 1.5 * keyGap)) }

    /// Over a link slower than an animation, an animation is its last frame.
    public var animationJumps: Bool { answerDelay > ViewAnimation.duration }

    /// A frame went out at `t`. Unless the terminal is known not to answer or an answer is outstanding,
    /// `ask` asks it to answer when shown; it returns false when the screen cannot ask.
    public mutating func drew(at t: Double, ask: () -> Bool) {
        drawnAt = t
        keysInFlight = false
        burstHoldSince = nil
        if terminalAnswers != false, askedAt == nil {
            if ask() { askedAt = t } else { terminalAnswers = false }
        }
    }

    /// The outstanding answer is timed from `t` (what the program did after the first frame is its time,
    /// not the link's).
    public mutating func restartAnswerClock(at t: Double) {
        if askedAt != nil { askedAt = t }
    }

    /// A key arrived at `t`, the one before it at `previous`.
    public mutating func keyArrived(at t: Double, previous: Double) {
        guard askedAt != nil else { return }
        if keysInFlight { keyGap = t - previous }
        keysInFlight = true
    }

    /// `count` answers came by `t` (or none: an outstanding question times out).
    public mutating func answered(_ count: Int, at t: Double) {
        if count > 0 {
            answerDelay = askedAt.map { t - $0 } ?? answerDelay
            askedAt = nil
            terminalAnswers = true
            if keysInFlight && answerDelay > Self.burstQuiet { burstHoldSince = t }
        } else if let asked = askedAt, t - asked >= Self.shownAnswerTimeout {
            askedAt = nil
            terminalAnswers = false
        }
    }

    /// Back from a stop: what was asked of the terminal before is forgotten.
    public mutating func resume() {
        askedAt = nil
        keysInFlight = false
        burstHoldSince = nil
    }

    /// True when a frame due at `t` waits: while the terminal has not shown the last one (in the middle
    /// of an animation, or once it is known to answer), for an animation frame's time, or for a burst's
    /// end. `lastInput` is when the last key came.
    public func holds(at t: Double, lastInput: Double, animating: Bool) -> Bool {
        let holdingForBurst =
            burstHoldSince.map { t - lastInput < quiet && t - $0 < Self.burstHoldLimit } ?? false
        return holdingForBurst || askedAt != nil && (animating || terminalAnswers == true)
            || animating && (t - drawnAt < period * 0.9 || animationJumps)
    }

    /// How long the loop may wait for input at `t` (milliseconds): until the next animation frame is due,
    /// or `idle` when nothing moves, and no later than a held burst's end.
    public func wait(at t: Double, lastInput: Double, animating: Bool, idle: Int) -> Int {
        let sinceDrawn = Int(((t - drawnAt) * 1000).rounded())
        let frame = Self.animationFrameMilliseconds
        var waiting = animating ? min(frame, max(1, frame - sinceDrawn)) : idle
        if let since = burstHoldSince {
            let end = min(lastInput + quiet, since + Self.burstHoldLimit)
            waiting = min(waiting, Self.milliseconds(until: end, from: t))
        }
        return waiting
    }

    /// Whole milliseconds from `t` until `end`, at least 1.
    static func milliseconds(until end: Double, from t: Double) -> Int {
        max(1, Int(((end - t) * 1000).rounded(.up)))
    }
}
