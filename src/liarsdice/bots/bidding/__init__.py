"""The bidding family's bots: ``random``, ``prob``, ``bayes``, ``expert``, the panel bots
``bluffer`` and ``expert-v1``, and ``nash`` (the solver's policy; NumPy and SciPy, imported on
first use)."""
