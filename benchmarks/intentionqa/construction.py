"""IntentionQA construction from co-buy intention assertions (IntentionQA paper §3.2–3.4, SPEC §3).

Pure selection logic: the caller supplies product similarities (in shopbench, cosines of sentence embeddings of the
product names, computed in evaluators.pipelines.intentionqa), and this module filters, samples and lays out items:

- typicality filter: assertions with typicality above `min_typicality` (the paper keeps those above 0.5);
- Task 1 (IntentUnderstand): the gold intention is the assertion from "because" on; three distractor intentions are
  drawn at random among other assertions' intentions whose intention similarity to the gold lies in [0.6, 0.9];
- Task 2 (IntentUtilize): the gold is item B; three distractor products are drawn among products whose similarity to
  item B lies in [0.7, 0.9];
- the gold and its distractors are shuffled into letters A–D; difficulty comes from the similarity of the co-bought
  pair (easy >= 0.85, medium >= 0.6, hard otherwise).

Intention similarity (paper §3.3) is the least product similarity over the two products linked to each intention
(`intention_similarity="products"`); `"text"` compares the intentions' own texts instead (the caller passes their
similarities). Candidates that could be right answers are never drawn: an intention of an assertion that shares a
product with the gold pair, or a product co-bought with item A anywhere in the input. Every item's random draws derive
from (seed, item id), so a resumed or partial build gives the same items.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict

from benchmarks.intentionqa.metrics import difficulty_of
from benchmarks.intentionqa.prompts import reason_after_because

MIN_TYPICALITY = 0.5
INTENTION_WINDOW = (0.6, 0.9)
"""Task 1: distractor intentions' similarity to the gold intention (paper §3.4)."""
PRODUCT_WINDOW = (0.7, 0.9)
"""Task 2: distractor products' similarity to the gold product (paper §3.4)."""
DISTRACTORS = 3
LETTERS = ("A", "B", "C", "D")

SimilarityRows = Callable[[int], np.ndarray]
"""Index i → similarities of item i to every item (one row of a similarity matrix)."""
IntentionMode = Literal["products", "text"]


class CoBuyAssertion(BaseModel):
    """One input line: a co-bought pair and the intention assertion about it (FolkScope-style); extra keys kept."""

    model_config = ConfigDict(extra="allow")

    id: str | None = None
    """Stable id of the assertion (default: "A<line>")."""
    item_a_name: str
    item_b_name: str
    assertion: str
    """E.g. "PersonX bought a product of Item A and a product of Item B because they both are ..."."""
    typicality: float | None = None
    relation: str = "all"


def intention_of(assertion: str) -> str:
    """The intention an assertion states: its text from "because" (else "as a result, ") on, as the options hold it."""
    return reason_after_because(assertion)


def normalise(text: str) -> str:
    """Case and spacing folded, for telling equal options apart."""
    return re.sub(r"\s+", " ", text).strip().lower()


def keep_typical(assertions: Sequence[CoBuyAssertion], min_typicality: float = MIN_TYPICALITY) -> list[int]:
    """Indexes of the assertions with typicality above the bound (assertions without one are dropped)."""
    return [i for i, a in enumerate(assertions) if a.typicality is not None and a.typicality > min_typicality]


def matrix_rows(matrix: np.ndarray) -> SimilarityRows:
    """A similarity matrix as a row function."""
    return lambda index: matrix[index]


def in_window(similarities: np.ndarray, window: tuple[float, float]) -> np.ndarray:
    low, high = window
    return (similarities >= low) & (similarities <= high)


