"""The two objects every stage passes around: a tokenized paragraph and an entity span."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Span:
    """An entity over tokens ``start`` (inclusive) to ``end`` (exclusive) of a paragraph."""

    label: str
    start: int
    end: int
    score: float | None = None

    def __len__(self) -> int:
        return self.end - self.start


@dataclass
class Paragraph:
    """A paragraph as the task sees it: tokens, and optionally one BIO tag per token.

    ``source`` and ``line`` say where it came from, for error messages.
    """

    tokens: list[str]
    tags: list[str] | None = None
    source: str = "<memory>"
    line: int = 0
    spans: list[Span] = field(default_factory=list)

    @property
    def text(self) -> str:
        """The tokens joined by single spaces: the coordinate system of character offsets."""
        return " ".join(self.tokens)

    def token_offsets(self) -> list[tuple[int, int]]:
        """Character start/end of each token in :attr:`text`."""
        offsets = []
        pos = 0
        for token in self.tokens:
            offsets.append((pos, pos + len(token)))
            pos += len(token) + 1
        return offsets
