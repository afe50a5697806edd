"""SessionIntentBench intention trees (paper §4.1–4.3, prompts of its appendix A.1–A.2): the pure part.

A browsing session P_1..P_T becomes a tree of intentions. Each product's attributes are extracted first (A.1: a
category and "attribute: value" pairs). Then, step by step, the model is shown one previous intention (the parent
node), the products seen so far and the new product, and writes `branching(t)` new intentions for product t, each with
the valued attribute A_t, a rationale and a comparison C_t with the previous product (A.2). The paper branches five
ways per step until the fifth product and one way from then on, so the tree does not grow exponentially.

Task instances are sampled over trajectories (root-to-leaf paths) of the tree, one of the four tasks each, in the
benchmark's item schema; every instance names the tree nodes it was built from. Model calls are made elsewhere
(evaluators.pipelines.session_intent); this module writes prompts, parses answers and keeps the tree.
"""

from __future__ import annotations

import hashlib
import random
import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from benchmarks.session_intent.schema import LETTERS, SessionIntentItem, SessionProduct

BRANCHING = 5
SINGLE_FROM_STEP = 5
"""From the fifth product on, one intention per step (paper §4.2)."""
TREE_VERSION = 1


def branching(step: int) -> int:
    """How many intentions the model writes for product `step` (1-based) from one parent."""
    return BRANCHING if step < SINGLE_FROM_STEP else 1


# --- input sessions --------------------------------------------------------------------------------------------------

class SessionInputProduct(BaseModel):
    """A product of an input session: a title and any metadata (price, colour, ...); a bare string is a title."""

    model_config = ConfigDict(extra="allow")

    title: str = Field(min_length=1)

    @model_validator(mode="before")
    @classmethod
    def _title_from_string_or_name(cls, value: Any) -> Any:
        if isinstance(value, str):
            return {"title": value}
        if isinstance(value, dict) and "title" not in value and "name" in value:
            return {**value, "title": value["name"]}
        return value

    def details(self) -> str:
        """The metadata besides the title, as "key: value" pairs."""
        pairs = []
        for key, value in (self.model_extra or {}).items():
            if key in ("name", "product_id", "id") or value in (None, "", [], {}):
                continue
            if isinstance(value, dict):
                value = ", ".join(f"{k}: {v}" for k, v in value.items())
            elif isinstance(value, list):
                value = ", ".join(map(str, value))
            pairs.append(f"{key}: {value}")
        return "; ".join(pairs)


class BrowsingSession(BaseModel):
    """One input line: `{"session_id": ..., "products": [...]}` in viewing order."""

    session_id: str
    products: list[SessionInputProduct] = Field(min_length=2)


# --- A.1 attribute extraction -----------------------------------------------------------------------------------------

ATTRIBUTE_PROMPT = """Your goal is to extract the attribute type and attribute values of the product.
You will be provided with the product names and their corresponding product images, and you will output for the product:
Category: general category name of the product. Keep the category name simple and within 3 words.
Attributes: attribute(s) of the product. You can infer new ones from the image. Keep the attribute simple and within 3 words each. Separate different attributes by |. Generate in the format of attribute: value
Below are three examples:
Input:
Product Name: Adidas Ultraboost 21 Women's Running Shoes on sale, White/Pink special, Size 8 only, best for daily runs!
Output:
Category: Clothing
Attributes: brand: Adidas | model: Ultraboost 21 | gender: Women's | type: Running Shoes | color: White/Pink | size: 8
Input:
Product Name: Lightweight and powerful Dell XPS 13 Laptop, with newly released Intel i7, 16GB RAM, enhanced 512GB SSD, Silver version
Output:
Category: Electronics
Attributes: brand: Dell | model: XPS 13 | processor: Intel i7 | RAM: 16GB | storage: 512GB | color: Silver
Input:
Product Name: baking enthusiasts' good friend - KitchenAid Artisan Series 5-Quart Stand Mixer, Empire Red
Output:
Category: Kitchen Appliance
Attributes: brand: KitchenAid | model: Artisan Series | capacity: 5-Quart | type: Stand Mixer | color: Empire Red
Input:
{input}
Output:
"""  # noqa: E501 - the paper's prompt, verbatim lines
"""Appendix A.1 (3-shot). shopbench has no product images: the input is the name plus any metadata the session has."""


def attribute_prompt(product: SessionInputProduct) -> str:
    text = f"Product Name: {product.title}"
    if details := product.details():
        text += f"\nProduct Details: {details}"
    return ATTRIBUTE_PROMPT.format(input=text)


def _clean(line: str) -> str:
    return re.sub(r"^[\s>*#\-•\d.)]*", "", line).replace("**", "").strip()


