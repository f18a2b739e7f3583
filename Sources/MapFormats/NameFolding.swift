@_spi(_Unicode) import Swift

/// Case- and accent-insensitive keys for name search: canonical decomposition (the standard library's
/// own NFD, so that no Unicode library is loaded), marks dropped, the compatibility forms names use
/// (fullwidth Latin, ligatures) mapped by hand, lowercased.
public enum NameFolding {
    /// `"Hà Nội"` → `"ha noi"`, `"Đà Nẵng"` → `"da nang"`.
    public static func fold(_ s: String) -> String {
        var scalars = String.UnicodeScalarView()
        for u in s._nfd {
            switch u.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark: continue
            default: break
            }
            switch u.value {
            // Fullwidth ASCII (U+FF01–FF5E) is ASCII shifted by 0xFEE0.
            case 0xFF01...0xFF5E: scalars.append(Unicode.Scalar(u.value - 0xFEE0) ?? u)
            case 0xFB00: scalars.append(contentsOf: "ff".unicodeScalars)
            case 0xFB01: scalars.append(contentsOf: "fi".unicodeScalars)
            case 0xFB02: scalars.append(contentsOf: "fl".unicodeScalars)
            case 0xFB03: scalars.append(contentsOf: "ffi".unicodeScalars)
            case 0xFB04: scalars.append(contentsOf: "ffl".unicodeScalars)
            case 0xFB05, 0xFB06: scalars.append(contentsOf: "st".unicodeScalars)
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
