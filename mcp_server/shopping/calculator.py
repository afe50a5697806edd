"""Safe arithmetic for the `calculate` tool.

Agents send arbitrary text, so the expression is parsed with `ast` and walked over a whitelist of nodes (numbers,
+ - * / // % **, unary signs, parentheses); anything else — names, calls, attributes, strings — is refused with a
message the agent can act on. Nothing is ever passed to `eval`.
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable

MAX_EXPRESSION_CHARS = 1000
MAX_EXPONENT = 1000
"""Larger exponents are refused before computing: money arithmetic never needs them and they can stall a server."""

ALLOWED_SYNTAX = "numbers, + - * / // % ** and parentheses"
NESTED_TOO_DEEPLY = "expression nested too deeply; write it flatter (fewer nested parentheses and signs)"

_BINARY: dict[type[ast.operator], Callable[[float, float], float]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: math.pow,
}
_UNARY: dict[type[ast.unaryop], Callable[[float], float]] = {ast.UAdd: operator.pos, ast.USub: operator.neg}


class CalculationError(ValueError):
    """An expression that cannot be evaluated; the message is meant for the agent."""


def evaluate(expression: str) -> float | int:
    """The value of an arithmetic expression, rounded to 10 decimals (so 0.1 + 0.2 reads 0.3); whole numbers as int."""
    if not isinstance(expression, str) or not expression.strip():
        raise CalculationError(f"expression is empty; write an arithmetic expression using {ALLOWED_SYNTAX}")
    if len(expression) > MAX_EXPRESSION_CHARS:
        raise CalculationError(f"expression is longer than {MAX_EXPRESSION_CHARS} characters")
    try:
        tree = ast.parse(expression.strip(), mode="eval")
    except (RecursionError, MemoryError):
        raise CalculationError(NESTED_TOO_DEEPLY) from None
    except (SyntaxError, ValueError) as error:
        if "too many nested" in str(error) or "too complex" in str(error):
            raise CalculationError(NESTED_TOO_DEEPLY) from None
        raise CalculationError(f"cannot parse {_shown(expression)}; use only {ALLOWED_SYNTAX}") from None
    try:
        value = _walk(tree.body)
    except CalculationError:
        raise
    except ZeroDivisionError:
        raise CalculationError("division by zero") from None
    except RecursionError:
        raise CalculationError(NESTED_TOO_DEEPLY) from None
    except OverflowError:
        raise CalculationError("the result is too large") from None
    except ValueError:
        raise CalculationError("the result is undefined") from None
    if not math.isfinite(value):
        raise CalculationError("the result is not a finite number")
    rounded = round(value, 10)
    return int(rounded) if rounded.is_integer() and abs(rounded) < 2**53 else rounded


def _walk(node: ast.AST) -> float:
    if isinstance(node, ast.Constant):
        if isinstance(node.value, bool) or not isinstance(node.value, int | float):
            raise CalculationError(f"{node.value!r} is not a number; use only {ALLOWED_SYNTAX}")
        if not math.isfinite(node.value):  # a literal like 1e999 reads as infinity; 1 / 1e999 would then give 0
            raise CalculationError("a number in the expression is too large (it reads as infinity)")
        return float(node.value)
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return _UNARY[type(node.op)](_walk(node.operand))
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _walk(node.left), _walk(node.right)
        if isinstance(node.op, ast.Pow) and abs(right) > MAX_EXPONENT:
            raise CalculationError(f"exponent {right:g} is too large (at most {MAX_EXPONENT})")
        if isinstance(node.op, ast.Pow) and left == 0 and right < 0:
            raise ZeroDivisionError
        if isinstance(node.op, ast.Pow) and left < 0 and not right.is_integer():
            raise CalculationError("a negative number cannot be raised to a fractional power")
        return _BINARY[type(node.op)](left, right)
    raise CalculationError(f"{_describe(node)} is not allowed; use only {ALLOWED_SYNTAX}")


def _describe(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return f"the name {node.id!r}"
    if isinstance(node, ast.Call):
        return "a function call"
    if isinstance(node, ast.Attribute):
        return "an attribute"
    return f"{type(node).__name__.lower()} syntax"


def _shown(expression: str, limit: int = 60) -> str:
    return repr(expression) if len(expression) <= limit else f"{expression[:limit]!r}… ({len(expression)} characters)"
