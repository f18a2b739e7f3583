import MapData
import MapFormats

/// Places by what a person types: each place's name and other names as search keys (case, accents and
/// punctuation ignored; `Saint`/`Sankt` also as `St`), matched whole, then by prefix, then at a word's
/// start, then anywhere, and last one typo away (one letter added, missing or changed: `Helsnki`);
/// within each, in the order places rank (largest first), which the caller may reorder by distance.
struct PlaceSearch: Sendable {
    /// Per place: its name's key, then its other names' keys (UTF-8 bytes, compared bytewise).
    let keys: [[[UInt8]]]
    /// Per place: its region (`Oregon`), or empty.
    let regions: [String]
    /// Per place: how many of its keys are its own name (the name and its abbreviated form); the rest
    /// are other names.
    let ownKeys: [Int]

    /// The index of places given in rank order, with their other names.
    init(names: [String], extras: [PlaceNames]) {
        var keys: [[[UInt8]]] = []
        var ownKeys: [Int] = []
        for (name, extra) in zip(names, extras) {
            let own = [Self.key(name)] + Self.abbreviated(Self.key(name))
            keys.append((own + extra.alternates.map(Self.key)).map { Array($0.utf8) })
            ownKeys.append(own.count)
        }
        self.keys = keys
        self.ownKeys = ownKeys
        regions = extras.map(\.region)
    }

