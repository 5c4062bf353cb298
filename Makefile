# Two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-run
TSTAMP := $(VENV)/.installed-test

.PHONY: run test check lint types suite install bench clean browser

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)

# Runtime only: what the companion needs to run.
$(STAMP): pyproject.toml | $(VENV)/bin/python
	$(PY) -m pip install --quiet -e .
	touch $(STAMP)

# Runtime plus the test and training extras (training is exercised by the tests). pip does not compile the 9,000
# modules it installs (44 s here, with torch's): the suite compiles the 1,500 it imports, once (6 s).
$(TSTAMP): pyproject.toml | $(VENV)/bin/python
	$(PY) -m pip install --quiet --no-compile -e '.[test,train]'
	touch $(STAMP) $(TSTAMP)

install: $(STAMP)

## Install, then serve the tablet page (uses a webcam and USB dice if attached; manual entry otherwise).
run: $(STAMP)
	$(VENV)/bin/companion serve --camera auto --dice auto

# The suite's processes keep their compiled modules (the many command-line tests start Python again and again), and
# load only the pytest plugins the suite uses (an installed plugin is otherwise imported, and its code rewritten, by
# each of them).
PYTEST := PYTHONDONTWRITEBYTECODE= PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 $(PY) -m pytest -p xdist.plugin -p _hypothesis_pytestplugin

## Install, then run the static checks and the whole test suite (browser tests use Debian's chromium, installed here).
## Chromium is installed while the Python packages install (the one waits on apt, the other on pip), and mypy checks
## the types while the suite runs (one more process on the suite's two cores costs it less than mypy's own time).
test:
	$(MAKE) --no-print-directory -j2 $(TSTAMP) browser
	$(MAKE) --no-print-directory lint
	$(MAKE) --no-print-directory -j2 types suite

## Lint (ruff) and type checks (mypy, strict on the rules, dice, tracker and bridge packages).
check: lint types

lint: $(TSTAMP)
	$(VENV)/bin/ruff check .

types: $(TSTAMP)
	$(VENV)/bin/mypy

suite: $(TSTAMP)
	$(PYTEST) -n 2 -q

browser:
	scripts/install-browser.sh

bench: $(TSTAMP)
	for b in benchmarks/*.py; do $(PY) $$b || exit 1; done

clean:
	rm -rf $(VENV) build *.egg-info
