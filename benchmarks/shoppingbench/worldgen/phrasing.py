"""How generated instructions say things, and how they are read back.

A shopper names a product in their own words (`product_phrase`: brand kept or dropped, the kind by a synonym, a few
of its qualities in another order, sometimes what it is for) and states each constraint the way people do ("at most
40 pesos", "ships free", "from an official store", "made of cotton", "decaf"). Every clause has a fixed lead or a
fixed tail around its value, so `parse_item` recovers exactly the constraints that were written: the task generator
keeps a task only if `parse_item(text)` gives back its target's constraints (`stated_exactly`), and the `heuristic`
baseline reads instructions through the same parser, i.e. through nothing but the instruction's words.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from benchmarks.shoppingbench.schema import PriceConstraint, Product, Target
from benchmarks.shoppingbench.worldgen import source_digest
from benchmarks.shoppingbench.worldgen.vocab import KINDS, Kind

# --- constraint clauses ------------------------------------------------------------------------------------------

NUMBER = r"(\d+(?:\.\d+)?)"
LESS_THAN = ("at most {h} pesos", "no more than ₱{h}", "{h} pesos max", "up to ₱{h}", "under {h} pesos")
GREATER_THAN = ("at least {l} pesos", "{l} pesos or more", "not less than ₱{l}", "₱{l} and up")
BETWEEN = ("between {l} and {h} pesos", "₱{l} to ₱{h}", "from {l} up to {h} pesos")

SERVICE_PHRASES: dict[str, tuple[str, ...]] = {
    "official": ("from an official store", "sold by an official shop", "from a LazMall official store"),
    "freeShipping": ("ships free", "with free shipping", "with free delivery"),
    "COD": ("cash on delivery", "with COD", "payable on delivery"),
    "flashsale": ("on flash sale", "part of a flash sale"),
}

KEY_NAMES: dict[str, str] = {
    "net_weight": "net weight", "roast_level": "roast", "tea_bags": "bag count", "set_pieces": "piece count",
    "fa_pattern": "pattern", "stationery_line_point": "tip size", "music_accessories_function": "use",
    "types_of_teats": "teat type", "shoes_closuretype": "closure", "type_of_inks": "ink type",
    "clothing_material": "fabric", "sole_material": "sole", "color_family": "colour", "light_color": "light colour",
    "age_range": "age range", "breed_size": "breed size", "life_stage": "life stage", "ball_size": "ball size",
    "grip_size": "grip size", "inner_pot": "inner pot", "speed_settings": "speed settings", "lid_type": "lid",
    "power_source": "power source", "fan_size": "fan size", "plush_size": "plush size", "strip_length": "length",
    "chain_length": "chain length", "cable_length": "cable length", "laptop_size": "laptop size",
    "compatible_model": "phone model", "battery_capacity": "battery capacity", "max_power": "max power",
    "output_ports": "output ports", "noise_cancelling": "noise cancelling", "fast_charging": "fast charging",
    "book_cover": "cover", "dress_length": "dress length", "fit_type": "fit", "skin_type": "skin type",
    "fragrance_family": "fragrance family", "dietary_needs": "diet", "grain_type": "grain", "wax_type": "wax",
    "burn_time": "burn time", "stove_type": "stove", "activity_type": "activity", "tea_type": "tea type",
}
"""Key → how a shopper names it. Keys not listed are named by their own words (underscores as spaces)."""

KEY_TEMPLATES: dict[str, tuple[str, ...]] = {
    "color_family": ("in {v}", "colour {v}", "in the colour {v}"),
    "light_color": ("with {v} light", "light colour {v}"),
    "size": ("in size {v}", "size {v}"),
    "material": ("made of {v}", "material: {v}"),
    "clothing_material": ("in {v} fabric", "fabric: {v}"),
    "flavor": ("with {v} flavour", "flavour: {v}", "in the {v} flavour"),
    "scent": ("with a {v} scent", "scent: {v}"),
    "brand": ("by {v}", "from the brand {v}"),
}
GENERIC_TEMPLATES = ("{n}: {v}", "with {n} {v}", "where the {n} is {v}")

NATURAL: dict[tuple[str, str], str] = {
    ("caffeine", "decaf"): "decaf", ("caffeine", "caffeine free"): "caffeine-free",
    ("dietary_needs", "gluten free"): "gluten-free", ("dietary_needs", "vegan"): "suitable for vegans",
    ("stove_type", "induction"): "that works on induction", ("stove_type", "all stoves"): "that works on any stove",
    ("power_source", "cordless"): "cordless", ("power_source", "corded"): "with a power cord",
    ("fast_charging", "yes"): "that supports fast charging", ("timer", "yes"): "that has a timer",
    ("noise_cancelling", "active"): "with active noise cancelling", ("book_cover", "hardcover"): "in hardcover",
    ("book_cover", "paperback"): "in paperback", ("gender", "women"): "for women", ("gender", "men"): "for men",
    ("life_stage", "puppy"): "for puppies", ("life_stage", "senior"): "for senior dogs",
    ("level", "beginner"): "for beginners", ("level", "advanced"): "for advanced learners",
    ("skin_type", "oily"): "for oily skin", ("skin_type", "sensitive"): "for sensitive skin",
    ("skin_type", "dry"): "for dry skin", ("coating", "non-stick"): "with a non-stick coating",
    ("certification", "dot"): "DOT certified", ("certification", "ece"): "ECE certified",
    ("fit_type", "oversized"): "with an oversized fit", ("fit_type", "slim fit"): "with a slim fit",
}
"""(key, value) pairs a shopper states as a quality rather than a field; only the product page shows them."""

KNOWN_KEYS: frozenset[str] = frozenset(
    {key for kind in KINDS for table in (kind.title_attrs, kind.attrs, kind.sku) for key in table}
    | {kind.measure[0] for kind in KINDS if kind.measure} | {"material", "color_family", "set_pieces", "size", "brand"})
"""The attribute keys a generated task may constrain (keys of real records outside these are not stated)."""

VALUE_RE = re.compile(r"^[a-z0-9][a-z0-9 .:+/'&-]*[a-z0-9+]$|^[a-z0-9]$")
VALUE = r"([^,;?!()]+?)"
AFTER = r"(?=,|;|\.(?:\s|$)|\?|!|\)|$| and | but )"
BEFORE = r"(?:^|(?<=, )|(?<=; )|(?<= and )|(?<= but )|(?<=: )|(?<=\. )|(?<=\())"


def sayable(key: str, value: str) -> bool:
    """A (key, value) pair the templates can state and the parser can read back."""
    return key in KNOWN_KEYS and bool(VALUE_RE.match(value)) and " and " not in value and " but " not in value


def key_name(key: str) -> str:
    return KEY_NAMES.get(key, key.replace("_", " "))


def _templates(key: str) -> tuple[str, ...]:
    return KEY_TEMPLATES.get(key, ()) + tuple(t.replace("{n}", key_name(key)) for t in GENERIC_TEMPLATES)


def pair_clause(key: str, value: str, rng: random.Random, *, natural: bool) -> str:
    if natural and (key, value) in NATURAL:
        return NATURAL[(key, value)]
    said = spoken(key, value) if rng.random() < 0.9 else value
    return rng.choice(_templates(key)).format(v=said)


UNITS: tuple[tuple[str, str, str], ...] = (
    # (written unit, spoken unit for 1, spoken unit otherwise)
    ("kg", "kilo", "kilos"), ("mah", "mAh", "mAh"), ("ml", "millilitre", "millilitres"), ("mm", "millimetre",
    "millimetres"), ("cm", "centimetre", "centimetres"), ("pcs", "piece", "pieces"), ("pc", "piece", "pieces"),
    ("g", "gram", "grams"), ("l", "litre", "litres"), ("m", "metre", "metres"), ("v", "volt", "volts"),
    ("w", "watt", "watts"), (" inch", "inch", "inches"), (" colors", "colour", "colours"),
)
SIZES = {"xs": "extra small", "s": "small", "m": "medium", "l": "large", "xl": "extra large", "2xl": "XXL",
         "3xl": "XXXL"}


def spoken(key: str, value: str) -> str:
    """How people say a written value: "250 grams" for 250g, "extra large" for xl, "EU size 40" for eu:40;
    `written` turns it back."""
    if key == "size" and value in SIZES:
        return SIZES[value]
    if key == "size" and (match := re.fullmatch(r"eu:(\d+)", value)):
        return f"EU size {match.group(1)}"
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
        if match := re.fullmatch(r"eu size (\d+)", value):
            return f"eu:{match.group(1)}"
    if key in ("color_family", "light_color") and value == "gray":
        return "grey"
    if match := re.fullmatch(NUMBER + r" ([a-z]+)", value):
        number, said = match.groups()
        for written_unit, one, many in UNITS:
            if said in (one.lower(), many.lower()) and (written_unit not in ("pc", "pcs") or
                                                         (written_unit == "pc") == (number == "1")):
                return f"{number}{written_unit}"
    return value


def price_clause(constraint: PriceConstraint, price: float, rng: random.Random) -> str:
    (mode, (low, high)), = constraint.items()
    if mode == "less than":
        choices = LESS_THAN if high is not None and high > price else LESS_THAN[:4]
        return rng.choice(choices).format(h=_number(high))
    if mode == "greater than":
        return rng.choice(GREATER_THAN).format(l=_number(low))
    return rng.choice(BETWEEN).format(l=_number(low), h=_number(high))


def _number(value: float | None) -> str:
    return f"{value or 0:g}"


def _pattern(template: str) -> re.Pattern[str]:
    escaped = re.escape(template)
    for name in ("v", "l", "h"):
        escaped = escaped.replace(re.escape("{" + name + "}"), f"(?P<{name}>{NUMBER if name != 'v' else VALUE})")
    return re.compile(BEFORE + escaped + AFTER, re.IGNORECASE)


PRICE_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    [("between", _pattern(t)) for t in BETWEEN] + [("less than", _pattern(t)) for t in LESS_THAN]
    + [("greater than", _pattern(t)) for t in GREATER_THAN])
SERVICE_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (service, re.compile(BEFORE + re.escape(phrase) + AFTER, re.IGNORECASE))
    for service, phrases in SERVICE_PHRASES.items() for phrase in phrases)
NATURAL_PATTERNS: tuple[tuple[tuple[str, str], re.Pattern[str]], ...] = tuple(
    (pair, re.compile(BEFORE + re.escape(phrase) + AFTER, re.IGNORECASE))
    for pair, phrase in sorted(NATURAL.items(), key=lambda item: -len(item[1])))
PAIR_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(sorted(
    ((key, _pattern(template)) for key in KNOWN_KEYS for template in _templates(key)),
    key=lambda item: -len(item[1].pattern)))
"""Longest first, so "in the colour {v}" is tried before "in {v}"."""

# --- the product in a shopper's words ----------------------------------------------------------------------------

NOUN_SYNONYMS: dict[str, tuple[str, ...]] = {
    "Ground Coffee": ("coffee powder", "ground coffee"), "Coffee Beans": ("whole bean coffee", "coffee beans"),
    "3-in-1 Instant Coffee": ("instant coffee mix", "coffee sachets"), "Potato Chips": ("potato crisps",),
    "Banana Chips": ("dried banana chips",), "Cassava Chips": ("kamoteng kahoy chips", "cassava crisps"),
    "Corn Chips": ("corn snack",), "Tea Bags": ("bagged tea", "tea"), "Loose Leaf Tea": ("loose tea",),
    "Iced Tea Powder": ("iced tea mix",), "Jasmine Rice": ("fragrant rice",), "Brown Rice": ("unpolished rice",),
    "Dinorado Rice": ("dinorado",), "Red Rice": ("red rice",), "Eau de Parfum": ("perfume", "parfum"),
    "Body Mist": ("body spray",), "Eau de Toilette": ("toilette spray", "perfume"), "Cologne": ("cologne spray",),
    "Bar Soap": ("soap bar",), "Body Wash": ("shower soap",), "Whitening Soap": ("skin whitening soap",),
    "Shower Gel": ("bath gel",), "Face Cream": ("facial cream",), "Moisturizer": ("moisturising cream",),
    "Night Cream": ("overnight cream",), "Sunscreen Lotion": ("sunblock",), "Phone Case": ("phone cover",),
    "Silicone Case": ("soft phone case",), "Shockproof Cover": ("rugged phone case",),
    "USB C Cable": ("type-c cord",), "Lightning Cable": ("iphone charging cord",),
    "Micro USB Cable": ("micro usb cord",),
    "Fast Charging Cable": ("quick charge cable",), "Power Bank": ("portable charger",),
    "Magnetic Power Bank": ("magsafe battery pack",), "Wireless Earbuds": ("true wireless earphones", "tws earbuds"),
    "Bluetooth Headphones": ("wireless headset",), "Wired Earphones": ("earphones with cable",),
    "T-Shirt": ("tee", "shirt"), "Oversized Tee": ("loose fit shirt",), "Polo Shirt": ("collared shirt",),
    "Crew Neck Shirt": ("round neck tee",), "Maxi Dress": ("long dress",), "Midi Dress": ("knee length dress",),
    "Floral Dress": ("flower print dress",), "Shirt Dress": ("button dress",), "Basketball Jersey": ("ball jersey",),
    "Team Jersey": ("team uniform top",), "Jersey Set": ("jersey and shorts set",), "Running Shoes": ("runners",),
    "Sneakers": ("rubber shoes", "trainers"), "Training Shoes": ("gym shoes",), "Ball": ("ball",),
    "Official Size Ball": ("regulation ball",), "Training Ball": ("practice ball",), "Racket": ("racquet",),
    "Racket Set": ("racquet set",), "Yoga Mat": ("exercise mat",), "Exercise Mat": ("workout mat",),
    "Strings": ("string set",), "Bow": ("bow",), "Clip-On Tuner": ("tuner",), "Shoulder Rest": ("shoulder pad",),
    "Gig Bag": ("soft case",), "Dictionary": ("word reference book",), "Phrasebook": ("phrase guide",),
    "Workbook": ("exercise book",), "Rice Cooker": ("rice pot",), "Multi Cooker": ("all-in-one cooker",),
    "Stand Fan": ("floor fan",), "Desk Fan": ("table fan",), "Wall Fan": ("wall mounted fan",),
    "Tower Fan": ("tall fan",), "Frying Pan": ("skillet",), "Wok": ("wok",), "Grill Pan": ("griddle pan",),
    "Saucepan": ("sauce pot",), "Tumbler": ("travel cup",), "Water Bottle": ("drinking bottle",),
    "Insulated Mug": ("thermal mug",), "Cordless Drill": ("battery drill",), "Impact Drill": ("hammer drill",),
    "Rotary Hammer": ("demolition hammer drill",), "Screwdriver Set": ("set of screwdrivers",),
    "Precision Screwdriver Kit": ("repair screwdriver kit",), "Car Cover": ("car tarp",),
    "Door Visor": ("rain guard",), "Seat Cover": ("car seat protector",), "Floor Mat": ("car mat",),
    "Car Shampoo": ("car wash soap",), "Car Wax": ("car polish",), "Tire Black": ("tyre shine",),
    "Glass Cleaner": ("windshield cleaner",), "Full Face Helmet": ("full-face motorcycle helmet",),
    "Half Face Helmet": ("open face helmet",), "Modular Helmet": ("flip-up helmet",),
    "Building Blocks": ("block toy set",), "Brick Set": ("toy bricks",), "Construction Kit": ("building kit",),
    "Plush Toy": ("soft toy",), "Stuffed Animal": ("stuffed toy",), "Plush Pillow": ("cuddle pillow",),
    "Crayons": ("wax crayons",), "Colored Pencils": ("coloring pencils",), "Oil Pastels": ("pastel crayons",),
    "Watercolor Set": ("watercolour paints",), "Gel Pen": ("gel ink pen",), "Sign Pen": ("felt pen",),
    "Ballpoint Pen": ("ballpen",), "Fineliner": ("fine tip marker",), "Feeding Bottle": ("milk bottle",),
    "Sippy Cup": ("toddler cup",), "Baby Bottle": ("milk bottle for babies",), "Dry Dog Food": ("dog kibble",),
    "Dog Treats": ("dog snacks",), "Puppy Food": ("food for puppies",), "Scented Candle": ("aroma candle",),
    "Soy Candle": ("soy wax candle",), "Jar Candle": ("candle in a jar",), "LED Strip Light": ("led tape light",),
    "RGB Strip": ("color changing led strip",), "Fairy Lights": ("string lights",),
    "Pendant Necklace": ("necklace with pendant",), "Chain Necklace": ("chain",), "Choker": ("choker necklace",),
    "Laptop Backpack": ("backpack for a laptop",), "School Backpack": ("school bag",),
    "Travel Backpack": ("travel bag",),
}

USES: dict[str, tuple[str, ...]] = {
    "Coffee": ("for my morning cup",), "Chips & Crisps": ("for movie night",), "Tea": ("to drink after meals",),
    "Rice": ("for the family",), "Perfume": ("as a gift",), "Soap": ("for daily use",),
    "Moisturizers": ("for my face",), "Phone Cases": ("to protect my phone",), "USB Cables": ("to charge my phone",),
    "Power Banks": ("for travel",), "Earphones": ("for the commute",), "T-Shirts": ("for everyday wear",),
    "Casual Dresses": ("for a day out",), "Jersey": ("for our team",), "Running Shoes": ("for jogging",),
    "Balls": ("for practice",), "Rackets": ("for weekend games",), "Yoga Mats": ("for home workouts",),
    "Musical Accessories": ("for my instrument",), "Language Learning": ("to study a language",),
    "Rice Cookers": ("for the kitchen",), "Electric Fans": ("for the bedroom",), "Pans": ("for cooking at home",),
    "Tumblers": ("for school",), "Drills": ("for home repairs",), "Screwdriver Sets": ("for small repairs",),
    "Car Covers & Visors": ("for my car",), "Cleaning": ("to clean my car",), "Helmets": ("for riding",),
    "Blocks": ("for my kid",), "Plush": ("as a gift for a child",), "Coloring": ("for art class",),
    "Pens": ("for note taking",), "Bottles": ("for my baby",), "Dog Food": ("for my dog",),
    "Candles": ("for the living room",), "LED Strip Lights": ("to decorate my room",), "Necklaces": ("as a gift",),
    "Laptop Backpacks": ("for work",),
}

STOPWORDS = frozenset(re.findall(r"\S+",
    "a an the and or of for to in on with by from at as is it i me my we you your can could would this that these "
    "those some any one please want need looking look find show buy get like id i'd im i'm something which what "
    "should be has have item items also more shop store sells sell products product all"))
BRACKETS = re.compile(r"[\(\[（【].*?[\)\]）】]")


def kind_of(product: Product) -> Kind | None:
    """The template a product was drawn from (real records that share a category have another brand)."""
    for kind in KINDS:
        if kind.category == product.category and product.brand in kind.brands:
            return kind
    return None


def product_phrase(product: Product, rng: random.Random, *, leave_out: str | None = None) -> str:
    """The product in a shopper's words; `leave_out` drops that title attribute's value (a knowledge task's)."""
    kind = kind_of(product)
    if kind is None:
        return _free_phrase(product, rng, leave_out)
    title = product.title
    noun = next((n for n in sorted(kind.nouns, key=len, reverse=True) if n in title), kind.nouns[0])
    descriptor = next((d for d in kind.descriptors if title.startswith(f"{product.brand} {d} ")), "")
    qualities = [product.attributes[key][0] for key in kind.title_attrs
                 if key in product.attributes and key != leave_out and rng.random() < 0.45]
    if descriptor and rng.random() < 0.2:
        qualities.append(descriptor.lower())
    rng.shuffle(qualities)
    name = rng.choice(NOUN_SYNONYMS.get(noun, (noun.lower(),))) if rng.random() < 0.6 else noun.lower()
    words = ([product.brand] if rng.random() < 0.25 else []) + qualities + [name]
    if rng.random() < 0.3:
        words.append(rng.choice(USES.get(kind.category.split(" > ")[-1], ("for home",))))
    return _clean(" ".join(words))


def _free_phrase(product: Product, rng: random.Random, leave_out: str | None) -> str:
    """A real title described by its kind: the category's own word for it and one to three of the title's words
    (in the title's order), never the brand."""
    brand = {w.lower() for w in product.brand.split()}
    skip = set(product.attributes[leave_out][0].lower().split()) if leave_out in product.attributes else set()
    words = [w for w in re.findall(r"[A-Za-z][A-Za-z'-]+", BRACKETS.sub(" ", product.title))
             if w.lower() not in brand | skip | STOPWORDS and len(w) > 2]
    kind = _kind_noun(product.category)
    picked = sorted(rng.sample(range(len(words)), min(len(words), rng.randint(1, 3))))
    chosen = [words[i].lower() for i in picked if words[i].lower() not in kind.split()]
    return _clean(" ".join(chosen + [kind]))


def _kind_noun(category: str) -> str:
    """"Jewelry > Earrings" → "earrings"; "Hats & Belts" → "hats"."""
    leaf = category.split(" > ")[-1].split("&")[0].split(",")[0].strip().lower()
    return leaf or "item"


def _clean(text: str) -> str:
    """No characters the clause grammar uses as delimiters, no words it reads as a clause."""
    text = re.sub(r"[,;?!()\[\]{}|]|[.:](?=\s|$)", " ", text).replace(" and ", " & ").replace(" but ", " ")
    return " ".join(text.split()).strip(" .:-")


# --- reading an item back ------------------------------------------------------------------------------------------

@dataclass
class ItemSpec:
    """What an instruction says about one wanted product."""

    text: str
    words: str
    """The instruction's own words naming the product (clauses and filler removed)."""
    price_min: float | None = None
    price_max: float | None = None
    price_mode: str | None = None
    services: list[str] = field(default_factory=list)
    pairs: list[tuple[str, str]] = field(default_factory=list)

    @property
    def price_filter(self) -> str | None:
        if self.price_min is None and self.price_max is None:
            return None
        low = "" if self.price_min is None else f"{self.price_min:g}"
        high = "" if self.price_max is None else f"{self.price_max:g}"
        return f"{low}-{high}"

    def price_constraint(self) -> PriceConstraint | None:
        if self.price_mode == "less than":
            return {"less than": [0, self.price_max]}
        if self.price_mode == "greater than":
            return {"greater than": [self.price_min, None]}
        if self.price_mode == "between":
            return {"between": [self.price_min, self.price_max]}
        return None


def parse_item(text: str) -> ItemSpec:
    """The constraints one item's text states, and the words left that name the product."""
    rest = text
    spec = ItemSpec(text=text, words="")

    def cut(match: re.Match[str]) -> None:
        nonlocal rest
        rest = rest[:match.start()] + " | " + rest[match.end():]

    for mode, pattern in PRICE_PATTERNS:
        match = pattern.search(rest)
        if match and spec.price_mode is None:
            groups = match.groupdict()
            spec.price_mode = mode
            spec.price_min = float(groups["l"]) if groups.get("l") else None
            spec.price_max = float(groups["h"]) if groups.get("h") else None
            cut(match)
    for service, pattern in SERVICE_PATTERNS:
        match = pattern.search(rest)
        if match:
            if service not in spec.services:
                spec.services.append(service)
            cut(match)
    for pair, pattern in NATURAL_PATTERNS:
        match = pattern.search(rest)
        if match:
            spec.pairs.append(pair)
            cut(match)
    while True:
        found = [(key, match) for key, pattern in PAIR_PATTERNS if (match := pattern.search(rest))]
        if not found:
            break
        key, first = min(found, key=lambda item: (item[1].start(), -len(item[1].group(0))))
        spec.pairs.append((key, written(key, first.group("v"))))
        cut(first)
    spec.words = search_words(rest)
    return spec


OPENERS = ("I'm looking for", "Show me", "Find me", "Looking for", "Can you find", "I want to buy", "I need",
           "Help me find", "Do you have", "I'd like")
CLOSINGS = ("Any suggestions?", "What do you have?", "Thanks!", "Can you help?")
SHOP_OPENERS = ("Find a shop that sells these items", "Is there one store with all of these",
                "I want to buy everything from one shop", "Looking for a single seller for these")
SHOP_CLOSINGS = ("The shop should sell all these products.", "All from the same shop, please.",
                 "One store for all of them, please.")
CONTEXTS = ("It's for my sister's birthday next week.", "We just moved into a new condo.",
            "I'm packing for a trip to Cebu.", "My kids go back to school on Monday.",
            "Our office pantry needs restocking.", "The rainy season is coming.", "I'm getting into home workouts.",
            "My old one broke yesterday.", "I want to treat myself this payday.", "It's a gift for my dad.",
            "I'm preparing for a family reunion.", "My girlfriend loves cute things.",
            "I'm setting up a small home office.", "Christmas is coming and I'm shopping early.",
            "I'm on a tight budget this month.", "My mom asked me to order this for her.",
            "I'm starting a small online business.", "We're having guests over this weekend.")
"""What a shopper says before asking: context that names no constraint."""
VOUCHER_OPENERS = ("I want to buy these", "Please find these for me", "I need these items")
SAID_AROUND = OPENERS + CLOSINGS + SHOP_OPENERS + SHOP_CLOSINGS + VOUCHER_OPENERS + CONTEXTS + ("Hi", "Hello", "Please")
FILLER = re.compile(r"(?<![\w'])(" + "|".join(re.escape(p.rstrip("?!."))
                                               for p in sorted(SAID_AROUND, key=len, reverse=True))
                    + r")(?![\w'])", re.IGNORECASE)


def search_words(text: str) -> str:
    """What a shopper would type into the search box: the naming words, without filler and stopwords."""
    text = FILLER.sub(" ", text)
    words = re.findall(r"[\w'&+.:/-]+", text.lower())
    kept = [w.strip(".:") for w in words if w.strip(".:") and w.strip(".:") not in STOPWORDS]
    return " ".join(dict.fromkeys(kept))


def target_pairs(target: Target) -> set[tuple[str, str]]:
    pairs = {(k, v) for option in target.sku_options or [] for k, v in option.items()}
    return pairs | {(k, v) for attribute in target.attributes or [] for k, values in attribute.items() for v in values}


def stated_exactly(target: Target, spec: ItemSpec) -> bool:
    """The text states every constraint of the target and nothing else: price, services, every SKU/attribute pair."""
    price = target.price[0] if target.price else None
    return (price == spec.price_constraint() and set(target.service or []) == set(spec.services)
            and len(spec.services) == len(target.service or []) and target_pairs(target) == set(spec.pairs)
            and len(spec.pairs) == len(target_pairs(target)))


# --- writing an item ------------------------------------------------------------------------------------------------

def item_text(target: Target, product: Product, phrase: str, rng: random.Random) -> str:
    """The product's phrase and its constraint clauses, in a random order of clauses."""
    clauses = [pair_clause(k, v, rng, natural=rng.random() < 0.9) for k, v in _ordered_pairs(target)]
    clauses += [rng.choice(SERVICE_PHRASES[s]) for s in target.service or []]
    if target.price:
        clauses.append(price_clause(target.price[0], product.price, rng))
    rng.shuffle(clauses)
    if not clauses:
        return phrase
    if len(clauses) == 1:
        return f"{phrase}, {clauses[0]}"
    return f"{phrase}, " + ", ".join(clauses[:-1]) + rng.choice((", ", " and ")) + clauses[-1]


def _ordered_pairs(target: Target) -> list[tuple[str, str]]:
    pairs = [(k, v) for option in target.sku_options or [] for k, v in option.items()]
    pairs += [(k, values[0]) for attribute in target.attributes or [] for k, values in attribute.items()]
    return list(dict.fromkeys(pairs))


SOURCE_DIGEST = source_digest(__file__)
"""This module's source as imported (mcp_server.world.generator_fingerprint combines them)."""
