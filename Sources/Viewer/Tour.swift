import MapRender
import Support

/// One step of a tour: keys to press, then a caption on the message line for `seconds`.
public struct TourStep: Equatable, Sendable {
    /// The keys (and commands by name), as `render --keys` writes them.
    public var keys: [Keystroke]
    /// How long the step stays before the next.
    public var seconds: Double
    /// What the message line says meanwhile.
    public var caption: String
}

/// A guided tour: steps played one after another (`--tour`), from a file or built in.
public struct Tour: Equatable, Sendable {
    /// The steps, in order (at least one).
    public var steps: [TourStep]

    /// The longest a step may last (an hour: a longer one is surely a typo).
    public static let longestStep = 3600.0

    /// A tour file: one step a line, `KEYS<TAB>SECONDS<TAB>CAPTION` (the caption may be left out);
    /// blank lines and lines starting with `#` are skipped. An error names the line and says what is wrong.
    public static func parse(_ text: String) -> Result<Tour, InputError> {
        var steps: [TourStep] = []
        for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = Substring(raw)
            if line.hasSuffix("\r") { line = line.dropLast() }
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) || line.first == "#" { continue }
            let fields = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
            func fail(_ why: String) -> Result<Tour, InputError> { .failure(InputError("line \(i + 1): \(why)")) }
            guard fields.count >= 2 else {
                return fail("expected KEYS<TAB>SECONDS<TAB>CAPTION, found no tab")
            }
            let keys: [Keystroke]
            switch KeyScript.parse(String(fields[0])) {
            case .success(let k): keys = k
            case .failure(let e): return fail(e.description.replacing("--keys: ", with: "keys: "))
            }
            guard let seconds = InputParsing.number(String(fields[1]).trimmedOfWhitespace), seconds >= 0,
                seconds <= longestStep
            else {
                return fail(
                    "seconds '\(InputParsing.excerpt(fields[1]))' must be a number from 0 to \(Int(longestStep))")
            }
            let caption = fields.count > 2 ? String(fields[2]) : ""
            guard caption.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7f }) else {
                return fail("the caption has a control character")
            }
            steps.append(TourStep(keys: keys, seconds: seconds, caption: caption))
        }
        guard !steps.isEmpty else { return .failure(InputError("no steps: write KEYS<TAB>SECONDS<TAB>CAPTION lines")) }
        guard steps.contains(where: { $0.seconds > 0 }) else {
            return .failure(InputError("every step lasts 0 seconds: a tour needs time to be seen"))
        }
        return .success(Tour(steps: steps))
    }

    /// The built-in tour's file: the world; Atlanta and the seeds' Georgia Tech view; `z 14` explained;
    /// `+ + -`; the circle, the seeds' picture beside ours and the fit; Helsinki's streets. Captions fit
    /// an 80-column message line.
    public static let builtinText = """
        # termmap's built-in tour. One step a line: KEYS<TAB>SECONDS<TAB>CAPTION
        0\t4\tThe whole world in Web Mercator, drawn in braille dots (2×4 a cell)
        /Atlanta<Enter>\t4\t/ finds a place: Atlanta, home of the iOS code's Georgia Tech view
        g33.777328,-84.397348<Enter>\t3\tg goes to a latitude, longitude: Georgia Tech
        z14<Enter>e\t7\tz 14 sets zoom 14; the iOS category would show 15. e explains
        +\t3\t+ is MapKit's zoom button: the region ×0.4, rebuilt from metres
        +\t3\t+ again: the region ×0.4
        -\t4\t- is ×3, so + then - leaves the region ×1.2, not where it was
        --c\t5\tout twice; c draws a geodesic circle, 500 m on the ground, and shades the rest
        v\t5\tv: dashed, the iOS code's circle, round on screen: at 500 m the same as ours
        f\t5\tf fits the circle; dashed, the iOS width-only fit, which crops it
        r1500km<Enter>f\t7\t1500 km: the iOS circle reaches less far north than south; ours is true
        cv\t1\tcircle off
        g60.1699,24.9384<Enter>z16<Enter>\t7\tHelsinki's streets at zoom 16, from OpenStreetMap
        """

    /// The built-in tour (`--tour` alone, `--tour builtin`).
    public static let builtin: Tour = {
        switch parse(builtinText) {
        case .success(let t): return t
        case .failure(let e): preconditionFailure("the built-in tour is malformed: \(e)")
        }
    }()
}

/// Where a tour stands, for the status line and for keys: none, playing step `step` of `steps`, or
/// paused there by a key (`t` resumes).
public enum TourMode: Equatable, Sendable {
    case off
    case playing(step: Int, steps: Int)
    case paused(step: Int, steps: Int)
}

/// Plays a tour against a clock: which steps are due as time passes. Pure; the event loop and
/// `render --tour` drive it.
public struct TourPlayer: Equatable, Sendable {
    /// The tour.
    public let tour: Tour
    /// True when it starts again after its last step (a kiosk's tour).
    public var loops: Bool
    /// The next step to play.
    public private(set) var next = 0
    /// Seconds until it is due.
    public private(set) var wait = 0.0

    /// A player at the tour's first step, due at once.
    public init(_ tour: Tour, loops: Bool = false) {
        self.tour = tour
        self.loops = loops
    }

    /// True when a tour that does not loop has played its last step and waited its time.
    public var isFinished: Bool { !loops && next >= tour.steps.count && wait <= 0 }

    /// Back to the first step, due at once.
    public mutating func restart() {
        next = 0
        wait = 0
    }

    /// The steps that fall due when `seconds` pass, in order (the first step is due at once).
    public mutating func advance(_ seconds: Double) -> [TourStep] {
        guard seconds.isFinite else { return [] }
        wait -= max(0, seconds)
        var due: [TourStep] = []
        // At most one round of the tour at once: a clock that jumped does not replay it many times.
        while wait <= 0, due.count < tour.steps.count {
            if next >= tour.steps.count {
                guard loops else { break }
                next = 0
            }
            let step = tour.steps[next]
            next += 1
            wait += step.seconds
            due.append(step)
        }
        if wait < 0 && !isFinished { wait = 0 }
        return due
    }

    /// Seconds until the next step is due, or nil when the tour is over.
    public var secondsToNext: Double? { isFinished ? nil : max(0, wait) }

    /// The step playing now (1-based, for `tour 3/12`).
    public var stepShown: Int { max(1, next) }
}

extension ViewerState {
    /// Plays a tour step: the panels close, its keys are pressed (a tour never quits), and its caption
    /// takes the message line.
    public mutating func play(_ step: TourStep, places: PlaceSearching? = nil, mode: TourMode) {
        tour = .off
        showExplain = false
        showHelp = false
        for key in step.keys { update(key.event, places: places) }
        tour = mode
        if !step.caption.isEmpty {
            message = step.caption
            messageIsError = false
        }
    }
}
