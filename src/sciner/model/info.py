"""What a model folder is, as facts (``sciner info`` prints them; ``--json`` prints them as they are)."""

from __future__ import annotations

from pathlib import Path
from typing import Any


# What info shows for a fact an older model.json does not hold.
NOT_RECORDED = "not recorded"


def model_info(path: str | Path | None = None) -> dict[str, Any]:
    """The facts ``sciner info`` shows about the model directory at ``path`` (default: the
    shipped model), read through the validation of :func:`sciner.model.store.load_model_meta`."""
    from sciner.labels import ENTITY_TYPES
    from sciner.model.store import load_model_meta
    from sciner.provenance import running

    cfg, meta, directory = load_model_meta(path)
    return {
        "model": str(directory.resolve()),
        "entity_types": [t for t in ENTITY_TYPES if f"B-{t}" in meta["labels"]],
        "labels": meta["labels"],
        "encoder": cfg.model.encoder,
        "head": cfg.model.head,
        "training": {
            "train_paragraphs": meta.get("train_paragraphs"),
            "train_tokens": meta.get("train_tokens"),
            "dev_groups": meta.get("dev_groups", cfg.data.dev_groups),
            "dev_paragraphs": meta.get("dev_paragraphs"),
            "epoch": meta.get("epoch"),
            "epochs": cfg.train.epochs,
            "seed": meta.get("seed", cfg.train.seed),
        },
        "dev_scores": meta.get("dev_scores"),
        "calibration": _calibration(meta),
        # Models trained before sciner recorded these say so, rather than "sciner unknown".
        "trained_with": {"version": meta.get("sciner_version", NOT_RECORDED),
                         "git_commit": meta.get("git_commit", NOT_RECORDED)},
        "running": running(),
        "files": {f.name: f.stat().st_size for f in sorted(directory.iterdir()) if f.is_file()},
    }


def _calibration(meta: dict[str, Any]) -> dict[str, Any] | None:
    """The biases ``sciner calibrate`` wrote and its cross-fitted dev scores; None if never calibrated."""
    if not meta.get("type_bias") and "calibration" not in meta:
        return None
    calibration = meta.get("calibration", {})
    return {
        "type_bias": meta.get("type_bias", {}),
        "precision": calibration.get("precision"),
        "dev_groups": calibration.get("dev_groups"),
        "dev_cross_fitted": calibration.get("dev_cross_fitted"),
    }
