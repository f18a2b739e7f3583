import MapFormats

/// A file's features counted in words for the layer list: `177 countries (polygons)` (the noun from the
/// file's name when it is a plural), `56 features (55 points, 1 line)`, `1 feature (a line)`.
enum FeatureCountWords {
    /// The words for `count` features of `file` (its name as given) with `pieces` pieces of each type.
    static func text(count: Int, pieces: [PieceType: Int], file: String) -> String {
        let noun = count == 1 ? "feature" : pluralNoun(in: file) ?? "features"
        let kinds = PieceType.allCases.compactMap { t in pieces[t].map { (t, $0) } }.filter { $0.1 > 0 }
        let what: String
        switch kinds.count {
        case 0: what = ""
        case 1 where kinds[0].1 == 1: what = " (a \(word(kinds[0].0)))"
        case 1: what = " (\(word(kinds[0].0))s)"
        default:
            what = " (" + kinds.map { "\($0.1) \(word($0.0))\($0.1 == 1 ? "" : "s")" }.joined(separator: ", ") + ")"
        }
        return "\(count) \(noun)\(what)"
    }

    /// A piece type in words.
    static func word(_ t: PieceType) -> String {
        switch t {
        case .point: "point"
        case .lineString: "line"
        case .polygon: "polygon"
        }
    }

    /// The file name's last word when it reads as a plural of letters (`ne_110m_admin_0_countries.json`
    /// → `countries`, `walks.gpx` → `walks`), else nil (`route.gpx`, `standard input`).
    static func pluralNoun(in file: String) -> String? {
        let base = file.split(separator: "/").last.map { $0.split(separator: ".").first ?? $0 } ?? ""
        let words = base.split { !$0.isLetter }
        guard let last = words.last?.lowercased(), last.count > 3, last.hasSuffix("s"), !last.hasSuffix("ss") else {
            return nil
        }
        return last
    }
}
