import Testing

@testable import MapFormats

/// The user's coordinates in 32-bit fixed point: 8 bytes a vertex, within a unit (2⁻³⁰ of the world,
/// 3.7 cm) above the value given, read back exactly as stored.
@Suite("Coordinate columns")
struct CoordinateColumnTests {
    @Test func valuesAreKeptToAUnitRoundedUp() {
        let values = [0, 0.5, 0.58333333333333337, 1, -0.0247222, 1.9999, 0.123456789123, -1, 2]
        let column = CoordinateColumn(values)
        let unit = 1 / CoordinateColumn.unitsPerWorld
        #expect(column.byteCount == 4 * values.count)
        for (v, kept) in zip(values, column) {
            // Up (east or south), never down: a value on a cell's edge stays in that cell.
            #expect(kept >= v || v == 2, "\(v) kept as \(kept)")
            #expect(kept - v < unit, "\(v) kept as \(kept)")
        }
        // Copied, a kept value is kept as it is.
        var copy = CoordinateColumn()
        copy.append(contentsOf: column)
        #expect(copy == column)
        #expect(column.withValues { Array($0) } == Array(column))
    }
}
