"""The reference text protocol parser: well-formed turns, near-misses it accepts, and malformed turns it reports."""

from __future__ import annotations

from evaluators.players.agent.paper_format import format_paper_call, parse_paper_turn


def test_reference_array_format_with_think_and_response():
    text = (
        "<think>Search for the shoes first.</think>\n"
        '<tool_call>[{"name": "find_product", "parameters": {"q": "nike shoes", "page": 1}},'
        ' {"name": "web_search", "parameters": {"q": "nike"}}]</tool_call>\n'
        "<response>Looking.</response>"
    )
    turn = parse_paper_turn(text, "call_3")
    assert turn.thought == "Search for the shoes first."
    assert turn.response == "Looking."
    assert [(c.id, c.name, c.arguments) for c in turn.calls] == [
        ("call_3-0", "find_product", {"q": "nike shoes", "page": 1}),
        ("call_3-1", "web_search", {"q": "nike"}),
    ]
    assert all(c.parse_error is None for c in turn.calls)


def test_single_object_arguments_key_escaped_tags_and_fence_are_accepted():
    text = (
        '<think>ok<\\/think><tool_call>```json\n{"name": "terminate", "arguments": {"status": "success"}}\n```'
        "<\\/tool_call>"
    )
    turn = parse_paper_turn(text)
    assert turn.thought == "ok"
    assert [(c.name, c.arguments) for c in turn.calls] == [("terminate", {"status": "success"})]


def test_closing_tag_cut_by_a_stop_sequence_is_tolerated():
    turn = parse_paper_turn('<think>x</think><tool_call>[{"name": "terminate", "parameters": {"status": "failure"}}]')
    assert turn.calls[0].name == "terminate" and turn.calls[0].parse_error is None


def test_missing_tool_call_tag_is_a_parse_error_not_an_exception():
    turn = parse_paper_turn("<think>I am not sure what to do.</think><response>Hello!</response>")
    assert turn.thought == "I am not sure what to do."
    assert len(turn.calls) == 1 and turn.calls[0].parse_error == "no <tool_call>...</tool_call> block"


def test_missing_think_uses_the_text_before_the_call_as_thought():
    turn = parse_paper_turn('Let me look.\n<tool_call>[{"name": "find_product", "parameters": {"q": "a", "page": 1}}]'
                            "</tool_call>")
    assert turn.thought == "Let me look." and turn.calls[0].name == "find_product"


def test_bad_json_names_the_problem():
    turn = parse_paper_turn('<think>t</think><tool_call>[{"name": "find_product", "parameters": {"q": }]</tool_call>')
    assert turn.calls[0].parse_error.startswith("the tool call is not valid JSON")


def test_call_without_name_or_with_non_object_parameters_is_reported():
    no_name = parse_paper_turn('<tool_call>[{"parameters": {"q": "x"}}]</tool_call>')
    assert no_name.calls[0].parse_error == 'each tool call needs a "name" string'
    bad_params = parse_paper_turn('<tool_call>[{"name": "find_product", "parameters": [1, 2]}]</tool_call>')
    assert bad_params.calls[0].name == "find_product"
    assert bad_params.calls[0].parse_error == '"parameters" must be a JSON object'
    empty = parse_paper_turn("<tool_call>[]</tool_call>")
    assert empty.calls[0].parse_error == "the tool call list is empty"


def test_parameters_given_as_a_json_string_are_decoded():
    text = '<tool_call>[{"name": "terminate", "parameters": "{\\"status\\": \\"success\\"}"}]</tool_call>'
    turn = parse_paper_turn(text)
    assert turn.calls[0].arguments == {"status": "success"}


def test_format_round_trips_through_the_parser():
    text = format_paper_call("recommend_product", {"product_ids": "a,b"}, "these two")
    turn = parse_paper_turn(text)
    assert turn.thought == "these two"
    assert [(c.name, c.arguments) for c in turn.calls] == [("recommend_product", {"product_ids": "a,b"})]
