import GeoCore
import MapData
import MapFormats
import Raster
import TestSupport
import Testing

@testable import MapRender

/// The imagery as pictures for terminals that draw them (issue 47): chunks fixed to the world, kitty's
/// placements that a pan moves instead of sending the pixels again, sixel chunks sent only where the
/// screen should show something else.
struct ImageryPictureTests {
    /// A source of one zoom-0 tile of stripes (so that every chunk differs from its neighbours).
    static func source() throws -> ImagerySource {
        var rgba: [UInt8] = []
        for y in 0..<256 {
            for x in 0..<256 { rgba += [UInt8(x), UInt8(y), UInt8((x * 7 + y * 3) & 0xFF), 255] }
        }
        let zero = TileID(z: 0, x: 0, y: 0)
        let source = try ImageryTests.source([zero: PNGWriter.png(width: 256, height: 256, rgba: rgba)], maxZoom: 0)
        source.load([zero])
        return source
    }

    static func picture(_ source: ImagerySource, _ view: MapView, cell: PictureCell = .dots) -> MapPicture {
        ImagerySampler.picture(
            source, transform: view.transform, viewZoom: view.zoom, cols: view.size.cols, rows: view.size.rows,
            cell: cell
        ).picture
    }

    /// After a pan by whole cells, the chunks the view keeps have the same keys and pixels: the grid is
    /// the world's, not the view's.
    /// (At 170° W the view's left edge is west of the antimeridian: the grid's cells there are negative.)
    @Test(arguments: [0.0, -170.0])
    func chunksKeepTheirPixelsAcrossAPan(longitude: Double) throws {
        let source = try Self.source()
        var view = try MapView(
            center: Coordinate(latitude: 0, longitude: longitude), zoom: 2, size: try ViewSize(cols: 80, rows: 22))
        let before = Self.picture(source, view).chunks(cols: 80, rows: 22)
        view.pan(dx: Double(-20 * ViewSize.dotsPerCellX), dy: Double(3 * ViewSize.dotsPerCellY))
        let after = Self.picture(source, view).chunks(cols: 80, rows: 22)
        let kept = after.filter { a in before.contains { $0.key == a.key } }
        #expect(kept.count >= 4)
        for chunk in kept {
            let old = try #require(before.first { $0.key == chunk.key })
            #expect(chunk.rgba == old.rgba)
            #expect(chunk.col == old.col + 20 && chunk.row == old.row - 3)
        }
    }

    /// kitty: a new view sends every chunk; the same view again sends nothing; a pan sends the new
    /// chunks and moves the kept ones (placements, no pixels).
    @Test func kittyPansMovePlacements() throws {
        let source = try Self.source()
        var view = try ImageryTests.view(zoom: 2, cols: 80, rows: 22)
        var kitty = KittyPlacements(pack: { _ in nil })
        let first = kitty.update(Self.picture(source, view), cols: 80, rows: 22)
        let sent = String(decoding: first, as: UTF8.self).ranges(of: "a=t,").count
        #expect(sent >= 6 && kitty.heldCount == sent)
        #expect(kitty.update(Self.picture(source, view), cols: 80, rows: 22).isEmpty)
        view.pan(dx: Double(-20 * ViewSize.dotsPerCellX), dy: 0)
        let pan = String(decoding: kitty.update(Self.picture(source, view), cols: 80, rows: 22), as: UTF8.self)
        let newChunks = pan.ranges(of: "a=t,").count
        #expect(newChunks < sent && pan.contains("a=p,"))
        #expect(pan.utf8.count * 2 < first.count)
        #expect(!kitty.forget().isEmpty && kitty.heldCount == 0)
    }

