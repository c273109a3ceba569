"""The model loaders the system and the assessor share (below both, so the judge never imports the
system): ``embedding`` (sentence-transformers) and ``multilingual`` (USE v3)."""
