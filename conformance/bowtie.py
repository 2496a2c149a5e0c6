"""A harness for Bowtie, speaking its IHOP protocol on stdin and stdout: ``python -m conformance.bowtie``.

Bowtie (the JSON Schema community's tool for comparing implementations) sends one JSON request per
line and reads one JSON response per line: ``start``, ``dialect``, one ``run`` per test case, and
``stop``. The harness answers each ``run`` with toolreg's verdict for every instance (``flag``
output). A schema toolreg refuses on purpose (an unknown keyword, ``dependencies`` outside draft-07,
a pattern it will not run ...) is a case ``skipped`` with toolreg's reason, not an error; so is an
instance past toolreg's limits (nested deeper than ``max_depth``, or past the work budget), with
the limit it passed.

Every line is read as JSON and nothing else: NaN and the infinities are refused, an integer longer
than Python reads (4,300 digits) is read exactly up to :data:`MOST_DIGITS`, and a line nested deeper
than Python's stack is read by a reader with a stack of its own; what cannot be read ends the harness
with one line saying why (exit code 2), never a traceback, and nothing it writes is other than JSON.
"""

from __future__ import annotations

import json
import platform
import re
import sys
import traceback
from collections.abc import Iterable, Mapping
from importlib import metadata
from pathlib import Path
from typing import Any, TextIO

import toolreg
from toolreg._jsonschema.vocabulary import DEFAULT_DIALECT, DIALECTS

from ._official import DIALECT_FOLDERS

__all__ = ["DIALECTS_SPOKEN", "MOST_DIGITS", "ProtocolError", "Harness", "implementation", "read", "main"]

# The dialects toolreg validates, as Bowtie names them.
DIALECTS_SPOKEN = tuple(uri for _, uri in DIALECT_FOLDERS.values())


# The longest integer a request may hold: read exactly, a half at a time (Python's int() reads 4,300
# digits at most, and the time it takes grows with the square of the length).
MOST_DIGITS = 100_000


class ProtocolError(ValueError):
    """A request the protocol does not allow: an unknown command, a missing field, a run before start,
    a line that is not JSON."""


def _distribution() -> str:
    """The installed distribution that provides the ``toolreg`` package: ``pytoolreg``, as it is named
    on the index, unless the installed files say otherwise (an editable install names no files)."""
    return metadata.packages_distributions().get("toolreg", ["pytoolreg"])[0]


def implementation() -> dict[str, Any]:
    """What Bowtie shows of toolreg: only true values.

    The URLs are those the installed distribution declares (``Project-URL``); where it declares
    none, they are ``file:`` URIs of where the package's source and documents are on this machine,
    for toolreg has no public home yet.
    """
    distribution = _distribution()
    declared: dict[str, str] = {}
    for entry in metadata.metadata(distribution).get_all("Project-URL") or []:
        label, _, url = entry.partition(",")
        declared[label.strip().lower()] = url.strip()
    package = Path(toolreg.__file__).resolve().parent
    checkout = package.parent
    source = declared.get("source", package.as_uri())
    readme, contributing = checkout / "README.md", checkout / "CONTRIBUTING.md"
    homepage = declared.get("homepage", readme.as_uri() if readme.is_file() else source)
    issues = declared.get("issues", contributing.as_uri() if contributing.is_file() else homepage)
    return {
        "name": "toolreg",
        "version": metadata.version(distribution),
        "language": "python",
        "language_version": platform.python_version(),
        "os": platform.system(),
        "os_version": platform.release(),
        "dialects": list(DIALECTS_SPOKEN),
        "homepage": homepage,
        "issues": issues,
        "source": source,
    }


def _field(request: Mapping[str, Any], name: str) -> Any:
    if name not in request:
        raise ProtocolError(f"{request.get('cmd')!r} request without {name!r}")
    return request[name]