def parse_attributes(text: str) -> tuple[str | None, dict[str, str]]:
    """(category, {attribute: value}) from an A.1 answer; missing parts are None / empty."""
    category: str | None = None
    attributes: dict[str, str] = {}
    for raw in text.splitlines():
        line = _clean(raw)
        label, _, rest = line.partition(":")
        label = label.strip().lower()
        if label == "category" and category is None and rest.strip():
            category = rest.strip()
        elif label == "attributes" and not attributes:
            for part in rest.split("|"):
                key, sep, value = part.partition(":")
                if sep and key.strip() and value.strip():
                    attributes[key.strip()] = value.strip().rstrip(".")
    return category, attributes


# --- A.2 intention tree construction ----------------------------------------------------------------------------------

INTENTION_HEADER = """Act as a customer who is browsing a series of products.
For each input, you are required to generate several intentions as output, and each intention should only contain the following lines of information:
New Intention: new intention you may have after interacting with the new product
Attribute: attribute(s) of the new product that caused the change in intention. You can infer new ones from the image. Generate in the format of attribute: value
Rationale: a short rationale explaining why the attribute of the new product reflects the new intention. Generate in the format of facets: reasoning
Comparison: a comparison between the new product and the previous product to justify why the new product caused the change in intention. Generate in the format of aspects: comparison
"""  # noqa: E501 - the paper's prompt, verbatim lines

INTENTION_EXAMPLE_INPUT = """Input:
Previous Intention: Looking for stylish and modern footwear that complements their athletic look.
Previous Product: Nike Free Metcon 5 Women's Workout Shoes (varieties: runner, target consumers: women, size: 3.5, price: $100).
New Product: LV Glove Loafer (varieties: loafer, target consumers: men, size: 3.5, price: $200, structure: cushioned insole).
Output:
"""  # noqa: E501

INTENTION_EXAMPLE = (
    ("Invest in premium quality footwear for long-lasting style and comfort.",
     "design: luxury material and craftsmanship.",
     "durability: The LV Glove Loafer is crafted from high-quality materials, offering durability and style that "
     "ensures it will last longer than ordinary shoes.",
     "collectability: compared to the Nike Free Metcon 5, which focuses on performance, the LV offers a blend of "
     "luxury and longevity, making it a worthy investment."),
    ("Own a versatile pair of shoes suitable for both casual and formal settings.",
     "varieties: loafer.",
     "usages: The loafer style of the LV Glove Loafer makes it versatile enough to be worn in both casual and formal "
     "settings, unlike the more specialized athletic design of the Nike Free Metcon 5.",
     "versatility: While the Nike Free Metcon 5 is primarily designed for workouts, the LV Glove Loafer's loafer style "
     "offers versatility for various occasions."),
    ("Enhance your wardrobe with a statement piece that reflects personal style.",
     "design: unique and luxurious.",
     "aesthetics: The unique and luxurious design of the LV Glove Loafer makes it a statement piece that can elevate "
     "any outfit, reflecting personal style.",
     "uniqueness: Unlike the more common athletic design of the Nike Free Metcon 5, the LV Glove Loafer stands out as "
     "a unique and stylish addition to the wardrobe."),
    ("Prioritize comfort without compromising on style.",
     "comfort: cushioned insole.",
     "comfort: The cushioned insole of the LV Glove Loafer ensures comfort for long periods, making it a practical "
     "choice without compromising on style.",
     "comfort: While the Nike Free Metcon 5 is designed for athletic performance, the LV Glove Loafer offers a balance "
     "of comfort and style for everyday wear."),
    ("Choose a high-end brand to reflect social status.",
     "brand: Louis Vuitton.",
     "status: Owning a product from a high-end brand like Louis Vuitton reflects social status and prestige.",
     "brand prestige: Compared to Nike, which is known for athletic wear, Louis Vuitton is a luxury brand that "
     "signifies higher social status."),
)
"""The paper's worked example (A.2), five intentions; for fewer branches the prompt asks for fewer outputs and the
example shows as many (the paper: "for smaller branching factors, we simply reduce the number of requested
outputs")."""

NO_PREVIOUS = "None (this is the first product of the session)."


def _example_block(count: int) -> str:
    lines = []
    for intention, attribute, rationale, comparison in INTENTION_EXAMPLE[:count]:
        lines += [f"New Intention: {intention}", f"Attribute: {attribute}", f"Rationale: {rationale}",
                  f"Comparison: {comparison}"]
    return "\n".join(lines)


def describe(title: str, category: str | None, attributes: dict[str, str]) -> str:
    """A product as the A.2 example writes one: "Title (key: value, key: value)"."""
    pairs = ([f"category: {category}"] if category else []) + [f"{k}: {v}" for k, v in attributes.items()]
    return f"{title} ({', '.join(pairs)})" if pairs else title


