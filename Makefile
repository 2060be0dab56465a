# The commands CI and the README use. `make demo`: set up and run a legacy Paddle example end to end;
# `make test`: set up and run the test suite. `make lint` (ruff and the import-linter contracts) runs in CI too.
#
# Where the packages go: inside an active virtual environment (VIRTUAL_ENV / CONDA_PREFIX set) they are
# installed there; otherwise into `.venv` in this checkout, which `setup` creates. A distribution's Python
# (Debian / Ubuntu, PEP 668) refuses `pip install` outside a virtual environment, so we never install into it.
PYTHON ?= python3
VENV ?= .venv

ifeq ($(strip $(VIRTUAL_ENV)$(CONDA_PREFIX)),)
PY := $(VENV)/bin/python
NEED_VENV := $(PY)
else
PY := python
NEED_VENV :=
endif
PIP_INSTALL = $(PY) -m pip install -q --disable-pip-version-check
STAMP := $(if $(NEED_VENV),$(VENV)/.paddle_compat_installed,.paddle_compat_installed)

.PHONY: setup demo test bench lint coverage

# The venv: with pip where the Python has ensurepip; a Debian Python without python3-venv gets a bare venv
# whose pip is installed by the system pip (`pip --python`, pip >= 22.3).
$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV) || { rm -rf $(VENV) && $(PYTHON) -m venv --without-pip $(VENV) \
	  && $(PYTHON) -m pip --python $(VENV)/bin/python install -q pip; }

# Pillow and OpenCV (the `vision` extra) are installed too, pinned to the versions the goldens were recorded with,
# so the suite checks paddle.vision.transforms pixel for pixel (without them 188 of its 272 parity cases skip).
$(STAMP): pyproject.toml | $(NEED_VENV)
	$(PIP_INSTALL) "torch==2.13.0" numpy typing-extensions pytest "pillow==13.0.0" "opencv-python-headless==5.0.0.93"
	$(PIP_INSTALL) --no-deps -e .
	touch $@

# Bytecode for what changed (also where PYTHONDONTWRITEBYTECODE is set): `import paddle` then costs ~0.15 s over torch.
# The optional native view ops (engine/core/native): built with torch's cpp_extension flags where a C++ compiler is
# found; otherwise one line says the pure-Python path is used, and setup goes on (tools/build_native.py).
setup: $(STAMP)
	$(PY) -m compileall -q paddle_compat shims
	$(PY) tools/build_native.py

demo: setup
	$(PY) examples/fit_a_line_fluid.py

test: setup
	$(PY) -m pytest -q

bench: setup
	$(PY) bench/run_all.py

coverage: setup
	$(PY) tools/gen_coverage.py

# ruff, then the layer rule and the no-cycle rule of pyproject.toml's import-linter contracts (README, Architecture).
LINT_TOOLS := "ruff==0.17.6" "import-linter==2.17"
lint: setup
	$(PY) -c "import ruff, importlinter" 2>/dev/null || $(PIP_INSTALL) $(LINT_TOOLS)
	$(PY) -m ruff check paddle_compat tests tools bench
	$(PY) -c "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"
