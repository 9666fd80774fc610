"""Command-line interface (``liarsdice``)."""
