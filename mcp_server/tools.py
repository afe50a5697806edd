"""Kept for code written against the old path: the sandbox tools moved to mcp_server.shopping.tools (issue 28)."""

from mcp_server.shopping.tools import SHOPPING_TOOLS, Sandbox, ToolCallError

__all__ = ["SHOPPING_TOOLS", "Sandbox", "ToolCallError"]
