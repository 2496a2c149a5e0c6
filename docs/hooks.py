"""The docs site's build hooks: repository files as pages, their links, and Sphinx roles as links.

The pages in docs/ link to the repository's own files as a Git viewer reads them (`../CHANGELOG.md`,
`../bench/results.png`); the site publishes those files under names of its own and points the links
there. Docstrings keep the Sphinx roles that ``help()`` shows; on the site each becomes a link.
"""

from __future__ import annotations

import posixpath
import re
from functools import partial
from pathlib import Path
from typing import Any

import griffe
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

CHECKOUT = Path(__file__).resolve().parent.parent
# Repository files the site publishes: where each stands in the checkout, and where on the site.
PUBLISHED = {
    "CHANGELOG.md": "changelog.md",
    "CONTRIBUTING.md": "contributing.md",
    "bench/results.png": "bench/results.png",
}
# The target of an inline Markdown link or image, up to a fragment: [text](target#fragment).
LINK = re.compile(r"\]\((?P<target>[^)#\s]+)")
# :class:`~toolreg.Ok`, :meth:`masked`, :data:`WALKED_VALUES`: the roles toolreg's docstrings use.
ROLE = re.compile(r":(?:class|func|meth|attr|data|exc|mod|obj):`(?P<short>~?)\.?(?P<name>[\w.]+)`")


def on_files(files: Files, config: MkDocsConfig) -> Files:
    for source, published in PUBLISHED.items():
        path = CHECKOUT / source
        if published.endswith(".md"):
            files.append(File.generated(config, published, content=path.read_text(encoding="utf-8")))
        else:
            files.append(File.generated(config, published, abs_src_path=str(path)))
    return files


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Each link to a repository file, as written for a Git viewer, points where the site has it."""
    # A page from docs/ stands in docs/ in the checkout; a published file stands where it is.
    published_from = {page: source for source, page in PUBLISHED.items()}
    stands_in = posixpath.dirname(published_from.get(page.file.src_uri, "docs/" + page.file.src_uri))

    def retarget(link: re.Match[str]) -> str:
        target = link["target"]
        if ":" in target or target.startswith("/"):
            return link[0]  # another site, or an absolute path
        in_checkout = posixpath.normpath(posixpath.join(stands_in, target))
        if in_checkout in PUBLISHED:
            on_site = PUBLISHED[in_checkout]
        elif in_checkout.startswith("docs/"):
            on_site = in_checkout.removeprefix("docs/")
        else:
            return link[0]  # left for the build to report
        return "](" + posixpath.relpath(on_site, posixpath.dirname(page.file.src_uri) or ".")

    return LINK.sub(retarget, markdown)


class SphinxRoles(griffe.Extension):
    """Each Sphinx role in a docstring becomes a link to what it names, or code where the site has no
    entry for it (a private module's constant)."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        for obj in _everything(pkg):
            if obj.docstring is not None:
                obj.docstring.value = ROLE.sub(partial(_link, obj), obj.docstring.value)


def _everything(obj: griffe.Object) -> list[griffe.Object]:
    """The object and every object it holds, re-exports (aliases) left to where they are defined."""
    found = [obj]
    for member in obj.members.values():
        if isinstance(member, griffe.Object):
            found += _everything(member)
    return found


def _link(obj: griffe.Object, role: re.Match[str]) -> str:
    name = role["name"]
    shown = name.rsplit(".", 1)[-1] if role["short"] else name
    scope = obj if obj.is_module or obj.is_class or obj.parent is None else obj.parent
    try:
        target = scope.resolve(name)
    except griffe.NameResolutionError:
        target = name
    # optional: where no page holds the target, autorefs writes the code alone, without a warning.
    return f'<autoref identifier="{target}" optional>`{shown}`</autoref>'
