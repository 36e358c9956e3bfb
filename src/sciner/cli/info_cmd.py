"""``sciner info``: what a model is, ``spacy info``-style: labels, encoder, training data, dev
scores, calibration, the sciner that made it and the one running, file sizes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from sciner.cli.app import app
from sciner.cli.options import Json
from sciner.model.info import model_info


@app.command()
def info(
    model: Annotated[
        Optional[Path],
        typer.Argument(metavar="[MODEL]", help="Model directory (default: the shipped model).", show_default=False),
    ] = None,
    as_json: Json = False,
) -> None:
    """Describe a model: labels, encoder, training data, dev scores per type, calibration
    biases, the sciner version and git commit that trained it and that runs now, file sizes.

    Example: sciner info runs/bio --json
    """
    facts = model_info(model)
    typer.echo(json.dumps(facts, indent=2) if as_json else format_info(facts))


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
    if facts["dev_scores"]:
        lines += ["", *_score_table(facts["dev_scores"], facts["calibration"])]
    return "\n".join(lines)


def _score_table(dev: dict[str, Any], calibration: dict[str, Any] | None) -> list[str]:
    """Dev scores per type at training time; with a calibration, its cross-fitted F1 and the bias."""
    crossed = (calibration or {}).get("dev_cross_fitted") or {}
    bias = (calibration or {}).get("type_bias") or {}
    extra = f"{'calibrated F1':>15}{'bias':>7}" if calibration else ""
    rows = [f"{'dev scores':<22}{'P':>7}{'R':>7}{'F1':>7}{'support':>9}{extra}"]
    for name, s in [*dev["per_type"].items(), ("micro", dev["micro"]), ("macro", dev["macro"])]:
        row = f"{name:<22}{s['precision']:7.4f}{s['recall']:7.4f}{s['f1']:7.4f}{s.get('support', ''):>9}"
        if calibration:
            f1 = crossed.get("per_type", {}).get(name) or crossed.get(name)
            row += f"{f1['f1']:15.4f}" if f1 else f"{'':>15}"
            row += f"{bias[name]:+7.2f}" if name in bias else ""
        rows.append(row)
    if calibration:
        rows.append("calibrated F1 = cross-fitted on the dev groups (each group decoded with biases fit on the others)")
    return rows


def _count(n: int | None) -> str:
    return "?" if n is None else f"{n:,}"


def _size(n: float) -> str:
    """A file size in B, kB or MB."""
    if n < 1000:
        return f"{n:.0f} B"
    return f"{n / 1e3:.1f} kB" if n < 1e6 else f"{n / 1e6:.1f} MB"
