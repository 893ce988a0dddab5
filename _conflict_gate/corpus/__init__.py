"""Entries -> verified corpus: the reading cache, the parallel first load, recorded readings, quotes, unknown ids and retrieved chunks."""
