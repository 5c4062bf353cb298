# Two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-run
TSTAMP := $(VENV)/.installed-test

.PHONY: run test install bench clean

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)

# Runtime only: what the companion needs to run.
$(STAMP): pyproject.toml | $(VENV)/bin/python
	$(PY) -m pip install --quiet -e .
	touch $(STAMP)

# Runtime plus the test and training extras (training is exercised by the tests).
$(TSTAMP): pyproject.toml | $(VENV)/bin/python
	$(PY) -m pip install --quiet -e '.[test,train]'
	touch $(STAMP) $(TSTAMP)

install: $(STAMP)

## Install, then run the companion (manual entry; no camera or dice needed).
run: $(STAMP)
	$(VENV)/bin/companion play

## Install, then run the whole test suite.
test: $(TSTAMP)
	$(PY) -m pytest -n 2 -q

bench: $(TSTAMP)
	for b in benchmarks/*.py; do $(PY) $$b || exit 1; done

clean:
	rm -rf $(VENV) build *.egg-info
