"""ECMA-262 patterns: toolreg's reading of their syntax, RE2's translation, the backtracking guard."""

import re

import pytest
import regress
from hypothesis import event, given, settings
from hypothesis import strategies as st

import toolreg
from tests.sandbox import REGRESS_LIMITS, node_child, python_child
from toolreg._jsonschema.regex import (
    MAX_STEPS,
    Pattern,
    RegexSyntaxError,
    UnsupportedPattern,
    is_regex,
    steps_at_each_place,
    to_re2,
)
from toolreg._jsonschema.regex.properties import GENERAL_CATEGORIES, SCRIPTS
from toolreg._jsonschema.regex.syntax import parse

BACKTRACKING = toolreg.Limits(allow_backtracking_patterns=True)


@pytest.fixture(scope="module")
def children():
    made = {
        "toolreg": python_child("toolreg", timeout=20),
        "regress": python_child("regress", timeout=2),
        "node": node_child(timeout=2),
    }
    yield made
    for child in made.values():
        if child is not None:
            child.close()


# -- syntax ---------------------------------------------------------------------------------------

# ASCII punctuation and the space that Unicode mode refuses to escape, and Annex B reads as itself.
ANNEX_B = "-_:\"'@#%=!<>,~&` ;"


@pytest.mark.parametrize("char", list(ANNEX_B))
def test_escaped_ascii_punctuation_stands_for_itself_as_ecma_262_without_u_reads_it(char):
    # Real catalogs write ^https\:\/\/, ^\-?\d+$ and \_; regress without the u flag is ECMA-262's
    # Annex B reading, the one JavaScript validators use.
    for pattern in (f"^a\\{char}b$", f"^[\\{char}x]+$", f"\\{char}"):
        oracle = regress.Regex(pattern, "")
        validator = toolreg.compile({"pattern": pattern})
        for text in (f"a{char}b", "ab", f"{char}x{char}", "a\\b", "x"):
            assert validator.is_valid(text) is (oracle.find(text) is not None), (pattern, text)
    assert toolreg.compile({"pattern": f"^\\{char}$"}).is_valid(char)


def test_escaped_ascii_punctuation_as_node_reads_it_without_the_u_flag():
    node = node_child(timeout=10)
    if node is None:
        pytest.skip("node is not installed: V8's reading of Annex B escapes is not checked here")
    texts = ["a-b", "ab", "x_:\"'@#%=!<>,~&` ;", "a\\b"]
    try:
        for char in ANNEX_B:
            for pattern in (f"^a\\{char}b$", f"[\\{char}]", f"^[^\\{char}]*$"):
                compiled = Pattern(pattern)
                assert node.ask({"pattern": pattern, "texts": texts, "unicode": False}) == [
                    compiled.search(text) for text in texts
                ], pattern
    finally:
        node.close()


def test_real_catalog_patterns_with_escapes_and_slashes_run_on_re2():
    for pattern, good, bad in [
        (r"^https\:\/\/", "https://x", "http://x"),
        (r"^\-?\d+$", "-12", "1-2"),
        (r"^[a-z\_]+$", "a_b", "a-b"),
        (r"^[^/]+(/[^/]+)*$", "a/b/c", "a//b"),
        (r"^https?://[^\s/]+(/\S*)?$", "https://example.com/a", "https:///a"),
    ]:
        assert Pattern(pattern).backtracking is None
        validator = toolreg.compile({"pattern": pattern})
        assert validator.is_valid(good) and not validator.is_valid(bad)


@pytest.mark.parametrize(
    "letter", [chr(code) for code in range(ord("A"), ord("z") + 1) if chr(code).isalpha()]
)
def test_an_escaped_letter_is_a_pattern_only_where_ecma_262_defines_it(letter):
    defined = set("bBdDwWsSfnrtv")  # and \cX, \xHH, \uHHHH, \p{…}, \k<name>, which need more
    assert is_regex(f"\\{letter}") is (letter in defined)
    assert is_regex(f"[\\{letter}]") is (letter in defined - {"B"})


