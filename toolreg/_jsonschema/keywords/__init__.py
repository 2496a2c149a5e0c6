"""The keyword functions, one module for each family of keywords; the vocabulary lists them."""
