"""The command line: ``toolreg check``, ``toolreg validate`` and ``toolreg export`` on a catalog file,
``toolreg serve`` for a module's registry over MCP, ``toolreg replay`` on logs of tool calls,
``toolreg diff`` on two versions of a catalog, ``toolreg openapi`` on an OpenAPI document, and
``toolreg guard`` in front of another MCP server.

Exit codes: 0 valid (or every tool accepted, or nothing for ``diff`` to fail on, or a server that
stopped: its client left, or Ctrl-C), 1 invalid (or some tool refused, or tools ``export`` cannot
write in the form asked for, ``--strict`` say, or a change ``diff --fail-on`` fails on), 2 bad input
(the command line, a file, its JSON, a module ``serve`` cannot import), 3 an internal error. Nothing
read from a file reaches the terminal unescaped, and no input gets a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from typing import Any

from ._errors import ExportError
from ._feedback import format_errors, printable
from ._jsonschema.errors import ErrorFact, ToolregError, ValidationError
from ._jsonschema.limits import DEFAULT_LIMITS
from ._jsonschema.output import TooLarge, bounded_json
from ._lifecycle import diff_command
from ._lifecycle import replay as replay_command
from ._lifecycle.catalogs import CatalogError, parse_json, read_catalog_file, read_text
from ._providers import PROVIDERS
from ._providers.mcp import import_mcp
from ._toolregistry import ToolRegistry
from ._version import __version__

__all__ = ["main"]


VALID, INVALID, BAD_INPUT, INTERNAL_ERROR = 0, 1, 2, 3


class _Refused(Exception):
    """Bad input on the command line: the message says what and where."""


def _json_text(text: str, what: str) -> Any:
    """Parse JSON, or say why not: bad syntax, nesting Python cannot follow, numbers too long."""
    try:
        return parse_json(text, what)
    except CatalogError as error:
        raise _Refused(str(error)) from None


def _read_text(path: str) -> str:
    try:
        return read_text(path)
    except CatalogError as error:
        raise _Refused(str(error)) from None


def _no_handler(**arguments: Any) -> None:
    raise RuntimeError("the command line never calls a tool")


def _read_catalog(path: str) -> list[dict[str, Any]]:
    """A catalog in any form ``toolreg._lifecycle.catalogs`` reads, as MCP entries."""
    try:
        return read_catalog_file(path)
    except CatalogError as error:
        raise _Refused(str(error)) from None


def _load(path: str) -> tuple[ToolRegistry, Any]:
    registry = ToolRegistry()
    report = import_mcp(registry, _read_catalog(path), lambda tool: _no_handler)
    return registry, report


# What a command prints on standard output (None: nothing), and its exit code.
_Outcome = tuple[str | None, int]


def _check(options: argparse.Namespace) -> _Outcome:
    _, report = _load(options.catalog)
    lines = []
    for foreign, name in report.registered.items():
        shown = foreign if foreign == name else f"{foreign} (as {name})"
        lines.append(printable(f"accepted {shown}"))
    for refusal in report.refused:
        where = f" at {refusal.schema_path!r}" if refusal.schema_path else ""
        lines.append(printable(f"refused  {refusal.name}: {refusal.reason}{where}"))
    lines.append(f"{len(report.registered)} accepted, {len(report.refused)} refused")
    return "\n".join(lines), INVALID if report.refused else VALID


def _arguments(text: str) -> Any:
    if text.startswith("@"):
        text = _read_text(text[1:])
    return _json_text(text, "the arguments")


def _validate(options: argparse.Namespace) -> _Outcome:
    registry, report = _load(options.catalog)
    name = report.registered.get(options.tool, options.tool)
    if name not in registry:
        refused = {refusal.name: refusal for refusal in report.refused}
        if options.tool in refused:
            raise _Refused(f"tool {options.tool!r} is refused: {refused[options.tool].reason}")
        raise _Refused(
            f"no tool {options.tool!r} in {options.catalog}; it has {', '.join(report.registered) or 'none'}"
        )
    errors = registry.validate(name, _arguments(options.args))
    if options.json:
        text = _errors_json(errors)
    else:
        text = format_errors(errors, tool=options.tool).text if errors else "valid"
    return text, INVALID if errors else VALID


def _errors_json(errors: Sequence[ValidationError]) -> str:
    """The errors as ASCII JSON (nothing from the call can reach the terminal as a control character),
    each as ``to_dict`` gives it, written a piece at a time; past ``Limits.max_output_bytes`` (errors
    deep in long names repeat them in every pointer), one ``limit`` error instead."""
    most = DEFAULT_LIMITS.max_output_bytes
    try:
        return bounded_json([ErrorFact(error) for error in errors], most, indent=2)
    except TooLarge:
        message = (
            f"the {len(errors)} errors would pass {most} bytes of JSON text (max_output_bytes); "
            "run without --json for the first of them"
        )
        limit = {"path": "", "schema_path": "", "keyword": "limit", "message": message, "limit": most}
        return json.dumps([limit], indent=2)


def _export(options: argparse.Namespace) -> _Outcome:
    strict_ones = [name for name, known in PROVIDERS.items() if known.strict_form]
    if options.strict and options.to not in strict_ones:
        raise _Refused(f"--strict is OpenAI's strict form: --to {' or '.join(strict_ones)}")
    if options.omit_unsupported and not options.strict:
        raise _Refused("--omit-unsupported goes with --strict")
    registry, report = _load(options.catalog)
    for refusal in report.refused:
        print(printable(f"skipped {refusal.name}: {refusal.reason}"), file=sys.stderr)
    try:
        exported = registry.export(
            options.to, strict=options.strict, omit_unsupported=options.omit_unsupported
        )
    except ExportError as error:  # the catalog was read; its tools cannot take the form asked for
        print(f"toolreg: {printable(str(error))}", file=sys.stderr)
        return None, INVALID
    except ToolregError as error:
        raise _Refused(str(error)) from None
    return json.dumps(exported, indent=2, ensure_ascii=True), INVALID if report.refused else VALID


def _registry_in(spec: str) -> ToolRegistry:
    """The registry ``MODULE:NAME`` (or ``FILE.py:NAME``) names, or the one ToolRegistry among the
    module's globals."""
    source, name = _split_spec(spec)
    module = _imported_file(source) if source.endswith(".py") else _imported_module(source)
    if name:
        found = getattr(module, name, None)
        if not isinstance(found, ToolRegistry):
            raise _Refused(f"{spec} is not a ToolRegistry but {type(found).__name__}")
        return found
    registries = [value for value in vars(module).values() if isinstance(value, ToolRegistry)]
    if len(registries) != 1:
        raise _Refused(f"{source} holds {len(registries)} ToolRegistry objects; name one: {source}:NAME")
    return registries[0]


