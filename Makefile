# Two entry points a new user needs: `make demo` (a match played and replayed) and `make test`.
# The interpreter the virtualenv is made from: Debian's own CPython 3.11 where the machine has it
# (built with profile-guided and link-time optimisation, libpython linked in, it runs Kifu 10-20 %
# faster than an --enable-shared build without them, such as pyenv's), else python3 on PATH.
# `make setup PYTHON=...` chooses another (3.11 or later); `make clean` first to remake the venv.
DEBIAN_PYTHON := /usr/bin/python3.11
PYTHON ?= $(shell $(DEBIAN_PYTHON) -c 'import ensurepip, venv' >/dev/null 2>&1 && echo $(DEBIAN_PYTHON) || echo python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test setup clean check lint typecheck

$(STAMP): pyproject.toml tests/secretbid/pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test,check]'
	$(BIN)/pip install --quiet --no-deps -e tests/secretbid   # the test ruleset, a package of its own
	touch $(STAMP)

setup: $(STAMP)

demo: $(STAMP)
	$(BIN)/kifu play worlfard --seed 7 --quiet --out demo.kifu.jsonl
	$(BIN)/kifu replay demo.kifu.jsonl --at 40
	$(BIN)/kifu verify demo.kifu.jsonl
	$(BIN)/kifu audit demo.kifu.jsonl

test: $(STAMP)
	$(BIN)/python -m pytest -n auto -rs   # every test and the replays corpus, on all cores (pytest-xdist); -rs: why any was skipped

# mypy knows no package-dir mapping: it checks the package through a tree of links named as
# installed (build/typecheck/kifu/domain -> domain/, ...).
PARTS := domain projections cli store service tools
typecheck: $(STAMP)
	@mkdir -p build/typecheck/kifu
	@for p in $(PARTS); do ln -sfn ../../../$$p build/typecheck/kifu/$$p; done
	$(BIN)/mypy -p kifu

lint: $(STAMP)
	$(BIN)/ruff check .

check: lint typecheck

clean:
	rm -rf $(VENV) demo.kifu.jsonl kifu.db
