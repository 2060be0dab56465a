# The commands CI and the README use. `make demo`: set up and run a legacy Paddle example end to end;
# `make test`: set up and run the test suite.
PYTHON ?= python3
PIP_INSTALL = $(PYTHON) -m pip install -q --disable-pip-version-check

.PHONY: setup demo test bench lint coverage

setup:
	$(PIP_INSTALL) "torch==2.13.0" numpy typing-extensions pytest
	$(PIP_INSTALL) --no-deps -e .

demo: setup
	$(PYTHON) examples/fit_a_line_fluid.py

test: setup
	$(PYTHON) -m pytest -q

bench: setup
	$(PYTHON) bench/run_all.py

coverage: setup
	$(PYTHON) tools/gen_coverage.py

lint:
	$(PYTHON) -m ruff check paddle_compat tests tools bench
