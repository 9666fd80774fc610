"""The poker-dice family's JSON record and text record."""
