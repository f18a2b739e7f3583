/// Takes the terminal's replies out of what it sends, for the whole session: fed what the terminal
/// sends one unit at a time (a character, or a key a curses library has decoded), it says whether the
/// unit is input, part of a reply still coming, or ends a reply. The replies are Primary Device
/// Attributes (`ESC [ ? 6 2 ; 2 2 c`, ECMA-48 DA), the answer to the question a frame asks when it has
/// been shown, and operating system commands (`ESC ] 11 ; rgb:ffff/ffff/ffff` ended by BEL or by
/// `ESC \`, xterm's ctlseqs "Operating System Commands"), the background colour asked at the start;
/// arrows with modifiers (`ESC [ 1 ; 2 D`), which a terminfo entry may not list, are keys.
public struct TerminalReplies: Sendable {
    /// What a terminal sends: a character, or a key code its curses library decoded.
    public enum Unit: Equatable, Sendable {
        case char(UInt32)
        case keyCode(Int32)
        /// An arrow with Shift, Ctrl or Alt held (`ESC [ 1 ; 2 D`, xterm's modifier form, which
        /// terminfo entries such as screen-256color do not list): its final letter, `A` up, `B` down,
        /// `C` right, `D` left.
        case modifiedArrow(UInt8)
    }

    /// A reply recognised.
    public enum Reply: Equatable, Sendable {
        /// Primary Device Attributes: the terminal has shown what came before the question.
        case deviceAttributes
        /// The background colour (OSC 11's answer), each component 0…1.
        case backgroundColor(TerminalColor)
        /// Another operating system command's answer (not a key, and nothing asked for).
        case otherCommand
        /// An application program command's answer (`ESC _ … ESC \`): a kitty graphics answer's text
        /// (`Gi=31;OK`).
        case graphics(String)
    }

    /// What a unit turned out to be.
    public enum Outcome: Equatable, Sendable {
        /// Perhaps part of a reply: wait a little for the rest (`timeout()` when none comes).
        case pending
        /// A reply, taken out of the input.
        case reply(Reply)
        /// Input after all, in order (a unit held since an Esc comes back with those after it).
        case input([Unit])
    }

    /// Units held since an Esc that may start a reply.
    private var held: [Unit] = []
    /// The longest reply kept whole (longer: input).
    static let longest = 64

    /// A filter with nothing held.
    public init() {}

    /// The attributes of the last device attributes answer (`ESC [ ? 62 ; 4 ; 22 c`: 62, 4, 22; 4 is
    /// sixel graphics, per the VT330/VT340 manuals and xterm's ctlseqs).
    public private(set) var deviceAttributes: [Int] = []

    /// True while units are held for a reply that may still come.
    public var isPending: Bool { !held.isEmpty }

    /// Takes the next unit the terminal sent.
    public mutating func feed(_ unit: Unit) -> Outcome {
        guard case .char(let c) = unit else { return flush(unit) }
        if held.count >= 2, held[1] == .char(0x5D) || held[1] == .char(0x5F) { return command(c, unit) }
        // An Esc while one is held may start the reply (an Esc key, then a reply close behind it): what
        // was held is input, and the new Esc is held.
        if c == 0x1B, !held.isEmpty {
            let before = held
            held = [unit]
            return .input(before)
        }
        switch held.count {
        case 0:
            guard c == 0x1B else { return .input([unit]) }
        case 1:
            guard c == 0x5B || c == 0x5D || c == 0x5F else { return flush(unit) }  // [, ] or _
        case 2:
            // `?`: a device attributes answer; a digit: a key's parameters (`1;5D`).
            guard c == 0x3F || (0x30...0x39).contains(c) else { return flush(unit) }  // ?
        default:
            let isAnswer = held[2] == .char(0x3F)
            if isAnswer, c == 0x63 {  // c: the answer's end
                let digits = held.dropFirst(3).map { u -> Character in
                    if case .char(let d) = u, let s = Unicode.Scalar(d) { return Character(s) }
                    return ";"
                }
                deviceAttributes = String(digits).split(separator: ";").compactMap { Int($0) }
                held = []
                return .reply(.deviceAttributes)
            }
            if !isAnswer, (0x41...0x44).contains(c) {  // A–D: an arrow's end
                return arrow(final: UInt8(c), unit)
            }
            guard (0x30...0x39).contains(c) || c == 0x3B, held.count < Self.longest else { return flush(unit) }
        }
        held.append(unit)
        return .pending
    }

