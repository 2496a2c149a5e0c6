# `make test` and `make conformance` each build .venv from the pinned requirements when needed.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
BENCH_STAMP := $(VENV)/.bench-installed

.PHONY: test quick conformance bench fuzz lint docs clean bytecode

# The version is in the installed metadata too, so a new one reinstalls, as do new rules here. uv,
# pinned here and put in the venv by the system's pip, installs the pinned requirements in seconds
# where pip takes twenty; it compiles their bytecode, as pip does, since every test process would
# otherwise compile what it imports anew (PYTHONDONTWRITEBYTECODE).
UV_VERSION := 0.13.9

$(STAMP): pyproject.toml requirements-test.txt toolreg/_version.py Makefile
	$(PYTHON) -m venv --without-pip $(VENV)
	$(PYTHON) -m pip --python $(BIN)/python install --quiet uv==$(UV_VERSION)
	$(BIN)/uv pip install --quiet --compile-bytecode --python $(BIN)/python -r requirements-test.txt
	$(BIN)/uv pip install --quiet --python $(BIN)/python --no-deps -e .
	touch $(STAMP)

# docs/ holds the site's build hooks, and the examples of its pages, which ruff formats too.
lint: $(STAMP)
	$(BIN)/ruff check toolreg tests conformance bench docs
	$(BIN)/ruff format --check toolreg tests conformance bench docs
	$(BIN)/mypy --strict toolreg conformance docs/hooks.py
	$(BIN)/vulture

# The docs site, from docs/ and the docstrings, into site/; any warning fails it. Material's notice
# that it will reach its end of life is said once here rather than at every build: its successor is
# Zensical, and MkDocs 1.6 with Material 9 keep working as pinned.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet

# Two workers (the CI machine has two cores) that take tests one by one and steal from each other,
# so that no worker waits on a module of long tests the other finished with (a module's fixtures may
# then start in both); the branch-coverage gate is in pyproject.toml.
WORKERS ?= 2

# lint and docs run beside pytest, not before it: mypy and the docs build keep one core busy each,
# while pytest's start and its coverage report leave one idle. Their output follows pytest's, and
# any of them failing fails the target. (Named through CHECKS, so that make -n only shows the line.)
CHECKS := $(MAKE) --no-print-directory lint docs

# The suite starts dozens of Python processes (the hostile cases, the oracles, the MCP servers), and
# where PYTHONDONTWRITEBYTECODE is set each would compile what it imports of the checkout anew.
bytecode: $(STAMP)
	@$(BIN)/python -m compileall -q toolreg tests conformance

# pytest keeps each test module as it rewrote its asserts, unless PYTHONDONTWRITEBYTECODE is set: then
# every run rewrote and compiled every test module again in each worker (3 of the 6 to 8 seconds its
# collection took), so the runs below unset it.
PYTEST := PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest

test: $(STAMP) bytecode
	@checks=$$(mktemp); $(CHECKS) > $$checks 2>&1 & lint=$$!; \
	HYPOTHESIS_PROFILE=ci $(PYTEST) -q -n $(WORKERS) --dist worksteal --cov --cov-report=term; \
	tests=$$?; wait $$lint; linted=$$?; cat $$checks; rm -f $$checks; \
	test $$tests -eq 0 && test $$linted -eq 0

# The inner loop: no lint, none of the tests marked slow, small Hypothesis runs, the same two workers;
# about 25 seconds on 2 cores (the README gives the measured runs).
quick: $(STAMP) bytecode
	HYPOTHESIS_PROFILE=quick $(PYTEST) -q -n $(WORKERS) --dist worksteal -m "not slow"

conformance: $(STAMP)
	$(BIN)/python -m conformance

$(BENCH_STAMP): $(STAMP) bench/requirements.txt Makefile
	$(BIN)/uv pip install --quiet --compile-bytecode --python $(BIN)/python -r bench/requirements.txt
	# The leaderboard's data files alone: its own pins (numpy 1) clash with the bench's.
	$(BIN)/uv pip install --quiet --python $(BIN)/python --no-deps bfcl-eval==2026.3.23
	touch $(BENCH_STAMP)

bench: $(BENCH_STAMP)
	$(BIN)/python -m bench
	$(BIN)/python -m bench.roundtrip | tee bench/roundtrip.md
	$(BIN)/python -m bench.replay | tee bench/replay.md
	$(BIN)/python -m bench.repair | tee bench/repair.md
	$(BIN)/python -m bench.guard | tee bench/guard.md
	$(BIN)/python -m bench.import_time | tee bench/import_time.md

fuzz: $(STAMP)
	HYPOTHESIS_PROFILE=fuzz $(BIN)/python -m pytest -q tests/properties/test_reliability.py tests/properties/test_hostile.py tests/test_promises.py tests/jsonschema/regex/test_patterns.py

clean:
	rm -rf $(VENV) site .pytest_cache .mypy_cache .ruff_cache .hypothesis .coverage .coverage.*
