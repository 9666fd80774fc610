"""The HTTP endpoints, one router per part (``docs/PROTOCOL.md``, "HTTP endpoints"):
:mod:`.rooms`, :mod:`.players`, :mod:`.static` (the browser client) and :mod:`.health`;
:mod:`.common` holds what they share."""
