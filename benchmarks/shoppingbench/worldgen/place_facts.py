"""Real facts whose answer a themed listing carries in its title: a city or a country (souvenir fridge magnets,
wall art prints), a coffee's country of origin, a year (vintage birthday T-shirts), a first name (name necklaces),
as the official set asks them ("In which city did Marina Abramović perform 'Rhythm 0' in 1974? I would like to
purchase a fridge magnet themed around this city").

`value` is lower case as catalog attributes are; the catalog's title carries it title-cased. The values the catalog
offers for each key are the answers here (PLACES, ORIGINS, YEARS, NAMES), so every listing of those kinds can be a
target and its rivals differ only in the answer.
"""

from __future__ import annotations

from benchmarks.shoppingbench.worldgen import source_digest
from benchmarks.shoppingbench.worldgen.real_facts import Fact


def _p(key: str, value: str, title: str, statement: str, questions: tuple[str, ...],
       purchases: tuple[str, ...]) -> Fact:
    return Fact(key, value, title, statement, questions, purchases)


PLACE_FACTS: tuple[Fact, ...] = (
    _p("place", "naples", "Rhythm 0",
       "Marina Abramović performed Rhythm 0 in 1974 at Studio Morra in Naples, Italy.",
       ("In which city did Marina Abramović perform 'Rhythm 0' in 1974?",),
       ("I would like to purchase {phrase} themed around this city.",)),
    _p("place", "uruguay", "1930 FIFA World Cup",
       "Uruguay hosted the first FIFA World Cup in 1930 and won it, beating Argentina 4-2 in the final in "
       "Montevideo.",
       ("Which country won the first FIFA World Cup, held in 1930?",),
       ("I would like to purchase {phrase} that represents this country.",)),
    _p("origin", "ethiopia", "Kaldi",
       "According to legend, coffee was discovered by Kaldi, a goatherd in the highlands of Ethiopia, whose goats "
       "grew lively after eating coffee cherries.",
       ("In which country does the legend of Kaldi, the goatherd who discovered coffee, take place?",),
       ("I would like to purchase {phrase} sourced from that country.",)),
    _p("year", "1974", "Rubik's Cube",
       "Ernő Rubik, a Hungarian professor of architecture, made the first working prototype of his cube in 1974.",
       ("In what year did Ernő Rubik make the first prototype of his cube?",),
       ("I would like to buy {phrase} that has this year in its name.",)),
    _p("name", "rowan", "Rowan Atkinson",
       "Rowan Atkinson, the English actor who created and played Mr. Bean, studied electrical engineering at "
       "Newcastle University and Oxford.",
       ("What is the first name of the English actor who studied electrical engineering and went on to play "
        "Mr. Bean?",),
       ("I would like to purchase {phrase} with this first name on it.",)),
)

PLACES = tuple(sorted({f.value for f in PLACE_FACTS if f.key == "place"}))
ORIGINS = tuple(sorted({f.value for f in PLACE_FACTS if f.key == "origin"}))
YEARS = tuple(sorted({f.value for f in PLACE_FACTS if f.key == "year"}))
NAMES = tuple(sorted({f.value for f in PLACE_FACTS if f.key == "name"}))


SOURCE_DIGEST = source_digest(__file__)
"""This module's source as imported (mcp_server.world.generator_fingerprint combines them)."""
