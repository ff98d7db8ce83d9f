# Two commands do all setup on a fresh clone:
#   make run    check every scenario, then build and serve the rulings website on localhost:8000
#   make test   run the whole test suite, browser tests included (what CI runs)
# The Python environment lives in .venv/, the front-end packages in node_modules/ (from the npm
# registry), and the browser tests use Debian's chromium and chromium-driver.
.DEFAULT_GOAL := run
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
NODE_STAMP := node_modules/.installed
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

.PHONY: run site test schema clean
run: $(STAMP) $(NODE_STAMP)
	-$(BIN)/checker check scenarios
	$(BIN)/mkdocs serve --strict

site: $(STAMP) $(NODE_STAMP)
	$(BIN)/mkdocs build --strict

test: $(STAMP) $(NODE_STAMP) $(CHROMIUM)
	$(BIN)/pytest -n 2

schema: $(STAMP)
	$(BIN)/checker schema

clean:
	rm -rf $(VENV) node_modules site build *.egg-info .pytest_cache
