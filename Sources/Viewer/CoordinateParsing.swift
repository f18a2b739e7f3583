import GeoCore

/// Reads a latitude and longitude the way people write them, and the way termmap prints them:
/// signed decimals (`48.8584, 2.2945`), hemisphere letters before or after (`48.85840°N 2.29450°E`,
/// `40.7128° N, 74.0060° W`, `N48 E2`), and degrees, minutes and seconds with marks or spaces
/// (`48°51′30″N 2°17′40″E`, `48 51 30 N 2 17 40 E`). Either order when letters say which is which.
enum CoordinateParsing {
    private enum Token: Equatable {
        case number(Double)
        case mark(Character)  // ° ′ ″
        case hemisphere(Character)  // N S E W
        case comma
    }

    /// One angle as written: its parts (degrees, minutes, seconds), its hemisphere letter if any, and
    /// whether it had a sign.
    private struct Angle {
        var parts: [Double] = []
        var hemisphere: Character?

        /// Degrees, or nil when minutes or seconds are out of range or a sign fights a letter.
        var degrees: Double? {
            guard let d = parts.first, parts.count <= 3 else { return nil }
            let rest = parts.dropFirst()
            guard rest.allSatisfy({ $0 >= 0 && $0 < 60 }), d.isFinite else { return nil }
            if !rest.isEmpty, d < 0 || d != d.rounded() { return nil }
            let magnitude = abs(d) + (rest.first ?? 0) / 60 + (rest.dropFirst().first ?? 0) / 3600
            let negative = d < 0 || d.sign == .minus
            switch hemisphere {
            case "S", "W":
                return negative ? nil : -magnitude
            case "N", "E":
                return negative ? nil : magnitude
            default:
                return negative ? -magnitude : magnitude
            }
        }
    }

    private static func tokens(_ text: String) -> [Token]? {
        var out: [Token] = []
        var number = ""
        func flush() -> Bool {
            guard !number.isEmpty else { return true }
            // Digits with at most one point and a leading sign: no exponents, hex, nan or inf.
            let body = number.hasPrefix("-") || number.hasPrefix("+") ? String(number.dropFirst()) : number
            guard !body.isEmpty, body.count <= 30, body.filter({ $0 == "." }).count <= 1, body != ".",
                body.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let v = Double(number)
            else { return false }
            out.append(.number(v))
            number = ""
            return true
        }
        for ch in text {
            switch ch {
            case "0"..."9", ".":
                number.append(ch)
            case "-", "+":
                guard number.isEmpty else { return nil }
                number.append(ch)
            default:
                guard flush() else { return nil }
                switch ch {
                case "°", "º", "d", "D": out.append(.mark("°"))
                case "′", "'", "’": out.append(.mark("′"))
                case "″", "\"", "”": out.append(.mark("″"))
                case "N", "n", "S", "s", "E", "e", "W", "w":
                    out.append(.hemisphere(Character(ch.uppercased())))
                case ",", ";": out.append(.comma)
                case " ", "\t": continue
                default: return nil
                }
            }
        }
        guard flush() else { return nil }
        // Two marks ′′ mean seconds, as '' does.
        var merged: [Token] = []
        for t in out {
            if t == .mark("′"), merged.last == .mark("′") {
                merged[merged.count - 1] = .mark("″")
            } else {
                merged.append(t)
            }
        }
        return merged
    }

    /// The two angles of a text, or nil when it is not two angles. An angle ends at a comma, at a
    /// hemisphere letter after its numbers, after its seconds mark, or where a number carries a degree
    /// mark of its own; without any mark, letter or comma, the text is two plain numbers.
    private static func angles(_ tokens: [Token]) -> [Angle]? {
        let plain = tokens.allSatisfy { if case .number = $0 { return true } else { return false } }
        if plain {
            guard tokens.count == 2, case .number(let a) = tokens[0], case .number(let b) = tokens[1] else {
                return nil
            }
            return [Angle(parts: [a]), Angle(parts: [b])]
        }
        var angles: [Angle] = []
        var current = Angle()
        var marks: [Character] = []
        func close() {
            if !current.parts.isEmpty || current.hemisphere != nil { angles.append(current) }
            current = Angle()
            marks = []
        }
        for t in tokens {
            switch t {
            case .comma:
                close()
            case .hemisphere(let h):
                if current.parts.isEmpty {
                    guard current.hemisphere == nil else { return nil }
                    current.hemisphere = h  // before its numbers: `N48 E2`
                } else if current.hemisphere == nil {
                    current.hemisphere = h  // after them: `48N`
                    close()
                } else {
                    close()  // `N48 E2`: this letter begins the next angle
                    current.hemisphere = h
                }
            case .mark(let m):
                guard !current.parts.isEmpty else { return nil }
                if order(m) != current.parts.count - 1 {
                    // `48°51′ 2°`: the number just read has a degree mark of its own, so it begins the next
                    // angle.
                    guard m == "°", current.parts.count >= 2, let last = current.parts.popLast() else { return nil }
                    let hemisphere = current.hemisphere
                    current.hemisphere = nil
                    if hemisphere != nil { return nil }
                    close()
                    current.parts = [last]
                }
                guard !marks.contains(m) else { return nil }
                marks.append(m)
            case .number(let v):
                // After its seconds an angle is complete.
                if marks.contains("″") { close() }
                guard current.parts.count < 3 else { return nil }
                current.parts.append(v)
            }
        }
        close()
        return angles.count == 2 ? angles : nil
    }

    private static func order(_ m: Character) -> Int {
        switch m {
        case "°": return 0
        case "′": return 1
        default: return 2
        }
    }

    /// The coordinate of a text, or nil.
    static func parse(_ text: String) -> Coordinate? {
        guard text.count <= 80, let t = tokens(text), var a = angles(t) else { return nil }
        // Letters decide the order: a longitude letter first swaps them.
        if let h = a[0].hemisphere, "EW".contains(h) {
            guard a[1].hemisphere.map({ "NS".contains($0) }) ?? true else { return nil }
            a.swapAt(0, 1)
        }
        if let h = a[0].hemisphere, !"NS".contains(h) { return nil }
        if let h = a[1].hemisphere, !"EW".contains(h) { return nil }
        guard let lat = a[0].degrees, let lon = a[1].degrees else { return nil }
        return Coordinate(latitude: lat, longitude: lon)
    }
}
