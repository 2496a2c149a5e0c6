"""Everything here only makes answers quicker; the reference walk decides what the answer is.

The reference walk is ``validator.py``, ``schema.py`` and the ``keywords`` package beside this one:
a schema compiled into one check per keyword, applied recursively. It answers every question, and
every module here must give exactly its answer (the same verdict; where errors are asked for, the
same errors in the same order), or give none and leave the question to it. Nothing outside this
package needs anything in it to be read or understood.

Which answerer runs when, for one schema:

- At registration, the quick check (``quick.vouch``) reads a schema of the common keywords and
  vouches that compiling it cannot fail, so a registry may compile it at its tool's first call.
- A registry tool's first calls, before its schema is compiled: the glance (``glance.Glance``)
  answers yes or no from the vouched snapshot, each keyword by its row's ``accepts``, only where
  the work bound (``work``) shows no instance can run out of the work budget; anywhere else, and
  for an invalid call that needs its errors, it says nothing.
- A validator's first calls, until they have held ``validator.WALKED_VALUES`` values: the
  reference walk.
- Later calls: code generated from the compiled schema (``codegen.generate``). ``validate``'s
  collects every error; ``is_valid``'s, written from the same blocks with ``return True`` and
  ``return False``, stops at the first failure. Where the work bound shows the budget cannot run
  out, a third entry, the front, is written with ``return OK`` and ``return otherwise(v)`` and
  stands over ``validate``: a valid call is answered there, any other is handed to the collecting
  code. Any value the generated code cannot vouch for (not plain JSON, deeper than it looks, a
  container changed under it) is handed to the reference walk. On CPython 3.11 and 3.12 each entry
  first walks a value 8 levels and 256 items deep at most, then, past that, walks it again from the
  top in a fresh stretch of the interpreter's frame stack (see ``room``), as the reference walk and
  the glance walk a value of 256 values or more.

The standard output (``output/``) is not here: it records what the reference walk does, so it is
another answer of that walk rather than a quicker one.

The package's modules: ``quick``, ``glance`` and ``work`` (the two static judges and the glance);
``codegen`` (the entry: what is generated, and its entries), ``writer`` and ``kinds`` (the blocks
written for a schema object and for each kind of value), ``source`` (the blocks of source they are
written into, never edited once written) and ``runtime`` (what the generated code calls).
"""
