"""A way's located runs, for the fixture generators (pyosmium)."""


def located_runs(way):
    """The runs of `way`'s nodes that have a location (an extract lacks the nodes outside it), in the
    way's direction, as (lon, lat) lists of at least two points."""
    runs, run = [], []
    for n in way.nodes:
        if n.location.valid():
            run.append((n.location.lon, n.location.lat))
        else:
            if len(run) >= 2:
                runs.append(run)
            run = []
    if len(run) >= 2:
        runs.append(run)
    return runs
