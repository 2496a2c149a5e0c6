"""Tests of what only makes answers quicker: the quick check, the glance, the work bound, the code."""
