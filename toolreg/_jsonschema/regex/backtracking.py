"""What RE2 cannot express, run on ``regress``, a backtracking engine, only where the pattern's tree
shows the search bounded.

A pattern runs there only when the caller allows it (``Limits.allow_backtracking_patterns``) and
each place of the string costs at most :data:`MAX_STEPS` steps (a pattern anchored by ``^`` may
spend :data:`MAX_STEPS_AT_START` at the start instead; see :func:`backtracking_cost`), and nothing in
it can make ``regress`` misbehave (see :func:`backtracking_refusal`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .costs import UnsupportedPattern
from .syntax import (
    Assertion,
    BackReference,
    CharSet,
    Disjunction,
    Group,
    Literal,
    LookAround,
    Node,
    Repeat,
    children_first,
    parse,
    walk,
)

__all__ = [
    "MAX_STEPS",
    "MAX_STEPS_AT_START",
    "backtracking_cost",
    "backtracking_refusal",
    "regress_search",
    "steps_at_each_place",
]

# A backtracking search tries the pattern at each place of the string; at one place it may take at
# most this many steps (a step: one atom, assertion or branch tried), so a string of n characters
# costs at most (n + 1) times this many. Of 17,696 random patterns let through (tests/guard_fuzz.py),
# the slowest took 3.8 µs a character on a loaded machine, most under 0.5 µs.
MAX_STEPS = 100
# A pattern whose every alternative opens with ^ fails at once at every other place, so it may spend
# this many at the start (a few milliseconds at most).
MAX_STEPS_AT_START = 10_000
# Small patterns only: regress's compiler recurses on nesting and has crashed on huge alternations.
_MAX_BACKTRACKING_SOURCE = 500
_MAX_BACKTRACKING_DEPTH = 10
_MAX_BACKTRACKING_BRANCHES = 50
# regress reads UTF-8, which has no lone surrogates: each U+D800+k goes to regress as U+F0000+k, a
# private-use code point, when the pattern treats the two blocks alike.
_SURROGATES = (0xD800, 0xDFFF)
_STAND_INS = (0xF0000, 0xF07FF)
_STAND_IN_TABLE = {code: _STAND_INS[0] + code - _SURROGATES[0] for code in range(0xD800, 0xE000)}
_SURROGATE = re.compile("[\ud800-\udfff]")


def regress_search(tree: Disjunction) -> Callable[[str], bool]:
    """regress's search for ``tree``, which :func:`backtracking_refusal` accepted."""
    try:
        import regress  # here, at the first pattern that needs it, not with toolreg: most never do
    except ImportError as error:  # a dependency of toolreg's, so an install that is broken
        raise ImportError(
            f"toolreg's backtracking patterns need regress (pip install regress): {error}"
        ) from error

    try:
        compiled = regress.Regex(_ecma_source(tree), "u")
    except regress.RegressError as error:
        raise UnsupportedPattern(f"the backtracking engine refuses it: {error}") from None
    find = compiled.find

    def search(text: str) -> bool:
        if not text.isascii() and _SURROGATE.search(text):
            text = text.translate(_STAND_IN_TABLE)
        return find(text) is not None

    return search


def _ecma_source(tree: Node) -> str:
    """``tree`` written again in plain Unicode-mode syntax (literals as ``\\u{…}``), as regress reads it."""
    out: list[str] = []
    stack: list[Node | str] = [tree]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, Literal):
            out.append("".join(f"\\u{{{ord(char):x}}}" for char in item.text))
        elif isinstance(item, CharSet):
            ranges = "".join(
                f"\\u{{{low:x}}}" if low == high else f"\\u{{{low:x}}}-\\u{{{high:x}}}"
                for low, high in item.ranges
            )
            properties = "".join(found.text for found in item.properties)
            out.append(f"[{'^' if item.negated else ''}{ranges}{properties}]")
        elif isinstance(item, Assertion):
            out.append(item.kind if item.kind in "^$" else "\\" + item.kind)
        elif isinstance(item, BackReference):
            out.append(f"\\{item.numbers[0]}" if item.name is None else f"\\k<{item.name}>")
        elif isinstance(item, Disjunction):
            pieces: list[Node | str] = []
            for index, terms in enumerate(item.alternatives):
                if index:
                    pieces.append("|")
                pieces.extend(terms)
            stack.extend(reversed(pieces))
        elif isinstance(item, Group):
            opener = "(?:" if item.number is None else "(" if item.name is None else f"(?<{item.name}>"
            stack.extend((")", item.body, opener))
        elif isinstance(item, LookAround):
            stack.extend((")", item.body, item.opener))
        elif isinstance(item, Repeat):
            count = f"{{{item.low},{item.high}}}{'?' if item.lazy else ''}"
            stack.extend((count, ")", item.body, "(?:"))
    return "".join(out)