def item_rng(seed: int, key: str) -> random.Random:
    digest = hashlib.sha256(f"{seed}:{key}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


@dataclass
class Products:
    """The distinct product names of the input and each assertion's pair as indexes into them."""

    names: list[str]
    pairs: list[tuple[int, int]]
    cobought: dict[int, set[int]] = field(default_factory=dict)
    """Product index → indexes of every product bought with it in some assertion."""

    @classmethod
    def of(cls, assertions: Sequence[CoBuyAssertion]) -> Products:
        index: dict[str, int] = {}
        names: list[str] = []
        pairs = []
        for a in assertions:
            pair = []
            for name in (a.item_a_name, a.item_b_name):
                if name not in index:
                    index[name] = len(names)
                    names.append(name)
                pair.append(index[name])
            pairs.append((pair[0], pair[1]))
        cobought: dict[int, set[int]] = {}
        for first, second in pairs:
            cobought.setdefault(first, set()).add(second)
            cobought.setdefault(second, set()).add(first)
        return cls(names, pairs, cobought)


class BuiltItem(BaseModel):
    """One constructed question in the released item layout (loadable as an IntentionQAItem)."""

    model_config = ConfigDict(extra="allow")

    id: str
    item_a_name: str
    item_b_name: str
    relation: str
    assertion: str
    typicality: float | None
    options: dict[str, str]
    gold_ind: str
    distractors_score: list[float]
    pair_similarity: float
    difficulty: str
    hadFalseNegative: int = 0
    distractors_product: list[str] | None = None
    """Task 2 only (its presence marks the item as Task 2, as in the released files)."""
    distractors_assertion: list[str] | None = None
    """Task 1 only: the distractor intentions."""

    @property
    def qid(self) -> str:
        return f"{'task2' if self.distractors_product is not None else 'task1'}:{self.id}"


@dataclass
class Skipped:
    """An assertion that yielded no item of a task, and why."""

    task: str
    id: str
    reason: str


def assertion_id(assertion: CoBuyAssertion, position: int) -> str:
    return assertion.id or f"A{position + 1}"


def _letters(gold: str, distractors: list[str], scores: list[float], rng: random.Random) -> tuple[dict, str, list]:
    order = [(gold, None), *zip(distractors, scores, strict=True)]
    rng.shuffle(order)
    options = {letter: text for letter, (text, _) in zip(LETTERS, order, strict=False)}
    gold_letter = next(letter for letter, (_, score) in zip(LETTERS, order, strict=False) if score is None)
    return options, gold_letter, [float(score) for _, score in order if score is not None]


def _draw(candidates: Iterable[tuple[str, float]], gold: str, rng: random.Random) -> list[tuple[str, float]]:
    """Three distinct texts, none equal to the gold, drawn uniformly from the candidates."""
    seen = {normalise(gold)}
    unique = []
    for text, score in candidates:
        key = normalise(text)
        if key not in seen:
            seen.add(key)
            unique.append((text, score))
    return rng.sample(unique, DISTRACTORS) if len(unique) >= DISTRACTORS else []


def _base(assertion: CoBuyAssertion, item_id: str, pair_similarity: float) -> dict[str, Any]:
    extra = {k: v for k, v in (assertion.model_extra or {}).items()
             if k not in BuiltItem.model_fields and not k.startswith("distractors")}
    return {**extra, "id": item_id, "item_a_name": assertion.item_a_name, "item_b_name": assertion.item_b_name,
            "relation": assertion.relation, "assertion": assertion.assertion, "typicality": assertion.typicality,
            "pair_similarity": round(pair_similarity, 6), "difficulty": difficulty_of(pair_similarity)}


def intention_similarity_rows(products: Products, product_rows: SimilarityRows, pool: Sequence[int]) -> SimilarityRows:
    """Paper §3.3: Sim_i(i1, i2) = the least Sim_p over one product linked to i1 and one linked to i2, for each
    assertion in `pool` (rows are indexed by assertion and hold one value per pool entry)."""
    firsts = np.array([products.pairs[j][0] for j in pool], dtype=np.int64)
    seconds = np.array([products.pairs[j][1] for j in pool], dtype=np.int64)

    def row(index: int) -> np.ndarray:
        a, b = products.pairs[index]
        row_a, row_b = product_rows(a), product_rows(b)
        return np.minimum.reduce([row_a[firsts], row_a[seconds], row_b[firsts], row_b[seconds]])

    return row


def build_task1(assertions: Sequence[CoBuyAssertion], products: Products, product_rows: SimilarityRows,
                keep: Sequence[int], *, seed: int = 0, intention_rows: SimilarityRows | None = None,
                window: tuple[float, float] = INTENTION_WINDOW, only: Iterable[int] | None = None,
                ) -> Iterable[BuiltItem | Skipped]:
    """Task 1 items for the kept assertions (or the `only` subset of them), in input order.

    `intention_rows` gives text similarities between the kept assertions' intentions (indexed by position in `keep`);
    without it the paper's product-based intention similarity is used.
    """
    rows = intention_rows or intention_similarity_rows(products, product_rows, keep)
    intentions = [intention_of(assertions[j].assertion) for j in keep]
    position_of = {j: p for p, j in enumerate(keep)}
    for j in (keep if only is None else only):
        assertion = assertions[j]
        item_id = assertion_id(assertion, j)
        a, b = products.pairs[j]
        gold = intention_of(assertion.assertion)
        row = rows(position_of[j] if intention_rows is not None else j)
        mask = in_window(row, window)
        pair = {a, b}
        candidates = [(intentions[p], float(row[p])) for p in np.flatnonzero(mask)
                      if not pair & set(products.pairs[keep[int(p)]])]
        drawn = _draw(candidates, gold, item_rng(seed, f"task1:{item_id}"))
        if not drawn:
            yield Skipped("task1", item_id, f"fewer than {DISTRACTORS} distractor intentions in {list(window)}")
            continue
        rng = item_rng(seed, f"task1-letters:{item_id}")
        options, gold_letter, scores = _letters(gold, [t for t, _ in drawn], [s for _, s in drawn], rng)
        yield BuiltItem(**_base(assertion, item_id, float(product_rows(a)[b])), options=options, gold_ind=gold_letter,
                        distractors_score=scores, distractors_assertion=[options[k] for k in options
                                                                         if k != gold_letter])


def build_task2(assertions: Sequence[CoBuyAssertion], products: Products, product_rows: SimilarityRows,
                keep: Sequence[int], *, seed: int = 0, window: tuple[float, float] = PRODUCT_WINDOW,
                only: Iterable[int] | None = None) -> Iterable[BuiltItem | Skipped]:
    """Task 2 items: item B is masked and is the gold; distractors are products similar to it within the window."""
    for j in (keep if only is None else only):
        assertion = assertions[j]
        item_id = assertion_id(assertion, j)
        a, b = products.pairs[j]
        row = product_rows(b)
        excluded = {a, b} | products.cobought.get(a, set())
        candidates = [(products.names[p], float(row[p])) for p in np.flatnonzero(in_window(row, window))
                      if p not in excluded]
        drawn = _draw(candidates, assertion.item_b_name, item_rng(seed, f"task2:{item_id}"))
        if not drawn:
            yield Skipped("task2", item_id, f"fewer than {DISTRACTORS} distractor products in {list(window)}")
            continue
        rng = item_rng(seed, f"task2-letters:{item_id}")
        options, gold_letter, scores = _letters(assertion.item_b_name, [t for t, _ in drawn], [s for _, s in drawn],
                                                rng)
        yield BuiltItem(**_base(assertion, item_id, float(row[a])), options=options, gold_ind=gold_letter,
                        distractors_score=scores,
                        distractors_product=[options[k] for k in options if k != gold_letter])


def assertions_from_released(records: Iterable[dict[str, Any]]) -> list[CoBuyAssertion]:
    """Co-buy assertions recovered from released IntentionQA items (either task): one per distinct assertion id,
    with the released question fields dropped."""
    seen: dict[str, CoBuyAssertion] = {}
    for record in records:
        key = str(record["id"])
        if key not in seen:
            seen[key] = CoBuyAssertion(id=key, item_a_name=record["item_a_name"], item_b_name=record["item_b_name"],
                                       assertion=record["assertion"], typicality=record.get("typicality"),
                                       relation=record.get("relation", "all"))
    return list(seen.values())
