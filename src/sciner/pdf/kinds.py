"""A PDF element's kind: the vocabulary lives in :mod:`sciner.formats.kinds` (below the PDF
reader, so that the format checks read the same names); this module hands it on."""

from sciner.formats.kinds import INCLUDE, Kind, check_include, included

__all__ = ["INCLUDE", "Kind", "check_include", "included"]
