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

.PHONY: demo test install install-test lint perf clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	# torch first, so nothing pulls a CUDA build
	$(PIP) install --quiet torch==2.13.0
	$(PIP) install --quiet -e ".[test]"
	touch $@

install: $(VENV)/.installed

demo: install
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
