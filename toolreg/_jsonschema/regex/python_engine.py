"""Python's own engine, for the simplest patterns on short text: the generated code calls it where
a call into RE2 would cost three times as much."""

from __future__ import annotations

from .syntax import MAX_CODE_POINT, Assertion, CharSet, Disjunction, Literal, Repeat

__all__ = ["PYTHON_MAX_TEXT", "python_source"]

# The longest text Python's engine is given: past a few hundred characters RE2's quicker stride
# outweighs the cost of calling it.
PYTHON_MAX_TEXT = 256
# Counts Python's engine takes as written (its own limit is near 2**32, below HUGE).
_PYTHON_MAX_COUNT = 65535


def python_source(tree: Disjunction) -> str | None:
    """The pattern in Python's syntax, when it is ``^``, then literals, sets of code points and
    counts of one of them, with at most one count that varies, then ``$`` or nothing; else None.

    Anchored at the start, such a pattern is tried at one place, where backtracking has only the one
    varying count to undo, a character at a time: linear in the text, as RE2 is. On any text it
    means what ECMA-262 says: every literal and set is spelled out as code points (``\\d`` is
    ``[0-9]``, ``.`` leaves out the line terminators, a lone surrogate is one code point, as it is to
    RE2 here), no flag changes a set, and ``\\Z`` is the end of the text.
    """
    if len(tree.alternatives) != 1:
        return None
    terms = tree.alternatives[0]
    if not terms or not (isinstance(terms[0], Assertion) and terms[0].kind == "^"):
        return None
    out, varying = ["\\A"], 0
    for index, term in enumerate(terms[1:], start=1):
        if isinstance(term, Assertion) and term.kind == "$" and index == len(terms) - 1:
            out.append("\\Z")
            continue
        body, count = term, ""
        if isinstance(term, Repeat):
            body, low, high = term.body, term.low, term.high
            if term.lazy or max(low, high or 0) > _PYTHON_MAX_COUNT:
                return None
            varying += low != high
            count = f"{{{low},{'' if high is None else high}}}"
        if isinstance(body, Literal) and (not count or len(body.text) == 1):
            out.append("".join(_python_code_point(ord(character)) for character in body.text))
        elif isinstance(body, CharSet) and not body.properties:
            ranges = "".join(
                _python_code_point(low) + ("" if low == high else "-" + _python_code_point(high))
                for low, high in body.ranges
            )
            negated = body.negated
            if not ranges:  # no code point, or (negated) any
                ranges, negated = f"{_python_code_point(0)}-{_python_code_point(MAX_CODE_POINT)}", not negated
            out.append(f"[{'^' if negated else ''}{ranges}]")
        else:
            return None
        out.append(count)
    return None if varying > 1 else "".join(out)


def _python_code_point(code: int) -> str:
    return f"\\U{code:08x}"
