"""The shortest string one ECMA-262 pattern finds and another does not, held to the project's matcher.

Every answer is checked with :class:`Pattern` (ECMA-262 on RE2): a witness is found by the accepting
pattern and not by the refusing one, and no shorter string over a small alphabet that meets every
distinction the two patterns make is; None is checked the same way up to a length.
"""

import itertools
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toolreg._jsonschema.errors import ToolregError
from toolreg._jsonschema.regex import Pattern, RegexSyntaxError
from toolreg._jsonschema.regex.difference import Undecided, shortest_difference, shortest_match

# The most strings a brute-force check tries: past it, it is skipped (only for tiny cases).
BRUTE_FORCE_LIMIT = 5_000


def in_difference(accepting, refusing):
    """The membership test of L(accepting) \\ L(refusing), by the project's matcher."""
    found = Pattern(accepting).search
    refused = (lambda text: False) if refusing is None else Pattern(refusing).search
    return lambda text: found(text) and not refused(text)


def strings(alphabet, length):
    return ("".join(letters) for letters in itertools.product(alphabet, repeat=length))


def assert_answer(accepting, refusing, answer, alphabet, none_up_to=4):
    """``answer`` is a witness, and none shorter over ``alphabet`` is; or None, and no string over
    ``alphabet`` of up to ``none_up_to`` characters is in the difference."""
    member = in_difference(accepting, refusing)
    if answer is not None:
        assert member(answer), (accepting, refusing, answer)
    checked_up_to = none_up_to if answer is None else len(answer) - 1
    if sum(len(alphabet) ** length for length in range(checked_up_to + 1)) > BRUTE_FORCE_LIMIT:
        return
    for length in range(checked_up_to + 1):
        shorter = next((text for text in strings(alphabet, length) if member(text)), None)
        assert shorter is None, (accepting, refusing, answer, shorter)


# (accepting, refusing, the answer worked out by hand, an alphabet meeting every distinction)
CASES = [
    # The examples the diff engine relies on.
    (r"^[a-z]+$", r"^[a-z]{1,5}$", "aaaaaa", "aA"),
    (r"^\d{3}$", r"^\d{3,4}$", None, "0a"),
    (r"^[A-Z]", r"^[A-Z]{2}", "A", "Aa"),
    ("abc", "^abc", "aabc", "abcd"),  # anything before "abc", and "a" is the preferred character
    (r"^(foo|bar)$", r"^foo$", "bar", "fobarx"),
    # Literals, alternation and groups.
    ("a", "a", None, "ab"),
    ("a+", "a", None, "ab"),
    ("a", "a+", None, "ab"),
    ("(ab|cd){2}", "abab|abcd|cdab", "cdcd", "abcd"),
    ("(?:a|b)*c", "a*c", None, "abc"),  # both find any c
    ("^(?:a|b)*c", "^a*c", "bc", "abc"),
    ("abc", "b", None, "abcd"),
    # Sets, escapes and the dot.
    (r"\d", "[0-8]", "9", "09a"),
    (r"\w", "[a-z]", "A", "aA0_-"),
    ("[^abc]", "[^abd]", "d", "abcde"),
    (r"[\s\S]", ".", "\n", "a\n\r"),
    (".", r"[\s\S]", None, "a\n"),
    (r"^.$", r"^[a-z]$", "A", "aA\n"),
    # Counts and laziness.
    ("a{2,}", "aaa", "aa", "ab"),
    ("^a+?$", "^a+$", None, "ab"),
    ("^a*$", "^a+$", "", "ab"),
    ("^$", "^a*$", None, "ab"),
    ("^a*$", "^$", "a", "ab"),
    # The empty pattern finds the empty string anywhere.
    ("", "a", "", "ab"),
    # Word boundaries: a word character on one side only.
    ("foo", r"\bfoo", "afoo", "fo-"),
    (r"\bfoo", "foo", None, "fo-"),
    ("a", r"a\B", "a", "ab-"),
    (r"a\B", "a", None, "ab-"),
    # Lone surrogates are code points like any other.
    (r"[\uD800-\uDFFF]", r"[\uD800-\uDBFF]", "\udc00", "a\ud800\udc00"),
    (r"[\uD800-\uDFFF]", r"\uD800", "\ud801", "a\ud800\ud801"),
    # U+D7FC to U+D7FF are unassigned, so not printable, but still preferred to a lone surrogate.
    (r"^[\uD7FC-\uDBFF]$", "^a$", "\ud7fc", "a\ud7fc\ud800"),
]


