#!/usr/bin/env python3
"""Elevation profiles' expected figures (issue 48), computed here in Python from the rule docs/terrain.md
states, for seeded height series: samples every 10 m; ascent and descent counted once the height has
moved 2 m from the last height counted; the steepest grade over 100 m. The unit tests read
Tests/GeoCoreTests/Fixtures/profiles.json and compare termmap's ElevationProfile with it.

    python3 Tools/make_profile_fixtures.py > Tests/GeoCoreTests/Fixtures/profiles.json
"""
import json
import math
import random


def figures(meters, heights):
    up = down = 0.0
    last = None
    for h in heights:
        if h is None:
            continue
        if last is None:
            last = h
        elif h - last >= 2:
            up, last = up + h - last, h
        elif last - h >= 2:
            down, last = down + last - h, h
    known = [h for h in heights if h is not None]
    steepest = None
    for i, (m, h) in enumerate(zip(meters, heights)):
        if h is None:
            continue
        for j in range(i + 1, len(meters)):
            if meters[j] - m >= 100 - 1e-9:
                if heights[j] is not None:
                    grade = abs(heights[j] - h) / (meters[j] - m) * 100
                    steepest = grade if steepest is None else max(steepest, grade)
                break
    return {"ascent": up, "descent": down, "minimum": min(known) if known else None,
            "maximum": max(known) if known else None, "steepestPercent": steepest}


def main():
    rng = random.Random(48)
    cases = []
    for k in range(30):
        n = rng.randint(2, 200)
        meters = [10.0 * i for i in range(n)]
        if rng.random() < 0.5:
            meters[-1] = round(meters[-2] + rng.uniform(0.5, 9.5), 3)  # a line's end nearer than a step
        # A walk: a slow trend, a hill, and noise of a metre or two (that the dead band must swallow).
        trend, hill, noise = rng.uniform(-0.2, 0.2), rng.uniform(0, 80), rng.uniform(0, 2.5)
        heights = [round(300 + trend * m + hill * math.sin(m / 700) + rng.uniform(-noise, noise), 3) for m in meters]
        for _ in range(rng.randint(0, 3)):
            heights[rng.randrange(n)] = None  # off the tiles
        case = {"meters": meters, "heights": heights}
        case.update(figures(meters, heights))
        cases.append(case)
    print(json.dumps({"cases": cases}))


if __name__ == "__main__":
    main()
