"""The README's examples run, in order, and print what the README says they print."""

import contextlib
import io
import json
import re
from pathlib import Path

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```(python|json|text)\n(.*?)```", README, flags=re.S)


def test_every_python_block_prints_what_follows_it():
    namespace: dict[str, object] = {}
    checked = 0
    for index, (language, code) in enumerate(BLOCKS):
        if language != "python":
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
    assert checked >= 4