@pytest.mark.parametrize(
    ("pattern", "words"),
    [
        ("(?P<name>a)", "Python's (?P…)"),
        ("(?P=name)", "Python's (?P…)"),
        ("(?i)a", "inline flags"),
        ("(?#note)a", "comment"),
        ("a\\Z", "\\Z is not ECMA-262"),
        ("\\Aa", "\\A is not ECMA-262"),
        ("\\e", "\\e is not ECMA-262"),
        ("a{2,1}", "most is below its least"),
        ("a{", "'{'"),
        ("]", "lone"),
        ("*a", "nothing to repeat"),
        ("(?=a)*", "nothing to repeat"),
        ("a**", "nothing to repeat"),
        ("(a", "unclosed group"),
        ("a)", "closes no group"),
        ("[z-a]", "out of order"),
        ("[\\d-z]", "class escape"),
        ("\\p{Letterz}", "names no Unicode property"),
        ("\\p{sc=Latin", "unclosed"),
        ("(a)\\2", "refers to a group"),
        ("\\k<x>", "names no group"),
        ("(?<a>x)(?<a>y)", "second group named"),
        ("\\u{110000}", "at most 10FFFF"),
        ("\\c1", "\\c must be followed"),
        ("\\01", "octal"),
        ("\\", "end of the pattern"),
    ],
)
def test_what_is_not_ecma_262_is_refused_with_what_and_where(pattern, words):
    with pytest.raises(RegexSyntaxError) as refused:
        Pattern(pattern)
    assert words in str(refused.value) and "(at position " in str(refused.value)
    assert not is_regex(pattern)
    with pytest.raises(toolreg.SchemaError, match="not a valid ECMA-262 regular expression"):
        toolreg.check_schema({"pattern": pattern})


LARGEST = [pytest.mark.no_cover, pytest.mark.slow]


@pytest.mark.parametrize("depth", [200, 5_000, pytest.param(100_000, marks=LARGEST)])
def test_deep_nesting_is_read_without_recursion(depth):
    pattern = "(" * depth + "a" + ")" * depth
    assert is_regex(pattern) and not is_regex("(" * depth + "a")
    assert Pattern(pattern).search("bab")


def test_huge_counts_and_long_escapes_are_read_exactly():
    # Python's int refuses more than 4,300 digits: counts are compared as digit strings.
    many = "9" * 5000
    assert is_regex(f"a{{{many}}}") and is_regex(f"a{{1,{many}}}")
    assert not is_regex(f"a{{{many}9,{many}}}")
    assert is_regex("\\u{" + "0" * 5000 + "41}")
    assert not is_regex(f"(a)\\{many}")


# Patterns from a grammar rich in what the reader must get right: escapes, classes, groups, counts.
SYNTAX_PIECES = [
    *"ab()[]{}|^$.*+?\\-,:0123456789<>=!_kpPuxcdDwWsSbBnrtfv/",
    "(?:", "(?=", "(?!", "(?<=", "(?<!", "(?<n>", "(?<m>", "\\k<n>", "\\p{L}", "\\p{Lu}", "\\P{sc=Greek}",
    "\\p{Script=Latn}", "\\p{Any}", "\\u{1F600}", "\\u0041", "\\uD83D\\uDE00", "\\x41", "{2}", "{1,3}",
    "{2,}", "\\1", "\\2", "\\0", "\\cA", "[^", "é", "😀", "\ud800",
]  # fmt: skip
SYNTAX = st.lists(st.sampled_from(SYNTAX_PIECES), min_size=1, max_size=14).map("".join)


def without_annex_b(pattern):
    """``pattern`` with Annex B's escapes written as code points, as Unicode mode needs them: four hex
    digits, since regress reads ``\\u{2d}`` after a lead surrogate's escape (``\\uD800\\u{2d}``) as
    a count, where ECMA-262 reads a code point."""
    return re.sub(
        r"\\\\|\\([-_:\"'@#%=!<>,~&` ;])",
        lambda found: f"\\u{ord(found.group(1)):04x}" if found.group(1) else found.group(),
        pattern,
    )


# regress accepts a word boundary with a count (\b*, \B{2}), for which ECMA-262's grammar has no
# production (an Assertion is no Atom, and only Annex B's look-aheads take a count); V8 refuses it.
QUANTIFIED_BOUNDARY = re.compile(r"(?<!\\)(?:\\\\)*\\[bB](?:[*+?]|\{[0-9]+(?:,[0-9]*)?\})")


def test_regress_departs_from_ecma_262_on_a_quantified_word_boundary(children):
    for pattern in ("\\b*", "\\B+", "a\\b{2}"):
        assert QUANTIFIED_BOUNDARY.search(pattern) and not is_regex(pattern)
        assert "verdicts" in children["regress"].ask({"pattern": pattern, "texts": []})
        if children["node"] is not None:
            assert children["node"].ask({"pattern": pattern, "texts": []}) is None  # V8 refuses it
    assert not QUANTIFIED_BOUNDARY.search("\\\\b*") and is_regex("[\\b]*")


