"""A pattern's tree translated into RE2's syntax with ECMA-262's meaning spelled out, and searched by RE2
in time linear in the text.

Every literal is a code point, ``\\d`` is ``[0-9]``, ``.`` leaves out the four line terminators,
``$`` is the end of the text, ``\\p{…}`` becomes RE2's categories and scripts (the emoji properties,
which RE2 lacks, spelt out as ranges), and RE2 searches the string's code points in UTF-8: a lone
surrogate, legal in JSON, is one code point to both. A pattern that opens with ``^`` and
look-aheads becomes one anchored RE2 search for each. What RE2 cannot express is
:class:`Untranslatable`, for :mod:`.backtracking` to judge.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Callable
from typing import Any

from .costs import UnsupportedPattern
from .emoji import EMOJI_PROPERTIES
from .syntax import (
    MAX_CODE_POINT,
    Assertion,
    BackReference,
    CharSet,
    Disjunction,
    Group,
    Literal,
    LookAround,
    Node,
    Property,
    Repeat,
    children_first,
    complement,
    parse,
    walk,
)

__all__ = [
    "MAX_PROGRAM",
    "MAX_TRANSLATION",
    "PROPERTY_COST",
    "TOO_LARGE_COST",
    "PastRoom",
    "TooLarge",
    "Untranslatable",
    "places",
    "re2_search",
    "to_re2",
]


@functools.cache
def _re2() -> tuple[Any, Any]:
    """RE2's binding and the options of every program, loaded with the first pattern rather than with
    toolreg: loading the library was about a quarter of ``import toolreg``, which a catalog without
    patterns, or a command's ``--help``, never needs."""
    try:
        import re2
    except ImportError as error:  # a dependency of toolreg's, so an install that is broken
        raise ImportError(f"toolreg's patterns need google-re2 (pip install google-re2): {error}") from error
    options = re2.Options()
    options.log_errors = False
    options.never_capture = True
    return re2, options


def to_re2(source: str) -> str | None:
    """The pattern in RE2's syntax with ECMA-262's meaning (its main search, for one that opens with
    ``^`` and look-aheads), or None when RE2 cannot express it; RegexSyntaxError."""
    tree = parse(source)
    parts = _leading_look_aheads(tree)
    try:
        return _translate(tree if parts is None else parts[0], MAX_TRANSLATION + 128 * len(source))
    except Untranslatable:
        return None


