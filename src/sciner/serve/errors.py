"""The one shape of every error the server answers: an HTTP status, a short code and a
one-line message, as JSON ``{"error": {"code", "message"}}``."""

from __future__ import annotations

import logging
from typing import Any

LOG = logging.getLogger("sciner.serve")


class RequestError(Exception):
    """A request that cannot be answered: an HTTP status, a short code and a one-line message."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def error_response(status: int, code: str, message: str) -> Any:
    """The JSON response of an error."""
    # FastAPI is imported only when a server runs: it is an extra (pip install 'sciner[serve]').
    from fastapi.responses import JSONResponse

    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


class CatchAll:
    """ASGI middleware: any error a route did not answer (a bug, or an exception the code that
    raised it did not foresee) answers the one JSON error, code ``internal`` and status 500, and
    is logged in one line (no traceback in the log or in the answer); a response already under
    way is cut off, as nothing else can be said."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def sending(message: Any) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except Exception as err:  # noqa: BLE001 - the safety net: every error is answered
            line = " ".join(f"{type(err).__name__}: {err}".split())[:300]
            LOG.error("%s %s: %s", scope.get("method", ""), scope.get("path", ""), line)
            if not started:
                await error_response(500, "internal", f"the server failed on this request ({type(err).__name__}); "
                                                      "its log says more")(scope, receive, send)
