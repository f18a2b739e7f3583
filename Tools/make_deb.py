#!/usr/bin/env python3
"""Builds termmap_VERSION_ARCH.deb with dpkg-deb from a built binary (`make deb` runs it).

The package holds the binary (stripped), the bundled data under /usr/share/termmap, the man page and
the three shells' completions (written by the binary itself: `termmap help man`, `help completions`),
a changelog and a machine-readable copyright file. Its Depends are what dpkg-shlibdeps finds the binary
links, plus the package of the PROJ library the binary loads on demand (the zoom buttons' geodesics);
Recommends the libcurl package it loads for URLs; Suggests gdal-bin (ogr2ogr, for the formats GDAL reads).

usage: make_deb.py BINARY ASSETS_DIR OUT_DIR
"""
import gzip
import os
import shutil
import subprocess
import sys
import tempfile

MAINTAINER = "termmap maintainers <maintainers@termmap.invalid>"
DESCRIPTION = """\
keyboard-driven map viewer for the terminal
 termmap draws a map in Web Mercator with braille dots: coastlines, land and
 sea, borders, a latitude and longitude grid and places, and from city scale
 down to single streets OpenStreetMap roads, buildings, water, parks, points of
 interest and names, from extracts imported once and from vector tiles
 (PMTiles, MBTiles, TileJSON), local or over HTTP. It shows GeoJSON, GPX, KML
 and CSV files on top, and its status line explains what map zoom computes.
 A demo of central Helsinki is included."""

COPYRIGHT = """\
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: termmap

Files: *
Copyright: 2026 the termmap authors
License: Apache-2.0

Files: usr/bin/termmap
Copyright: 2026 the termmap authors
 2014-2026 Apple Inc. and the Swift project authors
Comment: The binary links the Swift runtime and standard library statically;
 they are under the Apache License 2.0 with the Runtime Library Exception.
License: Apache-2.0 with Runtime Library Exception

Files: usr/share/termmap/world.tmap
Copyright: Natural Earth (naturalearthdata.com), public domain
 GeoNames (geonames.org)
Comment: Coastlines, lakes, borders from Natural Earth (public domain); the
 places from GeoNames, under CC BY 4.0.
License: public-domain and CC-BY-4.0

Files: usr/share/termmap/helsinki.tmap
Copyright: OpenStreetMap contributors (openstreetmap.org)
License: ODbL-1.0

License: Apache-2.0
 Licensed under the Apache License, Version 2.0 (the "License"); you may not
 use this file except in compliance with the License.
 .
 On Debian systems, the complete text of the Apache License, Version 2.0 can
 be found in "/usr/share/common-licenses/Apache-2.0".

License: Apache-2.0 with Runtime Library Exception
 Licensed under the Apache License, Version 2.0; see
 "/usr/share/common-licenses/Apache-2.0". With the Runtime Library Exception:
 .
 As an exception, if you use this Software to compile your source code and
 portions of this Software are embedded into the binary product as a result,
 you may redistribute such product without providing attribution as would
 otherwise be required by Sections 4(a), 4(b) and 4(d) of the License.

License: public-domain
 Natural Earth's data is in the public domain: "No permission is needed to
 use Natural Earth. Crediting the authors is unnecessary."

License: CC-BY-4.0
 Creative Commons Attribution 4.0 International
 (https://creativecommons.org/licenses/by/4.0/legalcode). You may share and
 adapt the material for any purpose, provided you give appropriate credit
 ("GeoNames, geonames.org"), link to the licence and indicate changes.

License: ODbL-1.0
 Open Data Commons Open Database License 1.0
 (https://opendatacommons.org/licenses/odbl/1-0/). You may use, share and
 adapt the database, provided you credit "(c) OpenStreetMap contributors",
 share adapted databases under the ODbL, and keep them open.
"""


def run(args, **kw):
    return subprocess.run(args, check=True, capture_output=True, text=True, **kw).stdout


def package_of_library(soname):
    """The Debian package holding the library the dynamic loader finds for SONAME, with its version."""
    for line in run(["ldconfig", "-p"]).splitlines():
        parts = line.strip().split(" => ")
        if len(parts) == 2 and parts[0].split(" ")[0] == soname:
            path = os.path.realpath(parts[1])
            owner = run(["dpkg", "-S", path]).split(":")[0]
            version = run(["dpkg-query", "-W", "-f=${Version}", owner])
            upstream = version.split("-")[0].split(":")[-1]
            return f"{owner} (>= {upstream})"
    sys.exit(f"make_deb: {soname} is not installed (apt-get install its package)")