@pytest.mark.parametrize(("accepting", "refusing", "expected", "alphabet"), CASES)
def test_the_answer_is_the_first_shortest_witness_the_matcher_agrees_with(
    accepting, refusing, expected, alphabet
):
    answer = shortest_difference(accepting, refusing)
    assert answer == expected
    assert_answer(accepting, refusing, answer, alphabet)


def test_refusing_nothing_asks_for_a_shortest_match():
    assert shortest_match(r"^\d{3}-\d{4}$") == shortest_difference(r"^\d{3}-\d{4}$", None) == "000-0000"
    assert Pattern(r"^\d{3}-\d{4}$").search("000-0000")
    assert shortest_match("^$") == ""
    for finds_nothing in ("[]", "a$b", "a^", r"\b\B"):
        assert shortest_match(finds_nothing) is None
        assert_answer(finds_nothing, None, None, "ab-")


def test_properties_are_the_code_points_re2_gives_them():
    upper = shortest_difference(r"\p{Lu}", "[A-Z]")
    assert len(upper) == 1 and not upper.isascii() and unicodedata.category(upper) == "Lu"
    assert_answer(r"\p{Lu}", "[A-Z]", upper, "AaÀ")
    # A cased letter is an upper, lower or title case one, whichever way the sets are written.
    assert shortest_difference(r"^\p{LC}+$", r"^[\p{Ll}\p{Lu}\p{Lt}]+$") is None
    assert shortest_difference(r"[\p{Ll}\p{Lu}\p{Lt}]", r"\p{Cased_Letter}") is None
    assert shortest_difference(r"\P{Lu}", r"[^\p{Uppercase_Letter}]") is None
    assert shortest_difference(r"\p{Ll}", r"\p{Lu}") == "a"
    greek = shortest_difference(r"\p{Script=Greek}", r"[\u0391-\u03C9]")
    assert len(greek) == 1 and not ("\u0391" <= greek <= "\u03c9")
    assert_answer(r"\p{Script=Greek}", r"[\u0391-\u03C9]", greek, "a\u03b1")


def test_a_property_re2_does_not_know_is_undecided():
    with pytest.raises(
        Undecided, match=r"\\p\{ID_Start\} in the set at position 0 of the refusing pattern: a property"
    ):
        shortest_difference("a", r"[\p{ID_Start}]")


@pytest.mark.parametrize(
    ("accepting", "refusing", "reason"),
    [
        ("(a)\\1", "a", "a back-reference at position 3 of the accepting pattern"),
        ("a", "(?<n>a)\\k<n>", "a back-reference at position 7 of the refusing pattern"),
        ("x(?=a)", "a", "a look-ahead (?=…) at position 1 of the accepting pattern"),
        ("x(?!a)", "a", "a look-ahead (?!…) at position 1 of the accepting pattern"),
        ("a", "(?<=a)b", "a look-behind (?<=…) at position 0 of the refusing pattern"),
        ("a", "b(?<!a)", "a look-behind (?<!…) at position 1 of the refusing pattern"),
    ],
)
def test_look_arounds_and_back_references_are_undecided_with_where(accepting, refusing, reason):
    with pytest.raises(Undecided) as raised:
        shortest_difference(accepting, refusing)
    assert raised.value.reason == reason
    assert isinstance(raised.value, ToolregError) and isinstance(raised.value, ValueError)


