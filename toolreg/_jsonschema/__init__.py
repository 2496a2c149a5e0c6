"""The pure JSON Schema validator, which imports nothing of the layers above it."""
