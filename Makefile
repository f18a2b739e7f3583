# termmap: `make run` opens the viewer on the bundled data, `make test` runs every test.
# Both first install missing Debian packages when run as root (otherwise they print the apt-get line).

BUILD_PACKAGES := libproj-dev libncurses-dev zlib1g-dev libsqlite3-dev libcurl4-openssl-dev libexpat1-dev libpng-dev libjpeg62-turbo-dev libwebp-dev
TEST_PACKAGES := tmux strace openssh-server openssh-client nginx python3-pyte python3-pil python3-geographiclib xplanet-images libsixel-bin osmium-tool gdal-bin gpsd gpsd-clients mandoc man-db lintian bash-completion zsh fish binutils
# From PyPI, into .pytest when missing: the PMTiles reference reader the remote e2e compares with, and
# gpxpy, which reads back the routes `termmap route --gpx` writes.
TEST_PYPI := pmtiles==3.8.1 gpxpy==1.6.2
# GNU time measures each process's own peak memory for the benchmark.
BENCH_PACKAGES := time
SWIFT_FLAGS ?=
# The tests' Python: Debian's, which TEST_PACKAGES install python3-pil, python3-pyte and python3-geographiclib
# for; a Python of its own first on the PATH (pyenv, a venv) does not see them.
PYTHON ?= $(shell [ -x /usr/bin/python3 ] && echo /usr/bin/python3 || echo python3)
# The viewer users run links the Swift runtime into its binary: start-up then resolves a few hundred
# symbols instead of tens of thousands (docs/performance.md, start-up).
RELEASE_FLAGS ?= --static-swift-stdlib
PREFIX ?= /usr/local

.PHONY: run test lint deps test-deps build bench bench-ssh bench-remote bench-hostile fixtures install deb mutants conformance

run: deps
	swift build -c release $(RELEASE_FLAGS) $(SWIFT_FLAGS) --product termmap
	"$$(swift build -c release --show-bin-path)/termmap" $(ARGS)

test: deps test-deps lint
	swift build --build-tests $(SWIFT_FLAGS)
	swift test --skip-build $(SWIFT_FLAGS)
	swift build -c release $(SWIFT_FLAGS)
	"$$(swift build -c release --show-bin-path)/termmap-fuzz"
	@if [ -d "$(SUITES)" ]; then $(MAKE) --no-print-directory conformance; \
	else echo "conformance: skipped ($(SUITES) not found; make conformance SUITES=DIR runs the suites from any folder)"; fi
	$(PYTHON) Tests/e2e/terminal_e2e.py "$$(swift build --show-bin-path)/termmap"
	$(PYTHON) Tests/e2e/hardening_e2e.py "$$(swift build --show-bin-path)/termmap"
	$(PYTHON) Tests/e2e/ssh_e2e.py "$$(swift build --show-bin-path)/termmap"
	$(PYTHON) Tests/e2e/ssh_load.py "$$(swift build --show-bin-path)/termmap"
	$(PYTHON) Tests/e2e/tiles_e2e.py "$$(swift build --show-bin-path)/termmap"
	PYTHONPATH=.pytest $(PYTHON) Tests/e2e/remote_e2e.py "$$(swift build --show-bin-path)/termmap"
	$(PYTHON) Tests/e2e/userdata_e2e.py "$$(swift build --show-bin-path)/termmap"
	$(PYTHON) Tests/e2e/hostile_e2e.py "$$(swift build --show-bin-path)/termmap"
	$(PYTHON) Tests/e2e/demo_e2e.py "$$(swift build --show-bin-path)/termmap"
	$(PYTHON) Tests/e2e/newcomer_e2e.py "$$(swift build --show-bin-path)/termmap"
	$(PYTHON) Tests/e2e/conventions_e2e.py "$$(swift build --show-bin-path)/termmap"
	$(PYTHON) Tests/e2e/readme_e2e.py "$$(swift build --show-bin-path)/termmap"
	PYTHONPATH=.pytest $(PYTHON) Tests/e2e/route_e2e.py "$$(swift build --show-bin-path)/termmap"
	PYTHONPATH=.pytest $(PYTHON) Tests/e2e/imagery_e2e.py "$$(swift build --show-bin-path)/termmap"
	PYTHONPATH=.pytest $(PYTHON) Tests/e2e/terrain_e2e.py "$$(swift build --show-bin-path)/termmap"
	PYTHONPATH=.pytest $(PYTHON) Tests/e2e/gps_e2e.py "$$(swift build --show-bin-path)/termmap"

# The repository's .swift-format, every warning an error (swift-format comes with the toolchain);
# Package.swift lists exactly what each target imports; no function over 80 lines (60 in Viewer and TerminalUI).
lint:
	swift format lint --strict --recursive --parallel Sources Tests
	python3 Tools/check_package_imports.py
	python3 Tools/function_lengths.py

# Other projects' conformance suites (mvt-fixtures, PMTiles, osm-testdata) through the readers: SUITES is a
# folder laid out as docs/testing.md, Conformance says; differences not in Tests/conformance/known-differences.tsv fail.
SUITES ?= ../shared/peers
conformance: deps test-deps
	swift build -c release --product termmap-conformance $(SWIFT_FLAGS)
	"$$(swift build -c release --show-bin-path)/termmap-conformance" "$(SUITES)"

# Mutation check (minutes, not in CI): each mutant in Tools/mutants.py must make a test fail.
mutants: deps test-deps
	$(PYTHON) Tools/mutants.py

bench: deps
	@$(MAKE) --no-print-directory apt-install PACKAGES="$(BENCH_PACKAGES)"
	swift build -c release $(RELEASE_FLAGS) --product termmap --scratch-path .build/static
	swift run -c release termmap-bench --static .build/static/release/termmap

