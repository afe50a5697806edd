"""Catalog generator: writes a world's catalog.jsonl.gz in the official corpus format (SPEC §1.1), streaming.

Product i is drawn from its own random stream (seeded by seed and i), so the first products of a catalog do not
depend on its size and 2.5M products need no more memory than 5,000. Three sources are mixed:
- templates (vocab.KINDS): title, attributes, SKU options and price all come from the same draws, so they agree;
- real Amazon product names (IntentionQA, MIT) with attributes read back from the title's own words;
- the 143 real Lazada records of the official knowledge tasks (Apache-2.0), resold by other shops at other prices.
More than half the products are near-duplicates: each block of FAMILY_BLOCK products has a family grown from its
first product, each member a copy of an earlier member differing in one more thing: a detail of the product page,
the price (often just above it), the shop, a service, the brand, the size or pack, the colours offered, or the
flavour/scent named in the title. Every task target thus has rivals of its kind that only the stated constraints
(filters, paging, product pages) tell apart.
"""

from __future__ import annotations

import gzip
import html
import io
import json
import multiprocessing
import os
import random
import re
import zlib
from collections.abc import Iterator
from functools import cache, lru_cache
from itertools import product as cartesian
from pathlib import Path
from types import SimpleNamespace
from typing import IO, cast

from benchmarks.jsonl import read_jsonl
from benchmarks.shoppingbench.schema import SERVICES, Product, product_contents
from benchmarks.shoppingbench.worldgen import source_digest
from benchmarks.shoppingbench.worldgen.vocab import COLORS, KINDS, Kind

GENERATOR_VERSION = "8"
"""Bump when a change alters what a seed yields, products or tasks (the default world's folder name carries it)."""

PACKAGE_ROOT = Path(__file__).resolve().parents[2]
LAZADA_RECORDS = PACKAGE_ROOT / "shoppingbench" / "data" / "official" / "products_from_web_test_rewards.jsonl"
AMAZON_NAME_FILES = tuple(PACKAGE_ROOT / "intentionqa" / "data" / f"QA_fullInfo_task{n}.jsonl" for n in (1, 2))

MAX_TEXT = 2000
MAX_SKU_OPTIONS = 9
BASE_SHOPS = 300
PRODUCTS_PER_NEW_SHOP = 12
LAZADA_EVERY = 35
NEAR_DUPLICATE_RATE = 0.8
FAMILY_BLOCK = 48
AMAZON_RATE = 0.12

AMAZON_KINDS: tuple[tuple[str, str, tuple[float, float]], ...] = (
    (r"\bwatch(es)?\b", "Watches Sunglasses Jewellery > Watches > Fashion Watches", (299, 8999)),
    (r"\b(earrings?|studs?)\b", "Fashion Accessories > Jewelry > Earrings", (79, 2999)),
    (r"\b(necklace|pendant|choker)\b", "Fashion Accessories > Jewelry > Necklaces", (99, 4999)),
    (r"\b(bracelet|bangle|anklet|charm|beads?)\b", "Fashion Accessories > Jewelry > Bracelets", (79, 3999)),
    (r"\brings?\b", "Fashion Accessories > Jewelry > Rings", (99, 5999)),
    (r"\b(cable|charger|adapter|usb|hdmi)\b", "Electronics Parts & Accessories > Cables & Chargers > Adapters",
     (79, 1499)),
    (r"\b(screen|digitizer|lcd|battery|keyboard)\b", "Electronics Parts & Accessories > Replacement Parts > Parts",
     (299, 4999)),
    (r"\b(t-shirt|tee|shirt|dress|hoodie|costume|tank top|pajama|leggings)\b",
     "Women's Clothing > Tops > Casual Wear", (149, 1999)),
    (r"\b(sandals?|shoes?|boots?|sneakers?|slippers?|flip flop)\b", "Women's Shoes > Casual Shoes > Sandals",
     (199, 3999)),
    (r"\b(wallet|backpack|bag|purse|case)\b", "Bags and Travel > Small Leather Goods > Wallets & Cases", (99, 2999)),
    (r"\b(hat|cap|scarf|gloves|belt|sunglasses)\b", "Fashion Accessories > Accessories > Hats & Belts", (99, 1499)),
)
MATERIAL_WORDS = ("sterling silver", "stainless steel", "gold plated", "rose gold", "titanium", "leather", "cotton",
                  "silicone", "alloy", "crystal", "pearl", "turquoise", "wood", "nylon", "polyester", "ceramic",
                  "copper", "brass", "tungsten", "rubber")
