# Toep: the two commands a newcomer needs are `make run` and `make test`.
# Each one builds .venv from the project's own requirement files first.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python

.PHONY: run test lint typecheck bench play examples clean

$(VENV)/.runtime: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $@

$(VENV)/.dev: requirements.txt requirements-dev.txt $(VENV)/.runtime
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $@

run: $(VENV)/.runtime
	$(PY) bot.py

# Three test processes on two cores: most tests wait on sockets and clocks
# (the fake Discord, a PostgreSQL server each), not on the CPU.
TEST_WORKERS ?= 3

test: $(VENV)/.dev
	$(PY) -m ruff check .
	$(PY) -m mypy
	$(PY) -m pytest -q -rs -n $(TEST_WORKERS)

lint: $(VENV)/.dev
	$(PY) -m ruff check .
	$(PY) -m mypy

examples: $(VENV)/.runtime
	$(PY) -m tools.check_record docs/examples/*.json

bench: $(VENV)/.dev
	$(PY) bench/engine.py

play: $(VENV)/.runtime
	$(PY) -m cli.play

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis
