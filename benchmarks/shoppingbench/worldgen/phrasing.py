"""How generated instructions say things.

A shopper names a product in their own words (`noun_phrase`: "a red Nike basketball jersey", brand as the catalog
writes it, a few title qualities in the order people say them, article and plural by `inflect`, never a detail
stated elsewhere) and states each constraint once, the way people do (wording.py: "in size large", "with
complimentary shipping", "under 500 PHP", "decaf" before the noun). Every clause has a fixed lead and its value ends
where the next clause's lead begins (`LEADS`), so reading.py's `parse_item` recovers exactly the constraints that
were written.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from functools import cache

import inflect

from benchmarks.shoppingbench.schema import Product, Target
from benchmarks.shoppingbench.worldgen import source_digest
from benchmarks.shoppingbench.worldgen.offers import price_clause, service_clauses
from benchmarks.shoppingbench.worldgen.vocab import COLORS, KINDS, Kind
from benchmarks.shoppingbench.worldgen.wording import (
    ATTRIBUTIVE,
    BETWEEN,
    GREATER_THAN,
    GREATER_THAN_STRICT,
    KEY_TEMPLATES,
    LESS_THAN,
    LESS_THAN_STRICT,
    MASS_NOUNS,
    NATURAL,
    NOUN_SYNONYMS,
    SERVICE_PHRASES,
    SPARE_TEMPLATES,
    USES,
)

ENGLISH = inflect.engine()
NUMBER = r"(\d+(?:\.\d+)?)"
INCH_KEYS = frozenset(("fan_size", "laptop_size", "chain_length"))
"""Sizes said as an adjective: "a 16-inch blade", "a 15.6-inch laptop"."""
PREMODIFIERS = frozenset(("decaf", "caffeine-free", "gluten-free", "gold-plated", "cordless", "battery-powered",
                          "DOT certified", "ECE certified"))
"""NATURAL qualities said before the noun ("a cordless drill"); the others follow it."""

COLOR_WORDS = tuple(sorted({"gray" if c == "grey" else c for c in COLORS}, key=len, reverse=True))
"""Colours said before the noun ("a gray shirt dress"); only a stated colour stands there, so the reader takes a
lower-case colour word opening the product's name for the stated one."""
COLOR_FIRST = re.compile(r"^[\s|]*(?:(?:[Aa]n?|[Ss]ome)\s+)?(" + "|".join(re.escape(c) for c in COLOR_WORDS)
                         + r")(?=\s+[A-Za-z])")
"""A stated colour before the noun: a lower-case colour word opening the item ("a gray shirt dress")."""
COLOR_FIRST_RATE = 0.6
WRITTEN_RATE, PACKED = 0.25, ("set_pieces", "volume")
"""How often a measure keeps the catalog's own form ("500g", "2pcs"); a pack or volume nearly always ("50ml")."""
LOWER_BRAND_RATE = 0.03
"""How often a stated brand is typed in lower case (the official set: about one task in twenty)."""
PRICE_LAST_RATE = 0.9
"""The official set says the price last, after the details and services, nearly always."""

USE_RATE = 0.04
"""How often a product is named with what it is for ("for my dog"): rare, as in the official set."""

KNOWN_KEYS: frozenset[str] = frozenset(KEY_TEMPLATES) | {key for key, _ in NATURAL}
"""The attribute keys a generated task may constrain: those with a natural wording (keys of real records outside
these are not stated)."""

VALUE_RE = re.compile(r"^[a-z0-9][a-z0-9 .:+/'&-]*[a-z0-9+]$|^[a-z0-9]$")


def lead_words() -> tuple[str, ...]:
    """First words of every clause form: a value ends where the next clause begins."""
    forms = [t for ts in KEY_TEMPLATES.values() for t in ts] + list(NATURAL.values()) + [
        p for ps in SERVICE_PHRASES.values() for p in ps] + list(
        LESS_THAN + LESS_THAN_STRICT + GREATER_THAN + GREATER_THAN_STRICT + BETWEEN)
    words = {form.split()[0].lower() for form in forms
             if not form.startswith("{") and form not in PREMODIFIERS}
    return tuple(sorted(words | {"and", "but"}))