@given(st.lists(SYNTAX, min_size=5, max_size=5))
def test_the_reader_agrees_with_ecma_262_on_what_is_a_pattern(children, patterns):
    # regress reads Unicode mode; it runs in a child of its own, where a crash is counted, not fatal.
    oracle = children["regress"]
    for pattern in patterns:
        failures = oracle.failures
        judged = oracle.ask({"pattern": without_annex_b(pattern), "texts": []})
        if oracle.failures > failures:
            event("regress crashed or stalled on a pattern")
            continue
        if "verdicts" in judged and not is_regex(pattern) and QUANTIFIED_BOUNDARY.search(pattern):
            event("regress accepts a quantified word boundary, which ECMA-262 refuses")
            continue
        assert is_regex(pattern) is ("verdicts" in judged), (pattern, judged)


# -- the translation into RE2 --------------------------------------------------------------------

# Code points whose properties have not changed since Unicode 12, in many categories and scripts.
STABLE = [
    "a", "Z", "é", "ǅ", "ʰ", "Ω", "ω", "Ж", "中", "ア", "ก", "٤", "\U0001d7f1", "Ⅻ", "½", "_", "-", "(", ")",
    "«", "»", "!", "$", "+", "^", "©", " ", "\u00a0", "\u2028", "\u2029", "\n", "\t", "\u0300", "\u20dd",
    "\u0903", "\u00ad", "\ue000", "\U000f0000", "\u0378", "\U000e0000", "\ud800", "\udfff", "😀", "ᚠ", "\x00",
]  # fmt: skip


@pytest.mark.parametrize("name", sorted(GENERAL_CATEGORIES))
def test_each_general_category_means_what_ecma_262_means(name):
    ours = Pattern(f"^\\p{{{name}}}$"), Pattern(f"^\\P{{{name}}}$"), Pattern(f"^[^x\\p{{{name}}}]$")
    for text in STABLE:
        if "\ud800" <= text <= "\udfff":
            continue  # regress reads UTF-8: the surrogates have a test of their own
        expected = [
            regress.Regex(f"^\\p{{{name}}}$", "u").find(text) is not None,
            regress.Regex(f"^\\P{{{name}}}$", "u").find(text) is not None,
            regress.Regex(f"^[^x\\p{{{name}}}]$", "u").find(text) is not None,
        ]
        assert [pattern.search(text) for pattern in ours] == expected, (name, text)


@pytest.mark.parametrize("name", sorted(set(SCRIPTS) - {"Unknown", "Zzzz"}))
def test_each_script_re2_knows_means_what_ecma_262_means(name):
    try:
        ours = Pattern(f"\\p{{sc={name}}}")
    except UnsupportedPattern:
        pytest.skip(f"RE2 knows no script {name} (added after its Unicode version)")
    for text in STABLE:
        if not "\ud800" <= text <= "\udfff":
            assert ours.search(text) is (regress.Regex(f"\\p{{sc={name}}}", "u").find(text) is not None)


@pytest.mark.parametrize(
    "pattern", [r"\p{Alphabetic}", r"\p{scx=Latn}", r"\p{sc=Unknown}", r"[\p{White_Space}a]", r"\P{Dash}"]
)
def test_a_property_re2_cannot_say_is_refused_by_name(pattern):
    with pytest.raises(toolreg.SchemaError) as refused:
        toolreg.check_schema({"pattern": pattern})
    assert "a property RE2 does not know" in str(refused.value)
    assert pattern.lstrip("[").split("}")[0] + "}" in str(refused.value)
    # A backtracking engine knows them, and the pattern is small enough for it.
    validator = toolreg.compile({"pattern": pattern}, limits=BACKTRACKING)
    for text in ("a", " ", "中", "😀"):
        assert validator.is_valid(text) is (regress.Regex(pattern, "u").find(text) is not None)


