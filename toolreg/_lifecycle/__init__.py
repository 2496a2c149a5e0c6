"""The catalog lifecycle: tool catalogs read in any provider's form, and two versions of one compared
(``toolreg.diff``), on top of the registry, the providers and the pure validator."""
