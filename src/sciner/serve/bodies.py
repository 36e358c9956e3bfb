"""What a request to the tagger holds (paragraphs to tag, as JSON, text or a PDF) and how a
tagged paragraph is answered."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sciner.document import Paragraph
from sciner.errors import InputFormatError, ScinerError
from sciner.formats.kinds import check_include
from sciner.pdf import read_pdf_paragraphs
from sciner.serve.errors import RequestError
from sciner.tokenize import tokenize_paragraphs


def paragraph_answer(p: Paragraph) -> dict[str, Any]:
    """One tagged paragraph as the API answers it: tokens, BIO tags and scored spans."""
    spans = [{"start": s.start, "end": s.end, "label": s.label,
              **({"score": round(float(s.score), 4)} if s.score is not None else {})} for s in p.spans or []]
    answer: dict[str, Any] = {"tokens": list(p.tokens), "tags": list(p.tags or []), "spans": spans}
    answer.update((k, p.meta[k]) for k in ("page", "section", "kind", "table") if k in p.meta)
    return answer


# The content types a body may have, and how each is read.
JSON_TYPES = ("application/json", "application/x-www-form-urlencoded")  # curl -d sends a form's type
TEXT_TYPE, PDF_TYPE = "text/plain", "application/pdf"


def read_request(body: bytes, content_type: str, max_tokens: int, include: Sequence[str] = ()) -> list[Paragraph]:
    """The paragraphs a request body asks to tag (see :mod:`sciner.serve.app`), at most
    ``max_tokens`` of them; :class:`RequestError` if none. ``include``: the PDF element kinds
    to read besides body text (PDF bodies only)."""
    kind = content_type.split(";")[0].strip().lower()
    if not body:
        raise RequestError(400, "empty", "the request has no body: send JSON, text or a PDF")
    if include and kind != PDF_TYPE:
        raise RequestError(422, "include_needs_pdf", f"include={','.join(include)} reads PDF elements: "
                                                      "send the PDF (Content-Type: application/pdf)")
    if kind == PDF_TYPE:
        paragraphs = _pdf_paragraphs(body, include)
    elif kind in JSON_TYPES:
        paragraphs = _json_paragraphs(body)
    elif kind == TEXT_TYPE:
        paragraphs = _text_paragraphs(_utf8(body))
    else:
        named = f"Content-Type {kind!r}" if kind else "no Content-Type"
        raise RequestError(415, "unsupported_media_type",
                           f"{named}: send application/json, text/plain or application/pdf")
    tokens = sum(len(p.tokens) for p in paragraphs)
    if tokens > max_tokens:
        raise RequestError(413, "too_many_tokens", f"{tokens} tokens; at most {max_tokens} a request")
    return paragraphs


def _utf8(body: bytes) -> str:
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError as err:
        raise RequestError(400, "not_utf8", f"the body is not UTF-8 ({err.reason} at byte {err.start})") from None


def _text_paragraphs(text: str) -> list[Paragraph]:
    """One paragraph per non-blank line, tokenized as ``sciner predict --tokenize`` does."""
    lines = [line for line in text.splitlines() if line.strip()]
    return [Paragraph(tokens) for tokens in tokenize_paragraphs(lines)]


def _json_paragraphs(body: bytes) -> list[Paragraph]:
    try:
        obj = json.loads(_utf8(body))
    except RecursionError:
        raise RequestError(400, "invalid_json", "the body is nested too deep to read as JSON") from None
    except ValueError as err:  # not JSON, or an integer over Python's digit limit
        raise RequestError(400, "invalid_json", f"the body is not JSON ({str(err).splitlines()[0]})") from None
    if not isinstance(obj, dict) or ("paragraphs" in obj) == ("text" in obj):
        raise RequestError(422, "wrong_shape", 'expected {"paragraphs": [[token, ...], ...]} or {"text": "..."}')
    if "text" in obj:
        if not isinstance(obj["text"], str):
            raise RequestError(422, "wrong_shape", '"text" must be a string')
        return _text_paragraphs(obj["text"])
    paragraphs = obj["paragraphs"]
    if not isinstance(paragraphs, list) or not all(
            isinstance(p, list) and p and all(isinstance(t, str) and t.strip() for t in p) for p in paragraphs):
        raise RequestError(422, "wrong_shape", '"paragraphs" must be a list of non-empty lists of non-blank tokens')
    return [Paragraph(list(p)) for p in paragraphs]


def _pdf_paragraphs(body: bytes, include: Sequence[str] = ()) -> list[Paragraph]:
    if not body.startswith(b"%PDF-"):
        raise RequestError(422, "not_a_pdf", "the body does not start with %PDF-: not a PDF")
    with tempfile.TemporaryDirectory(prefix="sciner-serve-") as folder:
        path = Path(folder) / "upload.pdf"
        path.write_bytes(body)
        try:
            paragraphs = read_pdf_paragraphs(path, include=include)
        except ScinerError as err:
            raise RequestError(422, "unreadable_pdf", str(err.message).replace(str(path), "the PDF")) from None
    for p in paragraphs:
        p.source = "upload.pdf"
    return paragraphs


def include_of(query: str | None) -> frozenset[str]:
    """The ``?include=`` of a request as ``--include`` reads it (422 for an unknown kind)."""
    kinds = [k.strip() for k in (query or "").split(",") if k.strip()]
    try:
        return check_include(kinds)
    except InputFormatError as err:
        raise RequestError(422, "unknown_include", err.message.replace("--include", "include")) from None
