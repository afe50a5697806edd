"""The paper's evaluation prompts (SessionIntentBench Tables 8–13): zero-shot, 5-shot and Chain-of-Thought.

The tables' wording is kept verbatim (their line-break backslashes removed); each <p> of a table is a paragraph
here. The paper leaves two things open, which shopbench fixes as follows:
- `<session product information>` is written as a numbered list of the session's products with category and
  attributes (the intentions, attribute and comparison appear only where the question names them);
- decoding is greedy, 16 new tokens for zero-/5-shot answers and 256 for CoT.
"""

from __future__ import annotations

from benchmarks.errors import BadInput
from benchmarks.qa import QuestionPrompt
from benchmarks.session_intent.schema import SessionIntentItem

PROMPTINGS = ("zero-shot", "few-shot", "cot")
SHOTS = 5
MAX_TOKENS = {"zero-shot": 16, "few-shot": 16, "cot": 256}

INTRO = "Act as a customer who is browsing a series of products given as follows. {session}"

OPTIONS = {
    1: "A. Yes: The product is a logical and reasonable outcome of the purchasing intention. B. Maybe yes: I may "
    "consider this, but it's not a strong impulse. C. Maybe no: The product is not directly related to my intention. "
    "D. No: I would never purchase it if I were the customer with the given intention.",
    2: "A. Yes: The product logically and reasonably matches the characteristics I value. B. Maybe yes: I might "
    "consider this product, but it doesn't strongly appeal to me. C. Maybe no: The product does not directly relate to "
    "the characteristic I value. D. No: I would not purchase this product if I were focused on the given "
    "characteristic.",
    3: "A. Yes: the comparison is reasonable and detailed enough to justify the change. B. Maybe yes: The comparison "
    "could be more detailed and thorough but can be ignored. C. Maybe no: The comparison is not entirely reasonable or "
    "lacks sufficient in-depth detail. D. No: The comparison does not provide any underlying reasons or insights.",
    4: "A. Yes: I want to explore products under the same category. B. Maybe yes: I want to explore products under the "
    "same category but with different features. C. No: I want to explore products under other categories.",
}
COT_OPTIONS = {**OPTIONS, 2: OPTIONS[2].replace("the characteristics I value", "the characteristic I value")}
"""Table 13 words Task 2's option A in the singular."""

ZERO_SHOT_QUESTION = {
    1: "After seeing {previous}, and assuming you are a customer who has the intention of {prev_intention}. How likely "
    "are you to purchase {last} based on the assumed intention?",
    2: "After seeing {previous}, and assuming you are a customer who highly value the feature {prev_attribute} of "
    "{prev_product}. How likely are you to purchase {last}?",
    3: "Comparing between {last_two}, and assuming you have the intention of {last_intention}, Does this comparison "
    "{comparison} provide an in-depth justification of your impulse?",
    4: "After seeing {all_products}, and assuming you have the intention of {last_intention}, do you still want to "
    "explore similar products?",
}
COT_QUESTION = {
    **ZERO_SHOT_QUESTION,
    1: ZERO_SHOT_QUESTION[1].replace("who has the intention", "who have the intention"),
    3: ZERO_SHOT_QUESTION[3].replace("provide an in-depth", "provide in-depth"),
}
ZERO_SHOT_ANSWER = {t: "Your Answer (Answer A or B or C or D only):" for t in (1, 2, 3)} | {
    4: "Your Answer (Answer A or B or C only):"
}
COT_ANSWER = {
    t: "Answer with a brief rationale then make your final choice by answering the option alphabet A/B/C/D only in "
    "the last line of your response. Your Answer:"
    for t in (1, 2, 3)
} | {
    4: "Answer with a brief rationale, then make your final choice by answering the option alphabet A/B/C only in the "
    "last line of your response. Your Answer:"
}

