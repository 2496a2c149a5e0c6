"""A walk that ran out of its caller's stack, run again on a thread with a stack of its own.

The reference walk, the generated code and the standard output each take a few Python frames for
each level of the instance (about 600 for a value ``max_depth`` deep through a union at each level),
so whether a deep value fits depended on how deep the caller already was: a valid argument 122
levels deep was refused from a shallow caller, and one 98 deep from a caller 200 frames down. Rather
than change Python's recursion limit, which belongs to the whole process and which another thread
may be relying on (or changing) at the same moment, a walk that runs out goes on in a new thread,
whose frames start from none: its verdict then depends on Python's limit alone, never on the
caller's depth. The thread is started only once a walk has run out, joined at once, and holds
nothing afterwards, so a shallow call pays nothing for it.
"""

from __future__ import annotations

import _thread
import threading
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["on_own_stack", "on_a_stack_of_its_own"]

# The C stack the thread gets. Since CPython 3.11 a Python frame lives on the heap: the C stack only
# holds calls that pass through C (a builtin calling back into Python), a few kilobytes each at most
# (a walk 128 levels deep, 600 frames, fits in 256 KB). Twice the 8 MB Linux gives the main thread,
# which CPython's own bound on such calls is sized for, so the thread is never the shallower stack.
STACK_BYTES = 16 * 2**20

T = TypeVar("T")

_here = threading.local()  # ``own`` is set in the threads started here
_starting = threading.Lock()  # the stack size is one setting for the whole process


def on_own_stack() -> bool:
    """Whether this thread is one :func:`on_a_stack_of_its_own` started, whose stack is fresh."""
    return getattr(_here, "own", False)


def on_a_stack_of_its_own(run: Callable[[], T]) -> list[T]:
    """``[run()]``, ``run`` called in a new thread with :data:`STACK_BYTES` of stack and none of the
    caller's frames (an exception it raises is raised here); ``[]`` where no thread can be started (an
    interpreter shutting down, a platform without threads, or a caller so deep that even starting one
    runs out), so that the caller answers as it did before. It starts the thread with ``_thread``,
    which takes no Python frame of the caller's to start or to wait, as ``threading.Thread`` would."""
    outcome: list[tuple[bool, Any]] = []
    done = _thread.allocate_lock()

    def target() -> None:
        _here.own = True
        try:
            outcome.append((True, run()))
        except BaseException as error:  # handed to the caller, which raises it as its own
            outcome.append((False, error))
        finally:
            done.release()

    try:
        done.acquire()
        with _starting:
            before = _thread.stack_size(STACK_BYTES)
            try:
                _thread.start_new_thread(target, ())
            finally:
                _thread.stack_size(before)
        done.acquire()  # until the thread releases it, as it ends
    except (RuntimeError, ValueError):  # RecursionError is a RuntimeError
        return []
    if not outcome:
        return []
    finished, value = outcome[0]
    if not finished:
        raise value
    return [value]
