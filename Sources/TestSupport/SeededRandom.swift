/// A small seeded generator (Knuth's MMIX linear congruential constants, high bits kept) so that
/// every run of a test or fuzzer tries the same cases.
public struct SeededRandom: Sendable {
    /// The generator's state; the same state gives the same sequence.
    public var state: UInt64

    /// A generator starting from `state`.
    public init(state: UInt64) { self.state = state }

    /// The next 53 random bits.
    public mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state >> 11
    }

    /// A number in 0..<n (0 when n < 1).
    public mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(1, n))) }

    /// A number in [0, 1).
    public mutating func unit() -> Double { Double(next()) / Double(1 << 53) }
}
