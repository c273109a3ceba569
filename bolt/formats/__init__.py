"""The file formats (SPEC): topics and their rules, the submission, the votes TSV, and the
validator's checks. The evaluator imports ``bolt`` for these only, never for the system."""