# Lone surrogates are legal in JSON strings, and ECMA-262's Unicode mode reads each as a code point.
SURROGATE_VERDICTS = [
    (r"^[^\uD800-\uDFFF]*$", "a\ud800b", False),
    (r"^[^\uD800-\uDFFF]*$", "a😀b", True),
    (r"^\P{Cs}*$", "a\udc00", False),
    (r"^\p{Cs}$", "\ud800", True),
    (r"^\p{Cs}$", "\U000f0000", False),
    (r"^\p{Co}$", "\ud800", False),
    (r"^\p{C}$", "\udfff", True),
    (r"^\p{Cn}$", "\ud800", False),
    (r"^[^a]$", "\ud800", True),
    (r"^.$", "\udbff", True),
    (r"^\S\W\D$", "\ud800\ud800\ud800", True),
    (r"^\w$", "\ud800", False),
    (r"^\uD800$", "\ud800", True),
    (r"^\uD83D\uDE00$", "😀", True),
    (r"\b", "\ud800", False),
    (r"^..$", "\ud83d\ude00", True),  # held as two code points, as minLength counts them
    (r"^[\uD800-\uDBFF][\uDC00-\uDFFF]$", "\ud83d\ude00", True),
    (r"^\p{Any}\p{Assigned}$", "\ud800\udc00", True),
]


@pytest.mark.parametrize(("pattern", "text", "verdict"), SURROGATE_VERDICTS)
def test_lone_surrogates_are_judged_as_code_points(pattern, text, verdict):
    validator = toolreg.compile({"type": "string", "pattern": pattern})
    assert validator.is_valid(text) is verdict
    assert (validator.validate_reference(text) == []) is verdict
    names = toolreg.compile({"propertyNames": {"pattern": pattern}})
    assert names.is_valid({text: 1}) is verdict


@pytest.mark.parametrize(
    ("pattern", "text", "verdict"),
    [
        (r"\B", "aé" * 200 + "a", False),
        (r"\B", "é", True),
        (r"a\B", "aé", False),
        (r"é\B", "é", True),
        (r"\B\B", "中a", True),
        (r"^\b", "中", False),
        (r"\b", "a中", True),
        (r"(?:\B|x)y", "éy", False),
        (r"(?:\B|x)y", "xy", True),
    ],
)
def test_word_boundaries_are_judged_between_characters(pattern, text, verdict):
    # RE2's search may start between the bytes of one character, where \B holds.
    assert Pattern(pattern).search(text) is verdict
    assert (regress.Regex(pattern, "u").find(text) is not None) is verdict


@pytest.mark.parametrize(
    ("pattern", "text", "verdict"),
    [
        ("^a{1500}$", "a" * 1500, True),
        ("^a{1500}$", "a" * 1499, False),
        ("^a{0,2500}$", "a" * 2500, True),
        ("^a{0,2500}$", "a" * 2501, False),
        ("^(?:ab){1001,}$", "ab" * 1001, True),
        ("^(?:ab){1001,}$", "ab" * 1000, False),
        ("^[^]{2}$", "\n\ud800", True),
        ("[]", "", False),
        ("^[]?$", "", True),
        ("a{0}b", "b", True),
    ],
)
def test_counts_and_empty_classes_keep_ecma_262_meaning(pattern, text, verdict):
    assert Pattern(pattern).backtracking is None
    assert toolreg.compile({"pattern": pattern}).is_valid(text) is verdict


@pytest.mark.parametrize(
    ("pattern", "words"),
    [
        ("(?:a{1000}){1000}", "at most 1000 times"),
        (r"\p{L}{20000}", "memory budget"),
        ("(?:(?:a{999}){999}){999}", "at most 1000 times"),
        ("a{4294967296}", "counts more than RE2"),
    ],
)
def test_what_re2_refuses_for_its_limits_is_a_schema_error_at_registration(pattern, words):
    for limits in (toolreg.Limits(), BACKTRACKING):
        with pytest.raises(toolreg.SchemaError) as refused:
            toolreg.compile({"pattern": pattern}, limits=limits)
        assert words in str(refused.value) and "cannot be run" in str(refused.value)


def test_re2_reads_a_bounded_number_of_property_sets():
    # RE2 reads each \p{…} into some 30 KB before its memory budget applies: 30,000 took 1 GB.
    with pytest.raises(toolreg.SchemaError, match="30000 Unicode property sets"):
        toolreg.check_schema({"pattern": "\\p{L}|" * 30_000 + "a"})
    with pytest.raises(toolreg.SchemaError, match="1001 Unicode property sets"):
        toolreg.check_schema({"pattern": "^" + "\\p{Cn}" * 143 + "$"})  # seven sets each
    assert toolreg.compile({"pattern": "\\p{L}|" * 1000 + "a"}).is_valid("é")
    # A leading look-ahead is a search of its own, and shares the allowance with the rest.
    with pytest.raises(toolreg.SchemaError, match="1200 Unicode property sets"):
        toolreg.check_schema({"pattern": "^(?=" + "\\p{L}" * 600 + ")" + "\\p{L}" * 600})


