"""The encoder's WordPiece tokenizer without transformers or torch: its ``tokenizer.json`` run by
the ``tokenizers`` library, which is what transformers' fast tokenizer wraps."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

DEFAULT_SPECIAL = {"cls_token": "[CLS]", "sep_token": "[SEP]", "pad_token": "[PAD]", "unk_token": "[UNK]"}


class WordPieceTokenizer:
    """The encoder's ``tokenizer.json``, called like transformers' tokenizer on a list of words."""

    def __init__(self, folder: Path) -> None:
        from tokenizers import Tokenizer

        self._tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self._tokenizer.no_truncation()
        self._tokenizer.no_padding()
        special: dict[str, Any] = {}
        for name in ("tokenizer_config.json", "special_tokens_map.json"):  # the latter wins, as in transformers
            if (folder / name).exists():
                special.update(json.loads((folder / name).read_text(encoding="utf-8")))

        def token_id(role: str) -> int:
            entry = special.get(role, DEFAULT_SPECIAL[role])
            token = entry["content"] if isinstance(entry, dict) else entry
            found = self._tokenizer.token_to_id(token)
            if found is None:
                raise ValueError(f"{folder}: {role} {token!r} is not in the vocabulary")
            return int(found)

        self.cls_token_id = token_id("cls_token")
        self.sep_token_id = token_id("sep_token")
        self.pad_token_id = token_id("pad_token")
        self.unk_token_id = token_id("unk_token")

    def __call__(self, words: list[str], add_special_tokens: bool = False) -> dict[str, Any]:
        encodings = self._tokenizer.encode_batch(words, add_special_tokens=add_special_tokens)
        return {"input_ids": [e.ids for e in encodings]}
