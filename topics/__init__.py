"""Topic sets shipped with the toolkit (``sample.xml``, ``sample.queries.xml``, ``sample.votes.tsv``, the
dev sets). Data, not an import name: installed as ``bolt.data.topics`` (setup.py); find a file with
``bolt.data.topic_path(name)``, which works from a checkout and from an installed wheel."""
