"""paddle2."""
