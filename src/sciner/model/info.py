"""What a model folder is, as facts (``sciner info`` prints them with :func:`format_info`;
``--json`` prints them as they are)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


# What info shows for a fact an older model.json does not hold.
NOT_RECORDED = "not recorded"


def model_info(path: str | Path | None = None) -> dict[str, Any]:
    """The facts ``sciner info`` shows about the model directory at ``path`` (default: the
    shipped model), read through the validation of :func:`sciner.model.store.load_model_meta`."""
    from sciner.model.store import load_model_meta

    cfg, meta, directory = load_model_meta(path)
    return meta_info(meta, directory, {f.name: f.stat().st_size for f in sorted(directory.iterdir()) if f.is_file()},
                     cfg)


def meta_info(meta: dict[str, Any], where: Path, files: dict[str, int], cfg: Any = None) -> dict[str, Any]:
    """The facts of a model's ``model.json`` (``meta``; its config read unless given as ``cfg``),
    kept at ``where`` in ``files`` (name: bytes): a model folder's, or an exported ONNX graph's."""
    from sciner.labels import ENTITY_TYPES
    from sciner.model.store import meta_config
    from sciner.provenance import running

    if cfg is None:
        cfg = meta_config(meta, f"{where}: model.json")
    return {
        "model": str(where.resolve()),
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
        "files": files,
    }


def _calibration(meta: dict[str, Any]) -> dict[str, Any] | None:
    """The biases ``sciner calibrate`` wrote and its cross-fitted dev scores; None if never calibrated."""
    if not meta.get("type_bias") and "calibration" not in meta:
        return None
    calibration = meta.get("calibration", {})
    fit_on = _fit_on(calibration)
    return {
        "type_bias": meta.get("type_bias", {}),
        "fit_on": fit_on,
        "precision": calibration.get("precision"),
        "dev_groups": calibration.get("dev_groups"),
        # An in-sample fit has no honest score (one written before the fit was recorded
        # holds the model's score without bias under this name).
        "dev_cross_fitted": calibration.get("dev_cross_fitted") if fit_on.startswith("cross-fitted") else None,
        "paper_level": meta.get("paper_level"),
        "paper_level_dev_cross_fitted": (calibration.get("paper_level") or {}).get("dev_cross_fitted")
        if fit_on.startswith("cross-fitted") else None,
    }


def _fit_on(calibration: dict[str, Any]) -> str:
    """What the biases were fit on, in words; a calibration written before it was recorded
    was cross-fitted over its groups, which with one group meant in-sample (its cross-fitted
    score was the model's without bias)."""
    if "fit" in calibration:
        return fit_on(calibration["fit"], calibration.get("unit", "group"), int(calibration.get("units", 0)))
    groups = calibration.get("cross_fitted_biases")
    if groups is None:
        return NOT_RECORDED
    return fit_on("cross-fitted" if len(groups) >= 2 else "in-sample", "group", len(groups) or 1)


def fit_on(fit: str, unit: str, n_units: int) -> str:
    """"cross-fitted over 4 dev groups", "fit in-sample on 1 dev paper (optimistic scores)": what
    a calibration's biases were fit and scored on (``sciner calibrate`` and ``sciner info`` say it so)."""
    units = f"{n_units} dev {unit}{'' if n_units == 1 else 's'}"
    return f"cross-fitted over {units}" if fit == "cross-fitted" else f"fit in-sample on {units} (optimistic scores)"


def format_info(facts: dict[str, Any]) -> str:
    """``facts`` of :func:`model_info` as aligned text."""
    t, run, made = facts["training"], facts["running"], facts["trained_with"]
    lines = [
        f"{'model':<14}{facts['model']}",
        f"{'entity types':<14}{', '.join(facts['entity_types'])} ({len(facts['labels'])} BIO tags)",
        f"{'encoder':<14}{facts['encoder']}, head {facts['head']}",
        f"{'training':<14}{_count(t['train_paragraphs'])} paragraphs, {_count(t['train_tokens'])} tokens; "
        f"best epoch {t['epoch'] or '?'} of {t['epochs']}, seed {t['seed']}",
        f"{'dev':<14}{_count(t['dev_paragraphs'])} paragraphs of {len(t['dev_groups'])} groups: "
        f"{', '.join(t['dev_groups'])}",
        f"{'trained with':<14}sciner {made['version']}, commit {made['git_commit']}",
        f"{'running':<14}sciner {run['version']}, commit {run['git_commit']}",
        f"{'files':<14}" + ", ".join(f"{name} {_size(n)}" for name, n in facts["files"].items()),
    ]
    if facts["calibration"]:
        lines.append(f"{'calibration':<14}biases {facts['calibration']['fit_on']}")
    if facts["dev_scores"]:
        lines += ["", *_score_table(facts["dev_scores"], facts["calibration"])]
    paper = (facts["calibration"] or {}).get("paper_level")
    if paper:
        lines.append(f"paper-level decoding: {json.dumps(paper)} (sciner predict --paragraph-local: off)")
    return "\n".join(lines)


def _score_table(dev: dict[str, Any], calibration: dict[str, Any] | None) -> list[str]:
    """Dev scores per type at training time; with a calibration, its cross-fitted F1 and the bias."""
    crossed = (calibration or {}).get("dev_cross_fitted") or {}
    paper = (calibration or {}).get("paper_level_dev_cross_fitted") or {}
    bias = (calibration or {}).get("type_bias") or {}
    extra = (f"{'calibrated F1':>15}" if crossed else "") + (f"{'bias':>7}" if calibration else "")
    extra += f"{'paper-level F1':>16}" if paper else ""
    rows = [f"{'dev scores':<22}{'P':>7}{'R':>7}{'F1':>7}{'support':>9}{extra}"]
    for name, s in [*dev["per_type"].items(), ("micro", dev["micro"]), ("macro", dev["macro"])]:
        row = f"{name:<22}{s['precision']:7.4f}{s['recall']:7.4f}{s['f1']:7.4f}{s.get('support', ''):>9}"
        if crossed:
            f1 = crossed.get("per_type", {}).get(name) or crossed.get(name)
            row += f"{f1['f1']:15.4f}" if f1 else f"{'':>15}"
        if calibration:
            row += f"{bias[name]:+7.2f}" if name in bias else f"{'':>7}"
        if paper:
            f1 = paper.get("per_type", {}).get(name) or paper.get(name)
            row += f"{f1['f1']:16.4f}" if f1 else ""
        rows.append(row.rstrip())
    if crossed:
        rows.append("calibrated F1 = cross-fitted on the dev split (each unit decoded with biases fit on the others)")
    if paper:
        rows.append("paper-level F1 = the same, then each paper decoded as a whole (what sciner predict does; "
                    "--paragraph-local turns it off)")
    return rows


def _count(n: int | None) -> str:
    return "?" if n is None else f"{n:,}"


def _size(n: float) -> str:
    """A file size in B, kB or MB."""
    if n < 1000:
        return f"{n:.0f} B"
    return f"{n / 1e3:.1f} kB" if n < 1e6 else f"{n / 1e6:.1f} MB"