FEW_SHOT_HEADER = {
    1: "You hold an assumed intention, which will be provided later. After seeing the products, you will be asked to "
    "determine the likelihood of purchasing the last product based on the assumed intention. You will be given four "
    "options to choose from: Yes, Maybe yes, Maybe no, No. Please select the most appropriate option based on the "
    "given context.",
    2: "You have a valued feature/attribute, which will be provided later. After seeing the products, you will be "
    "asked to determine the likelihood of purchasing the last product based on the valued attribute. You will be "
    "given four options to choose from: Yes, Maybe yes, Maybe no, No. Please select the most appropriate option based "
    "on the given context.",
    3: "You have an assumed intention, which will be provided later. You will be asked to evaluate the provided "
    "comparison between the last two products based on the assumed intention. You will be given four options to "
    "choose from: Yes, Maybe yes, Maybe no, No. Please select the most appropriate option based on the given context.",
    4: "You will be provided with a sequence of intention. You will be asked to determine whether you still want to "
    "explore similar products based on the sequence of intention. You will be given three options to choose from: "
    "Yes, Maybe yes, No. Please select the most appropriate option based on the given context.",
}
FEW_SHOT_QUESTION = {
    1: "Q: After seeing {previous}, and assuming you are a customer who have the intention of {prev_intention}. How "
    "likely are you to purchase {last} based on the assumed intention? A:",
    2: "Q: After seeing {previous}, and assuming you are a customer who highly value the feature {prev_attribute} of "
    "{prev_product}. How likely are you to purchase {last}? A:",
    3: "Q: Comparing between {last_two}, and assuming you have the intention of {last_intention}, Does this comparison "
    "{comparison} provide in-depth justification of your impulse? A:",
    4: "Q: After seeing {all_products}, and assuming you have the intention of {last_intention}, do you still want to "
    "explore similar products? A:",
}
FEW_SHOT_EXAMPLES: dict[int, tuple[str, ...]] = {
    1: (
        "Q: After seeing Eco-friendly laundry detergent, bamboo dish brush, reusable kitchen cloths, and assuming you "
        "are a customer who have the intention of Reducing household chemical usage. How likely are you to purchase A "
        "biodegradable dish soap based on the assumed intention? A: A. Yes",
        "Q: After seeing Instant Pot, KitchenAid Stand Mixer, Ninja Air Fryer, and assuming you are a customer who "
        "have the intention of Upgrading kitchen equipment for home cooking. How likely are you to purchase A set of "
        "gourmet spices based on the assumed intention? A: C. Maybe no",
        "Q: After seeing Columbia hiking boots, North Face backpack, Garmin GPS watch, and assuming you are a customer "
        "who have the intention of Planning for outdoor adventures. How likely are you to purchase A formal suit for "
        "weddings based on the assumed intention? A: D. No",
        'Q: After seeing "1984" by George Orwell, "To Kill a Mockingbird" by Harper Lee, "The Catcher in the Rye" by '
        "J.D. Salinger, and assuming you are a customer who have the intention of Finding new reading material for "
        'leisure. How likely are you to purchase "The Da Vinci Code" by Dan Brown based on the assumed intention? A: '
        "B. Maybe yes",
        "Q: After seeing Rolex Submariner, Omega Seamaster, Tag Heuer Monaco, and assuming you are a customer who have "
        "the intention of Finding a timeless gift for a special occasion. How likely are you to purchase A limited "
        "edition Patek Philippe watch based on the assumed intention? A: A. Yes",
    ),
    2: (
        "Q: After seeing Noise-canceling headphones, wireless earbuds, Bluetooth speaker, and assuming you are a "
        "customer who highly value the feature High audio quality of Bluetooth speaker. How likely are you to purchase "
        "A premium soundbar? A: A. Yes",
        "Q: After seeing adjustable standing desk, monitor with blue light filter, Ergonomic office chair, and "
        "assuming you are a customer who highly value the feature Ergonomics of Ergonomic office chair. How likely "
        "are you to "
        "purchase A desk lamp with a USB port? A: C. Maybe no",
        "Q: After seeing Organic facial cleanser, natural moisturizer, chemical-free sunscreen, and assuming you are a "
        "customer who highly value the feature Natural ingredients of chemical-free sunscreen. How likely are you to "
        "purchase A synthetic fragrance? A: D. No",
        "Q: After seeing DSLR camera, camera tripod, external flash, and assuming you are a customer who highly value "
        "the feature Professional photography of external flash. How likely are you to purchase A photo editing "
        "software? A: A. Yes",
        "Q: After seeing High SPF sunscreen, UV-blocking sunglasses, wide-brimmed hat, and assuming you are a customer "
        "who highly value the feature Sun protection of wide-brimmed hat. How likely are you to purchase An aloe vera "
        "gel? A: B. Maybe yes",
    ),
    3: (
        "Q: Comparing between a budget smartphone with a long battery life and A high-end smartphone with superior "
        "low-light performance, and assuming you have the intention of Finding a device with the best camera quality, "
        "Does this comparison The high-end smartphone boasts advanced camera technology provide in-depth justification "
        "of your impulse? A: A. Yes",
        "Q: Comparing between A compact car and a mid-size SUV, and assuming you have the intention of Prioritizing "
        "fuel efficiency, Does this comparison the mid-size SUV, although spacious, consumes more fuel due to its "
        "larger engine and heavier body provide in-depth justification of your impulse? A: B. Maybe yes",
        "Q: Comparing between A luxury wristwatch and a fitness tracker, and assuming you have the intention of "
        "Tracking health metrics, Does this comparison Finding a more affordable watch provide in-depth justification "
        "of your impulse? A: D. No",
        "Q: Comparing between A leather office chair with plush cushioning and a mesh office chair with lumbar support "
        "and assuming you have the intention of Seeking maximum comfort during long working hours, Does this "
        "comparison The mesh office chair offers better breathability and ergonomic support provide in-depth "
        "justification of your impulse? A: A. Yes",
        "Q: Comparing between A hardcover book and an e-reader, and assuming you have the intention of Enhancing the "
        "reading experience, Does this comparison The hardcover book provides a tactile, while the e-reader offers "
        "portability, adjustable text size provide in-depth justification of your impulse? A: C. Maybe no",
    ),
    4: (
        "Q: After seeing Stainless steel kitchen knives, non-stick frying pans, silicone spatulas, and assuming you "
        "have the intention of Upgrading kitchen tools for home cooking, do you still want to explore similar "
        "products? A: B. Maybe yes",
        "Q: After seeing Fitness tracker, yoga mat, resistance bands, and assuming you have the intention of Tracking "
        "fitness progress, do you still want to explore similar products? A: A. Yes",
        "Q: After seeing Stainless steel refrigerator, smart oven, induction cooktop, and assuming you have the "
        "intention of Making the kitchen more energy efficient, do you still want to explore similar products? A: "
        "C. No",
        "Q: After seeing Smart thermostat, LED light bulbs, energy-efficient washing machine, and assuming you have "
        "the intention of Saving on utility bills, do you still want to explore similar products? A: B. Maybe yes",
        "Q: After seeing Indoor plants, plant stands, watering can, and assuming you have the intention of Creating a "
        "greener living space, do you still want to explore similar products? A: A. Yes",
    ),
}


