# Entry points for newcomers: `make serve` (play in the browser), `make play` (terminal)
# and `make test`.
# Each creates .venv on first use. `serve` and `play` install only what playing needs
# (`pip install -e .`: about 25 s and 340 MB); `test`, `lint` and `bench` add the development
# tools (`pip install -e '.[dev]'`: pytest, ruff, mypy, Playwright, OpenSpiel, Ray, JAX...).
# Each install has its own stamp, so `make play` never pulls in the test tools and `make test`
# after `make play` only adds them.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUNTIME := $(VENV)/.installed-runtime
DEV := $(VENV)/.installed-dev

.PHONY: serve play test lint tsc i18n bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(RUNTIME): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e .
	touch $(RUNTIME)

$(DEV): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[dev]'
	touch $(DEV) $(RUNTIME)

serve: $(RUNTIME)
	$(BIN)/liarsdice serve $(ARGS)

play: $(RUNTIME)
	$(BIN)/liarsdice play $(ARGS)

lint: $(DEV)
	$(BIN)/ruff check src tests bench vulture_whitelist.py
	$(BIN)/ruff format --check src tests bench vulture_whitelist.py
	$(BIN)/mypy
	$(BIN)/lint-imports
	$(BIN)/vulture src vulture_whitelist.py --min-confidence 60
	$(BIN)/python -m liarsdice.i18n.build --check
	$(BIN)/python tests/code_shape.py --census
	@$(MAKE) --no-print-directory tsc

# The browser client's type check: tsc --checkJs over server/static/*.js (tsconfig.json), with
# TypeScript from npm (package.json, package-lock.json) installed into node_modules/ on first
# use and again whenever package-lock.json changes. It needs Node.js and npm;
# LIARSDICE_SKIP_TSC=1 skips it.
NODE_STAMP := node_modules/.installed

tsc:
	@if [ "$(LIARSDICE_SKIP_TSC)" = "1" ]; then \
		echo "tsc: skipped (LIARSDICE_SKIP_TSC=1): the browser client is not type-checked"; \
	elif ! command -v npm >/dev/null 2>&1; then \
		echo "tsc: npm is not installed. The browser client's type check needs Node.js and npm:" >&2; \
		echo "  sudo apt install nodejs npm     (Debian, Ubuntu; or see https://nodejs.org)" >&2; \
		echo "or skip it with LIARSDICE_SKIP_TSC=1 make lint" >&2; \
		exit 1; \
	else \
		if [ ! -x node_modules/.bin/tsc ] || [ ! -f $(NODE_STAMP) ] || [ package-lock.json -nt $(NODE_STAMP) ]; then \
			echo "npm ci --no-audit --no-fund"; \
			npm ci --no-audit --no-fund && touch $(NODE_STAMP) || exit 1; \
		fi; \
		echo "node_modules/.bin/tsc -p tsconfig.json"; \
		node_modules/.bin/tsc -p tsconfig.json; \
	fi

# After changing a message or a translation: the catalogues and their .mo (docs/I18N.md)
i18n: $(DEV)
	$(BIN)/python -m liarsdice.i18n.build

# The quick tests on every core (whole files per worker: a file's fixtures stay in one
# process), then the slow ones (real servers, browsers, timers) one at a time, so that their
# timings are not squeezed by a second worker.
test: lint
	$(BIN)/pytest -n auto --dist loadfile -m "not slow" src tests docs README.md
	$(BIN)/pytest -m slow src tests docs README.md

bench: $(DEV)
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) node_modules
