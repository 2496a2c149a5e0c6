"""A harness for Bowtie, speaking its IHOP protocol on stdin and stdout: ``python -m conformance.bowtie``.

Bowtie (the JSON Schema community's tool for comparing implementations) sends one JSON request per
line and reads one JSON response per line: ``start``, ``dialect``, one ``run`` per test case, and
``stop``. The harness answers each ``run`` with toolreg's verdict for every instance (``flag``
output). A schema toolreg refuses on purpose (an unknown keyword, ``dependencies`` outside draft-07,
a pattern it will not run ...) is a case ``skipped`` with toolreg's reason, not an error.
"""

from __future__ import annotations

import json
import platform
import sys
import traceback
from collections.abc import Iterable, Mapping
from importlib import metadata
from pathlib import Path
from typing import Any, TextIO

import toolreg
from toolreg._jsonschema.vocabulary import DEFAULT_DIALECT, DIALECTS

from ._official import DIALECT_FOLDERS

__all__ = ["DIALECTS_SPOKEN", "ProtocolError", "Harness", "implementation", "main"]

# The dialects toolreg validates, as Bowtie names them.
DIALECTS_SPOKEN = tuple(uri for _, uri in DIALECT_FOLDERS.values())


class ProtocolError(ValueError):
    """A request the protocol does not allow: an unknown command, a missing field, a run before start."""


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
            yield {"valid": validator.is_valid(test["instance"])}
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
        try:
            request = json.loads(line)
        except json.JSONDecodeError as error:
            raise ProtocolError(f"a request that is not JSON ({error}): {line[:80]!r}") from None
        response = harness.answer(request)
        if response is None:
            return
        responses.write(json.dumps(response) + "\n")
        responses.flush()


def main() -> int:
    try:
        serve(sys.stdin, sys.stdout)
    except ProtocolError as error:
        print(f"python -m conformance.bowtie: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