LEADS = r" (?:" + "|".join(re.escape(w) for w in lead_words()) + r")\b"
VALUE = r"((?:(?!" + LEADS + r")[^,;?!()|\n])+?)"
"""A value: no clause delimiter, and no word that begins another clause."""
AFTER = r"(?=\s*[,;?!)|]|\.(?:\s|$)|\s*$|\n|" + LEADS + r")"
BEFORE = r"(?:^|(?<=[\s,;:(]))"


def sayable(key: str, value: str) -> bool:
    """A (key, value) pair the wordings can state and the parser can read back."""
    return (key, value) in NATURAL or (key in KEY_TEMPLATES and bool(VALUE_RE.match(value))
                                        and re.search(LEADS, f" {value}") is None)


def pair_clause(key: str, value: str, rng: random.Random, *, brand: str = "", noun: str = "") -> str:
    """One detail in words: its natural quality ("decaf", "for women") or a form around its spoken value (a brand
    as the catalog writes it), in a form that does not say the `noun` again ("a chain with a 16-inch length")."""
    if (key, value) in NATURAL:
        return NATURAL[(key, value)]
    if key == "brand" and brand.lower() == value:
        said = value if rng.random() < LOWER_BRAND_RATE else brand
    elif key == "size" and value in SIZES and rng.random() < 0.4:
        said = value.upper()  # "in size XL"
    elif key != "size" and spoken(key, value) != value and rng.random() < WRITTEN_RATE + (key in PACKED) * 0.65:
        said = value  # the catalog's "500g", "2pcs"
    else:
        said = said_quality(key, spoken(key, value))
    usual = [form for form in KEY_TEMPLATES[key] if not _shares_word(form.replace("{v}", ""), noun)]
    template = rng.choice(usual or SPARE_TEMPLATES.get(key) or KEY_TEMPLATES[key])
    if template.partition("{v}")[2].split(" ")[1:2] in ([noun] for noun in ATTRIBUTIVE):
        said = _one_unit(said)  # "a 100 gram pack", not "a 100 grams pack"
    if "a {v}" in template:  # "a smoke visor", "an iridium visor"
        return template.replace("a {v}", article(said))
    return template.format(v=said)


def _one_unit(said: str) -> str:
    for _, one, many in UNITS:
        if said.endswith(f" {many}") and many != one:
            return said[:-len(many)] + one
    return said


def article(words: str) -> str:
    """The words with "a" or "an" (inflect's; an acronym read letter by letter: "an LED strip"; digits as said)."""
    first = words.split(" ")[0]
    if first.isupper() and len(first) <= 4 and first.isalpha():
        return f"{'an' if first[0] in 'AEFHILMNORSX' else 'a'} {words}"
    if digits := re.match(r"\d+", first):
        return f"{ENGLISH.a(str(ENGLISH.number_to_words(digits.group()))).split(' ')[0]} {words}"
    return ENGLISH.a(words)


UNITS: tuple[tuple[str, str, str], ...] = (
    # (written unit, spoken unit for 1, spoken unit otherwise)
    ("kg", "kilo", "kilos"), ("mah", "mAh", "mAh"), ("ml", "milliliter", "milliliters"), ("mm", "millimeter",
    "millimeters"), ("cm", "centimeter", "centimeters"), ("pcs", "piece", "pieces"), ("pc", "piece", "pieces"),
    ("g", "gram", "grams"), ("l", "liter", "liters"), ("m", "meter", "meters"), ("v", "volt", "volts"),
    ("w", "watt", "watts"), (" inch", "inch", "inches"), (" colors", "color", "colors"),
)
SIZES = {"xs": "extra small", "s": "small", "m": "medium", "l": "large", "xl": "extra large", "2xl": "XXL",
         "3xl": "XXXL"}


