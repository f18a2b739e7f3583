#!/usr/bin/env python3
"""NMEA 0183 logs of a known path for the position tests (issue 49): a drive and a walk through
Helsinki, one epoch a second (GGA, GSA, RMC), each position the GeographicLib geodesic from the last
along the leg's bearing at the leg's speed. In the drive: a sentence with a bad checksum at epoch 30,
the fix lost for epochs 40-49 (RMC status V, GGA quality 0, GSA mode 1) and regained, a 2D fix for
epochs 60-69 (GSA mode 2, no height).

    python3 Tools/make_nmea.py OUT_DIR

writes OUT_DIR/drive.nmea and OUT_DIR/walk.nmea, and prints JSON: for each log its fixes as the log
states them (degrees from the sentences' own digits), in order, with time, speed (m/s), course, height
and mode.
"""
import json
import os
import sys

from geographiclib.geodesic import Geodesic

START = (60.16990, 24.93840)
DATE = (1, 5, 2024)  # 1 May 2024


def checksum(body):
    c = 0
    for ch in body.encode():
        c ^= ch
    return "%02X" % c


def sentence(body):
    return "$%s*%s\r\n" % (body, checksum(body))


def ddmm(value, width):
    """Degrees as NMEA's (d)ddmm.mmmmmm and the degrees those digits say."""
    a = abs(value)
    d = int(a)
    minutes = round((a - d) * 60, 6)
    if minutes >= 60:
        d, minutes = d + 1, 0.0
    text = "%0*d%09.6f" % (width, d, minutes)
    return text, d + float("%.6f" % minutes) / 60


def path(legs, start=START):
    """Positions one a second along `legs` (bearing, speed m/s, seconds)."""
    lat, lon = start
    out = []
    for bearing, speed, seconds in legs:
        for _ in range(seconds):
            g = Geodesic.WGS84.Direct(lat, lon, bearing, speed)
            lat, lon = g["lat2"], g["lon2"]
            out.append((lat, lon, speed, bearing % 360))
    return out


def log(points, bad_at=None, lost=range(0), flat=range(0)):
    lines, fixes = [], []
    for i, (lat, lon, speed, course) in enumerate(points):
        t = 10 * 3600 + 15 * 60 + i
        hms = "%02d%02d%02d.00" % (t // 3600, t // 60 % 60, t % 60)
        iso = "2024-05-01T%02d:%02d:%02d.00Z" % (t // 3600, t // 60 % 60, t % 60)
        la, lat_deg = ddmm(lat, 2)
        lo, lon_deg = ddmm(lon, 3)
        alt = "%.1f" % (12 + 8 * (i % 20) / 20)
        ns, ew = ("N" if lat >= 0 else "S"), ("E" if lon >= 0 else "W")
        knots = "%.3f" % (speed * 3600 / 1852)
        cog = "%.1f" % course
        if i in lost:
            lines.append(sentence("GPGGA,%s,,,,,0,03,,,M,,M,," % hms))
            lines.append(sentence("GPGSA,A,1,,,,,,,,,,,,,,,"))
            lines.append(sentence("GPRMC,%s,V,,,,,,,%02d%02d%02d,,,N" % (hms, DATE[0], DATE[1], DATE[2] % 100)))
            continue
        mode = 2 if i in flat else 3
        lines.append(sentence("GPGGA,%s,%s,%s,%s,%s,1,08,0.9,%s,M,17.0,M,," % (
            hms, la, ns, lo, ew, "" if mode == 2 else alt)))
        lines.append(sentence("GPGSA,A,%d,04,05,09,12,24,25,29,31,,,,,1.8,0.9,1.5" % mode))
        rmc = "GPRMC,%s,A,%s,%s,%s,%s,%s,%s,%02d%02d%02d,,,A" % (
            hms, la, ns, lo, ew, knots, cog, DATE[0], DATE[1], DATE[2] % 100)
        if i == bad_at:
            # The same sentence moved 0.01 degrees north, its checksum not mended: to be refused.
            wrong = rmc.replace(la, ddmm(lat + 0.01, 2)[0])
            lines.append("$%s*%s\r\n" % (wrong, checksum(rmc)))
        lines.append(sentence(rmc))
        fixes.append({"time": iso, "lat": lat_deg if ns == "N" else -lat_deg,
                      "lon": lon_deg if ew == "E" else -lon_deg, "speed": float(knots) * 1852 / 3600,
                      "course": float(cog), "alt": None if mode == 2 else float(alt), "mode": mode})
    return "".join(lines), fixes


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    drive = path([(90, 12, 30), (45, 14, 25), (180, 10, 30), (270, 13, 35)])
    walk = path([(0, 1.4, 60), (300, 1.3, 60), (200, 1.5, 60)], start=(60.1710, 24.9410))
    result = {}
    for name, points, extra in (("drive", drive, dict(bad_at=30, lost=range(40, 50), flat=range(60, 70))),
                                ("walk", walk, {})):
        text, fixes = log(points, **extra)
        with open(os.path.join(out, name + ".nmea"), "w", newline="") as f:
            f.write(text)
        result[name] = fixes
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()