    /// A unit after `ESC ]` (or `ESC _`, an application program command): printable text up to BEL or the string terminator `ESC \\` (ECMA-48 8.3.143),
    /// which ends the reply; anything else, or a reply too long, is input.
    private mutating func command(_ c: UInt32, _ unit: Unit) -> Outcome {
        let afterEsc = held.count > 2 && held.last == .char(0x1B)
        if afterEsc, c != 0x5C {
            // The Esc did not end the answer: what came before it was input (Alt-], then text), and the
            // Esc may start a reply of its own (a device attributes answer behind an Alt-]).
            let before = Array(held.dropLast())
            held = [.char(0x1B)]
            if case .input(let more) = feed(unit) { return .input(before + more) }
            return .input(before)
        }
        if c == 0x07 || (afterEsc && c == 0x5C) {
            let body = String(
                decoding: held.dropFirst(2).dropLast(afterEsc ? 1 : 0).compactMap { u -> UInt8? in
                    if case .char(let c) = u, c < 0x80 { return UInt8(c) }
                    return nil
                }, as: UTF8.self)
            let application = held[1] == .char(0x5F)
            held = []
            if application { return .reply(.graphics(body)) }
            return .reply(TerminalColor.backgroundReport(body).map { .backgroundColor($0) } ?? .otherCommand)
        }
        // A graphics answer may say why it failed at some length (`Gi=31;EINVAL:…`).
        let most = held[1] == .char(0x5F) ? 8 * Self.longest : Self.longest
        guard c == 0x1B || (0x20...0x7E).contains(c), held.count < most else { return flush(unit) }
        held.append(unit)
        return .pending
    }

    /// Nothing more came in time: what is held was input (an Esc pressed alone).
    public mutating func timeout() -> [Unit] {
        defer { held = [] }
        return held
    }

    /// `ESC [ 1 ; M` then `final`: an arrow with modifiers when M (1 + the modifier bits: 2 Shift, 5
    /// Ctrl…, xterm's ctlseqs "PC-Style Function Keys") is 2 or more; anything else is input.
    private mutating func arrow(final: UInt8, _ unit: Unit) -> Outcome {
        let parameters = String(
            held.dropFirst(2).compactMap { u -> Character? in
                if case .char(let c) = u, let s = Unicode.Scalar(c) { return Character(s) }
                return nil
            }
        ).split(separator: ";", omittingEmptySubsequences: false)
        guard parameters.count == 2, parameters[0] == "1", let m = Int(parameters[1]), m >= 2, m <= 16 else {
            return flush(unit)
        }
        held = []
        return .input([.modifiedArrow(final)])
    }

    private mutating func flush(_ unit: Unit) -> Outcome {
        defer { held = [] }
        return .input(held + [unit])
    }
}

/// A colour a terminal reported, each component 0…1.
public struct TerminalColor: Equatable, Sendable {
    public var red: Double
    public var green: Double
    public var blue: Double

    /// A colour of components 0…1.
    public init(red: Double, green: Double, blue: Double) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// The colour of an OSC 11 answer's text (`11;rgb:RRRR/GGGG/BBBB`; `rgba:` with a fourth part):
    /// each part 1 to 4 hex digits, scaled by its own width, as X11's XParseColor reads `rgb:` (xterm's
    /// ctlseqs: "the control sequence returns the color as XParseColor accepts it"); nil for any other.
    public static func backgroundReport(_ text: String) -> TerminalColor? {
        guard text.hasPrefix("11;") else { return nil }
        let spec = text.dropFirst(3)
        let parts: [Substring]
        if spec.hasPrefix("rgb:") {
            parts = spec.dropFirst(4).split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 3 else { return nil }
        } else if spec.hasPrefix("rgba:") {
            parts = spec.dropFirst(5).split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 4 else { return nil }
        } else {
            return nil
        }
        var values: [Double] = []
        for part in parts.prefix(3) {
            guard (1...4).contains(part.count), part.allSatisfy(\.isHexDigit), let v = UInt32(part, radix: 16) else {
                return nil
            }
            values.append(Double(v) / Double((1 << (4 * part.count)) - 1))
        }
        return TerminalColor(red: values[0], green: values[1], blue: values[2])
    }

    /// True for a light colour: its luma (ITU-R BT.709's weights on the components as sent) is above
    /// half, as terminal-light and vim's `background` detection decide.
    public var isLight: Bool { 0.2126 * red + 0.7152 * green + 0.0722 * blue > 0.5 }
}