class Untranslatable(Exception):
    """A construct RE2 cannot express with ECMA-262's meaning; ``what`` names it and where it is."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


def re2_search(tree: Disjunction, budget: int, room: int | None) -> tuple[Callable[[str], bool], int, int]:
    """RE2's searches for ``tree``, as one function, the size of their programs, and how many
    property sets RE2 read for them; Untranslatable, or UnsupportedPattern when RE2 refuses the
    translation (a count past its limits, its memory budget, ``room``) or it is longer than
    ``budget``."""
    parts = _leading_look_aheads(tree)
    if parts is None:
        translated = _translate(tree, budget)
        properties = _check_properties([translated])
        if not _has_not_boundary(tree):
            compiled = _compiled(translated, room)
            return _search(compiled, "UNANCHORED"), compiled.ProgramSize(), properties
        # RE2 may start a search between the bytes of one character, where \B holds: a search
        # anchored behind a lazy run of whole characters starts only between characters.
        compiled = _compiled(f"(?s:.)*?(?:{translated})", room)
        return _search(compiled, "ANCHOR_START"), compiled.ProgramSize(), properties
    rest, conditions = parts
    # The rest and each look-ahead share one budget, and one allowance of property sets.
    translations: list[str] = []
    for part in (rest, *(look.body for look in conditions)):
        translations.append(_translate(part, budget - sum(map(len, translations))))
    properties = _check_properties(translations)
    wanted = [True, *(not look.negative for look in conditions)]
    programs = []
    for translated in translations:
        programs.append(_compiled(translated, room))
        room = None if room is None else room - programs[-1].ProgramSize()
    searches = [
        (want, _search(compiled, "ANCHOR_START")) for want, compiled in zip(wanted, programs, strict=True)
    ]
    size = sum(compiled.ProgramSize() for compiled in programs)
    return (lambda text: all(search(text) is want for want, search in searches)), size, properties


def _leading_look_aheads(tree: Disjunction) -> tuple[Disjunction, list[LookAround]] | None:
    """For a pattern that opens with ``^`` and look-aheads, such as zod's e-mail check
    ``^(?!\\.)(?!.*\\.\\.)…$``: the rest of it, and the look-aheads; else None.

    Such a pattern can only match at the start, where each look-ahead is a question of its own: it
    matches when each ``(?=X)`` finds X at the start and no ``(?!X)`` does, and the rest matches there.
    """
    if len(tree.alternatives) != 1:
        return None
    terms = tree.alternatives[0]
    if not terms or not (isinstance(terms[0], Assertion) and terms[0].kind == "^"):
        return None
    looks: list[LookAround] = []
    for term in terms[1:]:
        if not isinstance(term, LookAround) or term.behind:
            break
        looks.append(term)
    if not looks:
        return None
    return Disjunction(tree.position, [terms[1 + len(looks) :]]), looks


def _check_properties(translations: list[str]) -> int:
    """How many property sets RE2 would read; UnsupportedPattern past :data:`_MAX_PROPERTIES`."""
    properties = sum(translated.count("\\p{") + translated.count("\\P{") for translated in translations)
    if properties > _MAX_PROPERTIES:
        raise UnsupportedPattern(
            f"RE2 would read {properties} Unicode property sets in it (each \\p{{…}}, six or seven for "
            f"\\p{{C}} or \\p{{Cn}}), more than the {_MAX_PROPERTIES} allowed; write fewer"
        )
    return properties


class TooLarge(UnsupportedPattern):
    """RE2 stopped building a program past its memory budget, having built what it could."""


class PastRoom(UnsupportedPattern):
    """RE2 stopped building a program past the room it was given (see Pattern)."""


def _compiled(translated: str, room: int | None = None) -> Any:
    """RE2's program for a translation; UnsupportedPattern, saying why, if RE2 refuses it, and
    PastRoom where it needs much more than ``room`` instructions."""
    if room is not None and room < _DEFAULT_ROOM:
        # A trial within a memory budget that lets RE2 build about ``room`` instructions before it
        # gives up, at a cost in them; then the program itself, with the default budget, whose
        # searches keep more states.
        re2, _ = _re2()
        options = re2.Options()
        options.log_errors, options.never_capture = False, True
        options.max_mem = _MEMORY_PER_INSTRUCTION * max(room, 0) + _LEAST_MEMORY
        trial = re2._re2.RE2(translated.encode(), options)
        if not trial.ok() and "too large" in trial.error().decode(errors="replace"):
            raise PastRoom(f"RE2 would build more than the {max(room, 0)} instructions left for it")
    re2, options = _re2()
    compiled = re2._re2.RE2(translated.encode(), options)
    if not compiled.ok():
        error = compiled.error().decode(errors="replace")
        refused = TooLarge if "too large" in error else UnsupportedPattern
        raise refused(_re2_refusal(error))
    return compiled


def _search(compiled: Any, anchored: str) -> Callable[[str], bool]:
    """RE2's matcher called directly (the ``re2`` module's ``search`` also builds a match object
    and maps byte offsets back, five times the cost), on the string's code points in UTF-8, lone
    surrogates included; ``anchored`` names RE2's anchor (UNANCHORED, ANCHOR_START)."""
    match = compiled.Match
    anchor = getattr(_re2()[0]._re2.RE2.Anchor, anchored)

    def search(text: str) -> bool:
        encoded = text.encode("utf-8", "surrogatepass")
        return bool(match(anchor, encoded, 0, len(encoded))[0][0] != -1)

    return search


def _re2_refusal(error: str) -> str:
    if "repetition" in error:
        return (
            "RE2 repeats a part at most 1000 times, counting nested repeats together "
            f"({error}); write a smaller count"
        )
    if "too large" in error:
        return f"it is too large for RE2's memory budget ({error}); write a smaller pattern"
    return f"RE2 refuses it: {error}"


def places(tree: Node) -> int:
    """How many places the pattern has, with each count's copies written out as RE2 writes them: a
    character or a set (each part RE2 writes of it), an assertion, and one for each alternative."""
    found: dict[int, int] = {}
    for node in children_first(tree):
        if isinstance(node, Literal):
            count = len(node.text)
        elif isinstance(node, CharSet):
            count = _class(node).count("|") + 1  # "|" stands between parts only: in a set it is \x{7c}
        elif isinstance(node, (Group, LookAround)):
            count = found[id(node.body)]
        elif isinstance(node, Repeat):
            count = found[id(node.body)] * max(1, node.low + 1 if node.high is None else node.high)
        elif isinstance(node, Disjunction):
            terms = [term for alternative in node.alternatives for term in alternative]
            count = len(node.alternatives) + sum(found[id(term)] for term in terms)
        else:
            count = 1  # an assertion
        found[id(node)] = min(count, _MANY_PLACES)
    return found[id(tree)]


# Past this many places the count stops: a search of any text would cost more than any budget.
_MANY_PLACES = 1 << 40


