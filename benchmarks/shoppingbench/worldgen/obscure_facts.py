"""Obscure facts in the official set's manner, about made-up people and awards, for the answers linked facts take.

The official knowledge tasks ask SimpleQA-style trivia that almost nobody knows ("What is the surname of the person
who received the Applied Inorganic Chemistry Award in 2015?"), so a model must look it up; real facts a generator can
be sure of are better known, and blind readers told them apart by that (docs/blind-mix, rounds 7 and 8). These facts
are as obscure and as checkable: the award, the congress, the society and the person are made up (no model knows
them, none contradicts the real world), the world's corpus states each in one document, and a document about the same
award in another year, another field's award of that name, the next congress or a namesake society is the distractor
a careless reading picks.

`obscure_fact(real, rng, used)` writes one for the answer of a real linked fact (a surname brand, a city, a
country, a coffee's origin, a year, a first name) and keeps its purchases, so the product ties to the answer the
same way.
"""

from __future__ import annotations

import random
from dataclasses import replace

from benchmarks.shoppingbench.worldgen import source_digest
from benchmarks.shoppingbench.worldgen.phrasing import article
from benchmarks.shoppingbench.worldgen.real_facts import Fact

FIRST_NAMES = ("Margaret", "Thomas", "Elena", "Rafael", "Catherine", "Daniel", "Teresa", "Jonathan", "Isabel",
               "Martin", "Helen", "Samuel", "Lucia", "Robert", "Clara", "Miguel", "Anna", "Patrick", "Sofia",
               "Gregory", "Irene", "Victor", "Louise", "Andrew", "Beatriz", "Henry", "Carmen", "Oliver", "Rosa",
               "Edward", "Julia", "Francis", "Amelia", "Leonard", "Cecilia", "Arthur", "Natalia", "Philip")
SURNAMES = ("Abernathy", "Bancroft", "Calloway", "Delacroix", "Ellsworth", "Fairbanks", "Galloway", "Hargrove",
            "Ingram", "Jessup", "Kendrick", "Langford", "Mercado", "Navarro", "Okafor", "Pemberton", "Quintero",
            "Rutherford", "Salcedo", "Thornton", "Underwood", "Villanueva", "Whitaker", "Zamora", "Aquino",
            "Bautista", "Castillo", "Escobar", "Garrido", "Halvorsen", "Lindqvist", "Marchetti", "Novak",
            "Ostrowski", "Petrov", "Tolentino", "Valdez", "Wexler", "Brennan", "Caldwell", "Donnelly", "Gallagher",
            "Harrington", "Kowalski", "Moreau", "Nakamura", "Sandoval", "Whitfield", "Albrecht", "Beaumont",
            "Corcoran", "Dunmore", "Esperanza", "Falkner", "Greenhalgh", "Hollister", "Lacson", "Maddox", "Ocampo",
            "Prescott", "Rosales", "Sorensen", "Trevino", "Vasquez", "Winslow", "Yeager")
"""Common first names and surnames: realistic, yet no one a model could know."""
FIELDS = ("Coastal Engineering", "Applied Acoustics", "Organic Synthesis", "Paleobotany", "Numerical Analysis",
          "Textile Chemistry", "Glaciology", "Soil Mechanics", "Medicinal Chemistry", "Structural Biology",
          "Marine Ecology", "Polymer Physics", "Seismology", "Landscape Architecture", "Bridge Design",
          "Tropical Medicine", "Crystallography", "Food Microbiology", "Hydrology", "Ceramic Engineering",
          "Choral Conducting", "Documentary Photography", "Children's Literature", "Orchestral Composition")
PROFESSIONS = {"Choral Conducting": "conductor", "Documentary Photography": "photographer",
               "Children's Literature": "writer", "Orchestral Composition": "composer",
               "Landscape Architecture": "architect", "Bridge Design": "engineer", "Tropical Medicine": "physician"}
