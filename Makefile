# Two commands do all setup on a fresh clone (the environment is .venv/, made on first use):
#   make run    check every scenario and print the report
#   make test   run the whole test suite
.DEFAULT_GOAL := run
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

$(STAMP): pyproject.toml requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -c requirements.lock -e '.[test]'
	touch $(STAMP)

.PHONY: run test schema clean
run: $(STAMP)
	$(BIN)/checker check scenarios

test: $(STAMP)
	$(BIN)/pytest -n 2

schema: $(STAMP)
	$(BIN)/checker schema

clean:
	rm -rf $(VENV) site build *.egg-info .pytest_cache