def test_the_translation_spells_out_ecma_262():
    assert to_re2(r"^\d\s.$") == (
        "\\A[\\x{30}-\\x{39}][\\x{9}-\\x{d}\\x{20}\\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}-\\x{2029}\\x{202f}"
        "\\x{205f}\\x{3000}\\x{feff}][^\\x{a}\\x{d}\\x{2028}-\\x{2029}]\\z"
    )
    assert to_re2("(?<=a)b") is None


# -- the backtracking guard -------------------------------------------------------------------------

ON_REGRESS = [
    (r"(?<=a)b", "construct", ["ab", "b", "a\ud800b"]),
    (r"(\w)\1", "back-reference at position 4", ["aa", "ab", "é" * 3]),
    (r"(?<!\d)\d{3}-\d{4}(?!\d)", "look-behind", ["555-1234", "1555-1234", "555-12345"]),
    (r"(?<=@)(?:gmail|yahoo)\.com", "look-behind", ["a@gmail.com", "a@ymail.com"]),
    (r"^([\"'])[^\"']{0,50}\1$", "back-reference", ["'abc'", "'abc\"", '"' + "x" * 51 + '"']),
    (r"(?<=a)\P{L}", "look-behind", ["a\ud800", "a\U000f0000", "ab"]),
    (r"^(?<q>a|b)\k<q>$", "back-reference", ["aa", "ab"]),
]


@pytest.mark.parametrize(("pattern", "construct", "texts"), ON_REGRESS)
def test_patterns_only_a_backtracking_engine_runs_are_refused_unless_allowed(pattern, construct, texts):
    with pytest.raises(toolreg.SchemaError) as refused:
        toolreg.check_schema({"pattern": pattern})
    message = str(refused.value)
    assert "which RE2 cannot express" in message and "Limits(allow_backtracking_patterns=True)" in message
    assert construct == "construct" or construct in message
    validator = toolreg.compile({"pattern": pattern}, limits=BACKTRACKING)
    for text in texts:
        oracle_text = "".join(
            chr(ord(c) + 0xF0000 - 0xD800) if "\ud800" <= c <= "\udfff" else c for c in text
        )
        oracle = regress.Regex(without_annex_b(pattern), "u")
        assert validator.is_valid(text) is (oracle.find(oracle_text) is not None), text
    # The case that makes a backtracking engine try hardest, answered in time linear in the string.
    assert isinstance(validator.is_valid("a" * 100_000 + "!"), bool)


@pytest.mark.parametrize(
    ("pattern", "reason"),
    [
        (r"(?<=a+)b", "without a most"),
        (r"(?=x)\d*\d*y", "without a most"),
        (r"(?<=(?:(?:a?)*){3})b", "without a most"),
        (r"(?<=(?:a?){3})b", "can match the empty string"),
        (r"(?<=(?:|a){2})b", "can match the empty string"),
        (r"(?:a|b|c|d){1,12}(?<=a)", f"past the {MAX_STEPS} allowed"),
        (r"^(?:a|b|c|d){1,12}(?<=a)", "at the start of the string"),
        (r"(a\1)", "inside its own group"),
        (r"(a)(\1b)\2", "names a group that holds one"),
        ("(?<=" + "(" * 11 + "a" + ")" * 11 + ")", "nest more than"),
        ("(?<=a)" + "b" * 500, "longer than"),
        ("(?<=a)" + "|b" * 50, "more than 50 alternatives"),
        (r"(?<=a)\p{Cs}", "tells surrogates from private-use"),
        (r"(?<=a)[\u0000-\uFFFF]", "tells surrogates from private-use"),
        (r"(?<=a)\uD800", "surrogate or private-use one"),
        # A lone surrogate and its private-use stand-in would be equal to a back-reference.
        (r"(.)\1", "may match a lone surrogate"),
        (r"(a|\P{sc=Han})\1", "may match a lone surrogate"),
        (r"(?<n>[^a])\k<n>", "may match a lone surrogate"),
    ],
)
def test_the_guard_refuses_what_it_cannot_bound_whatever_the_limits(pattern, reason):
    for limits in (toolreg.Limits(), BACKTRACKING):
        with pytest.raises(toolreg.SchemaError) as refused:
            toolreg.check_schema({"pattern": pattern}, limits=limits)
        assert reason in str(refused.value) and "cannot be run" in str(refused.value)
        assert "allow_backtracking_patterns" not in str(refused.value)


