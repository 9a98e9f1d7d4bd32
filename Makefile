# Two commands do everything on a fresh machine: `make run` and `make test`.
# Both create .venv and install what is needed (Python packages from PyPI; the
# system Chromium for browser tests via apt when it is missing).

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck unit bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[all,dev]"
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/snakelab classic play --agent champion --width 12 --height 12 --seed 1 --speed 120

lint: $(STAMP)
	$(BIN)/ruff check
	$(BIN)/ruff format --check

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest -n 2 --dist loadgroup -q

test: lint typecheck unit

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