SIZE_RE = re.compile(r"\bsize[: ]+(\d{1,2}(?:\.5)?|xxs|xs|s|m|l|xl|xxl|2xl|3xl|small|medium|large)\b")
PACK_RE = re.compile(r"\b(?:pack of (\d{1,3})|(\d{1,3})[- ]?(?:pack|pcs|pieces)\b)")
COLOR_RE = re.compile(r"\b(" + "|".join(re.escape(c) for c in COLORS) + r")\b")
CATEGORY_L1 = tuple(sorted({k.category.split(" > ")[0] for k in KINDS} | {c.split(" > ")[0] for _, c, _ in
                                                                           AMAZON_KINDS}))


CHUNK = 5_000
PARALLEL_FROM = 50_000


def generate_catalog(path: Path, n_products: int, seed: int, *, workers: int | None = None) -> None:
    """Write n_products official corpus lines to `path` (gzip), atomically: a partial file never has the final name.

    Large catalogs are drawn in chunks by a process pool, a bounded number of chunks in flight at a time, and
    written in order, so the file is the same whatever the number of workers.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    chunks = [(seed, start, min(start + CHUNK, n_products)) for start in range(0, n_products, CHUNK)]
    workers = workers or os.cpu_count() or 1
    with open(partial, "wb") as raw, _deterministic_gzip(raw) as handle:
        if n_products < PARALLEL_FROM or workers == 1:
            for chunk in chunks:
                handle.write(_corpus_lines(chunk))
        else:
            with multiprocessing.get_context("spawn").Pool(workers) as pool:
                for wave in range(0, len(chunks), 2 * workers):
                    for text in pool.imap(_corpus_lines, chunks[wave:wave + 2 * workers]):
                        handle.write(text)
    os.replace(partial, path)


def _deterministic_gzip(raw: IO[bytes]) -> io.TextIOWrapper:
    """gzip text stream with no timestamp or file name in the header: same seed, same bytes."""
    return io.TextIOWrapper(gzip.GzipFile(filename="", mode="wb", compresslevel=3, fileobj=raw, mtime=0),
                            encoding="utf-8")


def _corpus_lines(chunk: tuple[int, int, int]) -> str:
    seed, start, stop = chunk
    lines = []
    for index in range(start, stop):
        product = make_product(seed, index)
        record = {"id": product["product_id"], "contents": contents_of(product), "product": product}
        lines.append(json.dumps(record, ensure_ascii=False) + "\n")
    return "".join(lines)


def iter_products(n_products: int, seed: int) -> Iterator[dict]:
    """The catalog's products in order, as plain dicts in the Product schema."""
    for index in range(n_products):
        yield make_product(seed, index)


def contents_of(product: dict) -> str:
    """The BM25 text of a product dict, through the schema's own product_contents (it reads three fields only)."""
    fields = SimpleNamespace(title=product["title"], sku_options=product["sku_options"],
                             attributes=product["attributes"])
    return product_contents(cast(Product, fields))


def product_id_of(index: int) -> str:
    """Numeric, ten digits like the official ids, unique per index (an odd multiplier permutes 0..2^31-1)."""
    return str(1_000_000_000 + (index * 2654435761) % 2**31)


def shop_id_of(shop: int) -> str:
    return str(3_000_000 + shop * 7)


def general_store_id(store: int) -> str:
    """General stores count down from below the themed shops' ids (those count up)."""
    return shop_id_of(-1 - store)