def main():
    binary, assets, out_dir = sys.argv[1:4]
    version = run([binary, "--version"]).split()[-1]
    arch = run(["dpkg", "--print-architecture"]).strip()
    work = tempfile.mkdtemp(prefix="termmap-deb-")
    root = os.path.join(work, "root")

    def put(path, data, mode=0o644):
        full = os.path.join(root, path.lstrip("/"))
        os.makedirs(os.path.dirname(full), mode=0o755, exist_ok=True)
        with open(full, "wb") as f:
            f.write(data if isinstance(data, bytes) else data.encode())
        os.chmod(full, mode)

    def gz(text):
        return gzip.compress(text.encode(), compresslevel=9, mtime=0)

    with open(binary, "rb") as f:
        put("/usr/bin/termmap", f.read(), 0o755)
    run(["strip", "--strip-unneeded", "--remove-section=.comment", "--remove-section=.note",
         os.path.join(root, "usr/bin/termmap")])
    for name in sorted(os.listdir(assets)):
        if name.endswith(".tmap"):
            with open(os.path.join(assets, name), "rb") as f:
                put(f"/usr/share/termmap/{name}", f.read())
    put("/usr/share/man/man1/termmap.1.gz", gz(run([binary, "help", "man"])))
    put("/usr/share/bash-completion/completions/termmap", run([binary, "help", "completions", "bash"]))
    put("/usr/share/zsh/vendor-completions/_termmap", run([binary, "help", "completions", "zsh"]))
    put("/usr/share/fish/vendor_completions.d/termmap.fish", run([binary, "help", "completions", "fish"]))
    put("/usr/share/doc/termmap/copyright", COPYRIGHT)
    date = run(["date", "-R", "-d", "2026-12-03 12:00 UTC"]).strip()
    put("/usr/share/doc/termmap/changelog.gz", gz(
        f"termmap ({version}) unstable; urgency=medium\n\n"
        "  * First package: the viewer, its bundled data, the man page and the\n"
        "    bash, zsh and fish completions.\n\n"
        f" -- {MAINTAINER}  {date}\n"))

    # dpkg-shlibdeps reads a source package's debian/control: a minimal one, in the work folder.
    os.makedirs(os.path.join(work, "debian"))
    with open(os.path.join(work, "debian", "control"), "w") as f:
        f.write("Source: termmap\n\nPackage: termmap\nArchitecture: any\n")
    shlibs = run(["dpkg-shlibdeps", "-O", "root/usr/bin/termmap"], cwd=work).strip()
    depends = shlibs.split("=", 1)[1] if "=" in shlibs else ""
    depends = ", ".join(d for d in [depends, package_of_library("libproj.so.25")] if d)
    recommends = package_of_library("libcurl.so.4").split(" ")[0]
    size_kb = sum(os.path.getsize(os.path.join(d, n)) for d, _, ns in os.walk(root) for n in ns) // 1024

    md5 = run(["find", ".", "-type", "f", "-exec", "md5sum", "{}", "+"], cwd=root)
    md5 = "".join(sorted(line.replace("  ./", "  ") + "\n" for line in md5.splitlines()))
    put("/DEBIAN/md5sums", md5)
    put("/DEBIAN/control",
        f"Package: termmap\nVersion: {version}\nArchitecture: {arch}\nMaintainer: {MAINTAINER}\n"
        f"Installed-Size: {size_kb}\nDepends: {depends}\nRecommends: {recommends}\nSuggests: gdal-bin\n"
        f"Section: utils\nPriority: optional\n"
        f"Description: {DESCRIPTION}\n")
    for d, dirs, _ in os.walk(root):
        for n in dirs:
            os.chmod(os.path.join(d, n), 0o755)
    out = os.path.join(out_dir, f"termmap_{version}_{arch}.deb")
    run(["dpkg-deb", "--root-owner-group", "-Zxz", "--build", root, out])
    shutil.rmtree(work)
    print(out)


if __name__ == "__main__":
    main()