def backtracking_refusal(source: str, tree: Disjunction) -> str | None:
    """Why a backtracking engine could not be bounded on ``tree``, or None when it can.

    Sound, so strict: every repeat has a most and repeats something that cannot match the empty
    string, every back-reference names a group of bounded length without back-references, and
    :func:`backtracking_cost` at one place of the string is at most :data:`MAX_STEPS`, or, when every
    alternative opens with ``^`` (every other place fails at once), :data:`MAX_STEPS_AT_START`.
    """
    if len(source) > _MAX_BACKTRACKING_SOURCE:
        return f"it is longer than {_MAX_BACKTRACKING_SOURCE} characters"
    branches = 0
    depth_of: dict[int, int] = {id(tree): 0}
    holds_reference: set[int] = set()
    groups: dict[int, Group] = {}
    enclosing: dict[int, list[int]] = {id(tree): []}  # the groups around each node, by number
    for node in walk(tree):
        depth, around = depth_of[id(node)], enclosing[id(node)]
        if depth > _MAX_BACKTRACKING_DEPTH:
            return f"groups and repeats nest more than {_MAX_BACKTRACKING_DEPTH} deep"
        children: list[Node] = []
        if isinstance(node, Disjunction):
            branches += len(node.alternatives)
            if branches > _MAX_BACKTRACKING_BRANCHES:
                return f"more than {_MAX_BACKTRACKING_BRANCHES} alternatives"
            children = [term for terms in node.alternatives for term in terms]
        elif isinstance(node, (Group, LookAround, Repeat)):
            children = [node.body]
            depth += 1
            if isinstance(node, Group) and node.number is not None:
                groups[node.number] = node
                around = [*around, node.number]
        elif isinstance(node, BackReference):
            if set(node.numbers) & set(around):
                return f"the back-reference at position {node.position} stands inside its own group"
            holds_reference.update(around)
        elif isinstance(node, (Literal, CharSet)):
            found = _tells_surrogates_apart(node)
            if found:
                return found
        for child in children:
            depth_of[id(child)] = depth
            enclosing[id(child)] = around
    for node in walk(tree):
        if isinstance(node, BackReference) and set(node.numbers) & holds_reference:
            return f"the back-reference at position {node.position} names a group that holds one"
        if isinstance(node, BackReference) and any(
            _may_match_a_surrogate(groups[number]) for number in node.numbers if number in groups
        ):
            # The stand-ins make a lone surrogate and a private-use character alike; a back-reference
            # compares the two, and would find them equal.
            return (
                f"the back-reference at position {node.position} names a group that may match a lone "
                "surrogate, which regress sees as a private-use character"
            )
    try:
        lengths = {number: _facts(group, {}).longest for number, group in groups.items()}
        cost = backtracking_cost(tree, lengths)
    except _Unbounded as unbounded:
        return str(unbounded)
    anchored = all(
        terms and isinstance(terms[0], Assertion) and terms[0].kind == "^" for terms in tree.alternatives
    )
    if anchored and cost > MAX_STEPS_AT_START:
        return (
            f"a search may take {cost} or more steps at the start of the string, past the "
            f"{MAX_STEPS_AT_START} allowed (alternatives and counts multiply)"
        )
    if not anchored and cost > MAX_STEPS:
        return (
            f"a search may take {cost} or more steps at each place of the string, past the "
            f"{MAX_STEPS} allowed (alternatives and counts multiply; a pattern that opens with ^ "
            f"may take {MAX_STEPS_AT_START})"
        )
    return None