    /// `"Saint-Pétersbourg"` → `"saint petersbourg"`: folded, punctuation as single spaces.
    static func key(_ text: String) -> String {
        // Most names are ASCII: folding them is lowercasing, done on bytes (the first search makes the
        // keys of 67,000 names; Unicode decomposition for each took about a second).
        // Latin letters with accents fold through a table made once (Latin-1 and Latin Extended-A and
        // -B); a name with anything else takes the general path.
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var gap = false
        var latin = true
        for u in text.unicodeScalars {
            let v = u.value
            if v < 0x80 {
                let b = UInt8(v)
                let lower = b >= 0x41 && b <= 0x5A ? b + 32 : b
                if (lower >= 0x61 && lower <= 0x7A) || (lower >= 0x30 && lower <= 0x39) {
                    if gap && !out.isEmpty { out.append(0x20) }
                    gap = false
                    out.append(lower)
                } else {
                    gap = true
                }
            } else if v <= 0x24F, let folded = latinFolds[Int(v) - 0x80] {
                if gap && !out.isEmpty { out.append(0x20) }
                gap = false
                out.append(contentsOf: folded)
            } else {
                latin = false
                break
            }
        }
        if latin { return String(decoding: out, as: UTF8.self) }
        var words: [String] = []
        var current = ""
        for ch in NameFolding.fold(text) {
            if ch.isLetter || ch.isNumber {
                current.append(ch)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        return words.joined(separator: " ")
    }

    /// Each Latin letter from U+0080 to U+024F folded to ASCII letters (`é` → `e`, `ß` → `ss`), or nil
    /// where it folds to something else (a sign: a word break; or a letter of no ASCII form).
    static let latinFolds: [[UInt8]?] = (0x80...0x24F).map { v in
        guard let u = Unicode.Scalar(v), u.properties.isAlphabetic else { return nil }
        let folded = Array(NameFolding.fold(String(Character(u))).utf8)
        return folded.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) }) && !folded.isEmpty
            ? folded : nil
    }

    /// The key as people abbreviate it (`st petersburg`), when it has such a word.
    static func abbreviated(_ key: String) -> [String] {
        // Words compared as bytes (most keys have none of the words, and this runs for 67,000 names).
        let words = Array(key.utf8).split(separator: 0x20)
        guard words.contains(where: { w in abbreviationBytes.contains { $0.long.elementsEqual(w) } }) else { return [] }
        let short = words.map { w in
            abbreviationBytes.first { $0.long.elementsEqual(w) }?.short ?? String(decoding: w, as: UTF8.self)
        }
        return [short.joined(separator: " ")]
    }

    static let abbreviationBytes = abbreviations.map { (long: Array($0.key.utf8), short: $0.value) }

    static let abbreviations = ["saint": "st", "sankt": "st", "sainte": "ste", "mount": "mt", "fort": "ft"]

    /// How well a name matches, best first.
    enum Rank: Int, Comparable, CaseIterable {
        /// The whole name (any of the place's names).
        case exact
        /// A start of the place's own name, then of another of its names.
        case prefix, otherPrefix
        /// A start of a word of a name (`tuomiokirkko` in `helsingin tuomiokirkko`).
        case wordPrefix
        /// Anywhere in a name.
        case infix
        /// One letter added, missing or changed from a start of a name.
        case typo

        static func < (a: Rank, b: Rank) -> Bool { a.rawValue < b.rawValue }
    }

    /// Up to `perRank` places (indices in rank order) of each rank for `query`, with their ranks: the
    /// best ranks' places, enough for a caller to order a rank by distance.
    func matches(_ query: String, perRank: Int) -> [(place: Int, rank: Rank)] {
        let q = Array(Self.key(query).utf8)
        guard !q.isEmpty, perRank > 0 else { return [] }
        var buckets = [[Int]](repeating: [], count: Rank.allCases.count)
        for (i, names) in keys.enumerated() {
            guard let rank = Self.rank(q, names, ownKeys: ownKeys[i]) else { continue }
            if buckets[rank.rawValue].count < perRank { buckets[rank.rawValue].append(i) }
        }
        return buckets.enumerated().flatMap { r, places in
            places.map { ($0, Rank(rawValue: r) ?? .typo) }
        }
    }

    /// How well `q` matches a place's keys (its own first `ownKeys`), or nil.
    static func rank(_ q: [UInt8], _ names: [[UInt8]], ownKeys: Int) -> Rank? {
        var best: Rank?
        func note(_ r: Rank) { best = min(best ?? r, r) }
        for (n, name) in names.enumerated() {
            if name.count >= q.count {
                if name == q { return .exact }
                if name.starts(with: q) { note(n < ownKeys ? .prefix : .otherPrefix) }
                if let at = find(q, in: name) { note(name[at - 1] == 32 ? .wordPrefix : .infix) }
            }
            if best == nil, q.count >= minimumTypoLength, oneEditFromAPrefix(q, of: name) { best = .typo }
        }
        return best
    }

    /// Queries shorter than this are not matched with a typo (two letters one edit away match too much).
    static let minimumTypoLength = 4

    /// True when `q` is one insertion, deletion or substitution away from a start of `name` (Levenshtein
    /// distance 1 to `name`'s first `q.count - 1`, `q.count` or `q.count + 1` bytes): `helsnki` → `helsinki`.
    static func oneEditFromAPrefix(_ q: [UInt8], of name: [UInt8]) -> Bool {
        // The first difference decides: past it, the rest must agree shifted by the edit's kind.
        var i = 0
        while i < q.count && i < name.count && q[i] == name[i] { i += 1 }
        guard i < q.count else { return false }  // q is a prefix: matched as one already
        func rest(_ a: Int, _ b: Int) -> Bool {
            // q[a...] against name[b...]: all of q's rest must be there (name may go on).
            guard q.count - a <= name.count - b else { return false }
            var k = 0
            while a + k < q.count {
                if q[a + k] != name[b + k] { return false }
                k += 1
            }
            return true
        }
        return rest(i + 1, i + 1) || rest(i + 1, i) || (i + 1 <= name.count && rest(i, i + 1))
    }

    /// The first position after 0 where `q` occurs in `text` (a match at 0 is a prefix, scored apart).
    static func find(_ q: [UInt8], in text: [UInt8]) -> Int? {
        guard text.count > q.count else { return nil }
        var start = 1
        while start + q.count <= text.count {
            if text[start] == q[0] {
                var k = 1
                while k < q.count && text[start + k] == q[k] { k += 1 }
                if k == q.count { return start }
            }
            start += 1
        }
        return nil
    }
}
