"""The distillation table of docs/results.md, regenerated from run folders (issue 13).

Each row is a model folder (base, +pretraining, teachers, +distillation, +both, smaller
student...). Its dev tags are decoded with cross-fitted type biases, as ``sciner calibrate``
scores them (each dev group with biases fit on the other groups), and cached in the folder as
``dev_cross_fitted.conll``; the first row is the base that the paired bootstrap compares every
other row with. The wall time is the training time in the model's history, on the hardware its
``model.json`` names; steps that are not models (pretraining, labelling) are listed below the
table from their own folders.

    python benchmarks/distill_results.py --run "base=runs/distill/base" \\
        --run "+distillation=runs/distill/student" --step "label=runs/distill/soft" \\
        --step "pretrain=runs/pretrain-minilm" [--device auto] [--out docs/results.md]

Only the section between the distillation markers of ``--out`` is replaced.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from sciner.document import Paragraph  # noqa: E402
from sciner.evaluate.bootstrap import paired_bootstrap  # noqa: E402
from sciner.evaluate.metrics import classification_report  # noqa: E402
from sciner.formats.registry import read_file, write_file  # noqa: E402
from sciner.labels import ENTITY_TYPES  # noqa: E402

CACHE = "dev_cross_fitted_paper.conll"
START, END = "<!-- distillation:start -->", "<!-- distillation:end -->"


def dev_gold(base: Path, gold: Path | None) -> tuple[list[Paragraph], list[str] | None]:
    """The dev paragraphs and each one's group: the base model's own dev split, or ``gold`` (a
    tagged file, with no groups: for runs whose cross-fitted tags are cached already)."""
    if gold is not None:
        return read_file(gold), None
    from sciner.data.assemble import assemble
    from sciner.model.store import load_model_meta

    cfg, _, _ = load_model_meta(base)
    corpus = assemble(cfg.data, seed=cfg.train.seed)
    return corpus.dev, corpus.dev_group_of


def cross_fitted(run: Path, dev: list[Paragraph], groups: list[str] | None, device: str) -> list[list[str]]:
    """The run's dev tags as shipped models are scored: type biases and the paper-level pass, each
    cross-fitted (each dev group decoded with what was fit on the others); cached in the run folder."""
    if (run / CACHE).exists():
        cached = read_file(run / CACHE)
        if [p.tokens for p in cached] == [p.tokens for p in dev]:
            return [p.tags or [] for p in cached]
    if groups is None:
        raise SystemExit(f"{run}: no cached {CACHE} for this dev set; run without --gold to compute it")
    from sciner.inference.calibrate import DEFAULT, cross_fitted_paper_tags, cross_fitted_tags
    from sciner.inference.tagger import Tagger

    tagger = Tagger.load(run, precision="fp32", device=device)
    tokens, gold = [list(p.tokens) for p in dev], [p.tags or [] for p in dev]
    log_probs = tagger.log_probs(tokens)
    _, biases = cross_fitted_tags(log_probs, gold, groups, DEFAULT)
    tags, _ = cross_fitted_paper_tags(tokens, log_probs, gold, groups, [p.source for p in dev], biases)
    write_file([Paragraph(p.tokens, t) for p, t in zip(dev, tags)], run / CACHE)
    return tags


def wall_time(run: Path) -> tuple[float, str]:
    """Training seconds (the history's epochs) and the hardware, from the run's model.json."""
    meta = json.loads((run / "model.json").read_text(encoding="utf-8"))
    return sum(h.get("seconds", 0.0) for h in meta.get("history", [])), meta.get("hardware", "unknown")


def step_time(folder: Path) -> tuple[float, str]:
    """Seconds and hardware of a step that is not a model: labelling (manifest.json) or pretraining (loss.tsv;
    a GPU call's folder: pretrain-loss.tsv and summary.json)."""
    if (folder / "manifest.json").exists():
        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
        return manifest.get("seconds_last_run", 0.0), manifest.get("hardware", "unknown")
    curve = folder / "loss.tsv" if (folder / "loss.tsv").exists() else folder / "pretrain-loss.tsv"  # a GPU call's
    rows = curve.read_text(encoding="utf-8").splitlines()
    note, call = folder / "encoder" / "sciner_pretrain.json", folder / "summary.json"
    where = (json.loads(note.read_text(encoding="utf-8")).get("hardware", "unknown") if note.exists()
             else json.loads(call.read_text(encoding="utf-8")).get("device", "unknown") if call.exists() else "unknown")
    return float(rows[-1].split("\t")[-1]) if len(rows) > 1 else 0.0, where


def table(runs: list[tuple[str, Path]], dev: list[Paragraph], groups: list[str] | None, device: str) -> list[str]:
    gold = [p.tags or [] for p in dev]
    preds = [cross_fitted(run, dev, groups, device) for _, run in runs]
    head = ["model", "micro F1", *ENTITY_TYPES, "Δ vs base", "95% CI", "p", "train time", "hardware"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for k, ((name, run), pred) in enumerate(zip(runs, preds)):
        report = classification_report(gold, pred)
        per_type = [f"{report.per_type[t].f1:.3f}" if t in report.per_type else "—" for t in ENTITY_TYPES]
        if k == 0:
            versus = ["—", "—", "—"]
        else:
            # Resampled by paper (the paper-level pass ties a paper's paragraphs together) where papers are known.
            papers = [p.source for p in dev] if all(p.source for p in dev) else None
            d = paired_bootstrap(gold, pred, preds[0], units=papers).micro
            versus = [f"{d.delta:+.4f}", f"[{d.ci95[0]:+.4f}, {d.ci95[1]:+.4f}]", f"{d.p_value:.3f}"]
        seconds, where = wall_time(run)
        lines.append("| " + " | ".join([name, f"{report.micro.f1:.4f}", *per_type, *versus,
                                         f"{seconds / 60:.1f} min", where]) + " |")
    return lines


def section(runs: list[tuple[str, Path]], steps: list[tuple[str, Path]], dev: list[Paragraph],
            groups: list[str] | None, device: str, command: str) -> str:
    lines = [START, "## Distillation (issue 13)", "",
             f"Generated by `{command}` — do not edit by hand.", "",
             f"Dev: {len(dev)} paragraphs of the held-out groups; F1 is exact span+type with cross-fitted type "
             "biases and paper-level pass (each group decoded with what was fit on the others); Δ, CI and p: "
             "paired bootstrap over papers against the first row.", "", *table(runs, dev, groups, device)]
    if steps:
        lines += ["", "| step | wall time | hardware |", "|---|---|---|"]
        for name, folder in steps:
            seconds, where = step_time(folder)
            lines.append(f"| {name} | {seconds / 60:.1f} min | {where} |")
    return "\n".join(lines + [END]) + "\n"


def replace_section(text: str, new: str) -> str:
    """``text`` with its distillation section replaced (or appended when it has none)."""
    if START in text and END in text:
        return text[: text.index(START)] + new.rstrip("\n") + text[text.index(END) + len(END):]
    return text.rstrip("\n") + "\n\n" + new


def named(items: list[str]) -> list[tuple[str, Path]]:
    out = []
    for item in items:
        name, eq, path = item.partition("=")
        if not eq:
            raise SystemExit(f"expected NAME=FOLDER, got {item!r}")
        out.append((name, Path(path)))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--run", action="append", required=True, help="NAME=MODEL_FOLDER; the first is the base.")
    parser.add_argument("--step", action="append", default=[], help="NAME=FOLDER of a labelling or pretraining step.")
    parser.add_argument("--gold", type=Path, help="Tagged dev file (default: the base model's dev split).")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "results.md")
    args = parser.parse_args(argv)
    runs, steps = named(args.run), named(args.step)
    dev, groups = dev_gold(runs[0][1], args.gold)
    command = "python benchmarks/distill_results.py " + " ".join(
        [f'--run "{r}"' for r in args.run] + [f'--step "{s}"' for s in args.step])
    new = section(runs, steps, dev, groups, args.device, command)
    old = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
    from sciner.outputs import write_atomic

    write_atomic(args.out, replace_section(old, new))
    print(new)
    return 0


if __name__ == "__main__":
    sys.exit(main())
