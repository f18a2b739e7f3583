/// A frame as text with ANSI SGR sequences (one line per row, each starting and ending with no
/// attributes set); `.plain` gives just the glyphs. The pens and their changes are those the screen's
/// painter sends (`TerminalEncoder`): one mode gives the same colour bytes everywhere.
public enum AnsiWriter {
    /// The frame's lines in `mode`.
    public static func text(_ frame: Frame, mode: ColorMode) -> String {
        guard mode != .plain else { return frame.text }
        var out = TerminalEncoder()
        out.bytes.reserveCapacity(frame.cells.count * 4 + frame.rows * 8)
        var pens: [TerminalEncoder.Pen] = []
        var blank: [Bool] = []
        let cols = frame.cols
        for row in 0..<frame.rows {
            let start = row * cols
            TerminalEncoder.rowPens(frame.cells[start..<(start + cols)], mode, into: &pens, blank: &blank)
            frame.cells.withUnsafeBufferPointer { cells in
                pens.withUnsafeBufferPointer { p in
                    for col in 0..<cols where !cells[start + col].isContinuation {
                        out.setPen(p[col])
                        out.scalar(cells[start + col].glyph.value)
                    }
                }
            }
            out.setPen(0)
            if row < frame.rows - 1 { out.put(0x0A) }
        }
        return String(decoding: out.bytes, as: UTF8.self)
    }
}
