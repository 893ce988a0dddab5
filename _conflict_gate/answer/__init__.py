"""Decision + answer -> verdict: what a reader of the answer sees, its forms and statements, the check."""
