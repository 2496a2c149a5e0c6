"""A shortest string that one ECMA-262 pattern finds and another does not.

:func:`shortest_difference` searches with two patterns as JSON Schema's ``pattern`` does (anywhere,
unless the pattern anchors itself) and answers with a shortest string in L(accepting) \\ L(refusing),
or with None when that is empty, which is then proved. Each pattern becomes a Thompson automaton
whose empty moves may carry an assertion; the code points are cut into classes that every set of
either pattern holds whole or not at all; and a breadth-first search over pairs of sets of states, a
class a step, meets a shortest witness first, or runs out of pairs. A witness is written readably:
each class by one of its characters, ASCII letters and digits first; of the shortest, the first in
that order.

It decides literals, sets (``\\p{…}`` too), groups, alternatives, counts, ``^``, ``$``, ``\\b`` and
``\\B``. It raises :class:`Undecided`, saying what and where, on a look-around or a back-reference, on
a property RE2 does not know, and past the bounds that keep time and memory bounded whatever the
patterns: more than ``max_states`` states in the two automata (counts are written out as copies),
more than ``max_states`` pairs searched, or more than :data:`WORK_PER_STATE` steps of work for each.
"""

from __future__ import annotations

import bisect
import itertools
import string
from collections import deque
from collections.abc import Iterable

import re2

from ..errors import ToolregError
from . import syntax
from .re2_engine import to_re2

__all__ = ["Undecided", "shortest_difference", "shortest_match", "WORK_PER_STATE"]

# Steps of work allowed per state of ``max_states``: a step is a state put in a set (in C), and an
# empty move followed (in Python) counts _SLOW steps. Enough for a{1000} against a{999}, a thousand
# steps of a thousand states each; the most it allows took about half a second, measured.
WORK_PER_STATE = 250
_SLOW = 4

_Ranges = tuple[tuple[int, int], ...]
# A set as the pattern writes it: its ranges, its properties (canonical, negated), negated.
_Written = tuple[_Ranges, tuple[tuple[str, bool], ...], bool]
_Numbers = dict[_Written, int]
# A state of the search: the states each automaton's moves reached (the accepting one's None once it
# has found a match), and the kind of the last character.
_Key = tuple[frozenset[int] | None, frozenset[int], int]
# The states of an automaton that move, by the classes they move on (a mask).
_Moves = dict[int, frozenset[int]]
# Classes, and the states each automaton moves to on them.
_Group = tuple[int, frozenset[int], frozenset[int]]

# What a place in the string lies between: the start, a word character (for \b), another, the end.
_START, _WORD, _OTHER, _END = range(4)