def make_product(seed: int, index: int) -> dict:
    """Product `index` of the catalog of `seed`: a base product, or a near-duplicate of a member of its block's
    family (the block's first product and the near-duplicates before it), so families grow to about nine rivals."""
    return json.loads(_product_json(seed, index))


@lru_cache(maxsize=4 * FAMILY_BLOCK)
def _product_json(seed: int, index: int) -> str:
    rng = _rng(seed, index, salt=1)
    root = index - index % FAMILY_BLOCK
    if index > root and index % LAZADA_EVERY != 7 and rng.random() < NEAR_DUPLICATE_RATE:
        family = [root] + [i for i in _block_variants(seed, root) if i < index]
        original = json.loads(_product_json(seed, rng.choice(family)))
        return json.dumps(_near_duplicate(original, rng, index), ensure_ascii=False)
    return json.dumps(_base_product(seed, index), ensure_ascii=False)


@lru_cache(maxsize=4)
def _block_variants(seed: int, root: int) -> tuple[int, ...]:
    """The near-duplicates of the block starting at `root`, drawn once per block (not once per product)."""
    return tuple(i for i in range(root + 1, root + FAMILY_BLOCK) if _is_variant(seed, i))


def _is_variant(seed: int, index: int) -> bool:
    return index % FAMILY_BLOCK != 0 and index % LAZADA_EVERY != 7 and \
        _rng(seed, index, salt=1).random() < NEAR_DUPLICATE_RATE


def _rng(seed: int, index: int, salt: int) -> random.Random:
    return random.Random((seed * 1_000_003 + salt) * 10_000_000_019 + index)


