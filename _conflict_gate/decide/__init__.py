"""Corpus -> decision and audit, the context decision over retrieved pages, and the answer request built from a decision."""
