"""A walk of a large value run where CPython's frame stack cannot thrash: in a fresh stretch of it.

CPython 3.11 and 3.12 keep Python frames in a linked list of "chunks" (16 KB normally). A call that
does not fit in what is left of the current chunk maps a new one, and the return of the frame that
opened it unmaps it again at once. A loop whose per-item call sits just past a chunk's end therefore
maps and unmaps memory for every item (about 8 us and a page fault each, where the item's check takes
0.1 to 3 us), and how deep a walk's loop sits is the argument's to choose: an array nested 29 levels
deep took 1.4 s to check where 28 or 30 take 0.03 s. (CPython 3.13.13 and 3.14.4 keep one spare chunk
per thread, gh-142183, which ends the thrash there.)

No rule placed inside the walk can know where the chunk ends, since that depends on how deep the
caller already was. What is known is what happens at a call whose frame does not fit: the new chunk
is sized to the frame, the first power of two past the frame and a 1,000-slot margin. A frame of
``2**k - 999`` slots (whose slots above its few locals are value stack, which CPython never writes
until used) so gets a chunk of ``2**(k+1)`` slots, and the ``2**k`` left past it hold every frame of
any walk toolreg makes: :func:`with_room` calls its function through such a frame, and then no call
of the walk can meet a chunk's end. It costs one map and unmap (about 7 us), so it is for values of
:data:`ROOMY_VALUES` or more only, where the walk itself costs more than ten times that; a smaller
value can thrash at most a few hundred times (a few milliseconds).
"""

from __future__ import annotations

import sys
import types
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["ROOMY_VALUES", "ROOM_SLOTS", "SHALLOW_LEVELS", "chunked_stack", "with_room"]

T = TypeVar("T")

# The values from which a walk runs with room: below it the thrash is at most a few hundred maps
# (each value makes a few calls), and a map costs about what the reference walk spends on three
# values, so the room would cost more than it can save.
ROOMY_VALUES = 256

# How deep the generated code's first walk of a value goes: past it, or past ROOMY_VALUES items in its
# loops, it walks again from the top with room (see fast.codegen). A tool's arguments are rarely 8
# levels deep, and a walk that shallow and that short can thrash only a bounded number of times.
SHALLOW_LEVELS = 8

# The slots (8 bytes each) left past the big frame: 2**17 slots, 1 MB, hold 1,000 frames (Python's
# default recursion limit, which a walk does not pass) of up to 131 slots; a walk's frames take 10 to
# 60. The chunk is 2 MB of address space, of which only the pages the walk reaches are ever touched.
ROOM_SLOTS = 2**17

# CPython's margin past a new chunk's first frame (MINIMUM_OVERHEAD in Python/pystate.c).
_MARGIN = 1000

# Whether this interpreter's frames live in chunks freed as soon as they empty, and the room is taken:
# CPython 3.11, 3.12 and 3.13 before 3.13.13, where it is measured (3.13.0 by tests/jsonschema/
# test_chunks.py, which fails there without the room). 3.13.13 and 3.14.4 keep a spare chunk; the
# releases of 3.14 before 3.14.4 do not, and are left as they are: their frames are not measured.
chunked_stack = sys.implementation.name == "cpython" and (
    sys.version_info[:2] in ((3, 11), (3, 12)) or (3, 13) <= sys.version_info[:3] < (3, 13, 13)
)


def _call(run: Callable[[], Any]) -> Any:
    return run()


def _big_frame(slots: int) -> Callable[[Callable[[], T]], T]:
    """``_call`` with a frame of ``slots`` slots: its code says it needs that much value stack."""
    code = _call.__code__
    # The locals, the frame's fixed part (nine slots in 3.11 and 3.12) and the value stack together.
    stack = slots - code.co_nlocals - 9
    function = types.FunctionType(code.replace(co_stacksize=stack), _call.__globals__, "_with_room")
    return function  # the same code with more stack: the same signature


# A few slots past the power of two, so that a frame's fixed part a slot or two larger in another
# release still asks for the chunk twice the room's size, not one the size of the room.
_with_room = _big_frame(ROOM_SLOTS - _MARGIN + 8)


def with_room(run: Callable[[], T]) -> T:
    """``run()``, its frames in a fresh chunk with :data:`ROOM_SLOTS` slots to spare (see above); called
    directly where the stack does not thrash. A walk with room that hands its value to another (the
    generated code to the reference walk) gives that one a fresh chunk of its own: a few such hand-overs
    at most, each a map and 2 MB of address space, where remembering that a thread has room would take
    state of the thread's."""
    return _with_room(run) if chunked_stack else run()