def spoken(key: str, value: str) -> str:
    """How people say a written value: "250 grams" for 250g, "extra large" for xl, "EU 40" for eu:40;
    `written` turns it back."""
    if key == "stationery_line_point":
        return value
    if key == "size" and value in SIZES:
        return SIZES[value]
    if key == "size" and (match := re.fullmatch(r"eu:(\d+)", value)):
        return f"EU {match.group(1)}"
    if key in INCH_KEYS and (match := re.fullmatch(NUMBER + " inch", value)):
        return f"{match.group(1)}-inch"
    if key in ("color_family", "light_color") and value == "grey":
        return "gray"
    match = re.fullmatch(NUMBER + r"(pcs|pc|kg|mah|ml|mm|cm|g|l|m|v|w| inch| colors)", value)
    if not match:
        return value
    number, unit = match.groups()
    if (unit == "pc") != (number == "1") and unit in ("pc", "pcs"):
        return value
    for written_unit, one, many in UNITS:
        if unit == written_unit:
            return f"{number} {one if number == '1' else many}"
    return value


def written(key: str, value: str) -> str:
    """The catalog's form of a value as a shopper says it (the inverse of `spoken`; written values stay)."""
    value = value.strip().lower()
    if key == "size":
        sizes = {said.lower(): short for short, said in SIZES.items()}
        if value in sizes:
            return sizes[value]
        if match := re.fullmatch(r"eu (\d+)", value):
            return f"eu:{match.group(1)}"
    if key in ("color_family", "light_color") and value == "gray":
        return "grey"
    if match := re.fullmatch(NUMBER + "-inch", value):
        return f"{match.group(1)} inch"
    if match := re.fullmatch(NUMBER + r" ([a-z]+)", value):
        number, said = match.groups()
        for written_unit, one, many in UNITS:
            if said in (one.lower(), many.lower()) and (written_unit not in ("pc", "pcs") or
                                                         (written_unit == "pc") == (number == "1")):
                return f"{number}{written_unit}"
    return value


def agreeing(form: str) -> str:
    """A "that ..." form agreeing with a plural noun ("toy bricks that have 100 pieces", "options that support cash
    on delivery"); other forms as they are. The parser reads both."""
    words = form.split(" ")
    if len(words) > 1 and words[0] == "that" and words[1] != "I":
        words[1] = ENGLISH.plural_verb(words[1])
    return " ".join(words)


# --- the product in a shopper's words ----------------------------------------------------------------------------

STOPWORDS = frozenset(re.findall(r"\S+",
    "a an the and or of for to in on with by from at as is it i me my we you your can could would this that these "
    "those some any one please want need looking look find show buy get like id i'd im i'm something which what "
    "should be has have item items also more shop store sells sell products product all"))
VAGUE_HEADS = frozenset(("equipment", "accessory", "accessories", "part", "item", "product", "supply", "tool"))
"""Category words that say no more than what department a product is in."""
PACKAGING = frozenset(("kit", "set", "pack", "box", "bundle", "lot", "pcs", "piece", "pieces"))
"""Words a real title packs its product in, never said before its noun ("a kit sauce")."""
BRACKETS = re.compile(r"[\(\[（【].*?[\)\]）】]")


def kind_of(product: Product) -> Kind | None:
    """The template a product was drawn from (real records that share a category have another brand)."""
    for kind in KINDS:
        if kind.category == product.category and product.brand in kind.brands:
            return kind
    return None


