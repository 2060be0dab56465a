"""paddle2.static."""
