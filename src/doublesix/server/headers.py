"""What the browser is told and who may open a socket (an ASGI middleware).

Every HTTP answer carries a Content-Security-Policy (the client's own files
only: no inline script, no frame, no other origin), X-Frame-Options,
X-Content-Type-Options: nosniff and a Referrer-Policy.

A table socket opened from a page of another site would act with the
visitor's cookie; browsers always send ``Origin``, so a socket whose
``Origin`` is neither this server's own (the request's ``Host``) nor one of
``origins`` (``serve --origin``, for a server behind a proxy) is closed at
once with code 4403. A client that is not a browser sends no ``Origin``.
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

CLOSE_ORIGIN = 4403
"""The close code of a socket opened from a page of another origin."""

CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "media-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
]


class BrowserGuard:
    """The ASGI middleware: security headers on answers, ``Origin`` checked on sockets."""

    def __init__(self, app: ASGIApp, origins: Iterable[str] = ()) -> None:
        self.app = app
        self.origins = {o.rstrip("/").lower() for o in origins}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":

            async def send_with_headers(message: Message) -> None:
                if message["type"] == "http.response.start":
                    names = {name.lower() for name, _ in message.get("headers", [])}
                    extra = [(n, v) for n, v in SECURITY_HEADERS if n not in names]
                    message = {**message, "headers": [*message.get("headers", []), *extra]}
                await send(message)

            await self.app(scope, receive, send_with_headers)
            return
        if scope["type"] == "websocket" and not self.allowed(scope):
            message = await receive()
            if message["type"] == "websocket.connect":
                await send({"type": "websocket.accept"})
                await send(
                    {
                        "type": "websocket.close",
                        "code": CLOSE_ORIGIN,
                        "reason": "a table socket opens from this site's own pages only",
                    }
                )
            return
        await self.app(scope, receive, send)

    def allowed(self, scope: Scope) -> bool:
        headers = dict(scope.get("headers", []))
        origin = headers.get(b"origin")
        if origin is None:
            return True  # not a browser: it acts with no visitor's cookie
        text = origin.decode("latin-1").rstrip("/").lower()
        if text in self.origins:
            return True
        host = headers.get(b"host", b"").decode("latin-1").lower()
        parts = urlsplit(text)
        return parts.scheme in ("http", "https") and bool(host) and parts.netloc == host
