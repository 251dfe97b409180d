# Two commands on a fresh machine: `make run` (the main job) and `make test` (everything CI runs).
# `make run PORT=5001` listens on another port; `make run ARGS='--open-registration'` passes
# any other `icswire serve` option (`icswire serve --help` lists them). With stockfish
# installed (in PATH or /usr/games) the server runs computer opponents
# (`--computer stockfish`); `make run COMPUTER=` runs none, `COMPUTER='--computer sjeng'` others.
# The web client and WebSocket sessions are on WS_PORT (http://127.0.0.1:5080/); `make run
# WS_PORT=0` turns them off.
PYTHON ?= python3
PORT ?= 5000
WS_PORT ?= 5080
WEB := $(if $(filter-out 0,$(strip $(WS_PORT))),--ws-port $(strip $(WS_PORT)))
ARGS ?=
STOCKFISH := $(or $(shell command -v stockfish 2>/dev/null),$(wildcard /usr/games/stockfish))
COMPUTER ?= $(if $(STOCKFISH),--computer stockfish)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck unit bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
ifneq ($(strip $(COMPUTER)),)
	@echo "computer opponents: icswire serve $(strip $(COMPUTER)) ('sought' lists their seeks, 'play N' takes one)"
else ifeq ($(STOCKFISH),)
	@echo "no chess engine found, so no computer opponents: apt install stockfish (or make run COMPUTER='--computer PATH')"
endif
ifneq ($(WEB),)
	@echo "open http://127.0.0.1:$(strip $(WS_PORT))/ in a browser to play (telnet 127.0.0.1 $(strip $(PORT)) for the terminal)"
endif
	$(BIN)/icswire serve $(strip --port $(PORT) $(WEB) $(COMPUTER) $(ARGS))

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

typecheck: $(STAMP)
	$(BIN)/mypy --strict src/icswire

# -rs: each skipped test's reason (a suite whose service or program is not here; README,
# "What the tests need").
unit: $(STAMP)
	$(BIN)/pytest -rs

test: lint typecheck unit

bench: $(STAMP)
	$(BIN)/python bench/decode.py
	$(BIN)/python bench/startup.py
	$(BIN)/python bench/pgn.py
	$(BIN)/python bench/fanout.py
	$(BIN)/python bench/logins.py
	$(BIN)/python bench/memory.py
	$(BIN)/python bench/games.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