def test_the_steps_bound_counts_alternatives_and_counts():
    assert steps_at_each_place("(?<=a)b") == 5  # the look-behind, its a, b, and each alternation
    assert steps_at_each_place("(?<=a)(?:b|c)") == steps_at_each_place("(?<=a)b") + 2
    # Each way through a part tries the rest again.
    assert steps_at_each_place("(?<=a)(?:b|c)(?:d|e)") > steps_at_each_place("(?<=a)(?:b|c)d")
    with pytest.raises(UnsupportedPattern):
        steps_at_each_place("(?<=a)b*")


def test_a_look_behind_is_counted_from_its_right_end():
    # A backtracking engine matches a look-behind from right to left: each way through [^]{0,40}
    # tries x again there, as each way through it tries x in a look-ahead written the other way.
    assert steps_at_each_place(r"(?<=[^]{0,40}x)y") == steps_at_each_place(r"(?=x[^]{0,40})y")
    for pattern in (r"(?<=x[^]{0,40})y", r"(?=[^]{0,40}x)y", r"(?<=(?<=x[^]{0,40}))y"):
        with pytest.raises(UnsupportedPattern, match="past the"):
            steps_at_each_place(pattern)


def test_the_guard_never_runs_the_pattern_it_judges(monkeypatch):
    import regress  # which the backtracking engine loads at its first pattern

    def refuse(*arguments, **options):
        raise AssertionError("regress ran while a pattern was judged")

    monkeypatch.setattr(regress, "Regex", refuse)
    with pytest.raises(UnsupportedPattern):
        Pattern(r"(?<=a+)b")
    parse(r"(?<=a)b")


# -- random patterns, in child processes -------------------------------------------------------

PROPERTY_NAMES = ["L", "Lu", "Letter", "N", "Nd", "digit", "P", "punct", "C", "Cn", "Cs", "Co", "LC", "Zs"]
ATOMS = st.sampled_from(
    [
        "a", "b", "é", "😀", " ", ".", "/", r"\d", r"\D", r"\w", r"\W", r"\s", r"\S", r"\n", r"\0", r"\.",
        r"\/", r"\-", r"\_", r"\:", r"\x61", r"\u00e9", r"\u{1F600}", r"\uD83D\uDE00", r"\uD800", r"\cJ",
        "[]", "[^]", "[a-z]", "[^a-z]", r"[\d\s]", r"[^\S]", r"[^\D\p{L}]", r"[\p{C}a]", r"[^\p{C}a]",
        r"[\uD800-\uDFFF]", r"[^\uD800-\uDFFF]", r"\p{Any}", r"\P{Assigned}", r"\p{sc=Greek}",
        r"\p{Script=Latn}", r"\P{sc=Han}", r"\p{ASCII}",
    ]
) | st.sampled_from([f"\\{letter}{{{name}}}" for name in PROPERTY_NAMES for letter in "pP"])  # fmt: skip
ZERO_WIDTH = st.sampled_from(["^", "$", r"\b", r"\B"])
# Mostly with a most, so that some patterns with look-arounds fit the backtracking guard.
QUANTIFIERS = st.sampled_from(
    [
        "",
        "",
        "",
        "",
        "?",
        "{2}",
        "{1,3}",
        "{0,2}",
        "??",
        "*",
        "+",
        "{0,}",
        "*?",
        "{2,}?",
        "{0,1001}",
        "{1000}",
        "{0}",
    ]
)
TEXT = st.lists(st.sampled_from([*STABLE, "aa", "ab", "1", "\udc00"]), max_size=6).map("".join)


