import MapData

/// The names a person knows the data by, for the status line and `render --json`: `OpenStreetMap
/// (helsinki)`, `Natural Earth`, a tileset's own name. Files keep their short labels (`OSM helsinki`,
/// `NE10m`); only what is shown is said in words.
enum SourceNames {
    /// A source's name in words.
    static func display(_ label: String) -> String {
        switch label {
        case "NE10m": return "Natural Earth"
        default: return label.hasPrefix("OSM ") ? "OpenStreetMap (\(label.dropFirst(4)))" : label
        }
    }

    /// `names` told apart: the second of one name is `NAME (2)`, the third `NAME (3)`, in source order.
    static func distinct(_ names: [String]) -> [String] {
        var seen: [String: Int] = [:]
        return names.map { name in
            seen[name, default: 0] += 1
            let n = seen[name] ?? 1
            return n == 1 ? name : "\(name) (\(n))"
        }
    }
}
