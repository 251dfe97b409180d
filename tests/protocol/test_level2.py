"""Level 2 field quoting: the three styles and the tokenizer that reads them back."""

from __future__ import annotations

import pytest
from hypothesis import given

from icswire.protocol.level2 import frame, quote_brace, quote_ctrl, quote_word, split_fields

from .strategies import wire_text


def test_quoting_styles() -> None:
    assert quote_word("fred") == "fred"
    assert quote_word("") == "{}"
    assert quote_word("two words") == "{two words}"
    assert quote_word("a{b") == "\x19{a{b\x19}"
    assert quote_brace("GM") == "{GM}"
    assert quote_brace("line\nbreak") == "\x19{line\nbreak\x19}"
    assert quote_ctrl("hi") == "\x19{hi\x19}"
    assert frame(["24", "5", "e4"]) == b"\x19(24 5 e4\x19)"


@pytest.mark.parametrize("bad", ["a\x19b", "a\x1ab"])
def test_control_y_and_z_cannot_be_quoted(bad: str) -> None:
    with pytest.raises(ValueError, match="control"):
        quote_ctrl(bad)
    with pytest.raises(ValueError, match="control"):
        quote_brace(bad)


def test_adjacent_braced_fields_and_blanks() -> None:
    assert split_fields("25 5 * {e4 e2e4}{e5 e7e5}")[0] == ["25", "5", "*", "e4 e2e4", "e5 e7e5"]
    assert split_fields("1  a   {}  ")[0] == ["1", "a", ""]


@given(wire_text, wire_text, wire_text)
def test_every_quoting_reads_back_as_the_same_text(a: str, b: str, c: str) -> None:
    body = " ".join(["7", quote_word(a), quote_brace(b), quote_ctrl(c)])
    values, tokens = split_fields(body)
    assert values == ["7", a, b, c]
    assert " ".join(tokens) == body
