/// Braille canvas, line rasteriser and frame of styled cells (coming with the renderer).
public enum RasterInfo {
    /// Dots per cell across and down.
    public static let dotsPerCell = (x: 2, y: 4)
}