def _tells_surrogates_apart(node: Literal | CharSet) -> str | None:
    """Why ``node`` would answer a lone surrogate and its stand-in differently, if it would."""
    if isinstance(node, Literal):
        if any(_in_block(ord(char), _SURROGATES) or _in_block(ord(char), _STAND_INS) for char in node.text):
            return (
                f"the character at position {node.position} is a surrogate or private-use one (regress "
                "sees a lone surrogate as a private-use character)"
            )
        return None
    # Each set must hold all of both blocks or none of either.
    held = _blocks_held(node)
    if held[0] != held[1] or "some" in held:
        return (
            f"the set at position {node.position} tells surrogates from private-use characters (regress "
            "sees a lone surrogate as a private-use character)"
        )
    return None


def _blocks_held(node: CharSet) -> list[str]:
    """``all``, ``some`` or ``none`` of the surrogates (first) and of their stand-ins (second) in
    ``node``, a set without negation's effect on the answer: negated, it holds none where it says all."""
    held = [_held_by_ranges(node.ranges, block) for block in (_SURROGATES, _STAND_INS)]
    for found in node.properties:
        for index, whole in enumerate(_PROPERTY_BLOCKS.get((found.kind, found.value), (False, False))):
            if whole != found.negated:
                held[index] = "all"
    return held


def _may_match_a_surrogate(group: Group) -> bool:
    """Whether ``group`` holds a set that matches a lone surrogate (no literal may be one)."""
    for node in walk(group):
        if isinstance(node, CharSet) and (_blocks_held(node)[0] == "all") != node.negated:
            return True
    return False


# The properties that hold all of the surrogates (first) or of their stand-ins (second): every
# other property holds none of either.
_PROPERTY_BLOCKS = {
    ("gc", "Cs"): (True, False),
    ("gc", "Co"): (False, True),
    ("gc", "C"): (True, True),
    ("binary", "Any"): (True, True),
    ("binary", "Assigned"): (True, True),
    ("sc", "Unknown"): (True, True),
    ("scx", "Unknown"): (True, True),
}


def _in_block(code: int, block: tuple[int, int]) -> bool:
    return block[0] <= code <= block[1]


def _held_by_ranges(ranges: list[tuple[int, int]], block: tuple[int, int]) -> str:
    """``all``, ``some`` or ``none`` of ``block`` in sorted, disjoint, unjoinable ``ranges``."""
    start, end = block
    for low, high in ranges:
        if low <= start and high >= end:
            return "all"
        if low <= end and high >= start:
            return "some"
    return "none"


class _Unbounded(Exception):
    """A shape whose backtracking cost has no bound; the message names it."""


class _Facts:
    """What the bound knows of one part: the shortest and longest text it matches (in code points),
    the steps a backtracking engine may take on it at one place, and the ways it can succeed there
    (each way, the rest of the pattern is tried again)."""

    __slots__ = ("shortest", "longest", "steps", "ways")

    def __init__(self, shortest: int, longest: int, steps: int, ways: int) -> None:
        self.shortest = shortest
        self.longest = longest
        self.steps = steps
        self.ways = ways


def backtracking_cost(tree: Node, lengths: dict[int, int]) -> int:
    """An upper bound on the steps a backtracking search of ``tree`` takes at one place of the
    string (at most :data:`MAX_STEPS_AT_START` + 1: past it the count stops), given the longest text
    of each
    group a back-reference names; _Unbounded for a repeat without a most, or of the empty string."""
    return _facts(tree, lengths).steps


