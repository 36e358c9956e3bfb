"""The one shape of every error the server answers: an HTTP status, a short code and a
one-line message, as JSON ``{"error": {"code", "message"}}``."""

from __future__ import annotations

from typing import Any


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