def test_a_source_that_is_not_ecma_262_is_a_syntax_error():
    with pytest.raises(RegexSyntaxError):
        shortest_difference("(", "a")


# -- bounds ----------------------------------------------------------------------------------------


def test_long_counts_are_decided_within_the_budget():
    # Any 1000 a's in a row hold 999 in a row; the other way the witness is the 999 themselves.
    assert shortest_difference("a{1000}", "a{999}") is None
    assert shortest_difference("^a{1000}$", "^a{999}$") == "a" * 1000
    assert Pattern("^a{1000}$").search("a" * 1000)


def test_counts_past_the_budget_are_undecided_naming_the_count():
    # (a{100}) is about 200 states; a hundred copies of it pass 20,000.
    with pytest.raises(Undecided, match=r"'\{100\}' at position 9 of the accepting pattern .* 20000 states"):
        shortest_difference("((a{100}){100}){100}", "a")
    with pytest.raises(Undecided, match=r"'\{4294967295\}' at position 1 of the refusing pattern"):
        shortest_difference("a", "a{4294967295}")
    with pytest.raises(Undecided, match=r"the part at position \d+ of the refusing pattern"):
        shortest_difference("w", "|".join(f"w{number}" for number in range(5000)))


def test_a_search_past_its_states_or_its_work_is_undecided():
    # The witness is x, 1000 characters that hold no x, and y: the search would have to tell apart
    # every set of places an x was seen at.
    with pytest.raises(Undecided, match="more than 5000 states"):
        shortest_difference(r"x.{1000}y", r"x.{999}y", max_states=5000)
    with pytest.raises(Undecided, match="more than 500 states"):
        shortest_difference(r"x.{20}y", r"x.{19}y", max_states=500)
    with pytest.raises(Undecided, match=r"more than \d+ steps of work"):
        shortest_difference("a{999}", "a{1000}", max_states=5000)


def test_large_alternations_and_nested_repeats_are_answered():
    words = [f"w{number}" for number in range(500)]
    assert shortest_difference(f"^({'|'.join(words)})$", f"^({'|'.join(words[:-1])})$") == "w499"
    # Stars of stars find the empty string anywhere, and add nothing to what follows them.
    assert shortest_difference("((a*)*)*", "b") == ""
    assert shortest_difference("((a|b)*)*c", "c") is None
    assert shortest_difference("(a{2}){3}", "a{5}") is None
    assert shortest_difference("^(a{2}){3}$", "^a{5}$") == "aaaaaa"


# -- random patterns -------------------------------------------------------------------------------

# Small patterns from a tiny grammar: literals, sets, groups, alternatives, counts, anchors and
# word boundaries; each term is one draw, to keep the examples cheap.
ATOMS = ["a", "b", "c", "[ab]", "[^a]", ".", r"\w", "(?:a|b)", "(?:ab)", "(?:a|bc)", "(?:a*b)", "(?:|a)"]
QUANTIFIERS = ["", "", "?", "*", "+", "{2}", "{0,2}", "{1,3}"]
TERMS = st.sampled_from([atom + quantifier for atom in ATOMS for quantifier in QUANTIFIERS])
ALTERNATIVES = st.lists(st.lists(TERMS, min_size=1, max_size=3).map("".join), min_size=1, max_size=2)
PATTERNS = st.tuples(
    st.sampled_from(["", "^", r"\b"]), ALTERNATIVES.map("|".join), st.sampled_from(["", "$", r"\B"])
).map("".join)
# a, b and c, another word character, another character and a line terminator: one of each class
# the grammar can tell apart.
ALPHABET = "abcd-\n"


@given(PATTERNS, PATTERNS | st.none())
def test_random_patterns_agree_with_the_matcher(accepting, refusing):
    answer = shortest_difference(accepting, refusing)
    assert_answer(accepting, refusing, answer, ALPHABET, none_up_to=3)
