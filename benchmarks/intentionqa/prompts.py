"""The reference IntentionQA prompts and decoding (SPEC §3): zero-shot, CoT and CoT self-consistency."""

from __future__ import annotations

from benchmarks.errors import BadInput
from benchmarks.intentionqa.schema import IntentionQAItem
from benchmarks.qa import QuestionPrompt

PROMPTINGS = ("zero-shot", "cot", "cot-sc")
COT_SC_SAMPLES = 5


def reason_after_because(assertion: str) -> str:
    """The assertion from "because" (else "as a result, ") on, stripped.

    Where neither occurs the reference slices from index -1, keeping only the last character; so does this.
    """
    index = assertion.find("because")
    if index == -1:
        index = assertion.find("as a result, ")
    return assertion[index:].strip()


def _answer_line(item: IntentionQAItem, prompting: str) -> str:
    letters = " or ".join(item.options)
    if prompting == "zero-shot":
        return f"Answer {letters} only without any other word."
    return (
        "Formulate your answer in this way.\nStep 1: Give a short and brief rationale by thinking step by step.\n"
        f"Step 2: Answer {letters} only without any other word."
    )


def question_text(item: IntentionQAItem, prompting: str = "zero-shot") -> str:
    """The user message, exactly as the reference builds it for the item's task."""
    if item.task == "task1":
        text = f"A customer buys {item.item_a_name} and {item.item_b_name}. "
        text += "What is the most likely intention for buying them?\n"
    else:
        text = f"A customer buys {item.item_a_name}, {reason_after_because(item.assertion)}"
        text += "\n" if text.endswith(".") else ".\n"
        text += "What is the customer's most probable additional purchase?\n"
    for letter, option in item.options.items():
        text += f"{letter}. {option}\n"
    return text + _answer_line(item, prompting)


def build_prompt(item: IntentionQAItem, prompting: str = "zero-shot") -> QuestionPrompt:
    """Zero-shot: temperature 0.1, 10 tokens. CoT: 0.1, 200 tokens. CoT-SC: 5 samples at 0.7, 200 tokens."""
    if prompting not in PROMPTINGS:
        raise BadInput(f"IntentionQA supports {', '.join(PROMPTINGS)}; not {prompting!r}")
    text = question_text(item, prompting)
    if prompting == "zero-shot":
        return QuestionPrompt(user=text, max_tokens=10, temperature=0.1)
    if prompting == "cot":
        return QuestionPrompt(user=text, max_tokens=200, temperature=0.1)
    return QuestionPrompt(user=text, max_tokens=200, temperature=0.7, samples=COT_SC_SAMPLES)
