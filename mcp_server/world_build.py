"""Kept for code written against the old path: building worlds moved to mcp_server.shopping.world_build (issue 28)."""

from mcp_server.shopping.world_build import WorldNotBuilt, default_world, generate_world, import_world

__all__ = ["WorldNotBuilt", "default_world", "generate_world", "import_world"]
