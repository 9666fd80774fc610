"""The poker-dice family's bots: ``random`` and ``prob`` (:mod:`.simple`), ``bayes`` and
``expert`` (:mod:`.levels`)."""
