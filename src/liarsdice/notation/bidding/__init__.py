"""The bidding family's notation: bids (``3x5``), the JSON record and the text record."""
