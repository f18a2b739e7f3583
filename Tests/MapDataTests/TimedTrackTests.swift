import GeoCore
import MapFormats
import Testing

/// Tracks in time (issue 49): ISO 8601 times read and written, positions interpolated by time (not by
/// vertex), times going backwards sorted, and every format's times found.
struct TimedTrackTests {
    /// RFC 3339 times, zones and fractions included, to seconds since 1970 (values worked with `date -u
    /// -d … +%s`); nonsense is nil; back to text.
    @Test func isoTimesReadAndWrite() {
        #expect(ISOTime.seconds("2024-05-01T10:15:00Z") == 1_714_558_500)
        #expect(ISOTime.seconds("2024-05-01T12:15:00+02:00") == 1_714_558_500)
        #expect(ISOTime.seconds("2024-05-01T05:15:00.25-0500") == 1_714_558_500.25)
        #expect(ISOTime.seconds("2024-05-01 10:15:00") == 1_714_558_500)
        #expect(ISOTime.seconds("1969-12-31T23:59:59Z") == -1)
        #expect(ISOTime.seconds("2000-02-29") == 951_782_400)
        for bad in ["", "2024-13-01T00:00:00Z", "2024-05-01T10:15:00Zjunk", "yesterday", "2024-05-01T10:61:00Z"] {
            #expect(ISOTime.seconds(bad) == nil, "\(bad)")
        }
        #expect(ISOTime.text(1_714_558_500) == "2024-05-01T10:15:00Z")
        #expect(ISOTime.text(1_714_558_500.25) == "2024-05-01T10:15:00.25Z")
        #expect(ISOTime.text(-1) == "1969-12-31T23:59:59Z")
    }

    /// Along the equator, 1° in the first 10 s and 0.1° in the next 100 s: at 60 s the marker is
    /// half-way along the second leg (by time), not where an even share of vertices would put it.
    @Test func positionsAreInterpolatedByTime() {
        let track = TimedTrack(
            feature: 0, name: nil, times: [0, 10, 110],
            coordinates: [
                Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 1),
                Coordinate(latitude: 0, longitude: 1.1),
            ])
        #expect(track.position(at: -1) == nil)
        let at5 = track.position(at: 5)
        let at60 = track.position(at: 60)
        #expect(abs((at5?.longitude ?? 0) - 0.5) < 1e-9 && abs(at5?.latitude ?? 1) < 1e-9)
        #expect(abs((at60?.longitude ?? 0) - 1.05) < 1e-9)
        // 30 s: 20 s into the second leg's 100 (a share of vertices, one every 55 s, would put it on the
        // first leg, past its end).
        #expect(abs((track.position(at: 30)?.longitude ?? 0) - 1.02) < 1e-9)
        #expect(track.position(at: 500) == Coordinate(latitude: 0, longitude: 1.1))
        #expect(track.doneCount(at: 10) == 2 && track.doneCount(at: 9.99) == 1)
    }

    /// A GPX track's point times, a GeoJSON line's `coordinateProperties.times` given backwards (sorted,
    /// said), and points with a `time` become tracks; a line whose times do not match its points is said.
    @Test func everyFormatsTimesAreFound() throws {
        let gpx = """
            <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>run</name><trkseg>
            <trkpt lat="60.1" lon="24.9"><time>2024-05-01T10:00:00Z</time></trkpt>
            <trkpt lat="60.2" lon="24.9"><time>2024-05-01T10:10:00Z</time></trkpt></trkseg></trk></gpx>
            """
        let g = try UserDataReader.read(Array(gpx.utf8), format: .gpx, file: "run.gpx")
        let (gt, _) = TimedTracks.of(g)
        #expect(gt.count == 1 && gt[0].times == [1_714_557_600, 1_714_558_200] && gt[0].name == "run")
        let json = """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","properties":{"coordinateProperties":{"times":["2024-05-01T10:10:00Z","2024-05-01T10:00:00Z"]}},
             "geometry":{"type":"LineString","coordinates":[[24.9,60.2],[24.9,60.1]]}},
            {"type":"Feature","properties":{"times":["2024-05-01T10:00:00Z"]},
             "geometry":{"type":"LineString","coordinates":[[25,60],[25.1,60]]}},
            {"type":"Feature","properties":{"time":"2024-05-01T10:05:00Z"},"geometry":{"type":"Point","coordinates":[1,2]}},
            {"type":"Feature","properties":{"time":"2024-05-01T10:01:00Z"},"geometry":{"type":"Point","coordinates":[3,4]}}]}
            """
        let j = try UserDataReader.read(Array(json.utf8), format: .geojson, file: "t.geojson")
        let (jt, notes) = TimedTracks.of(j)
        #expect(jt.count == 2)
        #expect(jt.first?.times == [1_714_557_600, 1_714_558_200])
        // (The layer keeps its points in Web Mercator columns to about 2 cm.)
        #expect(abs((jt.first?.coordinates.first?.latitude ?? 0) - 60.1) < 1e-6)
        #expect(jt.last?.feature == nil && jt.last?.coordinates.first?.longitude ?? 0 > 2.99)
        #expect(
            notes == [
                "line 1: times going backwards; sorted", "line 2: 1 times for 2 points; not played",
                "its points' times go backwards; sorted",
            ])
    }
}
