"""The local web server behind ``bolt judge`` (Starlette on uvicorn, 127.0.0.1 only).

It trusts no request: every request must name this server in ``Host`` (no DNS rebinding), any
``Origin`` must be this server's, every API call must carry the per-session token (printed in the
URL, sent back by the page as a header, compared in constant time), writes must be JSON of
bounded size, and the only files it serves are the four of the page (with its icon), from a fixed table. The
collection is shown only as decoded text of the posts the runs cite.
"""
from __future__ import annotations

import hmac
import json
import os
import secrets
import sys
from pathlib import Path
from typing import Any, Callable

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from evaluation.workbench.session import BadInput, JudgingSession

STATIC = Path(__file__).with_name("static")
PAGES = {"/": ("index.html", "text/html; charset=utf-8"),
         "/app.js": ("app.js", "text/javascript; charset=utf-8"),
         "/app.css": ("app.css", "text/css; charset=utf-8"),
         "/favicon.svg": ("favicon.svg", "image/svg+xml")}
MAX_BODY = 64 * 1024
TOKEN_HEADER = "x-bolt-token"
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
                               "img-src 'self' data:; font-src 'self'; base-uri 'none'; form-action 'none'; "
                               "frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",  # the token is in the page's URL: never send it elsewhere
    "Cache-Control": "no-store",
    "Cross-Origin-Resource-Policy": "same-origin",
}


def new_token() -> str:
    return secrets.token_urlsafe(24)


def session_token(out: str | Path) -> str:
    """The token for a judgments file: the one of its last session, so an open tab goes on working
    after a restart. Kept in ``OUT.token`` beside it, readable by its owner only (mode 0600)."""
    path = Path(out).with_name(Path(out).name + ".token")
    try:
        token = path.read_text(encoding="ascii").strip()
        if len(token) >= 32 and token.replace("-", "").replace("_", "").isalnum():
            return token
    except (OSError, UnicodeDecodeError):
        pass
    token = new_token()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as fh:
        fh.write(token + "\n")
    return token


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=SECURITY_HEADERS)


def _token_matches(sent: str, token: str) -> bool:
    """Constant-time comparison of a sent token with the session's."""
    return hmac.compare_digest(sent.encode("utf-8", "replace"), token.encode())


def _refusal(request: Request, *, hosts: set[str], origins: set[str], token: str, port: int,
             api: bool) -> Response | None:
    """Why this request is refused (Host, Origin, fetch site, then the token for API calls), or None."""
    host = request.headers.get("host", "")
    if host not in hosts:
        return _error(421, f"this server answers only to 127.0.0.1:{port}; open the URL 'bolt judge' printed")
    origin = request.headers.get("origin")
    if origin is not None and origin not in origins:
        return _error(403, "requests from other pages are refused")
    if request.headers.get("sec-fetch-site") not in (None, "same-origin", "none"):
        return _error(403, "requests from other sites are refused")
    if api and not _token_matches(request.headers.get(TOKEN_HEADER, ""), token):
        return _error(403, "missing or wrong session token: bolt judge was started again with a new "
                           "one (another --out, or its .token file removed); open the URL it printed "
                           "last (it ends in ?token=...)")
    return None


async def json_body(request: Request) -> dict:
    """The request's JSON object, of at most ``MAX_BODY`` bytes; anything else is ``BadInput``."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise BadInput("send JSON (Content-Type: application/json)")
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
        raise BadInput(f"request body larger than {MAX_BODY} bytes")
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            raise BadInput(f"request body larger than {MAX_BODY} bytes")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BadInput(f"the request is not valid JSON ({exc})") from None
    except RecursionError:
        raise BadInput("the request's JSON is nested too deeply") from None
    if not isinstance(data, dict):
        raise BadInput("send a JSON object")
    return data


def _page_endpoint(token: str) -> Callable[[Request], Any]:
    """The page's four files from the fixed table; the page itself only with the token in its URL."""
    page_bytes = {path: (STATIC / name).read_bytes() for path, (name, _) in PAGES.items()}

    async def page(request: Request) -> Response:
        _, media = PAGES[request.url.path]
        if request.url.path == "/" and not _token_matches(request.query_params.get("token", ""), token):
            return PlainTextResponse("Open the full URL that 'bolt judge' printed (it ends in ?token=...).",
                                     status_code=403, headers=SECURITY_HEADERS)
        return Response(page_bytes[request.url.path], media_type=media, headers=SECURITY_HEADERS)
    return page


def _api_endpoints(session: JudgingSession) -> dict[str, tuple[str, Callable[[Request], Any]]]:
    """``{path: (method, handler)}`` of the JSON API; the session's work runs in a thread."""
    from starlette.concurrency import run_in_threadpool

    async def overview(request: Request) -> Response:
        return JSONResponse(session.overview(), headers=SECURITY_HEADERS)

    async def topic(request: Request) -> Response:
        view = await run_in_threadpool(session.topic_view, request.path_params["number"])
        return JSONResponse(view, headers=SECURITY_HEADERS)

    async def posts(request: Request) -> Response:
        view = await run_in_threadpool(session.posts_view, request.path_params["number"])
        return JSONResponse(view, headers=SECURITY_HEADERS)

    async def decide(request: Request) -> Response:
        data = await json_body(request)
        state = await run_in_threadpool(session.apply, data.get("item"), data.get("op"))
        return JSONResponse(state, headers=SECURITY_HEADERS)

    async def facet(request: Request) -> Response:
        data = await json_body(request)
        if not isinstance(data.get("topic"), str):
            raise BadInput("name the topic: {\"topic\": \"1.001\", ...}")
        added = await run_in_threadpool(session.add_facet, data["topic"], data.get("desc"),
                                        data.get("importance", "vital"), data.get("nugget"))
        return JSONResponse(added, headers=SECURITY_HEADERS)

    return {"/api/overview": ("GET", overview), "/api/topic/{number}": ("GET", topic),
            "/api/posts/{number}": ("GET", posts), "/api/decide": ("POST", decide),
            "/api/facet": ("POST", facet)}


async def _not_found(request: Request, exc: Exception) -> Response:
    return _error(404, "no such page")


async def _not_allowed(request: Request, exc: Exception) -> Response:
    return _error(405, "method not allowed")


async def _failed(request: Request, exc: Exception) -> Response:
    print(f"error: bolt judge could not answer {request.method} {request.url.path}: "
          f"{type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
    return _error(500, f"the server failed ({type(exc).__name__}: {exc}); nothing was changed by this "
                       "request; see the terminal running bolt judge")


def create_app(session: JudgingSession, *, token: str, port: int) -> Starlette:
    """The ASGI app for one session; ``port`` is the one the server listens on (for Host/Origin checks)."""
    hosts = {f"127.0.0.1:{port}", f"localhost:{port}"}
    origins = {f"http://{h}" for h in hosts}

    def checked(handler: Callable[[Request], Any], *, api: bool = True) -> Callable:
        async def endpoint(request: Request) -> Response:
            refused = _refusal(request, hosts=hosts, origins=origins, token=token, port=port, api=api)
            if refused is not None:
                return refused
            try:
                return await handler(request)
            except BadInput as exc:
                return _error(400, str(exc))
        return endpoint

    page = _page_endpoint(token)
    routes = [Route(path, checked(page, api=False), methods=["GET"]) for path in PAGES]
    routes += [Route(path, checked(handler), methods=[method])
               for path, (method, handler) in _api_endpoints(session).items()]
    return Starlette(routes=routes, exception_handlers={404: _not_found, 405: _not_allowed, Exception: _failed})