class Undecided(ToolregError, ValueError):
    """The construction cannot decide for these patterns; ``reason`` names what stopped it and where
    (``a back-reference at position 3 of the refusing pattern``, ``more than 20000 states``)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def shortest_match(pattern: str, *, max_states: int = 20_000) -> str | None:
    """A shortest string ``pattern`` finds, or None if it finds none: :func:`shortest_difference`."""
    return shortest_difference(pattern, None, max_states=max_states)


def shortest_difference(accepting: str, refusing: str | None, *, max_states: int = 20_000) -> str | None:
    """A shortest string that the ECMA-262 pattern ``accepting`` finds (a search, as JSON Schema's
    ``pattern`` is: unanchored unless the pattern itself anchors) and ``refusing`` does not; None when
    there is none (L(accepting) ⊆ L(refusing), proved). ``refusing=None`` means "refuses everything"
    so the answer is a shortest string ``accepting`` finds (None only if it finds nothing).
    Raises Undecided when a construct is outside what the construction handles or the state budget
    runs out, RegexSyntaxError for a source that is not ECMA-262. Bounded time and memory whatever
    the input."""
    budget = _Budget(max_states)
    sets: _Numbers = {}  # each set the moves read, numbered
    # "[]" is a pattern that finds nothing.
    found = _Automaton(syntax.parse(accepting), "accepting", sets, budget)
    refused = _Automaton(syntax.parse("[]" if refusing is None else refusing), "refusing", sets, budget)
    alphabet = _Alphabet(_code_points(sets), found.boundaries or refused.boundaries, budget)
    return _search(found, refused, alphabet, budget)


class _Budget:
    """The states and the work one call may spend, from ``max_states``."""

    def __init__(self, max_states: int) -> None:
        self.max_states = self.states_left = max_states
        self.work_left = WORK_PER_STATE * max_states

    def grow(self, count: int, what: str) -> None:
        self.states_left -= count
        if self.states_left < 0:
            raise Undecided(f"{what} makes the automata larger than {self.max_states} states")

    def spend(self, steps: int) -> None:
        self.work_left -= steps
        if self.work_left < 0:
            raise Undecided(f"more than {WORK_PER_STATE * self.max_states} steps of work")


def _code_points(sets: _Numbers) -> list[_Ranges]:
    """The code points of each set the moves read, in the order of their numbers."""
    _learn({canonical for _, found, _ in sets for canonical, _ in found})
    code_points: list[_Ranges] = []
    for ranges, properties, negated in sets:
        held = list(ranges)
        for canonical, property_negated in properties:
            known = _PROPERTY_RANGES[canonical]
            held += syntax.complement(list(known)) if property_negated else known
        merged = syntax.merged_ranges(held)
        code_points.append(tuple(syntax.complement(merged) if negated else merged))
    return code_points


# The code points of each property asked for in this process, keyed by its canonical \p{…}.
_PROPERTY_RANGES: dict[str, _Ranges] = {}


def _canonical(found: syntax.Property) -> str:
    return f"\\p{{{found.value}}}" if found.kind == "binary" else f"\\p{{{found.kind}={found.value}}}"


def _learn(properties: set[str]) -> None:
    """Finds the code points of the ``properties`` not known yet (each one RE2 can express) as RE2 (the
    project's matcher; Python's tables may be of another Unicode version) has them: once per process,
    about 0.2 s for a call's first and 0.05 s for each further one."""
    wanted = {text: to_re2(text) for text in properties if text not in _PROPERTY_RANGES}
    if not wanted:
        return
    # Every code point in order, lone surrogates too, as the matcher hands text to RE2.
    every = "".join(map(chr, range(syntax.MAX_CODE_POINT + 1))).encode("utf-8", "surrogatepass")
    for text, translated in wanted.items():
        runs = []
        for run in re2.compile(f"(?:{translated})+".encode()).finditer(every):
            start, end = run.span()
            characters = every[start:end].decode("utf-8", "surrogatepass")
            runs.append((ord(characters[0]), ord(characters[-1])))
        _PROPERTY_RANGES[text] = tuple(runs)


