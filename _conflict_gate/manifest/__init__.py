"""The manifest's step: the grammar, the answer form, the sources, the manifest and its edits, the docs tree."""
