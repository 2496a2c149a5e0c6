"""What a schema is compiled with: its limits, the documents a ``$ref`` may name, and whether formats
are asserted, as one value, made where a caller gives them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .limits import DEFAULT_LIMITS, Limits, LimitsLike, as_limits
from .record import Record

__all__ = ["Settings"]


class Settings(Record):
    """The settings of one compilation, each as :func:`toolreg.compile` takes it: ``limits`` (see
    :class:`~toolreg.Limits`); ``documents``, the URIs and schemas a ``$ref`` may name outside the
    schema, as the caller gave them (compiling reads them, and refuses them if they are not a
    mapping of URIs to schemas); ``assert_formats``, whether ``format`` asserts the formats toolreg
    knows."""

    # Compared, shown and frozen as a frozen dataclass would be (see record.Record).
    __slots__ = ("limits", "documents", "assert_formats")

    limits: Limits
    documents: Mapping[str, Any] | None
    assert_formats: bool

    def __init__(
        self,
        limits: Limits = DEFAULT_LIMITS,
        documents: Mapping[str, Any] | None = None,
        assert_formats: bool = False,
    ) -> None:
        # Each field by its own setter rather than through fill, whose loop costs several times as much:
        # a registry makes one for each schema it compiles.
        set_limits, set_documents, set_assert_formats = self._setters
        set_limits(self, limits)
        set_documents(self, documents)
        set_assert_formats(self, assert_formats)

    @classmethod
    def given(
        cls,
        limits: LimitsLike = DEFAULT_LIMITS,
        documents: Mapping[str, Any] | None = None,
        assert_formats: bool = False,
    ) -> Settings:
        """The settings as the public entry points take them: ``limits`` a Limits or a mapping of some
        of its fields (LimitsError otherwise)."""
        return cls(as_limits(limits), documents, assert_formats)