@st.composite
def ecma_patterns(draw, depth=0):
    """Nested groups, counts (some past RE2's 1000), loops that match the empty string, properties,
    look-arounds, back-references, and now and then an alternation of thousands of branches."""
    terms = []
    for _ in range(draw(st.integers(1, 4))):
        roll = draw(st.integers(0, 9))
        if depth < 3 and roll == 0:
            opener = draw(st.sampled_from(["(", "(?:", f"(?<n{depth}{len(terms)}>"]))
            terms.append(f"{opener}{draw(ecma_patterns(depth + 1))}){draw(QUANTIFIERS)}")
        elif depth < 3 and roll == 1:
            opener = draw(st.sampled_from(["(?=", "(?!", "(?<=", "(?<!"]))
            terms.append(f"{opener}{draw(ecma_patterns(depth + 1))})")
        elif roll == 2:
            terms.append(draw(ZERO_WIDTH))
        elif roll == 3 and depth == 0 and terms and terms[0].startswith("("):
            terms.append("\\1(?:)")
        else:
            terms.append(draw(ATOMS) + draw(QUANTIFIERS))
    pattern = "".join(terms)
    if depth < 3 and draw(st.booleans()):
        pattern += "|" + draw(ecma_patterns(depth + 1))
    if depth == 0 and draw(st.integers(0, 30)) == 0:
        branches = draw(st.integers(1000, 3000))
        pattern = "^(?:" + "|".join(f"{pattern}{index}" for index in range(branches)) + ")$"
    if depth == 0 and draw(st.integers(0, 30)) == 0:
        nested = draw(st.integers(100, 400))
        pattern = "(?:" * nested + pattern + ")" * nested
    return pattern


BOUNDED = st.sampled_from(["", "", "?", "{2}", "{1,3}", "{0,2}", "??"])


@st.composite
def bounded_patterns(draw, depth=0):
    """Patterns with look-arounds and back-references whose every count has a most: what the
    backtracking guard may let through."""
    terms = []
    for _ in range(draw(st.integers(1, 3))):
        roll = draw(st.integers(0, 5))
        if depth < 2 and roll == 0:
            opener = draw(st.sampled_from(["(?=", "(?!", "(?<=", "(?<!"]))
            terms.append(f"{opener}{draw(bounded_patterns(depth + 1))})")
        elif depth < 2 and roll == 1:
            terms.append(f"(?:{draw(bounded_patterns(depth + 1))}){draw(BOUNDED)}")
        elif roll == 2 and depth == 0:
            terms.append(f"(a|{draw(ATOMS)})\\1")
        else:
            terms.append(draw(ATOMS) + draw(BOUNDED))
    pattern = "".join(terms)
    if draw(st.integers(0, 3)) == 0:
        pattern += "|" + draw(bounded_patterns(depth + 1)) if depth < 2 else ""
    return pattern


def agree(verdicts, oracle, texts):
    for verdict, expected, text in zip(verdicts, oracle, texts, strict=True):
        if expected is not None:
            assert verdict is expected, text


