"""Identifier parsing: every accepted and rejected form, plus properties."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings, strategies as st

from pith_tex.errors import UsageError
from pith_tex.record.identifier import (ALPHABET, Identifier, check_requested_year,
                                 parse_identifier)

N = "O6TNNA4XHFGPSALGBT7UWDA2Z3"


@pytest.mark.parametrize("text, year", [
    (N, None),
    (N.lower(), None),
    ("  %s\n" % N, None),
    ("pith:" + N, None),
    ("PITH:" + N, None),
    ("pith:" + N.lower(), None),
    ("pith:2025:" + N, 2025),
    ("Pith:1999:" + N.lower(), 1999),
    ("https://pith.science/pith/" + N, None),
    ("http://pith.science/pith/" + N, None),
    ("https://www.pith.science/pith/" + N, None),
    ("https://pith.science/pith/" + N + "/", None),
    ("https://pith.science/pith/" + N + ".json", None),
    ("HTTPS://PITH.SCIENCE/pith/" + N, None),
    ("https://pith.science/pith/" + N + "#verify", None),
    ("https://pith.science/pith/" + N + "?ref=x", None),
    ("https://pith.science/pith/" + N.lower(), None),
])
def test_accepted(text, year):
    assert parse_identifier(text) == Identifier(N, year)


@pytest.mark.parametrize("text, fragment", [
    ("", "empty"),
    ("   ", "empty"),
    (N[:25], "it has 25 characters, a Pith Number has 26"),
    (N + "A", "it has 27 characters"),
    ("A", "it has 1 character,"),
    (N[:8], "8-character short form"),
    ("pith:" + N[:8], "8-character short form"),
    ("pith:" + N[:12], "12-character short form"),
    (N[:16], "16-character short form"),
    ("https://pith.science/pith/" + N[:8], "short form"),
    (N[:-1] + "0", "did you mean the letter O"),
    ("1" + N[1:], "did you mean the letter I"),
    (N[:5] + "8" + N[6:], "did you mean the letter B"),
    (N[:5] + "9" + N[6:], "outside the base32 alphabet"),
    (N[:13] + " " + N[13:], "outside the base32 alphabet"),
    (N[:13] + "-" + N[13:], "position 14"),
    ("pith:25:" + N, "must be 4 digits, got '25'"),
    ("pith:20255:" + N, "must be 4 digits"),
    ("pith:YYYY:" + N, "must be 4 digits"),
    ("pith::" + N, "must be 4 digits"),
    ("pith:\u0662\u0660\u0662\u0665:" + N, "must be 4 digits"),
    ("pith:2025:" + N[:8], "short form"),
    ("https://example.org/pith/" + N, "not a pith.science/pith/ URL"),
    ("ftp://pith.science/pith/" + N, "not a pith.science/pith/ URL"),
    ("https://pith.science/pith/", "names no Pith Number"),
    ("https://pith.science/paper/" + N, "not a pith.science/pith/ URL"),
    ("2025:" + N, "outside the base32 alphabet"),
    (N[:25] + "\u00c9", "outside the base32 alphabet"),
])
def test_rejected(text, fragment):
    with pytest.raises(UsageError) as e:
        parse_identifier(text)
    assert fragment in e.value.message
    assert "\n" not in e.value.message
    assert e.value.exit_code == 2


def test_short_form_message_says_how_to_fix():
    with pytest.raises(UsageError) as e:
        parse_identifier("pith:O6TNNA4X")
    assert "copy the full 26-character number from the Pith page" in e.value.message
    assert "an 8-character" in e.value.message


def test_str_round_trip():
    assert str(parse_identifier("pith:2025:" + N)) == "pith:2025:" + N
    assert str(parse_identifier(N)) == N


def test_year_against_record():
    check_requested_year(Identifier(N, None), 2025)
    check_requested_year(Identifier(N, 2025), 2025)
    with pytest.raises(UsageError) as e:
        check_requested_year(Identifier(N, 2024), 2025)
    assert "2024" in e.value.message and "2025" in e.value.message


numbers = st.text(alphabet=ALPHABET, min_size=26, max_size=26)
years = st.one_of(st.none(), st.integers(min_value=0, max_value=9999))


def _spell(number, year, form, lower):
    n = number.lower() if lower else number
    if form == "plain" or (form == "url" and year is not None):
        return n if year is None else "pith:%04d:%s" % (year, n)
    if form == "pith":
        return "pith:" + n if year is None else "pith:%04d:%s" % (year, n)
    return "https://pith.science/pith/" + n


@settings(deadline=None)
@given(numbers, years, st.sampled_from(["plain", "pith", "url"]), st.booleans())
def test_accepted_inputs_round_trip(number, year, form, lower):
    ident = parse_identifier(_spell(number, year, form, lower))
    assert ident.number == number
    if form != "url":
        assert ident.year == year
    assert parse_identifier(str(ident)) == ident


@settings(max_examples=1000, deadline=None)
@given(st.text())
@example("pith:")
@example("pith:::")
@example("https://pith.science/pith/\x00")
@example("\ud800")
def test_random_strings_never_crash(text):
    try:
        ident = parse_identifier(text)
    except UsageError as e:
        assert e.message and "\n" not in e.message
        assert e.message.isascii()
    else:
        assert len(ident.number) == 26 and set(ident.number) <= set(ALPHABET)


@settings(deadline=None)
@given(st.text(alphabet=ALPHABET + "018:/.hpst", max_size=60))
def test_near_miss_strings_never_crash(text):
    try:
        parse_identifier(text)
    except UsageError:
        pass
