# Two commands do everything on a fresh machine: `make run` and `make test`.
# Both create .venv and install what is needed (Python packages from PyPI; the
# system Chromium for browser tests via apt when it is missing). `make bench` runs
# the quick headline benchmarks and prints one table (benchmarks/README.md).

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
CHROMIUM_STAMP := $(VENV)/.chromium
HOST ?= 127.0.0.1
PORT ?= 8000
REPLAYS ?= runs/replays

.PHONY: run test lint typecheck unit bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[all,dev]"
	touch $(STAMP)

# The browser tests drive the system Chromium (never a downloaded one).
$(CHROMIUM_STAMP): $(STAMP)
	@test -x /usr/bin/chromium || { \
		if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
		$$SUDO apt-get update && $$SUDO apt-get install -y chromium; }
	touch $(CHROMIUM_STAMP)

# The web viewer; a first demo replay makes the replay page worth a look.
run: $(STAMP)
	@$(BIN)/snakelab warm
	@mkdir -p $(REPLAYS)
	@test -e $(REPLAYS)/classic-demo.jsonl || $(BIN)/snakelab classic play --agent hamilton-shortcut \
		--width 12 --height 12 --seed 1 --speed 0 --replay $(REPLAYS)/classic-demo.jsonl >/dev/null
	@echo "open http://$(HOST):$(PORT)/ in a browser (Ctrl-C stops the server)"
	$(BIN)/snakelab serve --host $(HOST) --port $(PORT) --replays $(REPLAYS)

lint: $(STAMP)
	$(BIN)/ruff check
	$(BIN)/ruff format --check

typecheck: $(STAMP)
	$(BIN)/mypy

# Compiling the kernels once up front (cached on disk) keeps compile time out of the tests.
unit: $(STAMP) $(CHROMIUM_STAMP)
	$(BIN)/snakelab warm --quiet
	$(BIN)/pytest -n 2 --dist loadgroup -q

test: lint typecheck unit

# One short run per game beside the full figures of docs/benchmarks.md (about 5 minutes on 2 cores).
bench: $(STAMP)
	$(BIN)/python benchmarks/headline.py --jobs 2

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