@pytest.mark.slow
# A drawn pattern may hold hundreds of kilobytes: Hypothesis warns as it writes such an example out,
# which would fail the test in place of the failure it reports.
@pytest.mark.filterwarnings("ignore:Generating overly large repr:hypothesis.errors.HypothesisWarning")
@settings(max_examples=max(10, settings.default.max_examples // 4))  # each one crosses three processes
@given(ecma_patterns() | bounded_patterns(), st.lists(TEXT, min_size=1, max_size=5), st.booleans())
def test_random_patterns_never_crash_and_are_judged_as_ecma_262_judges_them(
    children, pattern, texts, backtracking
):
    """toolreg answers in a child under a memory cap: a crash or a stall fails, an exception outside
    ToolregError fails, a refusal must name its reason, and each verdict must be regress's (run in a
    child of its own; where it crashes, the example is counted and not judged) and V8's, if present."""
    request = {"pattern": pattern, "texts": texts, "backtracking": backtracking}
    answer = children["toolreg"].ask(request)
    assert answer is not None, "toolreg's child crashed or stalled"
    assert answer["unexpected"] is None, answer["unexpected"]
    oracle_pattern = without_annex_b(pattern)
    failures = children["regress"].failures
    judged = children["regress"].ask({"pattern": oracle_pattern, "texts": texts})
    oracle = None
    if children["regress"].failures > failures:
        event("regress, the oracle, crashed or stalled")
    elif any(limit in judged.get("error", "") for limit in REGRESS_LIMITS):
        event("regress, the oracle, refused the pattern for its own limits")
    elif answer["regex"] is None:
        event("toolreg's format regex check ran out of its work budget")
    elif "where both may match" in (answer["refused"] or "") and "verdicts" in judged:
        # ECMA-262 allows a name twice only where the two groups cannot both match; regress
        # allows more ((?:(?<a>x)|y)(?:z|(?<a>w)), which ECMA-262's MightBothParticipate refuses).
        event("regress accepts a name twice where both groups may match")
    else:
        assert answer["regex"] is ("verdicts" in judged), ("format regex", judged)
        oracle = judged.get("verdicts")
    if answer["refused"] is not None:
        event("refused")
        reasons = (
            r"not a valid ECMA-262"
            if answer["regex"] is False
            else r"RE2 cannot express|at most 1000 times|"
            r"memory budget|counts more than RE2|longer than \d+ characters|property sets|"
            r"Limits\.max_pattern_program"
        )
        assert re.search(reasons, answer["refused"]), answer["refused"]
        return
    event(f"judged on {answer['engine']}")
    if oracle is not None:
        agree(answer["verdicts"], oracle, texts)
        agree(answer["names"], oracle, texts)
    node = children["node"]
    if node is not None:
        # V8 reads a high surrogate and a low one side by side as one character; Python strings,
        # and toolreg, as two.
        paired = [bool(re.search("[\ud800-\udbff][\udc00-\udfff]", text)) for text in texts]
        judged = node.ask({"pattern": oracle_pattern, "texts": texts})
        if judged is not None:
            agree(
                answer["verdicts"],
                [None if pair else verdict for pair, verdict in zip(paired, judged, strict=True)],
                texts,
            )


# Patterns of the shape Python's engine answers (see regex.python_engine.python_source), and some
# just outside it, which keep RE2's search.
SIMPLE_PIECES = [
    *"ab-.", "\\d", "\\D", "\\w", "\\s", "[a-c]", "[^b]", "[^]", "[]", "x*", "a+", "b?", "[0-9]{2}",
    "c{1,3}", "\\.{2,}", "a*?", "(a)", "|", "é",
]  # fmt: skip
SIMPLE = st.tuples(
    st.lists(st.sampled_from(SIMPLE_PIECES), max_size=6).map("".join), st.sampled_from(["", "$"])
).map(lambda parts: f"^{parts[0]}{parts[1]}")
# ASCII, and the characters where engines part: a space and a line terminator outside ASCII, a
# letter and a digit outside \w and \d, an astral character, lone surrogates and a pair of them.
TEXT = st.text(
    st.sampled_from("ab-.cx09_ \n\r\t\x00") | st.sampled_from("é\xa0\x85\u2028\ufeff٣\u017f😀\ud83d\ude00"),
    max_size=12,
)


@given(SIMPLE, st.lists(TEXT, min_size=1, max_size=10))
def test_python_s_engine_answers_as_the_search_does(pattern, texts):
    compiled = Pattern(pattern)
    python_search = compiled.python_search()
    event("Python's engine" if python_search is not None else "RE2 alone")
    # Each text with a line break after it too: where a "$" would wrongly take one. The generated code
    # gives Python's engine short text only, but its answer holds on any.
    for text in [*texts, *(text + "\n" for text in texts), "é" + "".join(texts), "a" * 300]:
        if python_search is not None:
            assert (python_search(text) is not None) is compiled.search(text), (pattern, text)


@pytest.mark.parametrize(
    ("pattern", "text", "verdict"),
    [
        ("^a$", "a", True),
        ("^a$", "a\n", False),
        ("^\\d{2}-\\w+$", "12-ab_9", True),
        ("^\\d{2}-\\w+$", "12-ab\n", False),
        ("^.+$", "ab\rc", False),
        ("^[^x]*$", "a\nb", True),
        ("^\\s$", "\x0b", True),
        ("^[]*$", "", True),
        ("^[^]{3}$", "a\n\x00", True),
        ("^a{2}b", "aab and more", True),
        ("^a{2}b", "xaab", False),
        ("^.$", "😀", True),
        ("^.{2}$", "\ud83d\ude00", True),
        ("^[^a]$", "\udc00", True),
        ("^\\s$", "\xa0", True),
        ("^\\s$", "\ufeff", True),
        ("^.$", "\u2028", False),
        ("^\\w$", "é", False),
        ("^\\d$", "٣", False),
        ("^[é-ü]+$", "ñö", True),
    ],
)
def test_python_s_engine_keeps_ecma_262_meaning_for_simple_patterns(pattern, text, verdict):
    compiled = Pattern(pattern)
    python_search = compiled.python_search()
    assert python_search is not None
    assert (python_search(text) is not None) is verdict
    assert compiled.search(text) is verdict


def test_python_s_engine_takes_only_patterns_it_answers_in_linear_time():
    compiled = Pattern("^[a-z]{3}-[0-9]{4}$")
    python_search = compiled.python_search()
    assert python_search is not None
    assert python_search("abc-1234") and not python_search("abc-123") and not python_search("abé-1234")
    # Two counts that vary would let a backtracking engine take quadratic time: RE2 keeps them.
    assert Pattern("^a*a*$").python_search() is None
