import GeoCore
import MapData
import Raster
import Testing

@testable import MapRender
@testable import Viewer

/// What a new user read wrong at 80×24 and without Unicode.
@Suite("The message line and ASCII read whole")
struct ReadsWithoutUnicodeTests {
    /// In ASCII the degree sign becomes `d` before minutes (`24d56'10"E`, not `2456'10"E`) and goes
    /// before a hemisphere (`60.1699N`).
    @Test func degreesReadInASCII() throws {
        #expect(Transliteration.screenText("24°56′10″E", ascii: true) == "24d56'10\"E")
        #expect(Transliteration.screenText("60.1699°N 24.9384°E", ascii: true) == "60.1699N 24.9384E")
        #expect(Transliteration.screenText("30°", ascii: true) == "30")
        #expect(Transliteration.screenText("24°56′E", ascii: false) == "24°56′E")
        // The grid's labels at street level are in minutes and seconds: each reads.
        let s = try scripted(cols: 120, rows: 40, lat: 60.1699, lon: 24.9384, zoom: 15, ascii: true)
        let text = Renderer.render(s, sources: bundledSources, options: RenderOptions(mode: .plain)).text
        #expect(text.contains("24d56'"), "\(text)")
        #expect(!text.contains("2456'"))
    }

    /// At 80×24 the welcome is whole (up to `q quit`), with the world's credit beside it.
    @Test(arguments: [ViewerState.welcome, ViewerState.kioskWelcome])
    func theWelcomeFitsEightyColumns(_ welcome: String) throws {
        var s = try scripted(cols: 80, rows: 24, lat: 0, lon: 0, zoom: 0)
        s.message = welcome
        let frame = Renderer.render(s, sources: bundledSources, options: RenderOptions(mode: .plain))
        let line = frame.line(23)
        #expect(line.hasPrefix(welcome), "\(line)")
        #expect(welcome.hasSuffix("q quit") || welcome.hasSuffix("q leave"))
        #expect(line.hasSuffix("© Natural Earth · GeoNames"), "\(line)")
    }
}
