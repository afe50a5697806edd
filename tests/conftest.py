"""Shared fixtures: offline model hubs, a per-checkout cache home, and the default world built once per session."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

# Nothing may be fetched from a model hub; the cache home keeps built worlds and indexes between test sessions.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("SHOPBENCH_HOME", str(REPO / ".shopbench-cache"))


@pytest.fixture(scope="session")
def default_world():
    """The default world (5,000 products, seed 0), generated and indexed on first use, then reused."""
    from mcp_server.shopping.world_build import default_world as build_default_world

    return build_default_world()
