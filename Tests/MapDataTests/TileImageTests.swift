import Foundation
import Testing

@testable import MapFormats

/// The raster tiles' decoders (issue 47): pixels as Pillow decodes the same files, and hostile images
/// refused in one line before their pixels are made.
@Suite("Tile images")
struct TileImageTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Fixtures/images")

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    struct Expected: Decodable {
        var width: Int
        var height: Int
        var rgba: [UInt8]
    }

    @Test(arguments: ["stripes.png", "stripes.jpg", "stripes.webp"])
    func pixelsAreThoseOfPillow(_ name: String) throws {
        let all = try JSONDecoder().decode(
            [String: Expected].self, from: Data(contentsOf: Self.folder.appendingPathComponent("pixels.json")))
        let want = try #require(all[name])
        let image = try TileImage.decode(try Self.bytes(name), name: name)
        #expect(image.width == want.width && image.height == want.height)
        // The same library decodes a JPEG in Pillow: equal but for its IDCT's rounding, a step at most.
        let tolerance = name.hasSuffix(".jpg") ? 1 : 0
        let worst = zip(image.rgba, want.rgba).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(image.rgba.count == want.rgba.count && worst <= tolerance, "\(name): worst channel off by \(worst)")
        // Rows top first, channels in order: the second stripe's first pixel is green.
        let (r, g, b, _) = image.pixel(0, 4)
        #expect(g > r && g > b)
    }

    @Test func hostileImagesAreRefusedInOneLine() throws {
        let cases: [(String, String)] = [
            ("truncated.png", "PNG"), ("bomb.png", "100000×100000 pixels (at most 4096×4096)"),
            ("noise.webp", "WebP"),
        ]
        for (name, words) in cases {
            #expect {
                _ = try TileImage.decode(try Self.bytes(name), name: name)
            } throws: { error in
                let text = "\(error)"
                return text.contains(words) && !text.contains("\n") && text.hasPrefix(name)
            }
        }
        #expect(throws: MapDataError.self) { _ = try TileImage.decode(Array("not an image".utf8), name: "x") }
        #expect(throws: MapDataError.self) { _ = try TileImage.decode([0xFF, 0xD8, 0xFF], name: "cut.jpg") }
    }
}