def _has_not_boundary(tree: Node) -> bool:
    return any(isinstance(node, Assertion) and node.kind == "B" for node in walk(tree))


# The most instructions the RE2 programs of one schema's patterns may hold together: compiling takes
# about half a microsecond and 10 bytes each, and a 10-character pattern such as \p{L}{400} makes
# 478,000, so a hundred of them took 30 s and 470 MB to register. (The patterns of every schema of a
# registry share Limits.max_pattern_program; see Patterns.)
MAX_PROGRAM = 500_000
# RE2 takes up to 0.2 ms and 30 KB to read each property set (\p{L} is 650 ranges), whatever its
# memory budget says: 30,000 of them took 5 s and 1 GB.
_MAX_PROPERTIES = 1000
# What reading one property set costs, in instructions' worth (see Pattern.cost).
PROPERTY_COST = 500
# What a program RE2 gives up on past its memory budget costs, in instructions' worth: building up to
# its budget takes about 0.06 s.
TOO_LARGE_COST = 100_000
# RE2 gives two thirds of its memory budget (8 MB by default) to compiling, and a quarter of that to
# instructions, 8 bytes each, before it makes the program (which may hold a few times as many): so
# about 48 bytes of budget let it build one, and the default budget about this many.
_MEMORY_PER_INSTRUCTION = 48
_DEFAULT_ROOM = (8 << 20) // _MEMORY_PER_INSTRUCTION
# What RE2 needs before it builds anything.
_LEAST_MEMORY = 2048
# RE2 repeats an atom at most this many times in one count.
_RE2_MAX_REPEAT = 1000
# A translation may be this long, and 128 characters for each of the source's: past that, its counts
# above 1000, written out as copies (or its sets of properties), make it too large for RE2.
MAX_TRANSLATION = 1 << 20


def _translate(tree: Node, budget: int) -> str:
    """``tree`` in RE2's syntax, or Untranslatable; written with an explicit stack, not recursion.
    UnsupportedPattern past ``budget`` characters."""
    out: list[str] = []
    size = 0
    stack: list[Node | str] = [tree]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
            size += len(item)
            if size > budget:
                raise UnsupportedPattern(
                    f"written out for RE2 (counts above 1000 as copies) it is longer than {budget} "
                    "characters; write smaller counts or a shorter pattern"
                )
        elif isinstance(item, Literal):
            stack.append(_NOT_ALPHANUMERIC.sub(_escaped, item.text))
        elif isinstance(item, CharSet):
            stack.append(_class(item))
        elif isinstance(item, Assertion):
            stack.append({"^": "\\A", "$": "\\z", "b": "\\b", "B": "\\B"}[item.kind])
        elif isinstance(item, Disjunction):
            pieces: list[Node | str] = []
            for index, terms in enumerate(item.alternatives):
                if index:
                    pieces.append("|")
                pieces.extend(terms)
            stack.extend(reversed(pieces))
        elif isinstance(item, Group):
            stack.extend((")", item.body, "(?:"))
        elif isinstance(item, Repeat):
            stack.extend(reversed(_repeated(item)))
        elif isinstance(item, LookAround):
            where = f"{item.opener}…) at position {item.position}"
            raise Untranslatable(
                f"a look-behind {where}"
                if item.behind
                else f"a look-ahead {where} (RE2 runs look-aheads only right after a leading ^)"
            )
        elif isinstance(item, BackReference):
            raise Untranslatable(f"a back-reference at position {item.position}")
    return "".join(out)