def _facts(tree: Node, lengths: dict[int, int]) -> _Facts:
    """:class:`_Facts` of ``tree``, children before parents, without recursion."""
    backward = _read_backward(tree)
    found: dict[int, _Facts] = {}
    for node in children_first(tree):
        if isinstance(node, Literal):
            facts = _Facts(len(node.text), len(node.text), _capped(len(node.text)), 1)
        elif isinstance(node, CharSet):
            facts = _Facts(1, 1, 1, 1)
        elif isinstance(node, Assertion):
            facts = _Facts(0, 0, 1, 1)
        elif isinstance(node, BackReference):
            longest = max(lengths.get(number, 0) for number in node.numbers)
            facts = _Facts(0, longest, 1 + longest, 1)
        elif isinstance(node, Group):
            facts = found[id(node.body)]
        elif isinstance(node, LookAround):
            # Atomic: once it holds, a search never comes back into it.
            facts = _Facts(0, 0, 1 + found[id(node.body)].steps, 1)
        elif isinstance(node, Repeat):
            facts = _repeat_facts(node, found[id(node.body)])
        else:
            assert isinstance(node, Disjunction)
            alternatives = [
                _sequence([found[id(term)] for term in terms], backward=id(node) in backward)
                for terms in node.alternatives
            ]
            facts = _Facts(
                min(part.shortest for part in alternatives),
                max(part.longest for part in alternatives),
                _capped(1 + sum(part.steps for part in alternatives)),
                _capped(sum(part.ways for part in alternatives)),
            )
        found[id(node)] = facts
    return found[id(tree)]


def _read_backward(tree: Node) -> set[int]:
    """The alternations inside a look-behind (and no look-ahead within it): a backtracking engine
    matches them from right to left, so their last part is tried first."""
    backward_at = {id(tree): False}
    backward = set()
    for node in walk(tree):
        here = backward_at[id(node)]
        if isinstance(node, Disjunction):
            if here:
                backward.add(id(node))
            for terms in node.alternatives:
                backward_at.update((id(term), here) for term in terms)
        elif isinstance(node, (Group, Repeat)):
            backward_at[id(node.body)] = here
        elif isinstance(node, LookAround):
            backward_at[id(node.body)] = node.behind
    return backward


def _sequence(parts: list[_Facts], *, backward: bool = False) -> _Facts:
    """Parts one after another, matched left to right (right to left ``backward``): each way
    through the part tried first tries the rest again."""
    steps, ways, shortest, longest = 0, 1, 0, 0
    for part in parts if backward else reversed(parts):
        steps = _capped(part.steps + part.ways * steps)
        ways = _capped(part.ways * ways)
        shortest += part.shortest
        longest = _capped(longest + part.longest)
    return _Facts(shortest, longest, max(steps, 1), ways)


def _repeat_facts(repeat: Repeat, body: _Facts) -> _Facts:
    """``body`` from ``low`` to ``high`` times: ``low`` copies, then ``high - low`` nested options."""
    if repeat.high is None:
        raise _Unbounded(f"{repeat.text!r} at position {repeat.position} repeats without a most")
    if body.shortest == 0:
        raise _Unbounded(
            f"{repeat.text!r} at position {repeat.position} repeats a part that can match the empty string"
        )
    steps, ways = 1, 1
    for _ in range(repeat.high - repeat.low):
        steps = _capped(1 + body.steps + body.ways * steps)
        ways = _capped(1 + body.ways * ways)
        if steps > MAX_STEPS_AT_START:
            break
    for _ in range(repeat.low):
        steps = _capped(body.steps + body.ways * steps)
        ways = _capped(body.ways * ways)
        if steps > MAX_STEPS_AT_START:
            break
    return _Facts(body.shortest * repeat.low, _capped(body.longest * repeat.high), steps, ways)


def _capped(number: int) -> int:
    return min(number, MAX_STEPS_AT_START + 1)


def steps_at_each_place(source: str) -> int:
    """The bound :func:`backtracking_cost` puts on a backtracking search of ``source`` at one place
    of the string (for a pattern that only a backtracking engine can run); RegexSyntaxError,
    UnsupportedPattern."""
    tree = parse(source)
    refused = backtracking_refusal(source, tree)
    if refused is not None:
        raise UnsupportedPattern(refused)
    groups = {node.number: node for node in walk(tree) if isinstance(node, Group) and node.number is not None}
    return backtracking_cost(tree, {number: _facts(group, {}).longest for number, group in groups.items()})