"""What a laureate of the field is called; "scientist" for the rest."""
NATIONS = ("Danish", "Chilean", "Scottish", "Portuguese", "Hungarian", "Filipino", "Canadian", "Estonian", "Belgian",
           "Malaysian", "Peruvian", "Austrian", "Welsh", "Norwegian", "Irish", "Slovenian")
AWARDS = ("the {surname} Medal for {field}", "the {nation} Society of {field}'s {surname} Award",
          "the {field} Prize of the {surname} Foundation", "the {surname} Lectureship in {field}",
          "the International {field} Association's {surname} Prize")
CITATIONS = ("for a lifetime of work in the field", "for research published the year before",
             "for a textbook still used in the field", "for work done mostly abroad",
             "for a paper written with students")

HOSTS = ("Ghent", "Tartu", "Aarhus", "Coimbra", "Graz", "Trondheim", "Bologna", "Leiden", "Uppsala", "Kraków")
"""Cities a rival congress met in (none an answer a listing carries)."""
MEETING_RATE = 0.5
"""How often a city is asked as a congress's host and a year as a society's founding, not through an award."""
INITIAL_RATE = 0.25
"""How often a made-up person carries a middle initial ("Teresa M. Donnelly")."""

QUESTIONS: dict[str, tuple[str, ...]] = {
    "surname": ("What is the surname of the person who received {award} in {year}?",
                "What is the surname of the {nation} {profession} awarded {award} in {year}?"),
    "first name": ("What is the first name of the person who received {award} in {year}?",
                   "What was the first name of the {profession} who won {award} in {year}?"),
    "year": ("In what year did {person} receive {award}?", "In which year was the {nation} {profession} {person} "
             "awarded {award}?", "When did {person} win {award}?"),
    "city": ("In which city was {person}, who received {award} in {year}, born?",
             "Which city was the {profession} {person} born in?",
             "Where was {person}, the {year} winner of {award}, born?"),
    "country": ("From which country was the {profession} who received {award} in {year}?",
                "Which country was {person}, winner of {award} in {year}, from?",
                "In which country was the {profession} {person} born?"),
}
"""The official set's frames for each kind of answer."""


def can_obscure(fact: Fact) -> bool:
    """Whether a made-up fact can stand for this one: any themed answer; a brand only where it is a surname."""
    return fact.key != "brand" or any("surname" in purchase for purchase in fact.purchases)


def answer_kind(fact: Fact) -> str:
    """What the answer is: a surname (a brand), a first name, a year, a city or a country."""
    said = " ".join(fact.purchases).lower()
    if fact.key == "brand":
        return "surname"
    if fact.key in ("name", "year"):
        return "first name" if fact.key == "name" else "year"
    return "city" if "city" in said else "country"


def obscure_fact(real: Fact, rng: random.Random, used: set[str]) -> tuple[Fact, list[tuple[str, str]]]:
    """A made-up fact with `real`'s answer and purchases, and the distractor (title, statement) pairs: the same
    award another year and another field's award of the same name, each with another made-up laureate."""
    kind = answer_kind(real)
    for _ in range(1000):
        field = rng.choice(FIELDS)
        words = {"field": field, "nation": rng.choice(NATIONS), "surname": rng.choice(SURNAMES)}
        award = rng.choice(AWARDS).format(**words)
        year = int(real.value) if kind == "year" else rng.randint(1961, 2019)
        first = _title(real.value) if kind == "first name" else rng.choice(FIRST_NAMES)
        initial = f" {rng.choice('ABCDEFGHJKLMNPRSTW')}." if rng.random() < INITIAL_RATE else ""
        person = f"{first}{initial} {real.value if kind == 'surname' else rng.choice(SURNAMES)}"
        if not {f"{award} {year}", person} & used and real.value.lower() not in award.lower():
            used |= {f"{award} {year}", person}
            break
    else:
        raise RuntimeError("out of made-up awards")
    profession = PROFESSIONS.get(field, "scientist")
    if kind in ("city", "year") and rng.random() < MEETING_RATE:
        return _meeting_fact(real, kind, field, words, year, person, rng)
    who = (f"{article(profession)} born in {_title(real.value)}" if kind in ("city", "country")
           else f"{article(words['nation'] + ' ' + profession)} born in {year - rng.randint(35, 60)}")
    statement = (f"{_title(award)} is given each year for work in {field.lower()}. The {year} award went to "
                 f"{person}, {who}, {rng.choice(CITATIONS)}.")
    question = rng.choice(QUESTIONS[kind]).format(award=award, year=year, person=person, profession=profession,
                                                  nation=words["nation"])
    fact = replace(real, title=_title(award), statement=statement, questions=(question,))
    return fact, _distractors(award, field, year, words, rng, real.value)


