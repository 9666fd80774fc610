"""The browser client's pages and files (``src/liarsdice/server/static/``, one flat folder):
served by name, with these types only; anything else is a 404. Each file is read once and
kept, with its ETag, so that browsers revalidate cheaply."""

from __future__ import annotations

import functools
import hashlib
import re
from importlib import resources

from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse
from starlette.exceptions import HTTPException

from liarsdice.server.http.common import error_response, fail

router = APIRouter()

STATIC_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".json": "application/json",
}
_STATIC_NAME = re.compile(r"^[A-Za-z0-9_-]+(\.[A-Za-z0-9]+)$")


@functools.lru_cache(maxsize=128)
def _static_file(name: str) -> tuple[bytes, str, str] | None:
    """(body, media type, ETag) of a client file; None when there is no such file."""
    match = _STATIC_NAME.match(name)  # a plain file name: no path, no dot files
    media = STATIC_TYPES.get(match.group(1).lower()) if match else None
    file = resources.files("liarsdice.server").joinpath("static").joinpath(name)
    if media is None or not file.is_file():
        return None
    body = file.read_bytes()
    return body, media, '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


def static_response(request: Request, name: str) -> Response:
    found = _static_file(name)
    if found is None:
        raise fail(404, "not_found", "no such file")
    body, media, etag = found
    headers = {"ETag": etag, "Cache-Control": "no-cache"}
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    return Response(body, media_type=media, headers=headers)


@router.get("/", response_class=HTMLResponse)
@router.get("/r/{room_id}", response_class=HTMLResponse)
@router.get("/r/{room_id}/replay/{game_no}", response_class=HTMLResponse)
@router.get("/leaderboard", response_class=HTMLResponse)
@router.get("/p/{player_id}", response_class=HTMLResponse)
async def index(request: Request) -> Response:
    """The app's one page at each of its addresses (the page reads the path)."""
    return static_response(request, "index.html")


@router.get("/static/{name}")
async def static_file(name: str, request: Request) -> Response:
    return static_response(request, name)


# Addresses that are never a browser's page: their errors are always the JSON envelope.
_MACHINE_PREFIXES = ("/api/", "/ws/", "/static/", "/metrics")


def wants_page(request: Request) -> bool:
    """A browser navigating to a page (``Accept`` names HTML), not an API client."""
    path = request.url.path
    if path.startswith(_MACHINE_PREFIXES) or path in ("/api", "/ws", "/static"):
        return False
    return request.method in ("GET", "HEAD") and "text/html" in request.headers.get("accept", "")


async def unknown_address(request: Request, exc: HTTPException) -> Response:
    """An HTTP error that no endpoint raised itself (Starlette's: no such route, a method not
    allowed): a page a browser asked for gets the app's page, which says there is no page
    here and links back to the lobby, in the reader's language (status 404); anything else
    the API's error envelope (``not_found``, ``method_not_allowed``), never the framework's
    bare ``{"detail": ...}``."""
    if isinstance(exc.detail, dict):  # one of ours: the envelope already
        return error_response(exc.status_code, exc.detail, exc.headers)
    if exc.status_code == 404 and wants_page(request):
        # the app's one page, which says so in the reader's language (it reads the path)
        found = _static_file("index.html")
        assert found is not None
        return Response(found[0], status_code=404, media_type=found[1])
    if exc.status_code == 404:
        detail = {"code": "not_found", "message": f"no such address: {request.url.path}"}
    elif exc.status_code == 405:
        detail = {"code": "method_not_allowed", "message": f"{request.method} is not allowed here"}
    else:
        detail = {"code": "http", "message": str(exc.detail)}
    return error_response(exc.status_code, detail, exc.headers)


__all__ = ["STATIC_TYPES", "router", "static_response", "unknown_address", "wants_page"]
