import contextlib
import gc
import inspect
import os
import sys

from hypothesis import HealthCheck, settings

# The suite keeps hundreds of thousands of compiled closures alive (the corpus's registries, the
# conformance runs); with Python's default thresholds the cyclic collector walks them over and over,
# a sixth of the run. Collections still happen, less often.
gc.set_threshold(100_000, 50, 100)

settings.register_profile("ci", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# make quick: the inner loop, under 30 seconds.
settings.register_profile(
    "quick", max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("thorough", max_examples=2000, deadline=None)
# make fuzz: the property tests of test_reliability.py, long.
settings.register_profile(
    "fuzz", max_examples=20_000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


import pytest  # noqa: E402

import toolreg._jsonschema.validator  # noqa: E402

# A validator answers its first calls with the reference walk; these tests hold the generated code
# to the reference walk, so they make every validator generate its code at its first call. The
# walk-first policy itself has its own test (tests/registry/test_registry.py), which sets this back.
WALKED_VALUES = toolreg._jsonschema.validator.WALKED_VALUES


@pytest.fixture(autouse=True)
def _fast_path_from_the_first_call(monkeypatch):
    monkeypatch.setattr(toolreg._jsonschema.validator, "WALKED_VALUES", 0)


# Coverage's tracer slows every line Python runs, toolreg's or not: Hypothesis draws an example half
# as fast under it, and drawing is most of what many property tests spend. Around a @given test the
# tracer is set aside while Hypothesis draws, and set back for each run of the test's body, where
# toolreg runs (a body that draws more with st.data() draws through untraced).
def _coverage_tracer():
    tracer = sys.gettrace()
    kind = type(tracer)
    return tracer if (kind.__module__, kind.__name__) == ("coverage", "CTracer") else None


@contextlib.contextmanager
def _set_aside(tracer):
    """Coverage's ``tracer`` (None: nothing to do) set aside for the block."""
    if tracer is None:
        yield
        return
    sys.settrace(None)
    try:
        yield
    finally:
        sys.settrace(tracer)


def untraced(function, *args):
    """``function(*args)`` with coverage's tracer set aside: for work outside toolreg, whose lines are
    not measured and which the tracer slows two- or threefold (drawing examples, jsonschema's check)."""
    with _set_aside(_coverage_tracer()):
        return function(*args)


# pytest-cov's no_cover marker, kept here for the call and the fixtures: in xdist's workers its pause
# stops one of two collectors and so resumes the other, which goes on tracing the test, and it never
# pauses for fixtures.
@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item):
    with _set_aside(_coverage_tracer() if item.get_closest_marker("no_cover") else None):
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_pyfunc_call(pyfuncitem):
    tracer = _coverage_tracer()
    if pyfuncitem.get_closest_marker("no_cover") is not None:
        with _set_aside(tracer):
            return (yield)
    handle = getattr(pyfuncitem.obj, "hypothesis", None)
    # An async body is left to the plugin that runs it (anyio's wraps inner_test in its event loop).
    if handle is None or tracer is None or inspect.iscoroutinefunction(handle.inner_test):
        return (yield)
    body = handle.inner_test

    def traced(*args, **kwargs):
        outside = sys.gettrace()  # None, or Hypothesis's own tracer as it explains a failure
        sys.settrace(tracer)
        try:
            return body(*args, **kwargs)
        finally:
            sys.settrace(outside)

    handle.inner_test = traced
    sys.settrace(None)
    try:
        return (yield)
    finally:
        sys.settrace(tracer)
        handle.inner_test = body


# xdist sends each report to the controller as UTF-8, which has no lone surrogates; a failure whose
# message holds one (this suite draws them often) would end the worker with an internal error that
# names no failure. Such strings go as their escapes.
@pytest.hookimpl(wrapper=True)
def pytest_report_to_serializable(config, report):
    return _encodable((yield))


def _encodable(data):
    if isinstance(data, str):
        return data.encode("utf-8", "backslashreplace").decode("utf-8")
    if isinstance(data, dict):
        return {_encodable(key): _encodable(value) for key, value in data.items()}
    if isinstance(data, (list, tuple)):
        return type(data)(_encodable(item) for item in data)
    return data
