/// An index made at the `after`th use of what it indexes, not the first: until then the few uses that
/// need it cost less by scanning than making it would (a `render`, a glance while zooming through).
public struct IndexOnUse<Index: Sendable>: Sendable {
    /// The use at which the index is made.
    public let after: Int
    /// Uses so far.
    public private(set) var uses = 0
    /// The index, once made.
    public private(set) var index: Index?

    /// No index yet, one to make at the `after`th use.
    public init(after: Int) { self.after = after }

    /// Counts a use: the index if it is made, and whether to make it now.
    public mutating func use() -> (index: Index?, makeNow: Bool) {
        uses += 1
        return (index, index == nil && uses >= after)
    }

    /// Keeps the index made.
    public mutating func made(_ index: Index) { self.index = index }
}
