"""What every step uses: the vocabularies, typed errors, JSON in and out, reading files."""
