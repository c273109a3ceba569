"""`bolt judge`: a person judges the runs in a local web page; decisions carry over to new runs (docs/judging.md)."""