class _Automaton:
    """A pattern's Thompson automaton: state ``s`` moves on the set numbered ``label[s]`` (-1: none)
    to ``s + 1``, and by its ``empty`` moves, each with the assertion that must hold ("" for none),
    to others. Every part of the pattern is built as a block of consecutive states that only its
    last state leaves, so a count copies its part's block whole."""

    def __init__(self, tree: syntax.Disjunction, role: str, sets: _Numbers, budget: _Budget) -> None:
        self.role, self.sets, self.budget = role, sets, budget
        self.label: list[int] = []
        self.empty: list[list[tuple[int, str]]] = []
        self.assertions: set[str] = set()  # the kinds it holds
        self.places: dict[frozenset[str], _Place] = {}  # by the assertions that hold there
        self.closures: dict[tuple[frozenset[int], frozenset[str]], frozenset[int]] = {}
        self.start, self.final = self.build(tree)
        self.boundaries = bool(self.assertions & {"b", "B"})
        self.with_label = _grouped((label, state) for state, label in enumerate(self.label) if label >= 0)
        # Whether a match may begin after the first character (is the pattern not anchored by ^?).
        places = itertools.product((_WORD, _OTHER), (_WORD, _OTHER, _END))
        self.restarts = any(self.place(before, after).start for before, after in places)

    def where(self, node: syntax.Node) -> str:
        return f"at position {node.position} of the {self.role} pattern"

    def build(self, tree: syntax.Disjunction) -> tuple[int, int]:
        """The entry and exit states of ``tree``, built children first with an explicit stack."""
        built: list[tuple[int, int]] = []  # the entry and exit of each part built, in order
        stack: list[tuple[syntax.Node, int]] = [(tree, -1)]  # a part, and where its block began once entered
        while stack:
            node, block = stack.pop()
            if isinstance(node, (syntax.Literal, syntax.CharSet)):
                built.append(self.chain(node))
            elif isinstance(node, syntax.Assertion):
                self.assertions.add(node.kind)
                entry = self.new(2, node)
                self.empty[entry].append((entry + 1, node.kind))
                built.append((entry, entry + 1))
            elif isinstance(node, syntax.LookAround):
                kind = "look-behind" if node.behind else "look-ahead"
                raise Undecided(f"a {kind} {node.opener}…) {self.where(node)}")
            elif isinstance(node, syntax.BackReference):
                raise Undecided(f"a back-reference {self.where(node)}")
            elif isinstance(node, syntax.Group):
                stack.append((node.body, -1))
            elif block < 0:
                stack.append((node, len(self.label)))
                if isinstance(node, syntax.Repeat):
                    stack.append((node.body, -1))
                else:
                    assert isinstance(node, syntax.Disjunction)
                    terms = [term for alternative in node.alternatives for term in alternative]
                    stack.extend((term, -1) for term in reversed(terms))
            elif isinstance(node, syntax.Repeat):
                built.append(self.repeat(node, built.pop(), block))
            else:
                assert isinstance(node, syntax.Disjunction)
                parts = built[len(built) - sum(map(len, node.alternatives)) :]
                del built[len(built) - len(parts) :]
                built.append(self.alternation(node, parts))
        return built[0]

    def new(self, count: int, node: syntax.Node) -> int:
        self.budget.grow(count, f"the part {self.where(node)}")
        first = len(self.label)
        self.label += [-1] * count
        self.empty += [[] for _ in range(count)]
        return first

    def chain(self, node: syntax.Literal | syntax.CharSet) -> tuple[int, int]:
        """States that move one after another: on each character of a literal, or on a set."""
        if isinstance(node, syntax.Literal):
            written: list[_Written] = [(((ord(char), ord(char)),), (), False) for char in node.text]
        else:
            for found in node.properties:
                if _canonical(found) not in _PROPERTY_RANGES and to_re2(_canonical(found)) is None:
                    raise Undecided(
                        f"{found.text} in the set {self.where(node)}: a property RE2 does not know"
                    )
            properties = tuple((_canonical(found), found.negated) for found in node.properties)
            written = [(tuple(node.ranges), properties, node.negated)]
        entry = self.new(len(written) + 1, node)
        for offset, one in enumerate(written):
            self.label[entry + offset] = self.sets.setdefault(one, len(self.sets))
        return entry, entry + len(written)

    def alternation(self, node: syntax.Disjunction, parts: list[tuple[int, int]]) -> tuple[int, int]:
        ends: list[tuple[int, int]] = []
        for alternative in node.alternatives:
            terms, parts = parts[: len(alternative)], parts[len(alternative) :]
            if not terms:
                state = self.new(1, node)
                terms = [(state, state)]
            for (_, exit_), (entry, _) in itertools.pairwise(terms):
                self.empty[exit_].append((entry, ""))
            ends.append((terms[0][0], terms[-1][1]))
        if len(ends) == 1:
            return ends[0]
        entry = self.new(2, node)
        for first, last in ends:
            self.empty[entry].append((first, ""))
            self.empty[last].append((entry + 1, ""))
        return entry, entry + 1

    def repeat(self, node: syntax.Repeat, body: tuple[int, int], block: int) -> tuple[int, int]:
        """``body`` (the block from ``block`` on) ``node.low`` times, then up to ``node.high`` (or
        looping on the last copy), each copy its block again."""
        low, high = node.low, node.high
        copies = high if high is not None else max(low, 1)
        size = len(self.label) - block
        self.budget.grow(size * max(copies - 1, 0), f"{node.text!r} {self.where(node)}")
        parts, labels, moves = [body], self.label[block:], self.empty[block:]
        for _ in range(copies - 1):
            offset = len(self.label) - block
            self.label += labels
            self.empty += [[(target + offset, guard) for target, guard in out] for out in moves]
            parts.append((body[0] + offset, body[1] + offset))
        current = entry = self.new(2, node)
        for index, (first, last) in enumerate(parts[:copies]):
            if index >= low:
                self.empty[current].append((entry + 1, ""))
            self.empty[current].append((first, ""))
            current = last
        self.empty[current].append((entry + 1, ""))
        if high is None:
            self.empty[parts[-1][1]].append((parts[-1][0], ""))
        return entry, entry + 1

    def place(self, before: int, after: int) -> _Place:
        """Where empty moves lead between characters of kinds ``before`` and ``after``: the same at
        every place where the same of its assertions hold."""
        holding = frozenset(kind for kind in self.assertions if _holds(kind, before, after))
        if holding not in self.places:
            self.places[holding] = _Place(self, holding)
        return self.places[holding]

    def closure(self, moved: frozenset[int], before: int, after: int) -> frozenset[int]:
        """The states with a move, and the final one, that empty moves reach at a place from the start
        (a search tries every place) and from where each ``moved`` state moved to."""
        place = self.place(before, after)
        found = self.closures.get((moved, place.holding))
        if found is None:
            reached = list(map(place.__getitem__, moved))
            self.budget.spend(len(moved) + sum(map(len, reached)))
            found = self.closures[moved, place.holding] = place.start.union(*reached)
        return found

    def moves(self, reached: frozenset[int], masks: list[int]) -> _Moves:
        """The states of ``reached`` that move, by the classes they move on (a mask)."""
        if len(self.with_label) < len(reached):  # fewer sets than states: intersect, in C
            self.budget.spend(sum(min(len(reached), len(states)) for states in self.with_label.values()))
            by_label = {label: reached & states for label, states in self.with_label.items()}
        else:
            self.budget.spend(len(reached))
            by_label = _grouped((self.label[state], state) for state in reached if self.label[state] >= 0)
        by_mask: _Moves = {}
        for label, states in by_label.items():  # sets written apart may hold the same classes
            if states and masks[label]:
                by_mask[masks[label]] = by_mask.get(masks[label], frozenset()) | states
        return by_mask


