# Two commands do all setup on a fresh clone:
#   make run    check every scenario, then build and serve the rulings website on localhost:8000
#   make test   run the whole test suite, browser tests included (what CI runs)
#   make mutation  mutate every game's rules modules and report what the golden scenarios kill (long)
# The Python environment lives in .venv/, the front-end packages in node_modules/ (from the npm
# registry), and the browser tests use Debian's chromium and chromium-driver.
.DEFAULT_GOAL := run
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
NODE_STAMP := node_modules/.installed
MUTATION_STAMP := $(VENV)/.mutation-installed
MUTATION_WORKERS ?= 2
CHROMIUM := /usr/bin/chromium
AS_ROOT := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
export NO_MKDOCS_2_WARNING := 1

$(STAMP): pyproject.toml requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -c requirements.lock -e '.[test]'
	touch $(STAMP)

$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $(NODE_STAMP)

$(CHROMIUM):
	$(AS_ROOT) apt-get update -qq
	$(AS_ROOT) apt-get install -y -qq chromium chromium-driver

$(MUTATION_STAMP): $(STAMP)
	$(BIN)/pip install --quiet --disable-pip-version-check -c requirements.lock -e '.[test,mutation]'
	touch $(MUTATION_STAMP)

.PHONY: run site test mutation schema clean
run: $(STAMP) $(NODE_STAMP)
	-$(BIN)/checker check scenarios
	$(BIN)/mkdocs serve --strict --dirty

site: $(STAMP) $(NODE_STAMP)
	$(BIN)/mkdocs build --strict

test: $(STAMP) $(NODE_STAMP) $(CHROMIUM)
	$(BIN)/pytest -n 2

# Not part of `test`: an hour or more on two cores. Writes mutation/REPORT.md; exit 1 below the goal.
mutation: $(MUTATION_STAMP)
	$(BIN)/python tools/mutation_report.py --workers $(MUTATION_WORKERS)

schema: $(STAMP)
	$(BIN)/checker schema

clean:
	rm -rf $(VENV) node_modules site build *.egg-info .pytest_cache mutation/REPORT.md mutation/logs