@dataclass
class NounPhrase:
    """The product as a shopper names it, drawn once per task: brand (as the catalog writes it), qualities from its
    title (key, words; key "" for a real title's words), the kind's word for it and what it is for. Each writing of
    the task renders it without what the clauses say, so a detail is never said twice."""

    noun: str
    qualities: list[tuple[str, str]] = field(default_factory=list)
    brand: str = ""
    use: str = ""
    plural: bool = False

    def render(self, premodifiers: tuple[str, ...] | list[str] = (), *, said: frozenset[str] = frozenset(),
               said_words: frozenset[str] = frozenset(), plural: bool | None = None, color: str = "") -> str:
        """"a red Nike cotton jersey for our team": colour, brand, premodifying qualities, title qualities, noun;
        without the qualities of the keys `said` in clauses (or, for a real title's words, sharing `said_words`)."""
        plural = self.plural if plural is None else plural
        noun = self.noun
        if plural:
            *rest, head = noun.split(" ")
            noun = " ".join([*rest, ENGLISH.plural_noun(head) or head])
        kept = [(k, v) for k, v in self.qualities if k not in said
                and not (k == "" and {_singular(w) for w in v.lower().split()} & said_words)]
        others = [v for k, v in kept if k != "color_family"]
        brand = self.brand if "brand" not in said else ""
        words = " ".join(w for w in [color, brand, *premodifiers, *others, noun] if w)
        head = self.noun.split(" ")[-1].lower()
        if not plural and head not in MASS_NOUNS and not _is_plural(head):
            words = article(words)
        return f"{words} {self.use}".strip()


CASED = {"iphone": "iPhone", "redmi": "Redmi", "samsung": "Samsung", "oppo": "OPPO", "vivo": "vivo",
         "realme": "realme", "t-shirt": "T-shirt"}
CAPITALISED_KEYS = frozenset(("language", "make", "origin", "place", "name"))
ACRONYMS = frozenset(("3d", "tpu", "pc", "eva", "rgb", "usb", "led", "icc", "dot", "ece", "pp", "abs", "pu"))


def said_quality(key: str, value: str) -> str:
    """A title value as written in a sentence: proper names capitalised ("Japanese", "Toyota", "iPhone 13")."""
    if key == "compatible_model":
        return " ".join(CASED.get(w, w.upper() if re.fullmatch(r"[a-z]\d+", w) else w) for w in value.split())
    if key in ("certification", "light_color", "material", "sole_material", "connector") or value in ACRONYMS:
        return " ".join(w.upper() if w in ACRONYMS else w for w in value.split())
    if key in CAPITALISED_KEYS:
        return " ".join(w.capitalize() for w in value.split())
    return value


def noun_phrase(product: Product, rng: random.Random, *, leave_out: str | None = None,
                exact: bool = False) -> NounPhrase:
    """The product in a shopper's words, without the `leave_out` title attribute (a knowledge task's answer); `exact`:
    the title's noun, descriptor and every quality, so the words pick it out among listings sharing the answer."""
    kind = kind_of(product)
    if kind is None:
        return _free_phrase(product, rng, leave_out)
    title = product.title
    noun = next((n for n in sorted(kind.nouns, key=len, reverse=True) if n in title), kind.nouns[0])
    said_noun = " ".join(CASED.get(w, w.upper() if w in ACRONYMS else w) for w in noun.lower().split())
    name = rng.choice(NOUN_SYNONYMS.get(noun, (said_noun,))) if rng.random() < 0.6 and not exact else said_noun
    phrase = NounPhrase(noun=name, brand=product.brand if rng.random() < 0.35 and leave_out != "brand" else "")
    descriptor = next((d for d in kind.descriptors if title.startswith(f"{product.brand} {d} ")), "")
    if exact and descriptor and not _shares_word(descriptor, name):
        phrase.qualities.append(("", descriptor.lower()))
    for key in kind.title_attrs:
        if key in product.attributes and key not in (leave_out, "color_family") and (exact or rng.random() < 0.45):
            value = said_quality(key, product.attributes[key][0])
            if not _shares_word(value, name) and not _colored(value):
                phrase.qualities.append((key, value))
    if rng.random() < USE_RATE:
        phrase.use = rng.choice(USES.get(kind.category.split(" > ")[-1], ("",)))
    phrase.plural = rng.random() < 0.2 and name.split(" ")[-1] not in MASS_NOUNS and not name.endswith("s")
    return phrase