def intention_prompt(previous_intention: str | None, previous_products: list[str], new_product: str,
                     count: int) -> str:
    """A.2 with `count` requested intentions: the header, the example, then this step's input."""
    noun = "intention" if count == 1 else "intentions"
    example = "one intention" if count == 1 else f"{count} intentions"
    return (f"{INTENTION_HEADER}Here is one example with {example}:\n{INTENTION_EXAMPLE_INPUT}"
            f"{_example_block(count)}\n\nNow generate exactly {count} {noun} for this input.\nInput:\n"
            f"Previous Intention: {previous_intention or NO_PREVIOUS}\n"
            f"Previous Product: {'; '.join(previous_products) if previous_products else NO_PREVIOUS}\n"
            f"New Product: {new_product}\nOutput:\n")


class Branch(BaseModel):
    """One intention the model wrote for a step: I_t, A_t, the rationale and C_t."""

    intention: str
    valued_attribute: str | None = None
    rationale: str | None = None
    comparison: str | None = None


_FIELDS = {"new intention": "intention", "intention": "intention", "attribute": "valued_attribute",
           "attributes": "valued_attribute", "rationale": "rationale", "comparison": "comparison"}


def parse_intentions(text: str) -> list[Branch]:
    """Every "New Intention:" block of an A.2 answer, with its Attribute/Rationale/Comparison lines."""
    branches: list[dict[str, str]] = []
    for raw in text.splitlines():
        line = _clean(raw)
        label, sep, rest = line.partition(":")
        field = _FIELDS.get(label.strip().lower()) if sep else None
        if field is None:
            continue
        value = rest.strip()
        if field == "intention":
            branches.append({"intention": value})
        elif branches and field not in branches[-1]:
            branches[-1][field] = value
    return [Branch(**b) for b in branches if b.get("intention")]


# --- the tree ---------------------------------------------------------------------------------------------------------

class TreeProduct(BaseModel):
    """A session product with its extracted category and attributes (§4.1)."""

    title: str
    category: str | None = None
    attributes: dict[str, str] = Field(default_factory=dict)
    metadata: dict[str, Any] = Field(default_factory=dict)
    """The input's other fields (price, colour, ...)."""

    def describe(self) -> str:
        return describe(self.title, self.category, self.attributes)


class IntentionNode(BaseModel):
    """One intention of the tree: I_t for product `step`, reached from its parent's intention."""

    node_id: str
    """"<session_id>/<b1>.<b2>...": the 1-based branch taken at each step."""
    parent_id: str | None
    step: int
    """1-based index of the product this intention follows."""
    intention: str
    valued_attribute: str | None = None
    rationale: str | None = None
    comparison: str | None = None


class IntentionTree(BaseModel):
    """One session's tree, one line of trees.jsonl."""

    version: int = TREE_VERSION
    session_id: str
    products: list[TreeProduct]
    nodes: list[IntentionNode] = Field(default_factory=list)
    incomplete: list[str] = Field(default_factory=list)
    """Nodes (or "<root>") whose expansion got fewer intentions than asked, after the retries."""

    def children(self, node_id: str | None) -> list[IntentionNode]:
        return [n for n in self.nodes if n.parent_id == node_id]

    def node(self, node_id: str) -> IntentionNode:
        return next(n for n in self.nodes if n.node_id == node_id)

    def path(self, node_id: str) -> list[IntentionNode]:
        """The nodes from the first step down to `node_id`."""
        by_id = {n.node_id: n for n in self.nodes}
        path = [by_id[node_id]]
        while path[-1].parent_id is not None:
            path.append(by_id[path[-1].parent_id])
        return path[::-1]

    def leaves(self) -> list[IntentionNode]:
        parents = {n.parent_id for n in self.nodes}
        return [n for n in self.nodes if n.node_id not in parents]


def node_order(node: IntentionNode) -> tuple[int, ...]:
    """Sort key: by step, then by the branch numbers of the path ("s/2.10" after "s/2.9")."""
    return (node.step, *(int(part) for part in node.node_id.rsplit("/", 1)[1].split(".")))


def child_ids(session_id: str, parent: IntentionNode | None, count: int) -> list[str]:
    prefix = f"{parent.node_id}." if parent is not None else f"{session_id}/"
    return [f"{prefix}{i}" for i in range(1, count + 1)]


def add_children(tree: IntentionTree, parent: IntentionNode | None, branches: list[Branch]) -> list[IntentionNode]:
    """Attach a step's intentions under `parent` (None: the first product's intentions)."""
    step = 1 if parent is None else parent.step + 1
    nodes = [IntentionNode(node_id=node_id, parent_id=None if parent is None else parent.node_id, step=step,
                           **branch.model_dump())
             for node_id, branch in zip(child_ids(tree.session_id, parent, len(branches)), branches, strict=True)]
    tree.nodes.extend(nodes)
    return nodes


