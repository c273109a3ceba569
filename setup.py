"""The one thing pyproject.toml cannot say: the repository's top-level ``topics/`` folder (the topic
sets are data) is installed inside the toolkit as ``bolt.data.topics``, not as an import name of
its own. Everything else is in pyproject.toml; find topic files with ``bolt.data.topic_path``."""
from setuptools import find_namespace_packages, setup

setup(packages=[*find_namespace_packages(include=["bolt", "bolt.*", "indexing", "indexing.*", "evaluation",
                                               "evaluation.*"]),
                "bolt.data.topics"],
      package_dir={"bolt.data.topics": "topics"})
