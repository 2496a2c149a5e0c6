"""toolreg's conformance suite: the official JSON-Schema-Test-Suite, run for the supported vocabulary."""
