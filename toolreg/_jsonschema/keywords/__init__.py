"""The keyword functions, one module for each family of keywords; the vocabulary lists them.

Each is named for its keyword (``min_items``; ``type_``, ``not_`` where the name is Python's), public
within its module because the vocabulary's rows name it; the package keeps them all private."""