def _meeting_fact(real: Fact, kind: str, field: str, words: dict[str, str], year: int, person: str,
                  rng: random.Random) -> tuple[Fact, list[tuple[str, str]]]:
    """A city as a congress's host, a year as a society's founding (the official set asks both kinds)."""
    profession = PROFESSIONS.get(field, "scientist")
    society = f"the {words['nation']} Society of {field}"
    if kind == "city":
        number = rng.randint(3, 24)
        meeting = f"the {_ordinal(number)} International Congress of {field}"
        statement = (f"{_title(meeting)} took place in {_title(real.value)} in {year}, hosted by {society}; "
                     f"{person} gave the opening lecture.")
        question = rng.choice(("In which city was {meeting} held?", "Which city hosted {meeting} in {year}?",
                               "Where did {meeting} take place?")).format(meeting=meeting, year=year)
        rival = (f"{_title(meeting.replace(_ordinal(number), _ordinal(number + 1)))} took place in "
                 f"{rng.choice([c for c in HOSTS if c.lower() != real.value])} in {year + rng.randint(1, 3)}.")
        return replace(real, title=_title(meeting), statement=statement, questions=(question,)), [
            (_title(meeting), rival)]
    statement = (f"{_title(society)} was founded in {year} by {person}, "
                 f"{article(words['nation'] + ' ' + profession)}, and has met every year since.")
    question = rng.choice(("In which year was {society} founded?", "When was {society} established?",
                           "In what year did {person} found {society}?")).format(society=society, person=person)
    other = f"the {rng.choice([n for n in NATIONS if n != words['nation']])} Society of {field}"
    rival = f"{_title(other)} was founded in {year + rng.choice((-9, -5, 4, 7, 11))}."
    return replace(real, title=_title(society), statement=statement, questions=(question,)), [(_title(other), rival)]


def _ordinal(number: int) -> str:
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def _distractors(award: str, field: str, year: int, words: dict[str, str], rng: random.Random,
                 answer: str) -> list[tuple[str, str]]:
    """The same award another year and another field's award of the same name, neither naming `answer`."""
    other_year = year + rng.choice((-3, -2, -1, 1, 2, 3))
    namesake_year = other_year if str(year) == answer else year
    other_field = rng.choice([f for f in FIELDS if f != field])
    namesake = award.replace(field, other_field)
    return [(_title(award), f"{_title(award)} of {other_year} went to {_someone(rng, answer)}, "
                            f"{article(words['nation'] + ' ' + PROFESSIONS.get(field, 'scientist'))}."),
            (_title(namesake), f"{_title(namesake)} of {namesake_year} went to {_someone(rng, answer)} for work in "
                               f"{other_field.lower()}.")]


def _someone(rng: random.Random, answer: str) -> str:
    first = rng.choice([n for n in FIRST_NAMES if n.lower() != answer.lower()])
    return f"{first} {rng.choice([n for n in SURNAMES if n.lower() != answer.lower()])}"


def _title(text: str) -> str:
    text = " ".join(w[:1].upper() + w[1:] for w in text.split()) if text.islower() else text
    return text[:1].upper() + text[1:]


SOURCE_DIGEST = source_digest(__file__)
"""This module's source as imported (mcp_server.world.generator_fingerprint combines them)."""