class _Place(dict[int, frozenset[int]]):
    """For one kind of place (``holding`` the assertions that hold there): what empty moves reach
    from the start, and, worked out when first asked, from where each state moves to."""

    def __init__(self, automaton: _Automaton, holding: frozenset[str]) -> None:
        super().__init__()
        self.automaton, self.holding = automaton, holding
        self.open = [[to for to, kind in out if not kind or kind in holding] for out in automaton.empty]
        automaton.budget.spend(len(self.open))
        self.start = self.reach(automaton.start)

    def __missing__(self, state: int) -> frozenset[int]:
        found = self[state] = self.reach(state + 1)
        return found

    def reach(self, state: int) -> frozenset[int]:
        seen, stack, work = {state}, [state], 1
        while stack:
            targets = self.open[stack.pop()]
            work += len(targets)
            for target in targets:
                if target not in seen:
                    seen.add(target)
                    stack.append(target)
        self.automaton.budget.spend(_SLOW * work)
        label, final = self.automaton.label, self.automaton.final
        return frozenset(state for state in seen if label[state] >= 0 or state == final)


def _grouped(pairs: Iterable[tuple[int, int]]) -> dict[int, frozenset[int]]:
    """The second of each pair, by the first."""
    groups: dict[int, list[int]] = {}
    for key, value in pairs:
        groups.setdefault(key, []).append(value)
    return {key: frozenset(values) for key, values in groups.items()}


def _holds(assertion: str, before: int, after: int) -> bool:
    """Whether ``assertion`` holds between characters of kinds ``before`` and ``after``."""
    boundary = (before == _WORD) != (after == _WORD)
    return {"^": before == _START, "$": after == _END, "b": boundary, "B": not boundary}[assertion]


# The characters a witness is written with, in order of preference, before all others.
_PREFERRED = string.ascii_lowercase + string.ascii_uppercase + string.digits + string.punctuation + " "


class _Alphabet:
    """Classes of code points that every set holds whole or not at all, numbered in the order their
    characters are preferred in a witness; ``masks`` has each set's classes as bits, ``spelling``
    each class's character, and ``kinds`` the classes of word and other characters (all one kind
    when no pattern has a \\b or \\B)."""

    def __init__(self, sets: list[_Ranges], boundaries: bool, budget: _Budget) -> None:
        every = [*sets, tuple(syntax.WORD)] if boundaries else sets
        edges = {0, *(edge for ranges in every for low, high in ranges for edge in (low, high + 1))}
        self.cuts = sorted(edges - {syntax.MAX_CODE_POINT + 1})
        # Each piece between two cuts lies in one class; each set splits the classes it touches.
        class_of, classes = [0] * len(self.cuts), 1
        for ranges in every:
            pieces, _ = self.pieces(ranges, budget)
            renamed: dict[int, int] = {}
            for piece in pieces:
                if class_of[piece] not in renamed:
                    renamed[class_of[piece]], classes = classes, classes + 1
                class_of[piece] = renamed[class_of[piece]]
        members = _grouped((number, piece) for piece, number in enumerate(class_of))
        # Each class's character, with the tier and order it is preferred in.
        chosen: dict[int, tuple[int, int, int]] = {}
        for order, char in enumerate(_PREFERRED):
            chosen.setdefault(class_of[self.piece(ord(char))], (0, order, ord(char)))
        ranked = sorted(
            (chosen.get(number) or self.readable(sorted(found)), number) for number, found in members.items()
        )
        self.rank = {number: rank for rank, (_, number) in enumerate(ranked)}
        self.class_of = class_of
        self.spelling = [chr(code) for (_, _, code), _ in ranked]
        self.masks = [self.mask(ranges, budget) for ranges in sets]
        everything = (1 << len(ranked)) - 1
        if boundaries:
            word = self.mask(tuple(syntax.WORD), budget)
            self.kinds = [(_WORD, word), (_OTHER, everything & ~word)]
        else:
            self.kinds = [(_OTHER, everything)]

    def piece(self, code: int) -> int:
        return bisect.bisect_right(self.cuts, code) - 1

    def pieces(self, ranges: _Ranges, budget: _Budget) -> tuple[list[int], bool]:
        """The pieces of ``ranges``, or of its complement (and True) when that has fewer."""
        inverted = 2 * sum(self.piece(high) - self.piece(low) + 1 for low, high in ranges) > len(self.cuts)
        spans = syntax.complement(list(ranges)) if inverted else ranges
        pieces = [index for low, high in spans for index in range(self.piece(low), self.piece(high) + 1)]
        budget.spend(len(pieces) + 1)
        return pieces, inverted

    def mask(self, ranges: _Ranges, budget: _Budget) -> int:
        pieces, inverted = self.pieces(ranges, budget)
        mask = sum(1 << rank for rank in {self.rank[self.class_of[piece]] for piece in pieces})
        return (1 << len(self.spelling)) - 1 - mask if inverted else mask

    def readable(self, pieces: list[int]) -> tuple[int, int, int]:
        """A character of a class's first few of each piece, with its tier: printable, or not a lone
        surrogate, or any."""
        fallback = (3, 0, self.cuts[pieces[0]])
        for piece in pieces:
            low = self.cuts[piece]
            high = self.cuts[piece + 1] - 1 if piece + 1 < len(self.cuts) else syntax.MAX_CODE_POINT
            if 0xD800 <= low <= 0xDFFF:
                low = 0xE000
            for code in range(low, min(high, low + 15) + 1):
                if chr(code).isprintable():
                    return 1, 0, code
                if not 0xD800 <= code <= 0xDFFF:
                    fallback = min(fallback, (2, 0, code))
        return fallback