class Harness:
    """Answers one request at a time; the state is whether ``start`` came, and nothing else."""

    def __init__(self) -> None:
        self.started = False

    def answer(self, request: Any) -> dict[str, Any] | None:
        """The response to ``request``, or None for ``stop`` (which wants none)."""
        if not isinstance(request, dict):
            raise ProtocolError(f"a request must be a JSON object, not {request!r}")
        command = request.get("cmd")
        if command == "start":
            if _field(request, "version") != 1:
                raise ProtocolError(
                    f"this harness speaks version 1 of the protocol, not {request['version']!r}"
                )
            self.started = True
            return {"version": 1, "implementation": implementation()}
        if not self.started:
            raise ProtocolError(f"{command!r} before 'start'")
        if command == "dialect":
            return self.dialect(_field(request, "dialect"))
        if command == "run":
            return self.run(_field(request, "seq"), _field(request, "case"), request.get("output", "flag"))
        if command == "stop":
            return None
        raise ProtocolError(f"unknown command {command!r}")

    @staticmethod
    def dialect(uri: Any) -> dict[str, bool]:
        """toolreg reads a schema without ``$schema`` as 2020-12, and cannot be told otherwise: it says
        so (``ok: false``) for the other dialects, whose schemas it still reads by their ``$schema``."""
        return {"ok": DIALECTS.get(uri) == DEFAULT_DIALECT}

    @staticmethod
    def run(seq: Any, case: Any, output: Any) -> dict[str, Any]:
        """Every test of one case: ``{"valid": ...}`` each, or the case skipped or errored as a whole."""
        if not isinstance(case, dict) or not isinstance(case.get("tests"), list) or "schema" not in case:
            raise ProtocolError(f"run {seq!r}: a case needs 'schema' and a list of 'tests'")
        tests: list[Any] = case["tests"]
        if output == "annotations":
            reason = (
                "this harness does not yet write Bowtie's annotation list "
                "(Validator.output writes the standard formats)"
            )
            return {"seq": seq, "results": [{"skipped": True, "message": reason} for _ in tests]}
        try:
            # The generated code at once, as the suite's runner does: it answers all but a validator's
            # first calls, and a case has only a few.
            validator = toolreg.compile(case["schema"], documents=case.get("registry") or None).prepare()
        except toolreg.SchemaError as refusal:
            return {"seq": seq, "skipped": True, "message": f"toolreg refuses this schema: {refusal}"}
        except Exception as error:  # anything else is a fault of toolreg's, reported as such
            return {"seq": seq, "errored": True, "context": _context(error)}
        return {"seq": seq, "results": list(_verdicts(validator, tests))}


def _verdicts(validator: toolreg.Validator, tests: Iterable[Any]) -> Iterable[dict[str, Any]]:
    for test in tests:
        try:
            instance = test["instance"]
            if validator.is_valid(instance):
                yield {"valid": True}
                continue
            # A limit toolreg holds to on purpose is no verdict: the test is skipped, saying which.
            errors = validator.validate(instance)
            [first, *_] = errors
            if len(errors) == 1 and first.keyword in ("depth", "limit") and not first.schema_path:
                yield {"skipped": True, "message": f"past toolreg's limits: {first.message}"}
            else:
                yield {"valid": False}
        except Exception as error:  # a fault of toolreg's; the other tests still get their verdicts
            yield {"errored": True, "context": _context(error)}


def _context(error: BaseException) -> dict[str, str]:
    return {"message": f"{type(error).__name__}: {error}", "traceback": traceback.format_exc()}


def serve(requests: TextIO, responses: TextIO) -> None:
    """Answer each line of ``requests`` with one line of ``responses``, flushed, until ``stop``."""
    harness = Harness()
    for line in requests:
        if not line.strip():
            continue
        response = harness.answer(read(line))
        if response is None:
            return
        try:
            text = json.dumps(response, allow_nan=False)
        except (ValueError, RecursionError):  # only the seq echoed can be what JSON cannot hold
            raise ProtocolError(f"a seq that cannot be written back as JSON: {line[:80]!r}") from None
        responses.write(text + "\n")
        responses.flush()


def read(line: str) -> Any:
    """One request line as JSON, or ProtocolError: NaN and the infinities are not JSON, an integer past
    :data:`MOST_DIGITS` is refused, and a line nested deeper than Python's stack is read all the same."""
    try:
        try:
            return json.loads(line, parse_constant=_not_json, parse_int=_integer)
        except RecursionError:
            return _read_deep(line)
    except ValueError as error:  # JSONDecodeError among them
        raise ProtocolError(f"a request that is not JSON ({error}): {line[:80]!r}") from None


def _not_json(constant: str) -> Any:
    raise ValueError(f"{constant} is not JSON")