def step_prompt(tree: IntentionTree, parent: IntentionNode | None) -> str:
    """The A.2 prompt that expands `parent` with the intentions for the next product."""
    step = 1 if parent is None else parent.step + 1
    seen = [p.describe() for p in tree.products[: step - 1]]
    return intention_prompt(None if parent is None else parent.intention, seen, tree.products[step - 1].describe(),
                            branching(step))


def choose_expanded(nodes: list[IntentionNode], limit: int | None, seed: int, session_id: str) -> list[IntentionNode]:
    """The nodes of one step that get children: all of them, or `limit` drawn at random (seeded per session)."""
    if limit is None or len(nodes) <= limit:
        return nodes
    rng = _rng(seed, f"expand:{session_id}:{nodes[0].step}")
    chosen = set(rng.sample(range(len(nodes)), limit))
    return [n for i, n in enumerate(nodes) if i in chosen]


def _rng(seed: int, key: str) -> random.Random:
    return random.Random(int.from_bytes(hashlib.sha256(f"{seed}:{key}".encode()).digest()[:8], "big"))


# --- task instances ---------------------------------------------------------------------------------------------------

_TASKS: tuple[Literal[1, 2, 3, 4], ...] = (1, 2, 3, 4)

GoldSource = Literal["judge", "human"]


class HumanAnnotation(BaseModel):
    """How a study's annotators labelled a generated item (`shopbench study export`): gold is their majority."""

    study: str
    labels: dict[str, str]
    """Participant id → letter, of the raters counted (flagged ones left out)."""
    agreement: float
    """Share of the counted labels equal to the gold letter."""


class GeneratedSessionItem(SessionIntentItem):
    """A task instance sampled from a tree: the benchmark's item schema, the nodes it came from, and a gold letter
    that is empty (for annotators) or filled by a judge model (`gold_source: "judge"`)."""

    # Widens the parent's field on purpose: a generated item may be unlabelled (gold None until a judge or annotator
    # fills it), which mypy reports as an incompatible override of a mutable attribute.
    gold: Literal["A", "B", "C", "D"] | None = None  # type: ignore[assignment]
    gold_source: GoldSource | None = None
    """"judge" when a model wrote the gold letter, "human" when annotators' majority did; None while unlabelled."""
    judge_model: str | None = None
    annotation: HumanAnnotation | None = None
    tree_nodes: list[str] = Field(min_length=2)
    """The node ids of the trajectory, one per product, in order."""

    @model_validator(mode="after")
    def _fields_the_task_needs(self) -> GeneratedSessionItem:  # replaces the parent's check: gold may be empty
        if self.gold is not None and self.gold not in LETTERS[self.task]:
            raise ValueError(f"gold {self.gold!r} is not an option of task {self.task}")
        if len(self.tree_nodes) != len(self.products):
            raise ValueError("tree_nodes must name one node per product")
        prev, last = self.products[-2], self.products[-1]
        needed = {1: [prev.intention], 2: [prev.valued_attribute], 3: [last.intention, last.comparison],
                  4: [last.intention]}[self.task]
        if not all(needed):
            raise ValueError(f"task {self.task} needs a field this trajectory lacks")
        return self


def item_products(tree: IntentionTree, path: list[IntentionNode]) -> list[SessionProduct]:
    return [SessionProduct(title=tree.products[node.step - 1].title, category=tree.products[node.step - 1].category,
                           attributes=tree.products[node.step - 1].attributes, intention=node.intention,
                           valued_attribute=node.valued_attribute,
                           comparison=node.comparison if node.step > 1 else None)
            for node in path]


def sample_items(tree: IntentionTree, *, per_session: int = 4, seed: int = 0) -> list[GeneratedSessionItem]:
    """`per_session` task instances over the tree's full-length trajectories, the tasks dealt in turn from a seeded
    start so each task gets its share. Distinct trajectories come first; when the tree has fewer than asked, a
    trajectory is asked about again with another task (never the same task twice), as the paper's questionnaires asked
    all four tasks about one trajectory. A trajectory missing a field its task needs is passed over."""
    rng = _rng(seed, f"sample:{tree.session_id}")
    depth = max((n.step for n in tree.nodes), default=0)
    leaves = [n for n in tree.leaves() if n.step == depth and depth >= 2]
    rng.shuffle(leaves)
    first = rng.randrange(4)
    items: list[GeneratedSessionItem] = []
    dealt = 0
    for leaf in [leaf for _ in range(4) for leaf in leaves]:
        if len(items) >= per_session:
            break
        path = tree.path(leaf.node_id)
        task = _TASKS[(first + dealt) % 4]
        dealt += 1
        try:
            items.append(GeneratedSessionItem(id=f"{leaf.node_id}#t{task}", task=task, session_id=tree.session_id,
                                              products=item_products(tree, path), gold=None,
                                              tree_nodes=[n.node_id for n in path]))
        except ValueError:
            continue
    return items