# The SSH demo under load (minutes, as root: a throwaway demo account): 1 to 100 sessions and a slow link.
bench-ssh: deps test-deps
	swift build -c release $(RELEASE_FLAGS) --product termmap --scratch-path .build/static
	$(PYTHON) Tests/e2e/ssh_load.py .build/static/release/termmap --full

# Remote tiles (seconds, a private nginx): round trips through a 100 ms proxy, the warm disk cache
# against a local file, data get against the server's own rate.
bench-remote: deps test-deps
	swift build -c release $(SWIFT_FLAGS) --product termmap
	$(PYTHON) Tools/remote_bench.py "$$(swift build -c release --show-bin-path)/termmap"

# The user's own files (minutes): a 100 MB GeoJSON, a 50 MB GPX and a 1-million-row CSV, generated, read
# and drawn against ogr2ogr on the same files; steady frames at zooms 0, 8 and 14.
bench-userdata: deps test-deps
	swift build -c release $(SWIFT_FLAGS) --product termmap
	swift build -c release $(SWIFT_FLAGS) --product termmap-bench
	$(PYTHON) Tools/userdata_bench.py "$$(swift build -c release --show-bin-path)/termmap" "$$(swift build -c release --show-bin-path)/termmap-bench"
	$(PYTHON) Tools/stream_bench.py "$$(swift build -c release --show-bin-path)/termmap"

# Hostile input (minutes): a jagged ring of 1 and 10 million points, a 20,000-character paste, a
# GeoPackage view of 10 million rows, /dev/zero, a 1 GB single-line GeoJSON: time, peak memory, q.
bench-hostile: deps test-deps
	swift build -c release $(SWIFT_FLAGS) --product termmap
	$(PYTHON) Tools/hostile_bench.py "$$(swift build -c release --show-bin-path)/termmap"

build: deps
	swift build $(SWIFT_FLAGS)

deps:
	@$(MAKE) --no-print-directory apt-install PACKAGES="$(BUILD_PACKAGES)"

test-deps:
	@$(MAKE) --no-print-directory apt-install PACKAGES="$(TEST_PACKAGES)"
	@$(PYTHON) -c "import pmtiles, gpxpy" 2>/dev/null || PYTHONPATH=.pytest $(PYTHON) -c "import pmtiles, gpxpy" 2>/dev/null || \
	  $(PYTHON) -m pip install -q --target .pytest $(TEST_PYPI) || python3 -m pip install -q --target .pytest $(TEST_PYPI)

# Installs the Debian packages in PACKAGES that are missing (as root), or prints the apt-get line.
# A policy-rc.d denies service starts meanwhile: the nginx package would otherwise start a system nginx
# on port 80 (the tests run their own on 127.0.0.1).
apt-install:
	@missing=""; for p in $(PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    policy=""; if [ ! -e /usr/sbin/policy-rc.d ]; then \
	      printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod 755 /usr/sbin/policy-rc.d && policy=1; fi; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; status=$$?; \
	    if [ -n "$$policy" ]; then rm -f /usr/sbin/policy-rc.d; fi; \
	    [ $$status = 0 ] || exit $$status; \
	  else \
	    echo "missing Debian packages; run: sudo apt-get install -y$$missing" >&2; exit 1; \
	  fi; \
	fi

# The binary, every bundled file (PREFIX/bin/termmap finds PREFIX/share/termmap/world.tmap), the man
# page and the completions where man and each shell look for them, written by the binary itself.
STATIC_BUILD := .build/static
install: deps
	swift build -c release $(RELEASE_FLAGS) $(SWIFT_FLAGS) --product termmap --scratch-path $(STATIC_BUILD)
	install -D -m 755 $(STATIC_BUILD)/release/termmap "$(DESTDIR)$(PREFIX)/bin/termmap"
	for f in assets/*.tmap; do install -D -m 644 "$$f" "$(DESTDIR)$(PREFIX)/share/termmap/$$(basename "$$f")"; done
	install -d "$(DESTDIR)$(PREFIX)/share/man/man1" "$(DESTDIR)$(PREFIX)/share/bash-completion/completions" \
	  "$(DESTDIR)$(PREFIX)/share/zsh/site-functions" "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d"
	$(STATIC_BUILD)/release/termmap help man > "$(DESTDIR)$(PREFIX)/share/man/man1/termmap.1"
	$(STATIC_BUILD)/release/termmap help completions bash > "$(DESTDIR)$(PREFIX)/share/bash-completion/completions/termmap"
	$(STATIC_BUILD)/release/termmap help completions zsh > "$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_termmap"
	$(STATIC_BUILD)/release/termmap help completions fish > "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/termmap.fish"

# termmap_VERSION_ARCH.deb in this folder (Tools/make_deb.py: what it holds and depends on).
deb: deps
	swift build -c release $(RELEASE_FLAGS) $(SWIFT_FLAGS) --product termmap --scratch-path $(STATIC_BUILD)
	python3 Tools/make_deb.py $(STATIC_BUILD)/release/termmap assets .

# Regenerate the reference fixtures from pyproj, GeographicLib and mercantile (needs PyPI).
fixtures:
	python3 -m pip install -q --target .pyref pyproj geographiclib mercantile
	PYTHONPATH=.pyref python3 Tools/make_fixtures.py
	PYTHONPATH=.pyref python3 Tools/make_ruler_fixtures.py
	python3 -m pip install -q --target .pyref osmium==4.3.2 mapbox-vector-tile shapely
	PYTHONPATH=.pyref python3 Tools/make_info_fixtures.py
