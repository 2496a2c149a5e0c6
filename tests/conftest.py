import gc
import os

from hypothesis import HealthCheck, settings

# The suite keeps hundreds of thousands of compiled closures alive (the corpus's registries, the
# conformance runs); with Python's default thresholds the cyclic collector walks them over and over,
# a sixth of the run. Collections still happen, less often.
gc.set_threshold(100_000, 50, 100)

settings.register_profile("ci", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
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
# walk-first policy itself has its own test (tests/test_registry.py), which sets this back.
WALKED_VALUES = toolreg._jsonschema.validator.WALKED_VALUES


@pytest.fixture(autouse=True)
def _fast_path_from_the_first_call(monkeypatch):
    monkeypatch.setattr(toolreg._jsonschema.validator, "WALKED_VALUES", 0)