def _base_product(seed: int, index: int) -> dict:
    rng = _rng(seed, index, salt=0)
    if index % LAZADA_EVERY == 7:
        product = _lazada_product(rng, index // LAZADA_EVERY)
    elif rng.random() < AMAZON_RATE:
        product = _amazon_product(rng)
    else:
        product = _template_product(rng, rng.choice(KINDS))
    product["product_id"] = product_id_of(index)
    product["shop_id"] = _shop_for(rng, index, product["category"])
    product["main_image_url"] = f"https://img.shopbench.example/p/{product['product_id']}.jpg"
    product["product_url"] = f"https://shop.shopbench.example/products/-i{product['product_id']}.html"
    return _ordered(product)


def _shop_for(rng: random.Random, index: int, category: str) -> str:
    """Shops specialise in one top-level category; the pool of shops grows with the catalog."""
    themes = len(CATEGORY_L1)
    level1 = category.split(" > ")[0]
    theme = CATEGORY_L1.index(level1) if level1 in CATEGORY_L1 else zlib.crc32(level1.encode()) % themes
    pool = (BASE_SHOPS + index // PRODUCTS_PER_NEW_SHOP) // themes + 1
    return shop_id_of(theme + themes * rng.randrange(pool))


FIELD_ORDER = ("product_id", "shop_id", "brand", "category", "title", "short_description", "description",
               "specification", "price", "sold_count", "sku_options", "attributes", "main_image_url", "product_url",
               "service")


def _ordered(product: dict) -> dict:
    out = {key: product[key] for key in FIELD_ORDER}
    for key in ("title", "short_description", "description", "specification"):
        out[key] = out[key][:MAX_TEXT]
    return out


# --- templates ---------------------------------------------------------------------------------------------------

def _template_product(rng: random.Random, kind: Kind) -> dict:
    brand = rng.choice(kind.brands)
    noun = rng.choice(kind.nouns)
    descriptor = rng.choice(kind.descriptors) if kind.descriptors and rng.random() < 0.7 else ""
    attributes: dict[str, list[str]] = {}
    title_values = []
    for key, values in kind.title_attrs.items():
        value = rng.choice(values)
        attributes[key] = [value]
        title_values.append(_title_case(value))
    for key, values in kind.attrs.items():
        if rng.random() < 0.8:
            attributes[key] = [rng.choice(values)]
    if rng.random() < 0.5:
        attributes["brand"] = [brand.lower()]

    dimensions = {key: _pick_values(rng, values) for key, values in kind.sku.items()}
    factor, suffix = 1.0, ""
    if kind.measure is not None:
        key, table = kind.measure
        names = list(table)
        if rng.random() < 0.6:
            chosen = [rng.choice(names)]
        else:
            start = rng.randrange(len(names) - 1)
            chosen = names[start:start + rng.randint(2, min(4, len(names) - start))]
        attributes[key] = chosen
        dimensions[key] = chosen
        factor = table[chosen[0]]
        suffix = "/".join(chosen)
    title = " ".join(part for part in (brand, descriptor, *title_values, noun, suffix) if part)
    price = _price(rng.uniform(0, 1), kind.price, factor)
    features = list(kind.features)
    rng.shuffle(features)
    return {
        "brand": brand,
        "category": kind.category,
        "title": title,
        "short_description": ";".join(features) + ";",
        "description": _description(title, features, attributes),
        "specification": _specification(brand, attributes),
        "price": price,
        "sold_count": _sold_count(rng, price),
        "sku_options": _sku_options(rng, dimensions),
        "attributes": attributes,
        "service": _services(rng),
    }


def _pick_values(rng: random.Random, values: tuple[str, ...]) -> list[str]:
    """1–4 values; sizes are contiguous runs, other dimensions any subset (in vocabulary order)."""
    count = rng.randint(1, min(4, len(values)))
    start = rng.randrange(len(values) - count + 1)
    if rng.random() < 0.5:
        return list(values[start:start + count])
    picked = set(rng.sample(range(len(values)), count))
    return [v for i, v in enumerate(values) if i in picked]


def _sku_options(rng: random.Random, dimensions: dict[str, list[str]]) -> dict[str, dict[str, str]]:
    if not dimensions:
        return {}
    keys = list(dimensions)
    combos = [dict(zip(keys, values, strict=True)) for values in cartesian(*(dimensions[k] for k in keys))]
    if len(combos) > MAX_SKU_OPTIONS:
        combos = [combos[i] for i in sorted(rng.sample(range(len(combos)), MAX_SKU_OPTIONS))]
    return {str(n): combo for n, combo in enumerate(combos, start=1)}


def _price(u: float, bounds: tuple[float, float], factor: float) -> float:
    """Log-uniform within the kind's range, scaled by the measure; retail endings (…9) above 50 pesos."""
    low, high = bounds
    value = low * (high / low) ** u * factor
    if value < 50:
        return float(max(1, round(value)))
    return float(int(value) // 10 * 10 + 9)


def _sold_count(rng: random.Random, price: float) -> int:
    """Heavy-tailed; cheaper products sell more."""
    if rng.random() < 0.15:
        return 0
    return max(0, min(200_000, int(rng.paretovariate(1.1) * 60 / (1 + price / 500)) - 5))


def _services(rng: random.Random) -> list[str]:
    rates = {"official": 0.15, "freeShipping": 0.35, "COD": 0.55, "flashsale": 0.1}
    return [s for s in SERVICES if rng.random() < rates[s]]


def _title_case(value: str) -> str:
    return " ".join(w[:1].upper() + w[1:] if w[:1].isalpha() else w for w in value.split())


def _description(title: str, features: list[str], attributes: dict[str, list[str]]) -> str:
    details = "; ".join(f"{k.replace('_', ' ')}: {', '.join(v)}" for k, v in attributes.items())
    return f"{title}. {' '.join(features)} Product details: {details}. 100% brand new and quality checked."


def _specification(brand: str, attributes: dict[str, list[str]]) -> str:
    parts = [f"brand:{brand.lower()}"] + [f"{k.replace('_', ' ')}:{','.join(v)}" for k, v in attributes.items()
                                          if k != "brand"]
    return ";".join(parts + ["condition:new"])


# --- real Amazon names (IntentionQA) -----------------------------------------------------------------------------

@cache
def amazon_names() -> tuple[tuple[str, int], ...]:
    """(name, index into AMAZON_KINDS) for each distinct IntentionQA product name that maps to a category."""
    names: dict[str, int] = {}
    for path in AMAZON_NAME_FILES:
        for _, record in read_jsonl(path):
            for raw in (record.get("item_a_name"), record.get("item_b_name"), *record.get("distractors_product", [])):
                if not raw:
                    continue
                name = " ".join(html.unescape(raw).replace("'", "").split())
                if name in names or not 10 <= len(name) <= 200:
                    continue
                lowered = name.lower()
                for position, (pattern, _, _) in enumerate(AMAZON_KINDS):
                    if re.search(pattern, lowered):
                        names[name] = position
                        break
    return tuple(sorted(names.items()))


def _amazon_product(rng: random.Random) -> dict:
    name, position = rng.choice(amazon_names())
    _, category, bounds = AMAZON_KINDS[position]
    lowered = name.lower()
    brand = name.split()[0] if name.split()[0][:1].isupper() and rng.random() < 0.6 else ""
    attributes: dict[str, list[str]] = {}
    material = next((m for m in MATERIAL_WORDS if m in lowered), None)
    if material:
        attributes["material"] = [material]
    found = COLOR_RE.search(lowered)
    color = found.group(1) if found else None
    factor = 1.0
    pack = PACK_RE.search(lowered)
    if pack:
        count = int(pack.group(1) or pack.group(2))
        if count > 0:
            attributes["set_pieces"] = [f"{count}pcs"]
            factor = count ** 0.5
    dimensions: dict[str, list[str]] = {}
    if color:
        attributes["color_family"] = [color]
        dimensions["color_family"] = [color]
    else:
        dimensions["color_family"] = _pick_values(rng, COLORS[:10])
    size = SIZE_RE.search(lowered)
    if size:
        dimensions["size"] = [size.group(1)]
    price = _price(rng.uniform(0, 1), bounds, factor)
    features = ["Imported item.", "Ships within 24 hours.", "Carefully packed."]
    rng.shuffle(features)
    return {
        "brand": brand,
        "category": category,
        "title": name,
        "short_description": ";".join(features) + ";",
        "description": _description(name, features, attributes),
        "specification": _specification(brand or "no brand", attributes),
        "price": price,
        "sold_count": _sold_count(rng, price),
        "sku_options": _sku_options(rng, dimensions),
        "attributes": attributes,
        "service": _services(rng),
    }


# --- real Lazada records (official knowledge tasks) -------------------------------------------------------------

@cache
def lazada_records() -> tuple[dict, ...]:
    """The distinct real product records, in file order."""
    seen: dict[str, dict] = {}
    for _, record in read_jsonl(LAZADA_RECORDS):
        seen.setdefault(record["product_id"], record)
    return tuple(seen.values())


def _lazada_product(rng: random.Random, occurrence: int) -> dict:
    """The real record itself the first time; later a reseller's copy at a price within ±20%."""
    records = lazada_records()
    product = json.loads(json.dumps(records[occurrence % len(records)]))
    if occurrence >= len(records):
        product["price"] = _price(0.0, (product["price"] * rng.uniform(0.8, 1.2),) * 2, 1.0)
        product["sold_count"] = _sold_count(rng, product["price"])
        product["service"] = _services(rng)
    return product


# --- near-duplicates ---------------------------------------------------------------------------------------------

VARIANTS = (("attribute", 0.08), ("price", 0.2), ("shop", 0.18), ("service", 0.18), ("brand", 0.1),
            ("measure", 0.07), ("colour", 0.07), ("title_attribute", 0.12))
"""How a near-duplicate differs from its original, and how often."""


def _near_duplicate(original: dict, rng: random.Random, index: int) -> dict:
    """A copy of `original` differing in one thing (VARIANTS); a change that does not apply to the product (no
    template, no colours…) falls back to the price."""
    product = json.loads(json.dumps(original))
    product["product_id"] = product_id_of(index)
    product["main_image_url"] = f"https://img.shopbench.example/p/{product['product_id']}.jpg"
    product["product_url"] = f"https://shop.shopbench.example/products/-i{product['product_id']}.html"
    names, weights = zip(*VARIANTS, strict=True)
    change = rng.choices(names, weights)[0]
    kind = _kind_of(product)
    changed = {
        "attribute": lambda: _change_attribute(product, rng),
        "shop": lambda: _change_shop(product, rng, index),
        "service": lambda: _change_service(product, rng),
        "brand": lambda: kind is not None and _change_brand(product, kind, rng),
        "measure": lambda: kind is not None and _change_measure(product, kind, rng),
        "colour": lambda: _change_colours(product, rng),
        "title_attribute": lambda: kind is not None and _change_title_attribute(product, kind, rng),
    }.get(change, lambda: False)()
    if not changed:
        factor = rng.choice((1.04, 1.08, 1.12, 1.2, 0.8, 0.9)) if change == "price" else rng.choice((1.05, 1.1, 0.9))
        product["price"] = _price(0.0, (product["price"] * factor,) * 2, 1.0)
        if product["price"] == original["price"]:
            product["price"] = original["price"] + (10 if original["price"] >= 50 else 1)
    product["sold_count"] = _sold_count(rng, product["price"])
    return product


def _kind_of(product: dict) -> Kind | None:
    return next((k for k in KINDS if k.category == product["category"] and product["brand"] in k.brands), None)


def _refresh_text(product: dict) -> None:
    product["description"] = _description(product["title"], product["short_description"].rstrip(";").split(";"),
                                          product["attributes"])[:MAX_TEXT]
    product["specification"] = _specification(product["brand"] or "no brand", product["attributes"])[:MAX_TEXT]


GENERAL_STORE_SHARE = 0.5
GENERAL_STORES = 10
PRODUCTS_PER_NEW_GENERAL_STORE = 200
"""A listing moved to another shop goes this often to a general store, a reseller of popular items of several
related departments, else to a shop of its own category. General stores carry several contested items each, which
shop tasks of three or four items need (with themed shops alone, 8 shops of a 5k world had four). Their pool grows
with the catalog, as themed shops'."""
STORE_TYPES = (("Home", "Kitchen", "Lighting", "Appliances", "Furniture", "Garden"),
               ("Clothing", "Fashion", "Shoes", "Bags", "Jewelry", "Watches"),
               ("Electronics", "Computers", "Mobile", "Camera"),
               ("Groceries", "Beauty", "Health", "Mother", "Baby", "Pet"),
               ("Sports", "Automotive", "Tools", "Toys", "Stationery", "Media", "Books"))
"""The departments each kind of general store resells together: an official shop request mostly asks for things
that go together (baby clothes, aircon parts), not a drill beside sunscreen and bricks (blind round 13)."""


def _general_store(category: str, rng: random.Random, index: int) -> str:
    """A general store of the kind that resells this category's department."""
    department = category.split(" > ")[0]
    kind = next((n for n, words in enumerate(STORE_TYPES) if any(w in department for w in words)),
                zlib.crc32(department.encode()) % len(STORE_TYPES))
    per_kind = max(1, (GENERAL_STORES + index // PRODUCTS_PER_NEW_GENERAL_STORE) // len(STORE_TYPES))
    return general_store_id(kind + len(STORE_TYPES) * rng.randrange(per_kind))


def _change_shop(product: dict, rng: random.Random, index: int) -> bool:
    """Another shop selling the same item, at its own price."""
    shop = (int(product["shop_id"]) - 3_000_000) // 7
    if shop < 0 or rng.random() < GENERAL_STORE_SHARE:  # a general store's copy moves to another general store
        product["shop_id"] = _general_store(product["category"], rng, index)
    else:
        product["shop_id"] = shop_id_of(shop + len(CATEGORY_L1) * rng.randint(1, 5))
    price = _price(0.0, (product["price"] * rng.choice((0.85, 0.93, 1.04, 1.08, 1.15)),) * 2, 1.0)
    product["price"] = price if price != product["price"] else product["price"] + 1
    return True


def _change_service(product: dict, rng: random.Random) -> bool:
    """One service taken away (the rival misses what the shopper asks for) or, for a product with none, added."""
    if product["service"]:
        gone = rng.choice(product["service"])
        product["service"] = [s for s in product["service"] if s != gone]
    else:
        product["service"] = [rng.choice(SERVICES)]
    return True


def _change_brand(product: dict, kind: Kind, rng: random.Random) -> bool:
    others = [b for b in kind.brands if b != product["brand"]]
    if not others or not product["title"].startswith(product["brand"] + " "):
        return False
    brand = rng.choice(others)
    product["title"] = brand + product["title"][len(product["brand"]):]
    product["brand"] = brand
    if "brand" in product["attributes"]:
        product["attributes"]["brand"] = [brand.lower()]
    _refresh_text(product)
    return True


def _change_measure(product: dict, kind: Kind, rng: random.Random) -> bool:
    """Another single size/pack/weight: title suffix, attribute, SKU options and price follow."""
    if kind.measure is None:
        return False
    key, table = kind.measure
    named = product["attributes"].get(key, [])
    suffix = "/".join(named)
    if not named or not product["title"].endswith(" " + suffix):
        return False
    new = rng.choice([m for m in table if [m] != named])
    product["title"] = product["title"][:-len(suffix)] + new
    product["attributes"][key] = [new]
    options = [dict(o, **{key: new}) for o in product["sku_options"].values()]
    unique = list({json.dumps(o, sort_keys=True): o for o in options}.values())
    product["sku_options"] = {str(n): o for n, o in enumerate(unique, start=1)}
    product["price"] = _price(0.0, (product["price"] * table[new] / table[named[0]],) * 2, 1.0)
    _refresh_text(product)
    return True


def _change_colours(product: dict, rng: random.Random) -> bool:
    """Other colours on offer (the SKU options' colour dimension)."""
    options = list(product["sku_options"].values())
    if not options or "color_family" not in options[0] or "color_family" in product["attributes"]:
        return False
    dimensions: dict[str, list[str]] = {}
    for option in options:
        for key, value in option.items():
            dimensions.setdefault(key, [])
            if value not in dimensions[key]:
                dimensions[key].append(value)
    offered = set(dimensions["color_family"])
    kind = next((k for k in KINDS if k.category == product["category"] and "color_family" in k.sku), None)
    palette = kind.sku["color_family"] if kind is not None else COLORS[:14]
    fresh = [c for c in palette if c not in offered]
    if not fresh:
        return False
    dimensions["color_family"] = sorted(rng.sample(fresh, min(len(fresh), rng.randint(1, 3))), key=palette.index)
    product["sku_options"] = _sku_options(rng, dimensions)
    return True


def _change_title_attribute(product: dict, kind: Kind, rng: random.Random) -> bool:
    """Another flavour, scent, colour… named in the title."""
    keys = [k for k in kind.title_attrs if k in product["attributes"]]
    if not keys:
        return False
    key = rng.choice(keys)
    old = product["attributes"][key][0]
    named = _title_case(old)
    others = [v for v in kind.title_attrs[key] if v != old]
    if named not in product["title"] or not others:  # a themed kind may name one value only
        return False
    new = rng.choice(others)
    product["title"] = product["title"].replace(named, _title_case(new), 1)
    product["attributes"][key] = [new]
    _refresh_text(product)
    return True


def _change_attribute(product: dict, rng: random.Random) -> bool:
    """Swap one attribute value that the title does not mention for another value of the same kind."""
    kind = next((k for k in KINDS if k.category == product["category"]), None)
    if kind is None:
        return False
    keys = [key for key in kind.attrs if key in product["attributes"] and len(kind.attrs[key]) > 1]
    if not keys:
        return False
    key = rng.choice(sorted(keys))
    old = product["attributes"][key][0]
    product["attributes"][key] = [rng.choice([v for v in kind.attrs[key] if v != old])]
    _refresh_text(product)
    return True


SOURCE_DIGEST = source_digest(__file__)
"""This module's source as imported (mcp_server.world.generator_fingerprint combines them)."""