def _split_spec(spec: str) -> tuple[str, str]:
    """``MODULE:NAME`` or ``FILE.py:NAME`` as its module or file and its name (``""`` when none); a
    path ending in ``.py`` is a file whole, whatever colons it holds (``C:\\tools.py``)."""
    if spec.endswith(".py"):
        return spec, ""
    source, colon, name = spec.rpartition(":")
    return (source, name) if colon else (spec, "")


def _imported_module(module_name: str) -> Any:
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())  # as `python -m` finds a module
    try:
        return importlib.import_module(module_name)
    except Exception as error:  # the module's own code raised: say what, in one line
        raise _Refused(f"cannot import {module_name}: {type(error).__name__}: {error}") from None


def _imported_file(path: str) -> Any:
    """The module a ``.py`` file holds, run from its path as ``python FILE`` would, its folder first
    on ``sys.path`` so that it imports its neighbours."""
    if not os.path.isfile(path):
        raise _Refused(f"cannot import {path}: no such file")
    stem = os.path.splitext(os.path.basename(path))[0]
    # A file named as a module already loaded (json.py, mcp.py) must not take its place.
    module_name = stem if stem.isidentifier() and stem not in sys.modules else "_toolreg_served"
    folder = os.path.dirname(os.path.abspath(path))
    if folder not in sys.path:
        sys.path.insert(0, folder)
    try:
        spec = importlib.util.spec_from_file_location(module_name, path)
        assert spec is not None and spec.loader is not None  # a path ending in .py always has one
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module  # as an import would: dataclasses and pickling look it up
        spec.loader.exec_module(module)
    except Exception as error:  # the file's own code raised, or it is no Python: one line
        sys.modules.pop(module_name, None)
        raise _Refused(f"cannot import {path}: {type(error).__name__}: {error}") from None
    return module


