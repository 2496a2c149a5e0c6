"""The README's examples run, in order, print what the README says, and never run a handler on bad input."""

import contextlib
import io
import json
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```(python|json|text)\n(.*?)```", README, flags=re.S)
# Arguments a model gets wrong against the tour's fs.read_file, one way each.
BAD_CALLS = [
    {},
    {"path": ""},
    {"path": 1},
    {"path": None},
    {"path": ["notes.txt"]},
    {"path": "notes.txt", "max_bytes": 0},
    {"path": "notes.txt", "max_bytes": "1024"},
    {"path": "notes.txt", "max_bytes": 1.5},
    {"path": "notes.txt", "max_bytes": True},
    {"path": "notes.txt", "mode": "fast"},
    {"Path": "notes.txt"},
    {"path": "notes.txt", "max_bytes": -1},
    {"path": "notes.txt", "max_bytes": None},
    {"path": {"name": "notes.txt"}},
    {"max_bytes": 10},
    {"path": "notes.txt", "max_bytes": float("nan")},
    {"path": ("notes.txt",)},
    {"path": b"notes.txt"},
    [],
    "notes.txt",
    None,
    {"path": "notes.txt", "path ": "x"},
]


try:
    import pydantic  # noqa: F401
except ImportError:
    HAS_PYDANTIC = False
else:
    HAS_PYDANTIC = True
try:
    import mcp  # noqa: F401
except ImportError:
    HAS_MCP = False
else:
    HAS_MCP = True


def runnable(language: str, code: str) -> bool:
    """A python block, unless it needs an extra (pydantic, mcp) that is not installed."""
    return (
        language == "python"
        and (HAS_PYDANTIC or "from pydantic" not in code)
        and (HAS_MCP or "from toolreg.mcp" not in code)
    )


def run_tour() -> tuple[dict[str, object], list[tuple[str, str]]]:
    """Every python block in order; each with what it printed."""
    namespace: dict[str, object] = {}
    printed_by_block = []
    for language, code in BLOCKS:
        if not runnable(language, code):
            continue
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(code, namespace)
        printed_by_block.append((code, printed.getvalue()))
    return namespace, printed_by_block


def test_every_python_block_prints_what_follows_it():
    namespace: dict[str, object] = {}
    checked = 0
    for index, (language, code) in enumerate(BLOCKS):
        if not runnable(language, code):
            continue
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(code, namespace)
        following = BLOCKS[index + 1] if index + 1 < len(BLOCKS) else None
        if following and following[0] == "json":
            assert json.loads(printed.getvalue()) == json.loads(following[1])
            checked += 1
        elif following and following[0] == "text":
            assert printed.getvalue() == following[1]
            checked += 1
    assert checked >= 5


HANDLER_BLOCKS = [code for language, code in BLOCKS if language == "python" and "tool.handler(" in code]


def test_the_readme_runs_handlers_only_after_a_decision():
    assert len(HANDLER_BLOCKS) >= 2
    assert all(re.search(r"^fixed = .*$", code, flags=re.M) for code in HANDLER_BLOCKS)


@pytest.mark.parametrize("block", range(len(HANDLER_BLOCKS)))
def test_no_documented_idiom_runs_a_handler_on_a_bad_call(block):
    namespace, _ = run_tour()
    real = namespace["tool"]
    ran = []
    code = re.sub(r"^fixed = .*$", "fixed = BAD", HANDLER_BLOCKS[block], flags=re.M)
    for bad in BAD_CALLS:
        spy = SimpleNamespace(name=real.name, handler=lambda *args, **kwargs: ran.append((args, kwargs)))
        with contextlib.redirect_stdout(io.StringIO()):
            exec(code, {**namespace, "tool": spy, "BAD": bad})
    assert ran == []
    # The same block with the good call runs the handler: the spy can see a call.
    good = re.search(r"^fixed = (.*)$", HANDLER_BLOCKS[block], flags=re.M)
    assert good is not None
    spy = SimpleNamespace(name=real.name, handler=lambda *args, **kwargs: ran.append((args, kwargs)))
    with contextlib.redirect_stdout(io.StringIO()):
        exec(code, {**namespace, "tool": spy, "BAD": eval(good.group(1))})
    assert ran


def test_the_agent_loop_needs_under_twenty_lines_of_glue_and_runs():
    [code] = [code for language, code in BLOCKS if language == "python" and "def run(messages" in code]
    glue = code[code.index("def run(messages") :].split("\n\n\n")[0]
    assert len([line for line in glue.splitlines() if line.strip()]) < 20
    namespace, _ = run_tour()
    messages = namespace["messages"]
    # The bad call was answered as an error, the good one ran the handler, the model then answered.
    answered = [message["content"] for message in messages[1:] if message["role"] == "user"]
    results = [block for blocks in answered for block in blocks]
    assert [result.get("is_error", False) for result in results] == [True, False]
    assert results[1]["content"] == "(the first 65536 bytes of a.txt)"


# One tool call of each format, as the stand-in model sends it: (the call, its text and error flag read
# back from the answer).
FORMATS = {
    "openai": (
        lambda id_, args: {
            "id": id_,
            "type": "function",
            "function": {"name": "fs-read_file", "arguments": json.dumps(args)},
        },
        lambda answer: (answer["content"], None),
    ),
    "openai-responses": (
        lambda id_, args: {
            "type": "function_call",
            "call_id": id_,
            "name": "fs-read_file",
            "arguments": json.dumps(args),
        },
        lambda answer: (answer["output"], None),
    ),
    "anthropic": (
        lambda id_, args: {"type": "tool_use", "id": id_, "name": "fs-read_file", "input": args},
        lambda answer: (answer["content"], answer.get("is_error", False)),
    ),
    "gemini": (
        lambda id_, args: {"functionCall": {"name": "fs.read_file", "args": args, "id": id_}},
        lambda answer: (
            answer["functionResponse"]["response"].get(
                "error", answer["functionResponse"]["response"].get("result")
            ),
            "error" in answer["functionResponse"]["response"],
        ),
    ),
    "mcp": (
        lambda id_, args: {"name": "fs.read_file", "arguments": args},
        lambda answer: (answer["content"][0]["text"], answer["isError"]),
    ),
}


@pytest.mark.parametrize("provider", sorted(FORMATS))
def test_the_agent_loop_runs_unchanged_over_every_format(provider):
    namespace, _ = run_tour()
    call, read = FORMATS[provider]
    namespace["replies"] = iter(
        [
            {"content": [call("u1", {"path": ""})]},
            {"content": [call("u2", {"path": "a.txt"}), call("u3", {"path": "b.txt", "mode": "fast"})]},
            {"content": [{"type": "text", "text": "done"}]},
        ]
    )
    messages = [{"role": "user", "content": "What does a.txt start with?"}]
    assert namespace["run"](messages, provider) == "done"
    answers = [
        read(answer) for message in messages[1:] if message["role"] == "user" for answer in message["content"]
    ]
    texts, errors = zip(*answers, strict=True)
    assert texts[1] == "(the first 65536 bytes of a.txt)"
    assert "at /path: must be at least 1 character long" in texts[0]
    assert 'must not have the property "mode"' in texts[2]
    if provider.startswith("openai"):
        assert errors == (None, None, None)  # OpenAI has no error flag: the text says it
        assert "fs-read_file" in texts[0]
    else:
        assert errors == (True, False, True)
