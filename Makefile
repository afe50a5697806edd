# Two entry points: `make demo` (the main job on embedded defaults) and `make test` (the whole suite).
PYTHON ?= python3
VENV := .venv
# llama-cpp-python compiles llama.cpp from source: use every core.
export CMAKE_BUILD_PARALLEL_LEVEL ?= $(shell nproc)
# Model hubs are never reached at run time.
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
PY := $(VENV)/bin/python
PIP := $(PY) -m pip

.PHONY: demo test install lint perf clean chromium

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	# torch first, so nothing pulls a CUDA build
	$(PIP) install --quiet torch==2.13.0
	$(PIP) install --quiet -e ".[test]"
	# verifiers pins mcp<2 for a part shopbench does not use: its dependencies come with the extra (pyproject.toml)
	$(PIP) install --quiet --no-deps verifiers==0.3.1
	touch $@

install: $(VENV)/.installed chromium

# The report tests open report.html in headless Chromium: Debian's package, installed once (as root, else with sudo).
CHROMIUM_MISSING := error: the tests need Debian's chromium (/usr/bin/chromium); install it as root with: apt-get install chromium
chromium:
	@if [ -x /usr/bin/chromium ]; then :; \
	elif [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq chromium || { echo "$(CHROMIUM_MISSING)" >&2; exit 1; }; \
	elif command -v sudo >/dev/null 2>&1; then sudo apt-get update -qq && sudo apt-get install -y -qq chromium || { echo "$(CHROMIUM_MISSING)" >&2; exit 1; }; \
	else echo "$(CHROMIUM_MISSING)" >&2; exit 1; fi

demo: $(VENV)/.installed
	$(VENV)/bin/shopbench demo

test: install
	$(PY) -m ruff check .
	$(PY) -m mypy
	$(PY) -m pytest -q

lint: install
	$(PY) -m ruff check .
	$(PY) -m mypy

perf: install
	for f in perf/bench_*.py; do $(PY) $$f || exit 1; done

clean:
	rm -rf $(VENV) .shopbench-cache