def _serve(options: argparse.Namespace) -> _Outcome:
    try:
        from .mcp import serve
    except ImportError as error:  # the mcp extra is not installed: the message says how to get it
        raise _Refused(str(error)) from None
    registry = _registry_in(options.module)
    source = _split_spec(options.module)[0]
    if source.endswith(".py"):
        source = os.path.splitext(os.path.basename(source))[0]
    name = options.name or source
    try:
        serve(registry, options.transport, name=name, host=options.host, port=options.port, path=options.path)
    except (OSError, ToolregError) as error:  # the port is taken, the host unknown...
        raise _Refused(f"cannot serve {options.module}: {error}") from None
    except KeyboardInterrupt:  # Ctrl-C: the server was asked to stop, and has
        pass
    # The client left (stdio) or the server was stopped: nothing to print, stdout was the protocol's.
    return None, VALID


def _replay(options: argparse.Namespace) -> _Outcome:
    try:
        return replay_command.run_command(options)
    except ToolregError as error:  # a catalog that cannot be read, a bad option
        raise _Refused(str(error)) from None


def _diff(options: argparse.Namespace) -> _Outcome:
    try:
        return diff_command.run_command(options)
    except ToolregError as error:  # a catalog or schema refused, a search without its packages
        raise _Refused(str(error)) from None


def _openapi(options: argparse.Namespace) -> _Outcome:
    from ._openapi import command as openapi_command

    try:
        return openapi_command.run_command(options)
    except ToolregError as error:  # a file that cannot be read, no OpenAPI 3 document, a bad --base-url
        raise _Refused(str(error)) from None


