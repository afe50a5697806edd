"""Read-only tables as rich renderables: one Static instead of a DataTable keeps screens quick to open (a DataTable
is a widget tree of its own, styled and laid out separately), and read-only data needs no cursor."""

from __future__ import annotations

from collections.abc import Iterable

from rich.table import Table


def grid(headers: Iterable[str], rows: Iterable[Iterable[str]]) -> Table:
    table = Table(box=None, pad_edge=False, show_edge=False, header_style="bold", padding=(0, 2, 0, 0))
    for header in headers:
        table.add_column(header, overflow="fold")
    for row in rows:
        table.add_row(*row)
    return table