def product_phrase(product: Product, rng: random.Random, *, leave_out: str | None = None, exact: bool = False) -> str:
    """The product as a knowledge task names it: one, with its article, without its brand (the official ones never
    name it: the fact leads to it) and without what it is for (the task may say that after the answer)."""
    phrase = noun_phrase(product, rng, leave_out=leave_out, exact=exact)
    phrase.use, phrase.plural, phrase.brand = "", False, ""
    return phrase.render()


HEADS = ("watch", "earring", "stud", "necklace", "pendant", "choker", "bracelet", "bangle", "anklet", "charm",
         "ring", "cable", "charger", "adapter", "screen", "digitizer", "battery", "keyboard", "t-shirt", "tee",
         "shirt", "dress", "hoodie", "costume", "top", "pajama", "legging", "sandal", "shoe", "boot", "sneaker",
         "slipper", "flip-flop", "wallet", "backpack", "bag", "purse", "case", "hat", "cap", "scarf", "glove", "belt",
         "sunglasses")
"""Head nouns of real titles (the catalog's AMAZON_KINDS), found in a title to name the product by it."""


def _free_phrase(product: Product, rng: random.Random, leave_out: str | None) -> NounPhrase:
    """A real title named by its head noun and up to two words before it in the title ("heart necklace"), or by
    the category's word for it; never the brand, never a word twice."""
    brand = {w.lower() for w in product.brand.split()}
    skip = set(product.attributes[leave_out][0].lower().split()) if leave_out in product.attributes else set()
    words, index = _title_head(product)
    if index is None:
        noun = _singular(_kind_noun(product.category))
        before = words
    else:
        noun = _singular(words[index].lower())
        before = words[:index]
    kept: list[str] = []
    wanted = rng.randint(1, 2)
    for word in reversed(before):
        lower = word.lower()
        if lower in brand | skip | STOPWORDS | PACKAGING or len(word) < 3 \
                or _shares_word(lower, " ".join([noun, *kept])) \
                or lower in COLOR_WORDS or lower == "grey":
            if kept:
                break
            continue
        kept.insert(0, word if word.isupper() and len(word) <= 4 else lower)
        if len(kept) == wanted:
            break
    return NounPhrase(noun=_clean(noun), qualities=[("", _clean(" ".join(kept)))] if kept else [])


def _title_head(product: Product) -> tuple[list[str], int | None]:
    """A real title's words and where its head noun stands (the category's word for it, or a common head)."""
    words = re.findall(r"[A-Za-z][A-Za-z'-]+", BRACKETS.sub(" ", product.title))
    leaf = [_singular(w) for w in re.findall(r"[a-z]+", product.category.split(" > ")[-1].lower())]
    singular = [_singular(w.lower()) for w in words]
    return words, next((i for head in (leaf[-1:], [*leaf, *HEADS]) for i, w in enumerate(singular) if w in head),
                       None)


def nameable(product: Product) -> bool:
    """A shopper can name it: a generated kind, or a real title holding a head noun that says what it is. Without one
    the title's words before the category's noun name nothing ("an oil based woman", "a domestico switch", "aid
    equipment"), so it makes no target."""
    if kind_of(product) is not None:
        return True
    words, index = _title_head(product)
    return index is not None and _singular(words[index].lower()) not in VAGUE_HEADS


@cache
def _singular(word: str) -> str:
    """inflect's singular, remembered: the generator asks about the same few hundred words a hundred thousand times."""
    return ENGLISH.singular_noun(word) or word


def _is_plural(word: str) -> bool:
    return _singular(word) != word


def _colored(text: str) -> bool:
    """Words opening with a colour ("green tea", "gold plated"): in front of the noun they would read as a stated
    colour, so a title quality like that is left out."""
    return COLOR_FIRST.search(text) is not None or text.split(" ")[0].lower() in COLOR_WORDS


def _shares_word(text: str, other: str) -> bool:
    """Two phrases share a word, plurals aside ("ring" and "rings"): saying both would double it."""
    return bool({_singular(w) for w in text.lower().split()} & {_singular(w) for w in other.lower().split()})