def _integer(digits: str) -> int:
    """A JSON integer read exactly however long (up to MOST_DIGITS), a half at a time past what int()
    reads at once."""
    if len(digits) <= 4000:
        return int(digits)
    if len(digits) > MOST_DIGITS:
        raise ValueError(f"an integer of {len(digits)} digits; this harness reads at most {MOST_DIGITS}")
    if digits.startswith("-"):
        return -_integer(digits[1:])
    low = len(digits) // 2
    scale: int = 10**low
    return _integer(digits[:-low]) * scale + _integer(digits[-low:])


_SPACE = re.compile(r"[ \t\n\r]*")


def _skip(text: str, index: int) -> int:
    """The index of the first character at or after ``index`` that is not JSON's white space."""
    return _SPACE.match(text, index).end()  # type: ignore[union-attr]  # it matches the empty string


_NUMBER = re.compile(r"(-?(?:0|[1-9][0-9]*))(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_LITERALS = {"true": True, "false": False, "null": None}


def _read_deep(text: str) -> Any:
    """JSON text read as json.loads reads it, with a stack of its own rather than Python's: for a
    request nested deeper than json.loads can follow (toolreg answers such an instance with its
    depth error). Each open container is held with the name its next value goes under (in a list of
    one, changed in place as the object's members are read)."""
    stack: list[tuple[list[Any] | dict[str, Any], list[str]]] = []
    index = _skip(text, 0)
    while True:
        value, index, opened = _value_at(text, index)
        if opened is not None:
            closing = "}" if isinstance(opened, dict) else "]"
            index = _skip(text, index)
            if text.startswith(closing, index):
                value, index = opened, index + 1
            else:
                name = [""]
                if isinstance(opened, dict):
                    name[0], index = _name_at(text, index)
                stack.append((opened, name))
                continue
        while True:  # the value read goes into the container around it, which may then close
            index = _skip(text, index)
            if not stack:
                if index != len(text):
                    raise ValueError(f"extra data at character {index}")
                return value
            container, name = stack[-1]
            if isinstance(container, dict):
                container[name[0]] = value
            else:
                container.append(value)
            if text.startswith(",", index):
                index = _skip(text, index + 1)
                if isinstance(container, dict):
                    name[0], index = _name_at(text, index)
                break
            closing = "}" if isinstance(container, dict) else "]"
            if not text.startswith(closing, index):
                raise ValueError(f"expected ',' or {closing!r} at character {index}")
            value, index = container, index + 1
            stack.pop()


def _value_at(text: str, index: int) -> tuple[Any, int, list[Any] | dict[str, Any] | None]:
    """The scalar at ``index`` and the index after it, and, where a container opens there instead, that
    container, empty, as the third."""
    if text.startswith("{", index):
        return None, index + 1, {}
    if text.startswith("[", index):
        return None, index + 1, []
    if text.startswith('"', index):
        string, index = json.decoder.scanstring(text, index + 1)  # type: ignore[attr-defined]
        return string, index, None
    for literal, value in _LITERALS.items():
        if text.startswith(literal, index):
            return value, index + len(literal), None
    number = _NUMBER.match(text, index)
    if number is None:
        raise ValueError(f"no JSON value at character {index}")
    integer, fraction, exponent = number.groups()
    if fraction or exponent:
        return float(integer + (fraction or "") + (exponent or "")), number.end(), None
    return _integer(integer), number.end(), None


def _name_at(text: str, index: int) -> tuple[str, int]:
    """An object member's name at ``index`` and the index of its value, past the colon."""
    if not text.startswith('"', index):
        raise ValueError(f"expected a property name at character {index}")
    name, index = json.decoder.scanstring(text, index + 1)  # type: ignore[attr-defined]
    index = _skip(text, index)
    if not text.startswith(":", index):
        raise ValueError(f"expected ':' at character {index}")
    return name, _skip(text, index + 1)


def main() -> int:
    try:
        serve(sys.stdin, sys.stdout)
    except ProtocolError as error:
        print(f"python -m conformance.bowtie: {error}", file=sys.stderr)
        return 2
    except Exception as error:  # a fault of the harness's: one line, its own code, no traceback
        print(f"python -m conformance.bowtie: internal error: {type(error).__name__}", file=sys.stderr)
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main())
