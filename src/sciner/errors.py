"""User-facing errors: each carries a stable code and a one-line message.

The CLI prints ``error[CODE]: message`` to stderr and exits with ``exit_code``;
library users catch :class:`ScinerError`.
"""

from __future__ import annotations


class ScinerError(Exception):
    """Base class of every error caused by the user's input rather than a bug."""

    code: str = "E000"
    exit_code: int = 2

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return f"error[{self.code}]: {self.message}"


class InputFormatError(ScinerError):
    """A file does not follow the format it claims (columns, tags, encoding)."""

    code = "E001"
    exit_code = 3


class TokenMismatchError(ScinerError):
    """Gold and predicted files disagree on the tokens of a paragraph."""

    code = "E002"
    exit_code = 4


class InvalidBIOError(ScinerError):
    """A tag sequence breaks BIO rules and repair was not requested."""

    code = "E003"
    exit_code = 3


class ModelError(ScinerError):
    """A model directory is missing, incomplete, or of an unknown kind."""

    code = "E004"
    exit_code = 5


class ConfigError(ScinerError):
    """A configuration file or --set override is invalid."""

    code = "E005"
    exit_code = 6


class PDFError(ScinerError):
    """A PDF cannot be read: not a PDF, encrypted, no text layer, or empty."""

    code = "E006"
    exit_code = 7


class InputNotFoundError(ScinerError):
    """A path given on the command line does not exist or matches nothing."""

    code = "E007"
    exit_code = 8


class OutputError(ScinerError):
    """An output cannot be written where asked: over an input, onto a directory, or without permission."""

    code = "E008"
    exit_code = 10


class UnwritableTokenError(InputFormatError):
    """A token cannot be written in the chosen output format (e.g. a tab in CoNLL); nothing was written."""

    code = "E009"
    exit_code = 11


class FileSystemError(ScinerError):
    """The system refused a file operation nothing else reported: no permission, a directory
    where a file was expected, a full disk. The CLI's safety net, not a substitute for handling it."""

    code = "E010"
    exit_code = 12

    @classmethod
    def of(cls, exc: OSError) -> "FileSystemError":
        """The one-line error of ``exc``: its reason, then the file it names."""
        reason = exc.strerror or str(exc) or type(exc).__name__
        return cls(f"{reason}: {exc.filename}" if exc.filename is not None else reason)


class MissingExtraError(ScinerError):
    """An optional feature needs a package that is not installed (e.g. Ray for ``--ray``)."""

    code = "E011"
    exit_code = 13


class QueryError(ScinerError):
    """SQL given to an index (``sciner query --sql``, ``Index.sql``) that SQLite cannot run: a
    syntax error, an unknown table or column, a value out of range."""

    code = "E012"
    exit_code = 14


class ReadOnlyQueryError(ScinerError):
    """A query that would write: to the index, to another file (ATTACH, VACUUM INTO) or to the
    connection's settings (a PRAGMA that sets). Queries write nothing anywhere."""

    code = "E013"
    exit_code = 15
