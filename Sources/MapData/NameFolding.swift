import Foundation

/// Case- and accent-insensitive keys for name search: compatibility decomposition, marks dropped, lowercased.
public enum NameFolding {
    /// `"Hà Nội"` → `"ha noi"`, `"Đà Nẵng"` → `"da nang"`.
    public static func fold(_ s: String) -> String {
        var scalars = String.UnicodeScalarView()
        for u in s.decomposedStringWithCompatibilityMapping.unicodeScalars {
            switch u.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark: continue
            default: scalars.append(u)
            }
        }
        // Letters with strokes do not decompose: map the common ones by hand.
        var out = ""
        for ch in String(scalars).lowercased() {
            switch ch {
            case "đ", "ð": out += "d"
            case "ø": out += "o"
            case "ł": out += "l"
            case "ß": out += "ss"
            case "æ": out += "ae"
            case "œ": out += "oe"
            case "ı": out += "i"
            default: out.append(ch)
            }
        }
        return out
    }
}
