"""Real facts whose answer is a catalog brand, tied to the purchase the way the official set ties them: a surname
that is also a brand, an animal or a word that names one ("What is the surname of the German mathematician who
described a one-sided bottle in 1882? ... perfume from a brand that shares this surname" → Calvin Klein).

`value` is the brand exactly as vocab.KINDS spells it (the whole brand, or the one word of it the answer is, such as
"Klein" for "Calvin Klein": the title must contain it). Each fact states itself in a document of the world's
offline corpus, asks its question in one or two of the official set's frames, and says how the purchase follows
from the answer ({phrase} is the product in the shopper's words, without its brand).
"""

from __future__ import annotations

from benchmarks.shoppingbench.worldgen import source_digest
from benchmarks.shoppingbench.worldgen.real_facts import Fact


def _b(value: str, title: str, statement: str, questions: tuple[str, ...], purchases: tuple[str, ...]) -> Fact:
    return Fact("brand", value, title, statement, questions, purchases)


BRAND_FACTS: tuple[Fact, ...] = (
    _b("Klein", "Felix Klein",
       "Felix Klein, the German mathematician of the Erlangen program, first described the Klein bottle, a "
       "one-sided surface, in 1882.",
       ("What is the surname of the German mathematician who first described a one-sided bottle in 1882?",),
       ("I would like to purchase {phrase} from a brand that shares this surname.",
        "I am interested in buying {phrase} whose brand carries this surname.")),
    _b("Oxygen", "Joseph Priestley",
       "In 1774 Joseph Priestley isolated a gas he called dephlogisticated air; Antoine Lavoisier later named "
       "it oxygen.",
       ("Which element did Joseph Priestley isolate in 1774 and call dephlogisticated air?",),
       ("I would like to purchase {phrase} from a brand named after this element.",)),
    _b("Herschel", "William Herschel",
       "William Herschel, a German-born astronomer working in Bath, England, discovered the planet Uranus on 13 "
       "March 1781.",
       ("What is the surname of the astronomer who discovered Uranus in 1781?",
        "Which astronomer, working from his garden in Bath, discovered the planet Uranus in 1781? Give his surname."),
       ("I would like to purchase {phrase} from a brand that shares this surname.",)),
)


SOURCE_DIGEST = source_digest(__file__)
"""This module's source as imported (mcp_server.world.generator_fingerprint combines them)."""
