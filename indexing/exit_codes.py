"""Exit statuses of the ``bolt`` command (SPEC §8), named as pip names its own."""

SUCCESS = 0
INVALID = 1  # the input is invalid or a check failed
USAGE = 2    # usage error
