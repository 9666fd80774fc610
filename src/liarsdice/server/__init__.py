"""The Liar's Dice web server (``liarsdice serve``): rooms, WebSockets, SQL event log.

See ``docs/SERVER.md`` (running it, persistence, fairness) and ``docs/PROTOCOL.md`` (the wire
protocol). :func:`liarsdice.server.app.create_app` builds the ASGI app.
"""