def _repeated(repeat: Repeat) -> list[Node | str]:
    """``repeat`` as RE2 counts, each at most 1000: past that, copies one after another."""
    low, high = repeat.low, repeat.high
    counts: list[tuple[int, int | None]]
    if (high if high is not None else low) <= _RE2_MAX_REPEAT:
        counts = [(low, high)]
    else:
        copies = low // _RE2_MAX_REPEAT + (0 if high is None else (high - low) // _RE2_MAX_REPEAT) + 2
        if copies * 16 > MAX_TRANSLATION:
            raise UnsupportedPattern(
                f"{repeat.text!r} at position {repeat.position} counts more than RE2 can be given; "
                "write a smaller count"
            )
        counts = [(_RE2_MAX_REPEAT, _RE2_MAX_REPEAT)] * (low // _RE2_MAX_REPEAT)
        counts.append((low % _RE2_MAX_REPEAT, low % _RE2_MAX_REPEAT))
        if high is None:
            counts.append((0, None))
        else:
            spare = high - low
            counts += [(0, _RE2_MAX_REPEAT)] * (spare // _RE2_MAX_REPEAT)
            counts.append((0, spare % _RE2_MAX_REPEAT))
    single = isinstance(repeat.body, (CharSet, Group)) or (
        isinstance(repeat.body, Literal) and len(repeat.body.text) == 1
    )
    pieces: list[Node | str] = []
    for least, most in counts:
        if most != 0:
            pieces += (
                [repeat.body, _quantifier(least, most)]
                if single
                else ["(?:", repeat.body, ")", _quantifier(least, most)]
            )
    return pieces


def _quantifier(low: int, high: int | None) -> str:
    if high is None:
        return {0: "*", 1: "+"}.get(low, f"{{{low},}}")
    if (low, high) == (0, 1):
        return "?"
    return f"{{{low}}}" if low == high else f"{{{low},{high}}}"


# ASCII letters and digits mean themselves in RE2; every other character is written as a code point.
_NOT_ALPHANUMERIC = re.compile("[^0-9A-Za-z]")


def _escaped(found: re.Match[str]) -> str:
    return _literal(ord(found.group()))


def _literal(code: int) -> str:
    return f"\\x{{{code:x}}}"


def _range(low: int, high: int) -> str:
    return _literal(low) if low == high else f"{_literal(low)}-{_literal(high)}"


_NOTHING = "[^\\x{0}-\\x{10ffff}]"
_ANYTHING = "[\\x{0}-\\x{10ffff}]"
# RE2's \p{C} leaves out the unassigned code points (Cn), which ECMA-262's holds; so Cn is what
# none of these seven holds, and C what none of the first six holds.
_ASSIGNED = ("\\p{L}", "\\p{M}", "\\p{N}", "\\p{P}", "\\p{S}", "\\p{Z}", "\\p{C}")


def _class(charset: CharSet) -> str:
    """A set of code points in RE2's syntax.

    Each property is RE2's own class items (``\\p{Greek}``) or the complement of a union of them
    (``Cn``); a class holding a complement becomes an alternation of RE2 classes.
    """
    union = [_range(low, high) for low, high in charset.ranges]
    complements: list[tuple[str, ...]] = []
    for found in charset.properties:
        items, complemented = _property(found)
        if complemented:
            if items not in complements:
                complements.append(items)
        else:
            union += items
    if not charset.negated:
        parts = ([f"[{''.join(union)}]"] if union else []) + [f"[^{''.join(items)}]" for items in complements]
        if not parts:
            return _NOTHING
        return parts[0] if len(parts) == 1 else f"(?:{'|'.join(parts)})"
    if not complements:
        return f"[^{''.join(union)}]" if union else _ANYTHING
    # Outside the union and inside every complemented union: inside one item of each.
    parts = [
        "[^" + "".join(item.replace("\\p", "\\P") for item in chosen) + "".join(union) + "]"
        for chosen in itertools.product(*complements)
    ]
    return parts[0] if len(parts) == 1 else f"(?:{'|'.join(parts)})"


def _property(found: Property) -> tuple[tuple[str, ...], bool]:
    """RE2 class items for a property, and whether the property is what they leave out."""
    negated, value = found.negated, found.value
    if found.kind == "gc":
        if value == "C":
            return _ASSIGNED[:6], not negated
        if value == "Cn":
            return _ASSIGNED, not negated
        if value == "LC":
            return ("\\p{Lm}", "\\p{Lo}", "\\P{L}") if negated else ("\\p{Lu}", "\\p{Ll}", "\\p{Lt}"), False
        return (f"\\{'P' if negated else 'p'}{{{value}}}",), False
    if found.kind == "binary" and value == "Any":
        return () if negated else (_range(0, MAX_CODE_POINT),), False
    if found.kind == "binary" and value == "ASCII":
        return (_range(0x80, MAX_CODE_POINT) if negated else _range(0, 0x7F),), False
    if found.kind == "binary" and value == "Assigned":
        return _ASSIGNED, negated
    if found.kind == "binary" and value in EMOJI_PROPERTIES:  # spelt out: RE2 has no emoji data
        ranges = list(EMOJI_PROPERTIES[value])
        return tuple(_range(low, high) for low, high in (complement(ranges) if negated else ranges)), False
    if found.kind == "sc" and value != "Unknown" and _knows_script(value):
        return (f"\\{'P' if negated else 'p'}{{{value}}}",), False
    raise Untranslatable(f"{found.text}, a property RE2 does not know")


def _knows_script(name: str) -> bool:
    """Whether RE2 knows the script ``name`` (``\\p{Greek}``)."""
    re2, options = _re2()
    return bool(re2._re2.RE2(f"\\p{{{name}}}".encode(), options).ok())
