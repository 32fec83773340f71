# Two entry points a new user needs: `make demo` (a match played and replayed) and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test setup clean

$(STAMP): pyproject.toml tests/secretbid/pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	$(BIN)/pip install --quiet --no-deps -e tests/secretbid   # the test ruleset, a package of its own
	touch $(STAMP)

setup: $(STAMP)

demo: $(STAMP)
	$(BIN)/kifu play worlfard --seed 7 --quiet --out demo.kifu.jsonl
	$(BIN)/kifu replay demo.kifu.jsonl --at 40
	$(BIN)/kifu verify demo.kifu.jsonl
	$(BIN)/kifu audit demo.kifu.jsonl

test: $(STAMP)
	$(BIN)/python -m pytest -n auto   # every test and the replays corpus, on all cores (pytest-xdist)

clean:
	rm -rf $(VENV) demo.kifu.jsonl kifu.db
