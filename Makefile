# The two commands of the README: `make run` and `make test`.
# Both create .venv in the checkout and install everything they need.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The bots' search core, compiled by mypyc when the package is installed (setup.py).
CORE := $(shell sed -n 's|^    "\(src/doublesix/bots/.*\.py\)",$$|\1|p' setup.py)
COMPILED := $(VENV)/.compiled

.PHONY: run play test lint typecheck install bench chromium screenshots

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP) $(COMPILED)

# OpenSpiel and PettingZoo (`pip install doublesix[research]`): their tests run in `make test`.
# The extra's requirements are installed by name, as pyproject.toml lists them: installing
# '.[research]' would build the package, and compile its core, a second time.
RESEARCH := $(VENV)/.research
$(RESEARCH): $(STAMP)
	$(BIN)/python -c "import tomllib; project = tomllib.load(open('pyproject.toml', 'rb'))['project']; \
		print(*project['optional-dependencies']['research'], sep='\n')" > $(VENV)/research.txt
	$(BIN)/python -m pip install --quiet -r $(VENV)/research.txt
	touch $(RESEARCH)

# An edit to the core recompiles it: the compiled modules are imported before the sources.
$(COMPILED): $(STAMP) setup.py $(CORE) $(wildcard src/doublesix/bots/c/*)
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $(COMPILED)

install: $(STAMP) $(COMPILED)

run: $(STAMP) $(COMPILED)  # the lobby at http://127.0.0.1:8000, games kept in doublesix.sqlite3
	$(BIN)/doublesix serve --host 127.0.0.1 --port 8000

play: $(STAMP) $(COMPILED)  # a game in the terminal against bots
	$(BIN)/doublesix play --preset kozel

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks tools setup.py
	$(BIN)/ruff format --check src tests benchmarks tools setup.py

typecheck: $(RESEARCH)
	$(BIN)/mypy

# The browser tests drive Debian's Chromium (never `playwright install`).
chromium:
	@sh tools/chromium.sh

test: lint typecheck chromium $(RESEARCH) $(COMPILED)
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	$(BIN)/python benchmarks/compare_dominoes.py

screenshots: $(STAMP) chromium  # the README's pictures in docs/, taken by the browser tests
	DOUBLESIX_SCREENSHOTS=docs $(BIN)/pytest tests/browser/test_browser_kozel.py tests/browser/test_browser_phone.py tests/browser/test_browser_chat.py tests/browser/test_browser_lobby_challenge.py tests/browser/test_browser_players.py tests/browser/test_browser_ratings.py tests/browser/test_browser_seeks.py tests/browser/test_browser_seat_menu.py tests/browser/test_browser_operator.py tests/browser/test_browser_messages.py tests/browser/test_browser_notices.py tests/browser/test_browser_tournament.py tests/browser/test_browser_languages.py
