"""Kept for code written against the old path: the world moved to mcp_server.shopping.world (issue 28)."""

from mcp_server.shopping.world import GENERATED_SET, World, WorldInfo

__all__ = ["GENERATED_SET", "World", "WorldInfo"]
