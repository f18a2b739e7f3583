# termmap: `make run` opens the viewer on the bundled data, `make test` runs every test.
# Both first install missing Debian packages when run as root (otherwise they print the apt-get line).

DEBIAN_PACKAGES := libproj-dev libncurses-dev tmux strace openssh-server openssh-client
SWIFT_FLAGS ?=

.PHONY: run test deps build release bench fixtures

run: deps
	swift build -c release $(SWIFT_FLAGS) --product termmap
	"$$(swift build -c release --show-bin-path)/termmap" $(ARGS)

test: deps
	swift build --build-tests $(SWIFT_FLAGS)
	swift test --skip-build $(SWIFT_FLAGS)
	swift build -c release $(SWIFT_FLAGS)
	"$$(swift build -c release --show-bin-path)/termmap-fuzz"
	python3 Tests/e2e/terminal_e2e.py "$$(swift build --show-bin-path)/termmap"
	python3 Tests/e2e/hardening_e2e.py "$$(swift build --show-bin-path)/termmap"
	python3 Tests/e2e/ssh_e2e.py "$$(swift build --show-bin-path)/termmap"

bench: deps
	swift run -c release termmap-bench

build: deps
	swift build $(SWIFT_FLAGS)

deps:
	@missing=""; for p in $(DEBIAN_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	  else \
	    echo "missing Debian packages; run: sudo apt-get install -y$$missing" >&2; exit 1; \
	  fi; \
	fi

# Regenerate the reference fixtures from pyproj, GeographicLib and mercantile (needs PyPI).
fixtures:
	python3 -m pip install -q --target .pyref pyproj geographiclib mercantile
	PYTHONPATH=.pyref python3 Tools/make_fixtures.py