def _guard(options: argparse.Namespace) -> _Outcome:
    try:
        from ._guard import GuardOptions, run
    except ImportError as error:  # the mcp extra is not installed: the message says how to get it
        raise _Refused(str(error)) from None
    command = options.upstream[1:] if options.upstream[:1] == ["--"] else options.upstream
    if bool(command) == bool(options.upstream_url):
        raise _Refused(
            "guard needs the upstream server's command after -- (toolreg guard -- CMD ARGS...), "
            "or --upstream URL, not both"
        )
    if options.pin_strict and options.pin is None:
        raise _Refused("--pin-strict needs --pin FILE")
    guard = GuardOptions(
        tuple(command),
        options.pass_refused,
        options.repair,
        options.record,
        options.pin,
        options.pin_strict,
        options.upstream_url,
    )
    try:
        run(guard)
    except (OSError, ToolregError) as error:  # the command cannot start, a file cannot be written
        upstream = options.upstream_url or command[0]
        raise _Refused(f"cannot guard {printable(upstream)}: {error}") from None
    except KeyboardInterrupt:
        pass
    return None, VALID


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="toolreg",
        description="Check, compare and export tool catalogs, validate a call, replay logged calls, "
        "and serve or guard tools over MCP.",
        epilog="A catalog is an MCP tools/list result, a JSON list of tools (MCP, OpenAI Chat or Responses, "
        "Anthropic, Gemini functionDeclarations), or JSONL with one tool a line; a tool's schema may be "
        "called inputSchema, input_schema, parameters, parametersJsonSchema or schema.",
    )
    parser.add_argument("--version", action="version", version=f"toolreg {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    check = commands.add_parser(
        "check", help="report each tool accepted or refused (exit 1 if any is refused)"
    )
    check.add_argument("catalog", help="a .json or .jsonl catalog")
    check.set_defaults(run=_check)
    validate = commands.add_parser("validate", help="validate one call's arguments (exit 1 if invalid)")
    validate.add_argument("catalog", help="a .json or .jsonl catalog")
    validate.add_argument("tool", help="the tool's name, as the catalog gives it")
    validate.add_argument("args", help="the arguments as JSON text, or @FILE")
    validate.add_argument("--json", action="store_true", help="print the errors as JSON, not as text")
    validate.set_defaults(run=_validate)
    export = commands.add_parser("export", help="print the catalog in a provider's tool format")
    export.add_argument("catalog", help="a .json or .jsonl catalog")
    export.add_argument("--to", required=True, choices=sorted(PROVIDERS), help="the provider")
    export.add_argument(
        "--strict", action="store_true", help="OpenAI's strict form (--to openai or openai-responses)"
    )
    export.add_argument(
        "--omit-unsupported",
        action="store_true",
        help="with --strict: leave out what strict mode cannot express, listed in each description",
    )
    export.set_defaults(run=_export)
    serve = commands.add_parser("serve", help="serve a module's ToolRegistry over MCP (the mcp extra)")
    serve.add_argument(
        "module", help="MODULE or FILE.py, importable from here, or either :NAME, where NAME is the registry"
    )
    serve.add_argument("--transport", default="stdio", choices=["stdio", "streamable-http"])
    serve.add_argument("--host", default="127.0.0.1", help="streamable-http: the address to listen on")
    serve.add_argument(
        "--port", type=int, default=8000, help="streamable-http: the port (0 takes a free one)"
    )
    serve.add_argument("--path", default="/mcp", help="streamable-http: the endpoint's path")
    serve.add_argument("--name", help="the server's name for clients (default: the module's)")
    serve.set_defaults(run=_serve)
    replay = commands.add_parser(
        "replay", help="replay logged tool calls on the validator: valid, invalid, first try, repairs"
    )
    replay_command.add_arguments(replay)
    replay.set_defaults(run=_replay)
    compare = commands.add_parser(
        "diff", help="compare two catalogs: breaking changes with verified witnesses (exit 1 per --fail-on)"
    )
    diff_command.add_arguments(compare)
    compare.set_defaults(run=_diff)
    openapi = commands.add_parser(
        "openapi", help="what an OpenAPI document would register: tools, refusals (exit 1 if any), changes"
    )
    openapi.add_argument("spec", help="an OpenAPI 3 document: .json, or .yaml/.yml with PyYAML installed")
    openapi.add_argument("--base-url", help="the API's address, shown before each path")
    openapi.set_defaults(run=_openapi)
    guard = commands.add_parser(
        "guard", help="serve an MCP server's tools over stdio, every call and result checked (the mcp extra)"
    )
    guard.add_argument(
        "--upstream", dest="upstream_url", metavar="URL", help="a streamable-HTTP upstream, not a command"
    )
    guard.add_argument("--pass-refused", action="store_true", help="list tools toolreg refuses, unchecked")
    guard.add_argument("--repair", action="store_true", help="repair calls one way only")
    guard.add_argument("--record", metavar="FILE", help="append the traffic as JSON-RPC")
    guard.add_argument("--pin", metavar="FILE", help="pin the upstream's tools in FILE; report later changes")
    guard.add_argument("--pin-strict", action="store_true", help="withhold tools changed for the worse")
    guard.add_argument("upstream", nargs=argparse.REMAINDER, help="-- CMD ARGS...: the upstream server")
    guard.set_defaults(run=_guard)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    options = _parser().parse_args(argv)  # a usage error exits 2, as bad input
    try:
        text, code = options.run(options)
    except _Refused as error:
        print(f"toolreg: {printable(str(error))}", file=sys.stderr)
        return BAD_INPUT
    except Exception as error:  # a bug of toolreg's: one line, its own exit code, no traceback
        print(f"toolreg: internal error: {type(error).__name__}: {printable(str(error))}", file=sys.stderr)
        return INTERNAL_ERROR
    try:
        if text is not None:
            print(text, flush=True)
    except BrokenPipeError:
        # The reader took what it wanted and went away (| head): the command's answer stands.
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - Python flushes stdout at exit
    return int(code)


if __name__ == "__main__":
    sys.exit(main())
