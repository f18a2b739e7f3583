/// The columns `UserLayerData` keeps its features in, each as small as its content allows: a million
/// points of a CSV file should cost about what their coordinates and text do, not a dictionary and a
/// few boxes each.

/// Ascending offsets (first, one more entry than items: item i spans [o[i], o[i + 1])) kept as a stride
/// while every item spans the same (a point a piece, 200 points a line) and as 32-bit numbers once not.
public struct UserOffsets: Sendable, Equatable {
    /// nil while entry i is i × stride.
    private var stored: [Int32]?
    private var stride = -1
    /// The number of entries.
    public private(set) var count = 1

    /// Offsets starting at 0.
    public init() {}

    /// Entry `i`.
    public subscript(i: Int) -> Int {
        if let stored { return Int(stored[i]) }
        return i * max(0, stride)
    }

    /// The last entry.
    public var last: Int { self[count - 1] }

    /// Appends entry `value` (at least the last one; below 2³¹).
    public mutating func append(_ value: Int) {
        if stored == nil {
            if stride < 0 && count == 1 { stride = value }
            if value == count * stride {
                count += 1
                return
            }
            stored = (0..<count).map { Int32(truncatingIfNeeded: $0 * max(0, stride)) }
        }
        stored?.append(Int32(truncatingIfNeeded: value))
        count += 1
    }

    /// The largest entry these offsets hold.
    public static let limit = Int(Int32.max)
}

/// Per item, a small colour number or none (−1), stored only once some item has one.
public struct UserColors: Sendable, Equatable {
    private var stored: [Int16]?
    /// The number of items.
    public private(set) var count = 0

    /// No items.
    public init() {}

    /// Item `i`'s colour, −1 for none.
    public subscript(i: Int) -> Int16 { stored?[i] ?? -1 }

    /// Appends an item's colour (−1 for none).
    public mutating func append(_ value: Int16) {
        if value >= 0 && stored == nil { stored = [Int16](repeating: -1, count: count) }
        stored?.append(value)
        count += 1
    }
}

/// Per feature, its property values in column order, as one run of UTF-8 bytes: each value followed by
/// 0x1F, a value that is not there a lone 0x1E, the bytes 0x1C–0x1F of a value escaped by 0x1C, and the
/// values after the last one there left out.
public struct UserPropertyRows: Sendable, Equatable {
    private var bytes: [UInt8] = []
    /// Per row, where it ends in `bytes` (one entry a row).
    private var ends: [UInt32] = []

    public init() {}

    /// The number of rows.
    public var count: Int { ends.count }

    static let separator: UInt8 = 0x1F
    static let absent: UInt8 = 0x1E
    static let escape: UInt8 = 0x1C

    /// Appends a row of `values` by column (past 4 GB of values, a row of none).
    public mutating func append(_ values: [String?]) {
        let start = bytes.count
        let last = values.lastIndex { $0 != nil } ?? -1
        if last >= 0 {
            for c in 0...last {
                if let v = values[c] {
                    for b in v.utf8 {
                        if b >= Self.escape && b <= Self.separator { bytes.append(Self.escape) }
                        bytes.append(b)
                    }
                } else {
                    bytes.append(Self.absent)
                }
                bytes.append(Self.separator)
            }
        }
        if bytes.count > Int(UInt32.max) { bytes.removeSubrange(start...) }
        ends.append(UInt32(bytes.count))
    }

    /// Makes room for `rows` more rows of about `bytesEach`.
    public mutating func reserve(rows: Int, bytesEach: Int) {
        ends.reserveCapacity(ends.count + rows)
        bytes.reserveCapacity(bytes.count + rows * bytesEach)
    }

    /// The value of column `column` in row `row`.
    public func value(row: Int, column: Int) -> String? {
        var out: String?
        forEachValue(row: row) { c, v in
            if c == column { out = v }
            return c < column
        }
        return out
    }

    /// Every value of row `row`, by column (nil where absent), up to its last value there.
    public func values(row: Int) -> [String?] {
        var out: [String?] = []
        forEachValue(row: row) { _, v in
            out.append(v)
            return true
        }
        return out
    }

    /// Calls `body` with each column's value in row `row` until it returns false.
    func forEachValue(row: Int, _ body: (Int, String?) -> Bool) {
        guard row >= 0, row < ends.count else { return }
        let end = Int(ends[row])
        var i = row == 0 ? 0 : Int(ends[row - 1])
        var column = 0
        var value: [UInt8] = []
        while i < end {
            var absent = false
            value.removeAll(keepingCapacity: true)
            if bytes[i] == Self.absent, i + 1 < end, bytes[i + 1] == Self.separator {
                absent = true
                i += 1
            } else {
                while i < end, bytes[i] != Self.separator {
                    if bytes[i] == Self.escape, i + 1 < end { i += 1 }
                    value.append(bytes[i])
                    i += 1
                }
            }
            i += 1
            if !body(column, absent ? nil : String(decoding: value, as: UTF8.self)) { return }
            column += 1
        }
    }
}

/// Per feature, its label: while every label so far is the value of property `key` (a CSV file's name
/// column, a GPX `name`; empty is none), nothing is stored and labels are read from that column; from
/// the first that is not, each is stored.
public struct UserNames: Sendable, Equatable {
    /// The property labels are read from, while none is stored, and its column once there is one.
    let key: String?
    var column: Int?
    private var stored: [String?]?

    public init(key: String? = nil) { self.key = key }

    /// Appends `name`, given the feature's value of property `key`; `rows` holds the features before it.
    mutating func append(_ name: String?, keyValue: String?, rows: UserPropertyRows) {
        let name = name.flatMap { $0.isEmpty ? nil : $0 }
        if stored == nil && name == keyValue.flatMap({ $0.isEmpty ? nil : $0 }) { return }
        if stored == nil { stored = (0..<rows.count).map { self.name(of: $0, rows: rows) } }
        stored?.append(name)
    }

    /// The label of feature `f`.
    func name(of f: Int, rows: UserPropertyRows) -> String? {
        if let stored { return f < stored.count ? stored[f] : nil }
        guard let column, let v = rows.value(row: f, column: column), !v.isEmpty else { return nil }
        return v
    }
}
