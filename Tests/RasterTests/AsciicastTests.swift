import Foundation
import Testing

@testable import Raster

@Suite("asciicast v2 writing")
struct AsciicastTests {
    @Test func theHeaderIsTheFormatsAndReadsAsJSON() throws {
        let line = Asciicast.header(cols: 80, rows: 24, timestamp: nil, term: "xterm-256color", shell: "/bin/sh")
        #expect(
            line
                == "{\"version\": 2, \"width\": 80, \"height\": 24, \"env\": {\"TERM\": \"xterm-256color\", \"SHELL\": \"/bin/sh\"}}\n"
        )
        let stamped = Asciicast.header(cols: 100, rows: 30, timestamp: 1_796_000_000, term: "x\"y", shell: "/bin/bash")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(stamped.utf8)) as? [String: Any])
        #expect(json["timestamp"] as? Int == 1_796_000_000 && (json["env"] as? [String: String])?["TERM"] == "x\"y")
    }

    /// Every control character escaped, everything else as it is; JSON reads back the same text.
    @Test func outputIsEscapedAsJSONAndReadsBackExactly() throws {
        var text = String((0..<0x80).map { Character(Unicode.Scalar(UInt8($0))) })
        text += "⣿°→\u{1B}[38;5;196m\"\\"
        let line = Asciicast.output(at: 1.25, text)
        #expect(line.hasPrefix("[1.250000, \"o\", \"\\u0000\\u0001"))
        #expect(line.hasSuffix("\"]\n") && !line.dropLast().contains("\n"))
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [Any])
        #expect(parsed.count == 3 && parsed[0] as? Double == 1.25 && parsed[1] as? String == "o")
        #expect(parsed[2] as? String == text)
    }

    @Test(arguments: [(0.0, "0.000000"), (0.033, "0.033000"), (64.0000004, "64.000000"), (1234.5678915, "1234.567892")])
    func timesHaveSixDecimals(seconds: Double, text: String) {
        #expect(Asciicast.fixed6(seconds) == text)
    }
}
