"""toolreg's benchmarks: ``python -m bench`` (what ``make bench`` runs)."""
