"""The README's example runs and prints what the README says it prints."""

import contextlib
import io
import json
import re
from pathlib import Path

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")


def test_example_prints_what_the_readme_shows():
    code, shown = re.findall(r"```(?:python|json)\n(.*?)```", README, flags=re.S)[:2]
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(code, {})
    assert json.loads(printed.getvalue()) == json.loads(shown)
