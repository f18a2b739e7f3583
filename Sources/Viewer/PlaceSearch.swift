import MapData

/// Places by what a person types: each place's name and other names as search keys (case, accents and
/// punctuation ignored; `Saint`/`Sankt` also as `St`), matched by prefix, then at a word's start, then
/// anywhere; within each, in the order places rank (largest first).
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

    /// The key as people abbreviate it (`st petersburg`), when it has such a word.
    static func abbreviated(_ key: String) -> [String] {
        let words = key.split(separator: " ").map(String.init)
        let short = words.map { Self.abbreviations[$0] ?? $0 }
        return short == words ? [] : [short.joined(separator: " ")]
    }

    static let abbreviations = ["saint": "st", "sankt": "st", "sainte": "ste", "mount": "mt", "fort": "ft"]

    /// Up to `limit` places (indices in rank order) for `query`, best first.
    func matches(_ query: String, limit: Int) -> [Int] {
        let q = Array(Self.key(query).utf8)
        guard !q.isEmpty, limit > 0 else { return [] }
        // Prefix of the name, prefix of another name, a word's start, anywhere.
        var buckets: [[Int]] = [[], [], [], []]
        for (i, names) in keys.enumerated() {
            guard let score = Self.score(q, names, ownKeys: ownKeys[i]) else { continue }
            if buckets[score].count < limit { buckets[score].append(i) }
            if buckets[0].count >= limit { break }
        }
        return Array(buckets.joined().prefix(limit))
    }

    /// How well `q` matches a place's keys (0 best), or nil.
    static func score(_ q: [UInt8], _ names: [[UInt8]], ownKeys: Int) -> Int? {
        var best: Int?
        for (n, name) in names.enumerated() {
            guard name.count >= q.count else { continue }
            if name.starts(with: q) { return n < ownKeys ? 0 : 1 }
            if let at = find(q, in: name) {
                let s = name[at - 1] == 32 ? 2 : 3
                best = min(best ?? s, s)
            }
        }
        return best
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
