"""The README's and the docs pages' examples run, in order page by page, print what each page says
they print, and never run a handler on bad input; their links lead to files that exist."""

import ast
import contextlib
import io
import json
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

import toolreg

ROOT = Path(__file__).resolve().parent.parent
PAGES = ["README.md", *sorted(f"docs/{page.name}" for page in (ROOT / "docs").glob("*.md"))]
# A fenced block: its info string ("python", "python no-run", "text"...) and its code.
FENCE = re.compile(r"^```(?P<info>[^\n`]*)\n(?P<code>.*?)^```$", flags=re.S | re.M)
# The target of an inline Markdown link or image, up to a fragment.
LINK = re.compile(r"\]\((?P<target>[^)#\s]+)")


def blocks(page: str) -> list[tuple[str, str]]:
    """Each fenced block of a page, in order: (its info string, its code)."""
    text = (ROOT / page).read_text(encoding="utf-8")
    return [(match["info"].strip(), match["code"]) for match in FENCE.finditer(text)]


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
try:
    import httpx  # noqa: F401
except ImportError:
    HAS_HTTPX = False
else:
    HAS_HTTPX = True


def runnable(info: str, code: str) -> bool:
    """A python block not marked no-run, unless it needs an extra (pydantic, mcp, openapi's httpx) that is
    not installed."""
    words = info.split()
    return (
        words[:1] == ["python"]
        and "no-run" not in words
        and (HAS_PYDANTIC or "from pydantic" not in code)
        and (HAS_MCP or ("from toolreg.mcp" not in code and "from mcp" not in code))
        and (HAS_HTTPX or "import httpx" not in code)
    )


def run_page(page: str) -> dict[str, object]:
    """Every runnable python block of a page, in order, in one namespace; the namespace after them."""
    namespace: dict[str, object] = {}
    for number, (info, code) in enumerate(blocks(page)):
        if runnable(info, code):
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile(code, f"{page}, block {number}", "exec"), namespace)
    return namespace


@pytest.mark.parametrize("page", PAGES)
def test_every_python_block_prints_what_follows_it(page):
    namespace: dict[str, object] = {}
    page_blocks = blocks(page)
    checked = 0
    for number, (info, code) in enumerate(page_blocks):
        if not runnable(info, code):
            continue
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(code, f"{page}, block {number}", "exec"), namespace)
        following = page_blocks[number + 1][0] if number + 1 < len(page_blocks) else None
        assert following in ("json", "text"), f"{page}, block {number}: no output block follows it"
        if following == "json":
            assert json.loads(printed.getvalue()) == json.loads(page_blocks[number + 1][1])
        else:
            assert printed.getvalue() == page_blocks[number + 1][1]
        checked += 1
    assert checked == sum(runnable(info, code) for info, code in page_blocks)


@pytest.mark.parametrize("page", PAGES)
def test_every_python_block_is_python_a_reader_can_copy(page):
    """The blocks the tests do not run (no-run, or an extra missing) parse as a whole script too."""
    unreadable = []
    for number, (info, code) in enumerate(blocks(page)):
        if info.split()[:1] == ["python"]:
            try:
                ast.parse(code)
            except SyntaxError as error:
                unreadable.append(f"{page}, block {number}: {error}")
    assert unreadable == []


def test_the_readme_and_the_pages_hold_examples():
    examples = {page: sum(runnable(info, code) for info, code in blocks(page)) for page in PAGES}
    assert examples["README.md"] >= 2 and examples["docs/tour.md"] >= 5
    assert sum(examples.values()) >= 15


@pytest.mark.parametrize("page", PAGES)
def test_every_link_leads_to_a_file_of_the_checkout(page):
    folder = (ROOT / page).parent
    for target in LINK.findall((ROOT / page).read_text(encoding="utf-8")):
        if ":" not in target:
            assert (folder / target).resolve().is_file(), f"{page} links to {target}, which is not there"


def test_the_api_reference_shows_every_public_name_once():
    reference = (ROOT / "docs/reference.md").read_text(encoding="utf-8")
    shown = re.findall(r"^::: (\S+)$", reference, flags=re.M)
    # toolreg.mcp's names read from its source: importing it needs the mcp extra.
    mcp_module = ast.parse((ROOT / "toolreg/mcp.py").read_text(encoding="utf-8"))
    [mcp_all] = [
        ast.literal_eval(node.value)
        for node in mcp_module.body
        if isinstance(node, ast.Assign) and [ast.unparse(target) for target in node.targets] == ["__all__"]
    ]
    public = [f"toolreg.{name}" for name in toolreg.__all__] + [f"toolreg.mcp.{name}" for name in mcp_all]
    assert sorted(shown) == sorted(public)


# Each example that runs a handler by hand, with its page: (page, code).
HANDLER_BLOCKS = [
    (page, code)
    for page in PAGES
    for info, code in blocks(page)
    if runnable(info, code) and "tool.handler(" in code
]


def test_the_docs_run_handlers_only_after_a_decision():
    assert len(HANDLER_BLOCKS) >= 2
    assert all(re.search(r"^fixed = .*$", code, flags=re.M) for _, code in HANDLER_BLOCKS)


@pytest.mark.parametrize("block", range(len(HANDLER_BLOCKS)))
def test_no_documented_idiom_runs_a_handler_on_a_bad_call(block):
    page, example = HANDLER_BLOCKS[block]
    namespace = run_page(page)
    real = namespace["tool"]
    ran = []
    code = re.sub(r"^fixed = .*$", "fixed = BAD", example, flags=re.M)
    for bad in BAD_CALLS:
        spy = SimpleNamespace(name=real.name, handler=lambda *args, **kwargs: ran.append((args, kwargs)))
        with contextlib.redirect_stdout(io.StringIO()):
            exec(code, {**namespace, "tool": spy, "BAD": bad})
    assert ran == []
    # The same block with the good call runs the handler: the spy can see a call.
    good = re.search(r"^fixed = (.*)$", example, flags=re.M)
    assert good is not None
    spy = SimpleNamespace(name=real.name, handler=lambda *args, **kwargs: ran.append((args, kwargs)))
    with contextlib.redirect_stdout(io.StringIO()):
        exec(code, {**namespace, "tool": spy, "BAD": eval(good.group(1))})
    assert ran


TOUR = "docs/tour.md"


def test_the_agent_loop_needs_under_twenty_lines_of_glue_and_runs():
    [code] = [code for info, code in blocks(TOUR) if runnable(info, code) and "def run(messages" in code]
    glue = code[code.index("def run(messages") :].split("\n\n\n")[0]
    assert len([line for line in glue.splitlines() if line.strip()]) < 20
    namespace = run_page(TOUR)
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
    namespace = run_page(TOUR)
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