def _kind_noun(category: str) -> str:
    """"Jewelry > Earrings" → "earrings"; "Hats & Belts" → "hats"."""
    leaf = category.split(" > ")[-1].split("&")[0].split(",")[0].strip().lower()
    return leaf or "item"


def _clean(text: str) -> str:
    """No characters the clause grammar uses as delimiters, no words it reads as a clause."""
    text = re.sub(r"[,;?!()\[\]{}|]|[.:](?=\s|$)", " ", text).replace(" and ", " & ").replace(" but ", " ")
    return " ".join(text.split()).strip(" .:-")


# --- writing an item ------------------------------------------------------------------------------------------------

@dataclass
class Item:
    """One wanted product in words: its noun phrase (premodifying qualities included) and the clauses after it."""

    phrase: str
    clauses: list[str]
    plural: bool = False

    def text(self, rng: random.Random) -> str:
        """"a red Nike jersey in size large, with free shipping and under 500 PHP"."""
        return f"{self.phrase} {join_clauses(self.clauses, rng)}".strip()


def join_clauses(clauses: list[str], rng: random.Random) -> str:
    if len(clauses) <= 1:
        return "".join(clauses)
    unlike = clauses[-1].startswith("that ") != clauses[-2].startswith("that ")  # not "that supports X and costing"
    last = ", " if " and " in clauses[-1] + clauses[-2] or unlike else rng.choice((", ", " and ", " and "))
    return ", ".join(clauses[:-1]) + last + clauses[-1]


def item_words(target: Target, product: Product, rng: random.Random, phrase: NounPhrase | None = None) -> Item:
    """The product named (`phrase`, drawn once per task) without the details the target states, and each stated
    detail, service and price said once: a quality people put before the noun ("decaf", "cordless") goes there,
    the others follow it."""
    pairs = _ordered_pairs(target)
    phrase = phrase or noun_phrase(product, rng)
    before: list[str] = []
    clauses: list[str] = []
    color = ""
    for key, value in pairs:
        if key == "color_family" and spoken(key, value) in COLOR_WORDS and rng.random() < COLOR_FIRST_RATE:
            color = spoken(key, value)
            continue
        clause = pair_clause(key, value, rng, brand=product.brand, noun=phrase.noun)
        (before if clause in PREMODIFIERS else clauses).append(clause)
    rng.shuffle(clauses)
    clauses += service_clauses(target.service or [], rng, with_said=any(c.startswith("with ") for c in clauses))
    if target.price:
        price = price_clause(target.price[0], product.price, rng,
                             with_said=any(c.startswith("with ") for c in clauses))
        clauses.insert(len(clauses) if rng.random() < PRICE_LAST_RATE else rng.randint(0, len(clauses)), price)
    # "a case that fits", not "cases that fits"
    plural = phrase.plural and not any(c.startswith("that ") and not c.startswith("that I ") for c in clauses)
    said_words = frozenset(_singular(w) for _, v in pairs for w in v.split())
    text = phrase.render(before, said=frozenset(k for k, _ in pairs), said_words=said_words, plural=plural,
                         color=color)
    if _is_plural(phrase.noun.split()[-1]):  # "toy bricks that have", not "that has"
        clauses = [agreeing(c) for c in clauses]
    return Item(text, clauses, plural or _is_plural(phrase.noun.split()[-1]))


def item_text(target: Target, product: Product, rng: random.Random) -> str:
    return item_words(target, product, rng).text(rng)


def _ordered_pairs(target: Target) -> list[tuple[str, str]]:
    pairs = [(k, v) for option in target.sku_options or [] for k, v in option.items()]
    pairs += [(k, values[0]) for attribute in target.attributes or [] for k, values in attribute.items()]
    return list(dict.fromkeys(pairs))


SOURCE_DIGEST = source_digest(__file__)
"""This module's source as imported (mcp_server.world.generator_fingerprint combines them)."""
