"""The former path of ``fast.codegen``: importing it gives that module itself, so that reading or
replacing a name here reads or replaces it there."""

import sys

from .fast import codegen

sys.modules[__name__] = codegen
