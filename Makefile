# Entry points for newcomers: `make serve` (play in the browser), `make play` (terminal)
# and `make test`.
# Each creates .venv (with the project and its dev tools) on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: serve play test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

serve: $(STAMP)
	$(BIN)/liarsdice serve $(ARGS)

play: $(STAMP)
	$(BIN)/liarsdice play $(ARGS)

test: $(STAMP)
	$(BIN)/ruff check src tests bench vulture_whitelist.py
	$(BIN)/ruff format --check src tests bench vulture_whitelist.py
	$(BIN)/mypy
	$(BIN)/lint-imports
	$(BIN)/vulture src vulture_whitelist.py --min-confidence 60
	$(BIN)/pytest src tests docs README.md

bench: $(STAMP)
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV)
