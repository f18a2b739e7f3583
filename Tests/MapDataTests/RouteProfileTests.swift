import Testing

@testable import MapFormats

/// The profiles' tables as issue 46 states them, way by way: who may use a way, which way, how fast.
@Suite("Route profiles")
struct RouteProfileTests {
    typealias Use = RouteProfile.Use

    static func use(_ p: RouteProfile, _ tags: [String: String]) -> Use? { p.use(tags) }

    @Test func onFoot() {
        let both = Use(forward: true, backward: true, speedKmh: 5)
        for highway in [
            "footway", "path", "pedestrian", "steps", "living_street", "residential", "service", "unclassified",
            "tertiary", "secondary", "primary", "track", "cycleway", "primary_link",
        ] {
            #expect(Self.use(.foot, ["highway": highway]) == both, "\(highway)")
        }
        #expect(Self.use(.foot, ["highway": "cycleway", "foot": "no"]) == nil)
        #expect(Self.use(.foot, ["highway": "motorway"]) == nil && Self.use(.foot, ["highway": "trunk"]) == nil)
        #expect(Self.use(.foot, ["highway": "trunk", "foot": "yes"]) == both)
        #expect(Self.use(.foot, ["highway": "service", "access": "private"]) == nil)
        #expect(Self.use(.foot, ["highway": "service", "access": "no", "foot": "permissive"]) == both)
        // Oneway is for vehicles.
        #expect(Self.use(.foot, ["highway": "residential", "oneway": "yes"]) == both)
        #expect(Self.use(.foot, ["building": "yes"]) == nil)
    }

    @Test func byBike() {
        #expect(Self.use(.bike, ["highway": "cycleway"]) == Use(forward: true, backward: true, speedKmh: 16))
        #expect(Self.use(.bike, ["highway": "footway"]) == nil)
        #expect(Self.use(.bike, ["highway": "footway", "bicycle": "yes"])?.speedKmh == 16)
        #expect(Self.use(.bike, ["highway": "path", "bicycle": "designated"]) != nil)
        #expect(Self.use(.bike, ["highway": "motorway"]) == nil && Self.use(.bike, ["highway": "trunk"]) == nil)
        #expect(
            Self.use(.bike, ["highway": "residential", "oneway": "yes"])
                == Use(forward: true, backward: false, speedKmh: 16))
        #expect(
            Self.use(.bike, ["highway": "residential", "oneway": "yes", "oneway:bicycle": "no"])
                == Use(forward: true, backward: true, speedKmh: 16))
        #expect(
            Self.use(.bike, ["highway": "residential", "oneway": "yes", "cycleway": "opposite_lane"])?.backward == true)
        // Steps are pushed, at walking speed.
        #expect(Self.use(.bike, ["highway": "steps"])?.speedKmh == 5)
    }

    @Test func byCar() {
        let speeds: [String: Double] = [
            "motorway": 100, "trunk": 80, "primary": 60, "secondary": 50, "tertiary": 40, "unclassified": 30,
            "residential": 30, "living_street": 10, "service": 15,
        ]
        for (highway, kmh) in speeds { #expect(Self.use(.car, ["highway": highway])?.speedKmh == kmh, "\(highway)") }
        #expect(Self.use(.car, ["highway": "footway"]) == nil && Self.use(.car, ["highway": "cycleway"]) == nil)
        #expect(Self.use(.car, ["highway": "primary", "maxspeed": "70"])?.speedKmh == 70)
        let mph = Self.use(.car, ["highway": "primary", "maxspeed": "30 mph"])?.speedKmh ?? 0
        #expect(abs(mph - 48.28032) < 1e-9)
        #expect(Self.use(.car, ["highway": "primary", "maxspeed": "none"])?.speedKmh == 60)
        for oneway in ["yes", "1", "true"] {
            #expect(
                Self.use(.car, ["highway": "tertiary", "oneway": oneway])
                    == Use(forward: true, backward: false, speedKmh: 40))
        }
        #expect(
            Self.use(.car, ["highway": "tertiary", "oneway": "-1"]) == Use(forward: false, backward: true, speedKmh: 40)
        )
        #expect(Self.use(.car, ["highway": "tertiary", "junction": "roundabout"])?.backward == false)
        for key in ["access", "motor_vehicle", "motorcar"] {
            for value in ["no", "private"] {
                #expect(Self.use(.car, ["highway": "residential", key: value]) == nil, "\(key)=\(value)")
            }
        }
    }
}