    /// At zoom 0 a 200-column view is wider than the world (128 cells): one world chunk shows twice, as
    /// two placements of one image.
    @Test func kittyPlacesAChunkShownTwiceTwice() throws {
        let source = try Self.source()
        let view = try MapView(
            center: Coordinate(latitude: 0, longitude: 0), zoom: 0, size: try ViewSize(cols: 200, rows: 30))
        var kitty = KittyPlacements(pack: { _ in nil })
        let text = String(decoding: kitty.update(Self.picture(source, view), cols: 200, rows: 30), as: UTF8.self)
        #expect(text.contains(",p=2,"))
        #expect(kitty.update(Self.picture(source, view), cols: 200, rows: 30).isEmpty)
    }

    /// Sixel: where a chunk showed and none shows any more (imagery hidden, a chunk off the world),
    /// the cells are said to be cleared.
    @Test func sixelSaysWhatNoChunkShowsAnyMore() throws {
        let source = try Self.source()
        var view = try ImageryTests.view(zoom: 2, cols: 80, rows: 22)
        var sixel = SixelChunks()
        let first = sixel.update(Self.picture(source, view, cell: PictureCell(width: 4, height: 8)), cols: 80, rows: 22)
        #expect(first.vacated.isEmpty)
        let hidden = sixel.update(nil, cols: 80, rows: 22)
        #expect(hidden.vacated.count == first.areas.count)
        _ = sixel.update(Self.picture(source, view, cell: PictureCell(width: 4, height: 8)), cols: 80, rows: 22)
        view.pan(dx: Double(-40 * ViewSize.dotsPerCellX), dy: 0)
        let moved = sixel.update(Self.picture(source, view, cell: PictureCell(width: 4, height: 8)), cols: 80, rows: 22)
        #expect(!moved.vacated.isEmpty)
    }

    /// Sixel: the chunks of a new view are sent; the same view sends nothing; a hole (text gone) sends
    /// its chunk again and no other.
    @Test func sixelSendsOnlyChunksThatChanged() throws {
        let source = try Self.source()
        let view = try ImageryTests.view(zoom: 2, cols: 80, rows: 22)
        let picture = Self.picture(source, view, cell: PictureCell(width: 6, height: 12))
        #expect(picture.width % (32 * 6) == 0 && picture.height % (16 * 12) == 0)
        var sixel = SixelChunks()
        let first = sixel.update(picture, cols: 80, rows: 22)
        #expect(first.areas.count >= 6)
        #expect(
            first.areas.allSatisfy { $0.col >= 0 && $0.row >= 0 && $0.col + $0.cols <= 80 && $0.row + $0.rows <= 22 })
        #expect(sixel.update(picture, cols: 80, rows: 22).bytes.isEmpty)
        let again = sixel.update(picture, cols: 80, rows: 22, holes: [(col: 40, row: 10)])
        #expect(again.areas.count == 1)
        let area = try #require(again.areas.first)
        #expect((area.col..<(area.col + area.cols)).contains(40) && (area.row..<(area.row + area.rows)).contains(10))
    }

    /// The sixel encoding of a small picture: its header, registers, the bits of each column (lowest
    /// bit the band's top row), runs, and a pixel of no alpha left out.
    @Test func sixelEncodesBandsAndRuns() {
        // 5 × 7: red everywhere but a clear top-left pixel; the seventh row is the second band.
        var rgba: [UInt8] = []
        for y in 0..<7 {
            for x in 0..<5 { rgba += x == 0 && y == 0 ? [0, 0, 0, 0] : [255, 0, 0, 255] }
        }
        let text = String(decoding: SixelEncoder.encode(rgba: rgba, width: 5, height: 7), as: UTF8.self)
        let red = (5 * 7 + 0) * 6 + 0  // register of red 5, green 0, blue 0
        #expect(text.hasPrefix("\u{1B}P0;1;0q\"1;1;5;7#\(red);2;100;0;0"))
        // Band 1: column 0 lacks its top bit (0b111110 → `?` + 62 = `}`), then four full columns (`~`).
        // Band 2: one row: bit 0 in every column (`@`).
        #expect(text.hasSuffix("#\(red)}!4~-#\(red)!5@-\u{1B}\\"))
    }
}