def _search(found: _Automaton, refused: _Automaton, alphabet: _Alphabet, budget: _Budget) -> str | None:
    """Breadth first over what both automata hold after each string, one class at a time, the
    preferred class first: the first string ``found`` matches and ``refused`` does not is a shortest
    one (and the first such in the order of the classes)."""
    first: _Key = (frozenset(), frozenset(), _START)
    came_from: dict[_Key, tuple[_Key, int] | None] = {first: None}
    queue = deque([first])
    masks = alphabet.masks
    while queue:
        key = queue.popleft()
        held, refusing, before = key
        found_here = held is None or found.final in found.closure(held, before, _END)
        if found_here and refused.final not in refused.closure(refusing, before, _END):
            spelled = []
            while (step := came_from[key]) is not None:
                key, number = step
                spelled.append(alphabet.spelling[number])
            return "".join(reversed(spelled))
        steps: list[tuple[int, _Key]] = []  # (the classes, what follows) for every next character
        for after, kind in alphabet.kinds:
            refused_reach = refused.closure(refusing, before, after)
            if refused.final in refused_reach:
                continue  # the refusing pattern matched: every longer string it finds too
            found_moves: _Moves = {}
            matched = held is None
            if held is not None:
                found_reach = found.closure(held, before, after)
                matched = found.final in found_reach
                found_moves = {} if matched else found.moves(found_reach, masks)
            sides = (found_moves, refused.moves(refused_reach, masks))
            for mask, found_next, refused_next in _split(kind, sides, budget):
                if matched or found_next or found.restarts:  # else the accepting one can no longer match
                    steps.append((mask & -mask, (None if matched else found_next, refused_next, after)))
        for lowest, next_key in sorted(steps, key=lambda step: step[0]):
            if next_key not in came_from:
                if len(came_from) >= budget.max_states:
                    raise Undecided(f"more than {budget.max_states} states")
                came_from[next_key] = (key, lowest.bit_length() - 1)
                queue.append(next_key)
    return None


def _split(whole: int, sides: tuple[_Moves, _Moves], budget: _Budget) -> list[_Group]:
    """The classes of ``whole`` grouped by which states of both automata move on them, as (classes,
    the accepting automaton's states, the refusing one's)."""
    groups: list[_Group] = [(whole, frozenset(), frozenset())]
    for side, moves in enumerate(sides):
        for mask, states in moves.items():
            split = []
            for classes, found, refused in groups:
                if classes & ~mask:
                    split.append((classes & ~mask, found, refused))
                if classes & mask:
                    moved = (found | states, refused) if side == 0 else (found, refused | states)
                    split.append((classes & mask, *moved))
                    budget.spend(len(moved[side]))
            budget.spend(len(groups))
            groups = split
    return groups
