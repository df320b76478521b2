"""Limits of the knowledge queries, in a module of their own so that the CLI can name them in its
options without importing the models."""

MAX_HOPS = 4
"""The longest chain `path` looks for."""
