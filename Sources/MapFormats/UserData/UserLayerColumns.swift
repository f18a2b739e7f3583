import Glibc

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

    /// The bytes the rows hold.
    public var byteCount: Int { bytes.count + 4 * ends.count }

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

/// A column of Web Mercator coordinates (x or y of the unit square) that grows in place, each kept as
/// a 32-bit fixed-point number of 2⁻³⁰ of the world's width: 3.7 cm at the equator, finer than a dot to
/// zoom 22, 8 bytes a vertex where two doubles took 16, and x from −2 to 2 worlds (a longitude to ±540°
/// is x from −1 to 2). A value is stored rounded up to a unit and read back exactly as stored (a power
/// of two apart), so that one copied keeps its value. Its block is resized with `realloc`,
/// which for a large block remaps its pages rather than copying them (glibc's `mremap`), so that
/// growing never holds the column twice (an array doubling holds the old and the new block for a
/// moment: a reader of a single feature of 100 million points peaked at 3.3 times what it kept). Copy
/// on write, as an array. When the system has no memory left to grow it, an append says so (false)
/// instead of ending the program.
public struct CoordinateColumn: RandomAccessCollection, Sendable, Equatable {
    /// Units of the world's width (2³⁰).
    public static let unitsPerWorld = Double(1 << 30)
    /// A unit in worlds.
    @usableFromInline static let unit = 1 / unitsPerWorld

    /// `value` (worlds) in units, rounded up, within the 32 bits. Up (east, south), not to the nearest:
    /// a dot or a cell spans [its west edge, the next), and a value on an edge (a point the view is
    /// centred on) stays in the cell it was in.
    @inlinable
    static func units(_ value: Double) -> Int32 {
        let u = (value * unitsPerWorld).rounded(.up)
        return u >= Double(Int32.max) ? .max : u <= Double(Int32.min) ? .min : Int32(u)
    }

    /// The block: its start, the values kept and the room made.
    @usableFromInline
    final class Block: @unchecked Sendable {
        @usableFromInline var base: UnsafeMutablePointer<Int32>?
        @usableFromInline var count = 0
        var capacity = 0

        init() {}

        /// A copy of `other` with room for `capacity` values (nil without the memory).
        init?(copying other: Block, capacity: Int) {
            guard reserve(Swift.max(capacity, other.count)) else { return nil }
            if other.count > 0, let from = other.base, let to = base { to.update(from: from, count: other.count) }
            count = other.count
        }

        /// Room for `wanted` values in all (the block remapped or moved, never held twice by hand);
        /// false when the system has no memory for it.
        func reserve(_ wanted: Int) -> Bool {
            guard wanted > capacity else { return true }
            let (bytes, overflow) = wanted.multipliedReportingOverflow(by: MemoryLayout<Int32>.stride)
            guard !overflow, let grown = realloc(base, bytes) else { return false }
            base = grown.assumingMemoryBound(to: Int32.self)
            capacity = wanted
            return true
        }

        deinit { free(base) }
    }

    @usableFromInline var block = Block()

    /// No values.
    public init() {}

    /// The values of `values`.
    public init(_ values: some Sequence<Double>) {
        for v in values { append(v) }
    }

    public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { block.count }

    /// Value `i`.
    @inlinable
    public subscript(i: Int) -> Double {
        precondition(i >= 0 && i < block.count, "index out of range")
        return Double(block.base.unsafelyUnwrapped[i]) * Self.unit
    }

    /// The values read in place, for loops over many (valid only within `body`).
    public struct Values: RandomAccessCollection {
        @usableFromInline let base: UnsafePointer<Int32>?
        public let count: Int
        @inlinable public var startIndex: Int { 0 }
        @inlinable public var endIndex: Int { count }

        @inlinable init(base: UnsafePointer<Int32>?, count: Int) {
            self.base = base
            self.count = count
        }

        /// Value `i` (not checked against the count: the loops that read these know their bounds).
        @inlinable public subscript(i: Int) -> Double { Double(base.unsafelyUnwrapped[i]) * CoordinateColumn.unit }
    }

    /// The values in place, for loops over many.
    @inlinable
    public func withValues<R>(_ body: (Values) throws -> R) rethrows -> R {
        try body(Values(base: block.base.map { UnsafePointer($0) }, count: block.count))
    }

    /// The bytes the values take.
    public var byteCount: Int { block.count * MemoryLayout<Int32>.stride }

    /// The block to write to: this column's own (copied first when shared), with room for `more` values;
    /// nil without the memory.
    private mutating func writable(more: Int) -> Block? {
        let wanted = block.count + more
        if !isKnownUniquelyReferenced(&block) {
            guard let copy = Block(copying: block, capacity: wanted) else { return nil }
            block = copy
        } else if wanted > block.capacity {
            // Growth by half again: the block is remapped, so its size costs no copy, only address space.
            guard block.reserve(Swift.max(wanted, block.capacity + block.capacity / 2, 1024)) || block.reserve(wanted)
            else { return nil }
        }
        return block
    }

    /// Appends a value; false when there is no memory for it.
    @discardableResult
    public mutating func append(_ value: Double) -> Bool {
        guard let b = writable(more: 1), let base = b.base else { return false }
        base[b.count] = Self.units(value)
        b.count += 1
        return true
    }

    /// Appends values; false when there is no memory for them (none is appended then).
    @discardableResult
    public mutating func append(contentsOf values: some Collection<Double>) -> Bool {
        guard let b = writable(more: values.count), let base = b.base else { return values.isEmpty }
        var i = b.count
        for v in values {
            base[i] = Self.units(v)
            i += 1
        }
        b.count = i
        return true
    }

    /// Makes room for `capacity` values in all; false without the memory.
    @discardableResult
    public mutating func reserveCapacity(_ capacity: Int) -> Bool {
        writable(more: Swift.max(0, capacity - count)) != nil
    }

    /// Keeps the first `n` values.
    public mutating func truncate(to n: Int) {
        guard n < count, let b = writable(more: 0) else { return }
        b.count = Swift.max(0, n)
    }

    /// Moves the values of `range` to start at `to` (at most `range.lowerBound`), as memmove does.
    public mutating func move(_ range: Range<Int>, to: Int) {
        guard to != range.lowerBound, !range.isEmpty, let b = writable(more: 0), let base = b.base else { return }
        (base + to).update(from: base + range.lowerBound, count: range.count)
    }

    public static func == (a: CoordinateColumn, b: CoordinateColumn) -> Bool { a.elementsEqual(b) }
}
