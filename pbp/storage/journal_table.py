"""A game file's tables as pbp reads and changes them (docs/design.md: Storage).

`GameTable` is what every table of a game file offers, its document's (TinyDB's own
`Table`) and its journal's (`JournalTable`), and all pbp asks of the document's. A journaled
table adds the lookups that only a table kept in memory with its indexes makes cheap:
`briefs` (rows without their texts), `where` and `count_where` (by a looked-up field,
pbp.storage.journal.LOOKUPS), and the read-only scans `each` and `rows_after`.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator, Mapping, Protocol

from tinydb.table import Document

from pbp.storage.journal import TEXT_AT, Op, Rows


class GameTable(Protocol):
    """The lookups and changes a game file's tables share: rows come back as TinyDB
    `Document`s (with `doc_id`); a query is a TinyDB query or any callable taking a row."""

    def insert(self, document: Mapping[str, Any]) -> int: ...

    def update(
        self,
        fields: Mapping[str, Any],
        cond: Callable[[Mapping[str, Any]], bool] | None = None,
        doc_ids: list[int] | None = None,
    ) -> list[int]: ...

    def all(self) -> list[Document]: ...

    def search(self, cond: Callable[[Mapping[str, Any]], Any]) -> list[Document]: ...

    def __len__(self) -> int: ...


def _brief(row: Mapping[str, Any], doc_id: int) -> Document:
    """A row as a document without its text fields (where its text is stays out). Copied
    whole, then the one key dropped: a copy made by a filtering loop cost twice as much,
    and a judged mail asks for some five rows."""
    brief = Document(row, doc_id)
    brief.pop(TEXT_AT, None)
    return brief


class JournalTable(GameTable):
    """One journaled table: a `GameTable` with the journal's own lookups (the module
    docstring). Changes go through the game's storage, inside its transaction."""

    def __init__(
        self,
        name: str,
        rows: Callable[[], Rows],
        change: Callable[[Op], None],
        whole: Callable[[dict[str, Any]], dict[str, Any]],
    ):
        self.name = name
        self._rows = rows
        self._change = change
        self._whole = whole

    def _table(self) -> dict[int, dict[str, Any]]:
        return self._rows().get(self.name, {})

    def _document(self, row: dict[str, Any], doc_id: int) -> Document:
        return Document(self._whole(row), doc_id)

    def briefs(self, cond: Callable[[Mapping[str, Any]], Any] | None = None) -> list[Document]:
        """Like `search` (or `all`), without the text fields: what a scan of the whole
        table needs, at no cost for the texts. Queries see only these fields, whatever
        the method."""
        return [
            _brief(row, doc_id)
            for doc_id, row in self._table().items()
            if cond is None or cond(row)
        ]

    def insert(self, document: Mapping[str, Any]) -> int:
        doc_id = next(reversed(self._table()), 0) + 1  # ids only grow, in the order rows came
        self._change(["i", self.name, doc_id, dict(document)])
        return doc_id

    def update(
        self,
        fields: Mapping[str, Any],
        cond: Callable[[Mapping[str, Any]], bool] | None = None,
        doc_ids: list[int] | None = None,
    ) -> list[int]:
        table = self._table()
        if doc_ids is not None:
            ids = [doc_id for doc_id in doc_ids if doc_id in table]
        else:
            ids = [doc_id for doc_id, row in table.items() if cond is None or cond(row)]
        if ids:
            self._change(["u", self.name, ids, dict(fields)])
        return ids

    def where(
        self,
        field: str,
        value: Any,
        cond: Callable[[Mapping[str, Any]], Any] | None = None,
        also: tuple[str, Any] | None = None,
    ) -> list[Document]:
        """Like `briefs(lambda row: row[field] == value and cond(row))`, in the order the rows
        came, for a field the table is looked up by (LOOKUPS): at the cost of the rows found.
        `also` is a second (field, value) the rows must have, looked up the same way."""
        table, rows = self._table(), self._rows()
        ids = rows.ids_where(self.name, field, value)
        if also is not None:
            ids = ids & rows.ids_where(self.name, *also)
        found = []
        for doc_id in sorted(ids):
            row = table[doc_id]
            if cond is None or cond(row):
                found.append(_brief(row, doc_id))
        return found

    def count_where(self, field: str, value: Any, cond: Callable[[Mapping[str, Any]], Any]) -> int:
        """How many rows `where(field, value, cond)` would give, at the cost of the rows
        holding `value`, none of them copied."""
        table = self._table()
        return sum(
            1 for doc_id in self._rows().ids_where(self.name, field, value) if cond(table[doc_id])
        )

    def rows_after(self, doc_id: int) -> tuple[Rows, list[Mapping[str, Any]]]:
        """The journal's tables as this storage holds them (the same object while they are
        handed from writer to writer, pbp.storage.game_storage) and this table's rows inserted after
        `doc_id`, oldest first, as stored: for an index kept beside the journal that only
        reads (the mail ledger's). The rows must not be changed."""
        rows = self._rows()
        table = rows.get(self.name, {})
        newer: list[Mapping[str, Any]] = []
        for later in reversed(table):
            if later <= doc_id:
                break
            newer.append(table[later])
        newer.reverse()
        return rows, newer

    def each(self) -> Iterator[Mapping[str, Any]]:
        """Every row as stored, without its text fields, made into no document: for a scan
        that only reads (the mail ledger's index). The rows must not be changed."""
        return iter(self._table().values())

    def get(
        self, cond: Callable[[Mapping[str, Any]], bool] | None = None, doc_id: int | None = None
    ) -> Document | None:
        table = self._table()
        if doc_id is not None:
            row = table.get(doc_id)
            return self._document(row, doc_id) if row is not None else None
        for found, row in table.items():
            if cond is None or cond(row):
                return self._document(row, found)
        return None

    def all(self) -> list[Document]:
        return [self._document(row, doc_id) for doc_id, row in self._table().items()]

    def search(self, cond: Callable[[Mapping[str, Any]], Any]) -> list[Document]:
        return [self._document(row, doc_id) for doc_id, row in self._table().items() if cond(row)]

    def __len__(self) -> int:
        return len(self._table())

    def __iter__(self) -> Iterator[Document]:
        return iter(self.all())