def session_information(item: SessionIntentItem) -> str:
    """The session's products as a numbered list with category and attributes."""
    lines = []
    for number, product in enumerate(item.products, start=1):
        line = f"\nProduct {number}: {product.title}"
        if product.category:
            line += f" (category: {product.category})"
        if product.attributes:
            line += "; attributes: " + "; ".join(f"{key}: {value}" for key, value in product.attributes.items())
        lines.append(line)
    return "".join(lines)


def slots(item: SessionIntentItem) -> dict[str, str]:
    """What the tables' placeholders stand for, from the session's last two steps."""
    products = item.products
    prev, last = products[-2], products[-1]
    return {
        "previous": ", ".join(p.title for p in products[:-1]),
        "prev_intention": prev.intention or "",
        "prev_attribute": prev.valued_attribute or "",
        "prev_product": prev.title,
        "last": last.title,
        "last_two": f"{prev.title} and {last.title}",
        "last_intention": last.intention or "",
        "comparison": last.comparison or "",
        "all_products": ", ".join(p.title for p in products),
    }


def build_prompt(item: SessionIntentItem, prompting: str = "zero-shot") -> QuestionPrompt:
    """The user message of the paper's table for the item's task and the prompting protocol."""
    if prompting not in PROMPTINGS:
        raise BadInput(f"SessionIntentBench supports {', '.join(PROMPTINGS)}; not {prompting!r}")
    task, fill = item.task, slots(item)
    intro = INTRO.format(session=session_information(item))
    if prompting == "zero-shot":
        paragraphs = [intro, ZERO_SHOT_QUESTION[task].format(**fill), OPTIONS[task], ZERO_SHOT_ANSWER[task]]
    elif prompting == "cot":
        paragraphs = [intro, COT_QUESTION[task].format(**fill), COT_OPTIONS[task], COT_ANSWER[task]]
    else:
        paragraphs = [
            f"{intro} {FEW_SHOT_HEADER[task]} {OPTIONS[task]}",
            "Here are a few examples: " + FEW_SHOT_EXAMPLES[task][0],
            *FEW_SHOT_EXAMPLES[task][1:],
            FEW_SHOT_QUESTION[task].format(**fill),
        ]
    return QuestionPrompt(user="\n\n".join(paragraphs), max_tokens=MAX_TOKENS[prompting], temperature=0.0)
