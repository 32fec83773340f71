# Two entry points a new user needs: `make demo` (a match played and replayed) and `make test`.
# The interpreter the virtualenv is made from: Debian's own CPython 3.11 where the machine has it
# (built with profile-guided and link-time optimisation, libpython linked in, it runs Kifu about 7 %
# faster than an --enable-shared build without them, such as pyenv's: docs/performance.md), else
# python3 on PATH.
# `make setup PYTHON=...` chooses another (3.11 or later); `make clean` first to remake the venv.
DEBIAN_PYTHON := /usr/bin/python3.11
PYTHON ?= $(shell $(DEBIAN_PYTHON) -c 'import ensurepip, venv' >/dev/null 2>&1 && echo $(DEBIAN_PYTHON) || echo python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test test-fast setup clean check lint typecheck imports docs clauses

$(STAMP): pyproject.toml tests/secretbid/pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test,check,bench]'
	$(BIN)/pip install --quiet --no-deps -e tests/secretbid   # the test ruleset, a package of its own
	touch $(STAMP)

setup: $(STAMP)

demo: $(STAMP)
	$(BIN)/kifu play worlfard --seed 7 --quiet --out demo.kifu.jsonl
	$(BIN)/kifu replay demo.kifu.jsonl --at 40
	$(BIN)/kifu verify demo.kifu.jsonl
	$(BIN)/kifu audit demo.kifu.jsonl

# The checks first (a minute), then every test and the replays corpus on all cores; worksteal
# hands the few long exhaustive suites (marked slow) and the many short tests out as workers free
# up, so the long ones run beside the rest instead of after it.
test: $(STAMP) check
	$(BIN)/python -m pytest -n auto --dist worksteal -rs

# The fast tests alone (everything not marked slow): under 3 minutes on two cores.
test-fast: $(STAMP)
	$(BIN)/python -m pytest -n auto --dist worksteal -rs -m "not slow"

# mypy knows no package-dir mapping: it checks the package through a tree of links named as
# installed (build/typecheck/kifu/domain -> domain/, ...).
PARTS := domain projections cli store service tools
typecheck: $(STAMP)
	@mkdir -p build/typecheck/kifu
	@for p in $(PARTS); do ln -sfn ../../../$$p build/typecheck/kifu/$$p; done
	$(BIN)/mypy -p kifu

# The documentation site (mkdocs.yml): docs/ built into build/site with --strict, so a broken link or
# anchor fails. Its tools are an extra of their own, installed on first use: `make setup` stays as fast.
DOCS_STAMP := $(VENV)/.docs-installed
$(DOCS_STAMP): $(STAMP) pyproject.toml
	$(BIN)/pip install --quiet -e '.[docs]'
	touch $(DOCS_STAMP)

docs: $(DOCS_STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir build/site

lint: $(STAMP)
	$(BIN)/ruff check .

imports: $(STAMP)   # the import contracts in pyproject.toml ([tool.importlinter])
	$(BIN)/lint-imports --no-cache

# The rules reference's test index (each ruleset's data/tested.json: clause -> the tests named for
# it), rewritten from the test names; tests/core/test_clause_index.py fails while it is stale.
clauses: $(STAMP)
	$(BIN)/python -m kifu.tools.clause_index

check: lint typecheck imports

clean:
	rm -rf $(VENV) demo.kifu.jsonl kifu.db
