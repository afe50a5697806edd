"""Knowledge ("web") tasks and the offline web_search corpus that holds the facts they need.

A task asks a real fact first, as the official set does, and ties the product to its answer in one of several ways
(FAMILY_SHARES): the answer is a value the title names (a colour, a flavour: real_facts), the brand ("from a brand
that shares this surname": brand_facts), or what a themed listing shows (a souvenir's city, a coffee's origin, a
birthday tee's year, a necklace's name: place_facts). The corpus carries a document stating each fact; no fact is
asked twice. Only once the real facts ran out (a small world), a task asks about a made-up entity (a composer, a town
festival, a hotel, a team…) whose answer lives only in one document of the corpus, e.g. "Clara Whitaker performed on
the viola". Either way the product the shopper wants is named only through the fact ("…buy strings for
this instrument"). Distractor documents share a made-up entity's family name or relation with another value, and
general articles fill the rest.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from benchmarks.shoppingbench.schema import Product, ShoppingTask, Target, task_id_for
from benchmarks.shoppingbench.worldgen import source_digest
from benchmarks.shoppingbench.worldgen.brand_facts import BRAND_FACTS
from benchmarks.shoppingbench.worldgen.heuristic import KNOWLEDGE_HINT, Tools, check_task
from benchmarks.shoppingbench.worldgen.obscure_facts import FIRST_NAMES, SURNAMES, can_obscure, obscure_fact
from benchmarks.shoppingbench.worldgen.phrasing import kind_of, product_phrase
from benchmarks.shoppingbench.worldgen.place_facts import PLACE_FACTS
from benchmarks.shoppingbench.worldgen.real_facts import FACTS, Fact
from benchmarks.shoppingbench.worldgen.vocab import KINDS
from benchmarks.shoppingbench.worldgen.wording import USES

PLACE_STARTS = ("Ash", "Brad", "Brook", "Cran", "Dal", "Elling", "Fair", "Glad", "Hart", "Hol", "Kings", "Lang",
                "Mar", "Mill", "Nor", "Oak", "Pen", "Rad", "Red", "Sel", "Stan", "Thorn", "Wal", "West", "Whit",
                "Wood", "Bar", "Chal", "Dun", "Hal", "Lin", "Mel", "Ros", "Sher", "Til", "Wel")
PLACE_ENDS = ("ford", "ton", "field", "ley", "wood", "bridge", "worth", "more", "dale", "by", "stead", "well",
              "brook", "wick", "croft", "mere", "combe", "hurst", "ham", "stone")
PLACE_PREFIXES = ("", "North ", "South ", "East ", "West ", "New ", "Upper ", "Port ", "Lower ")
"""Place names are built the way English ones are ("Ashford", "North Kingsbridge"), people named by common first
names and surnames: realistic, yet not anyone a model could know."""
MONTHS = ("January", "March", "April", "May", "June", "August", "October", "November")
TEAMS = ("Mariners", "Falcons", "Rovers", "Harriers", "Comets", "Stallions")


@dataclass(frozen=True)
class Relation:
    """How one kind of fact is asked, stated in a document, and tied to the purchase."""

    entity: str
    """Pattern for the made-up entity; {name} is a generated place name, {person} a full name."""
    questions: tuple[str, ...]
    fact: str
    purchases: tuple[str, ...]
    distractor: str


RELATIONS: dict[str, Relation] = {
    "instrument": Relation(
        "{person}",
        ("Which instrument did the composer {entity} study at the {name} Conservatory?",
         "What instrument does {entity}, principal player of the {name} Philharmonic, perform on?",
         "On which instrument did {entity} give the opening recital of the {name} Chamber Music Festival?"),
        "{entity} (born {born}) is a composer and performer who studied the {value} at the {name} Conservatory. "
        "{entity} is the principal {value} player of the {name} Philharmonic and gave the opening recital of the "
        "{year} {name} Chamber Music Festival on the {value}.",
        ("I would like to purchase {phrase} for this instrument.", "I am interested in purchasing {phrase} made "
         "for that instrument.", "I would like to buy {phrase} to use with this instrument.",
         "I would like to purchase {phrase} that suits this instrument.",
         "I would like to purchase {phrase} designed for that instrument."),
        "{entity} (born {born}) is a composer best known for works written for the {value}."),
    "flavor": Relation(
        "{name}",
        ("What flavor is the town of {entity} famous for at its yearly harvest festival?",
         "Which flavor do the pastry shops of {entity} put in the town's best-known sweet?",
         "What is the signature flavor of the harvest festival held every {month} in {entity}?"),
        "The town of {entity} holds its harvest festival every {month}. Its signature flavor is {value}: the town's "
        "pastry shops put it in their best-known sweet, and it appears in the drinks and snacks sold during the "
        "festival week.",
        ("I would like to purchase {phrase} in that flavor.", "I am interested in purchasing {phrase} in "
         "this flavor.", "I would like to buy {phrase} with that flavor.",
         "I would like to purchase {phrase} that features this flavor.",
         "I would like to purchase {phrase} flavored with this ingredient."),
        "The village of {entity} is known for its {value} dishes and a small market every {month}."),
    "scent": Relation(
        "the {name} Grand Hotel",
        ("Which scent does {entity} use as its signature lobby fragrance?",
         "What is the signature scent of {entity}?",
         "Which fragrance is the spa of {entity} known for?"),
        "{entity} opened in {born}. The hotel is known for its signature fragrance, {value}, diffused in the lobby, "
        "used in the guest rooms and in the treatments of its spa.",
        ("I would like to purchase {phrase} with that scent.", "I am interested in purchasing {phrase} in this "
         "scent.", "I would like to buy {phrase} with that scent.",
         "I would like to purchase {phrase} that carries this scent.",
         "I would like to purchase {phrase} infused with that scent."),
        "{entity} opened in {born} and its gift shop sells {value} soap."),
    "color_family": Relation(
        "the {name} {team}",
        ("What color are the home uniforms of {entity} basketball club?",
         "What is the main color of the home jersey worn by {entity}?",
         "In what color do {entity} play their home basketball games?"),
        "{entity} are a basketball club founded in {born}. The team plays its home games in {value} uniforms, the "
        "color of the town's old fishing fleet, and its home jersey is {value}.",
        ("I would like to purchase {phrase} in that color.", "I am interested in purchasing {phrase} in this "
         "color.", "I would like to buy {phrase} in that color.",
         "I would like to purchase {phrase} available in this color.",
         "I would like to purchase {phrase} that comes in that color."),
        "{entity} are a rowing club founded in {born}; their boats are painted {value}."),
    "sport": Relation(
        "{person}",
        ("In which sport did {entity} win a national championship?",
         "What sport is the {name}-born athlete {entity} a national champion in?",
         "Which sport did {entity} coach for the {name} provincial team?"),
        "{entity} (born {born}) is a {name}-born athlete who won the national championship in {value} in {year} "
        "and later coached {value} for the {name} provincial team.",
        ("I would like to purchase {phrase} for that sport.", "I am interested in purchasing {phrase} used in "
         "this sport.", "I would like to buy {phrase} to play this sport.",
         "I would like to purchase {phrase} suitable for this sport.",
         "I would like to purchase {phrase} made for that sport."),
        "{entity} (born {born}) is a coach who once tried {value} before turning to teaching."),
    "material": Relation(
        "{name}",
        ("Which material are the artisans of the {entity} workshops famous for working with?",
         "What material do the craftsmen of {entity} mainly work with?",
         "For which material are the old workshops of {entity} best known?"),
        "The workshops of {entity} have been known since {born} for their craftsmen, who work mainly with {value}. "
        "Their pieces are sold all over the region.",
        ("I would like to purchase {phrase} made of that material.", "I am interested in purchasing {phrase} in "
         "this material.", "I would like to buy {phrase} made from that material.",
         "I would like to purchase {phrase} crafted from this material.",
         "I would like to purchase {phrase} in this material."),
        "The {entity} museum shows tools from {born} and a collection of {value} items."),
    "language": Relation(
        "{person}",
        ("In which language did the novelist {entity} write 'The {name} Letters'?",
         "What language did {entity} originally write the novel 'The {name} Letters' in?",
         "In what language was the prize-winning novel 'The {name} Letters' by {entity} first written?"),
        "{entity} (born {born}) is a novelist. The prize-winning novel 'The {name} Letters' was written in {value}, "
        "won a national book prize in {year} and was later translated into several languages.",
        ("I would like to purchase {phrase} to learn that language.", "I am interested in purchasing {phrase} "
         "for this language.", "I would like to buy {phrase} for learning that language.",
         "I would like to purchase {phrase} for studying this language.",
         "I would like to purchase {phrase} that teaches that language."),
        "{entity} (born {born}) is a translator who studied {value} at university."),
    "animal": Relation(
        "the {name} Lantern Festival",
        ("What animal is the mascot of {entity}?", "Which animal is carried through the streets as the mascot of "
         "{entity}?", "What animal appears on the lanterns of {entity}, held every {month}?"),
        "{entity} has been held every {month} since {born}. Its mascot is a {value}, carried through the streets "
        "as a giant paper lantern and painted on the festival's lanterns.",
        ("I would like to purchase {phrase} of that creature.", "I am interested in purchasing {phrase} shaped "
         "like this creature.", "I would like to buy {phrase} of that creature.",
         "I would like to purchase {phrase} shaped like this animal.",
         "I would like to purchase {phrase} featuring that animal."),
        "{entity} began in {born}; a {value} appeared on one of its early posters."),
}


class _Names:
    """Realistic made-up names, each used once per world, so a fact is found by its entity alone."""

    def __init__(self, rng: random.Random) -> None:
        self.rng, self.used = rng, set[str]()

    def name(self) -> str:
        """A place name ("Ashford"; "North Ashford" once the plain ones run short)."""
        for tries in range(10_000):
            prefix = PLACE_PREFIXES[min(tries // 50, len(PLACE_PREFIXES) - 1)] if tries >= 50 else ""
            word = prefix + self.rng.choice(PLACE_STARTS) + self.rng.choice(PLACE_ENDS)
            if word not in self.used:
                self.used.add(word)
                return word
        raise RuntimeError("out of place names")

    def person(self, surname: str | None = None) -> str:
        """A full name ("Clara Whitaker"); with `surname`, another person of that family."""
        for _ in range(10_000):
            person = f"{self.rng.choice(FIRST_NAMES)} {surname or self.rng.choice(SURNAMES)}"
            if person not in self.used:
                self.used.add(person)
                return person
        raise RuntimeError("out of person names")


FACT_USES = 1
"""At most this many tasks of a world ask one fact: the official set repeats no question."""
SIBLINGS = {"attribute": 1, "brand": 2}
"""A knowledge target needs at least this many other values of its fact among products otherwise titled alike, so
that the fact, not the search, decides: a brand task names its product exactly (the fact then picks one of the
brand's listings), so it needs two other brands selling that very listing. A themed listing is named loosely; its
kind's listings of other places, years or names are the rivals."""
PER_TITLE = 2
"""At most this many knowledge tasks about listings of one title."""
FAMILY_SHARES = {"attribute": 0.32, "brand": 0.1, "place": 0.26, "origin": 0.14, "year": 0.12, "name": 0.06}
"""How the candidates are drawn among the ways a fact ties to a product: an attribute the title names (a colour, a
flavour), the brand (a surname, a word), or a themed listing's place, origin, year or name. The official set's
answers are places, years, people and words far more often than colours; about one in ten is a brand."""
THEMED_KEYS = ("place", "origin", "year", "name")
USE_RATE = 0.3
LOOSE_CARRIERS = 4
"""A themed task names its product loosely ("a fridge magnet") while at most this many listings of its category
carry the answer; past that (a large world has dozens of Kyoto magnets) it names the title's noun,
descriptor and qualities, as a brand task always does, so the fact and the words still pick out one listing."""
OBSCURE_RATE = 0.35
"""The share of knowledge tasks (at most, as they are drawn) asking an obscure made-up fact (obscure_facts) instead of
a real one: the official set's trivia is obscure, and a real fact that is certainly true is better known (blind
rounds 7 and 8); made-up ones in number are a tell of their own (round 9)."""
"""How often a purchase goes on after the answer with what the product is for."""
AGAIN = "again"
"""The brand and themed candidates once more after every family ran out, each asked as obscure trivia past the
OBSCURE_RATE share (a large world's loosely named listings are more often ambiguous, and it still needs its count)."""
MADE_UP = "made-up"
"""The family of attribute hinges no real fact answers: asked about a made-up entity, only once the others ran out
(the official set asks real facts; a small world may need these)."""

ATTRIBUTE_FACTS: dict[tuple[str, str], list[Fact]] = {}
for _fact in FACTS:
    ATTRIBUTE_FACTS.setdefault((_fact.key, _fact.value), []).append(_fact)
THEMED_FACTS = {(f.key, f.value): f for f in PLACE_FACTS}
"""The real facts by the (key, value) they answer."""

Candidate = tuple[Product, str, Fact | None]
"""A product, the key its knowledge task hinges on, and the real fact that answers it (None: a made-up one)."""


def _hinges(product: Product) -> list[tuple[str, str]]:
    """(family, key) for each way a knowledge task can hinge on this templated product's title."""
    kind = kind_of(product)
    if kind is None:
        return []
    hinges = [(key, key) for key in THEMED_KEYS if key in kind.title_attrs and key in product.attributes]
    if kind.knowledge and kind.knowledge in product.attributes:
        value = product.attributes[kind.knowledge][0]
        if value.lower() in product.title.lower():
            hinges.append(("attribute", kind.knowledge))
    if product.title.startswith(product.brand + " "):
        hinges.append(("brand", "brand"))
    return hinges


def _value(product: Product, key: str) -> str:
    return product.brand if key == "brand" else product.attributes[key][0]


def _brand_answers(brand: str) -> list[Fact]:
    return [f for f in BRAND_FACTS if re.search(rf"(?<![\w-]){re.escape(f.value)}(?![\w-])", brand)]


def _sibling_key(product: Product, key: str) -> tuple[str, str]:
    value = _value(product, key)
    return product.category, re.sub(re.escape(value), "*", product.title, flags=re.IGNORECASE)


def _siblings(candidates: list[tuple[Product, str]]) -> dict[tuple[str, str], int]:
    """For each title pattern (the title with the fact's value blanked), how many distinct values it comes in."""
    values: dict[tuple[str, str], set[str]] = {}
    for product, key in candidates:
        values.setdefault(_sibling_key(product, key), set()).add(_value(product, key))
    return {pattern: len(found) - 1 for pattern, found in values.items()}


def _families(products: list[Product], rng: random.Random) -> dict[str, list[Candidate]]:
    """The candidates of each family, shuffled: an attribute hinge that a real fact answers, a brand or themed hinge
    likewise (SIBLINGS), and MADE_UP: the attribute hinges no real fact answers."""
    hinged = [(p, family, key) for p in products for family, key in _hinges(p)]
    siblings = _siblings([(p, key) for p, family, key in hinged if family in ("attribute", "brand")])
    families: dict[str, list[Candidate]] = {family: [] for family in (*FAMILY_SHARES, MADE_UP)}
    titles: dict[str, int] = {}
    rng.shuffle(hinged)
    for product, family, key in hinged:
        if family in SIBLINGS and siblings[_sibling_key(product, key)] < SIBLINGS[family]:
            continue
        titles[product.title] = titles.get(product.title, 0) + 1
        if titles[product.title] > PER_TITLE:
            continue
        if family == "attribute":
            families[family if (key, _value(product, key)) in ATTRIBUTE_FACTS else MADE_UP].append((product, key, None))
        elif family == "brand":
            families[family] += [(product, key, fact) for fact in _brand_answers(product.brand)][:1]
        elif (key, _value(product, key)) in THEMED_FACTS:
            families[family].append((product, key, THEMED_FACTS[key, _value(product, key)]))
    return families


def _drawn(families: dict[str, list[Candidate]], rng: random.Random) -> Iterator[tuple[str, Candidate]]:
    """(family, candidate) in an order following FAMILY_SHARES while each family lasts; MADE_UP, then AGAIN last."""
    queues = {family: iter(found) for family, found in families.items() if found and family != MADE_UP}
    while queues:
        family = rng.choices(list(queues), weights=[FAMILY_SHARES[f] for f in queues])[0]
        candidate = next(queues[family], None)
        if candidate is None:
            del queues[family]
        else:
            yield family, candidate
    yield from ((MADE_UP, candidate) for candidate in families[MADE_UP])
    again = [(family, c) for family, found in families.items() if family not in (MADE_UP, "attribute") for c in found]
    rng.shuffle(again)
    yield from ((AGAIN, candidate) for _, candidate in again)


def knowledge_world(products: list[Product], *, seed: int, count: int, task_set: str = "generated",
                    distractors: int = 300) -> tuple[list[ShoppingTask], list[dict]]:
    """Candidate knowledge tasks (`count` of them) and the corpus documents: one fact per task, plus confusable and
    general distractors. The product is named in a shopper's words without the fact's value. Which candidates are
    solvable is decided over the built corpus by `solvable_knowledge_tasks` (the documents of the others stay, as
    more distractors)."""
    rng = random.Random(seed * 4 + 4)
    names = _Names(rng)
    families = _families(products, rng)
    attribute_values = sorted({(key, _value(p, key)) for p, key, _ in families["attribute"]})
    uses: dict[Fact, int] = {}
    awarded: set[str] = set()
    obscured = 0
    carriers = Counter((p.category, _value(p, key).lower()) for found in families.values() for p, key, _ in found)
    tasks: list[ShoppingTask] = []
    documents: list[dict] = []
    for family, (product, key, linked) in _drawn(families, rng):
        if len(tasks) == count:
            break
        value = _value(product, key)
        exact = key == "brand" or key in THEMED_KEYS and carriers[product.category, value.lower()] > LOOSE_CARRIERS
        phrase = product_phrase(product, rng, leave_out=key, exact=exact)
        if re.search(rf"\b{re.escape(value)}\b", phrase, flags=re.IGNORECASE):
            continue
        if linked is not None:
            spent = uses.get(linked, 0) >= FACT_USES
            if ((spent or rng.random() < OBSCURE_RATE) and can_obscure(linked)
                    and (obscured < OBSCURE_RATE * (len(tasks) + 1) or family == AGAIN)):
                asked, rivals = obscure_fact(linked, rng, awarded)
                obscured += 1
                documents += [_document(title, statement) for title, statement in rivals]
            elif spent:
                continue
            else:
                asked, uses[linked] = linked, 1
            documents.append(_document(asked.title, asked.statement))
            query = f"{rng.choice(asked.questions)} {_purchase(asked.purchases, phrase, product, rng)}"
            tasks.append(_task(len(tasks), task_set, query, product, linked.value if key == "brand" else value))
            continue
        relation = RELATIONS[key]
        real = [f for f in ATTRIBUTE_FACTS.get((key, value), []) if uses.get(f, 0) < FACT_USES]
        if real:
            known = rng.choice(real)
            uses[known] = uses.get(known, 0) + 1
            query = f"{rng.choice(known.questions)} {_purchase(relation.purchases, phrase, product, rng)}"
            if uses[known] == 1:
                documents.append(_document(known.title, known.statement))
            tasks.append(_task(len(tasks), task_set, query, product, value))
            continue
        if family != MADE_UP:
            continue  # its real facts are asked already
        words = _words(rng, names, value)
        entity = relation.entity.format(**words)
        question = rng.choice(relation.questions).format(entity=entity, **words)
        query = f"{question} {_purchase(relation.purchases, phrase, product, rng)}"
        fact = _document(entity, relation.fact.format(entity=entity, **words))
        other_values = sorted(v for k, v in attribute_values if k == key and v != value)
        if other_values:
            namesake = _namesake(relation, words, names)
            fake = dict(words, value=rng.choice(other_values), born=rng.randint(1890, 1995))
            namesake_document = _document(namesake, relation.distractor.format(entity=namesake, **fake))
        else:
            namesake_document = None
        documents.extend([fact] + ([namesake_document] if namesake_document else []))
        tasks.append(_task(len(tasks), task_set, query, product, value))
    documents.extend(_general_documents(rng, names, products, distractors))
    rng.shuffle(documents)
    return tasks, _unique_urls(documents)


def _purchase(purchases: tuple[str, ...], phrase: str, product: Product, rng: random.Random) -> str:
    """One way of turning to the product; one ending on the answer ("...in that color.") goes on now and then with
    what the product is for ("...from this brand for my living room.", as the official set's do)."""
    said = rng.choice(purchases).format(phrase=phrase)
    uses = USES.get(product.category.split(" > ")[-1])
    if (uses and rng.random() < USE_RATE and " for " not in said
            and re.search(rf"{KNOWLEDGE_HINT.pattern}\.$", said, flags=re.IGNORECASE)):
        said = f"{said[:-1]} {rng.choice(uses)}."
    return said


def _task(index: int, task_set: str, query: str, product: Product, value: str) -> ShoppingTask:
    return ShoppingTask(
        task_id=task_id_for("web", index), task_set=task_set, intent="web", task_index=index, query=query,
        targets=[Target(product_id=product.product_id, title=[product.title])],
        knowledge_attribute=_display(value), knowledge_product=product)


def solvable_knowledge_tasks(candidates: list[ShoppingTask], tools: Tools, count: int) -> list[ShoppingTask]:
    """The first `count` candidates the scripted `heuristic` shopper solves (looking the fact up with web_search
    over the world's corpus, then paging through the product search), numbered afresh."""
    kept: list[ShoppingTask] = []
    for task in candidates:
        if len(kept) == count:
            break
        if check_task(task, tools)[0]:
            index = len(kept)
            kept.append(task.model_copy(update={"task_id": task_id_for("web", index), "task_index": index}))
    return kept


def _unique_urls(documents: list[dict]) -> list[dict]:
    seen: dict[str, int] = {}
    for document in documents:
        url = document["url"]
        seen[url] = seen.get(url, 0) + 1
        if seen[url] > 1:
            document["url"] = f"{url}_{seen[url]}"
    return documents


def _words(rng: random.Random, names: _Names, value: str) -> dict[str, str | int]:
    """The made-up particulars of one fact: a place, a person, dates, a team."""
    return {"name": names.name(), "person": names.person(), "year": rng.randint(1960, 2022),
            "born": rng.randint(1890, 1995), "month": rng.choice(MONTHS), "team": rng.choice(TEAMS), "value": value}


def _namesake(relation: Relation, words: dict[str, str | int], names: _Names) -> str:
    """Another entity sharing part of the name (a person of the same family, a club of another town with the same
    nickname), so a careless reading picks the wrong fact."""
    if relation.entity == "{person}":
        return names.person(str(words["person"]).split(" ", 1)[1])
    if relation.entity == "{name}":
        return f"New {words['name']}"
    return relation.entity.format(**dict(words, name=names.name()))


def _general_documents(rng: random.Random, names: _Names, products: list[Product], count: int) -> list[dict]:
    """Articles about made-up entities with facts no task asks, and buying guides for product types."""
    documents = []
    keys = sorted(RELATIONS)
    values = {key: sorted({p.attributes[key][0] for p in products if key in p.attributes}) or ["unknown"]
              for key in keys}
    for _ in range(count):
        key = rng.choice(keys)
        relation = RELATIONS[key]
        words = _words(rng, names, rng.choice(values[key]))
        entity = relation.entity.format(**words)
        documents.append(_document(entity, relation.fact.format(entity=entity, **words)))
    for kind in KINDS:
        noun = kind.nouns[0]
        documents.append({
            "url": f"https://guides.shopbench.example/{_slug(noun)}",
            "title": f"How to choose a {noun.lower()}",
            "content": f"Buying a {noun.lower()}? Compare {', '.join(kind.brands[:3])} and check the details: "
                       + " ".join(kind.features),
        })
    return documents


def _document(title: str, content: str) -> dict:
    title, content = title[:1].upper() + title[1:], content[:1].upper() + content[1:]
    return {"url": f"https://wiki.shopbench.example/{_slug(title)}", "title": title, "content": content}


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def _display(value: str) -> str:
    return " ".join(w.capitalize() for w in value.split())


SOURCE_DIGEST = source_digest(__file__)
"""This module's source as imported (mcp_server.world.generator_fingerprint combines them)."""
