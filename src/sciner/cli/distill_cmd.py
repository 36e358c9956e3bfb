"""``sciner distill``: teachers, soft labels on raw text, and a student trained on both (issue 13).

Each step is its own resumable command with its artifact on disk:

    sciner distill teacher  -> a model folder (``sciner train`` with the teacher's overrides)
    sciner distill label    -> a soft-label folder (manifest + shards)
    sciner distill compact  -> the folder as one file, a byte a token (to carry home)
    sciner distill student  -> a model folder that ``sciner predict`` loads as any other
    sciner calibrate        -> type biases, cross-fitted, as for any model

``paragraphs`` tokenizes raw text for a machine without spaCy; ``pack-encoder`` and
``unpack-encoder`` carry an encoder folder there in int8 parts.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from sciner.cli.app import CONTEXT, app
from sciner.cli.options import ConfigFile, DataDir, Device, Overrides, Quiet, Resume, resume_command, training_config

distill_app = typer.Typer(
    help="Distil large teachers into the small CPU model: teacher, label, student (then sciner calibrate).\n\n"
         "Example: sciner distill teacher --config configs/distill.toml -o runs/distill/teacher-mpnet-s13",
    no_args_is_help=True, context_settings=CONTEXT, rich_markup_mode=None,
)
app.add_typer(distill_app, name="distill")



@distill_app.command()
def teacher(
    output: Path = typer.Option(..., "--output", "-o", help="Folder of the teacher model."),
    config: ConfigFile = None,
    overrides: Overrides = [],  # noqa: B006 (typer copies it)
    seed: Optional[int] = typer.Option(None, "--seed", help="Seed of this teacher (overrides train.seed): several seeds, several teachers."),
    data: DataDir = None,
    device: Device = None,
    resume: Resume = False,
    quiet: Quiet = False,
) -> None:
    """Train a teacher: `sciner train` with the [distill] teacher overrides (e.g. mpnet, lr 3e-5).

    Dev = the held-out groups, as for any model; the best epoch is saved to OUTPUT.

    Example: sciner distill teacher --config configs/distill.toml --seed 13 -o runs/distill/teacher-mpnet-s13
    """
    from sciner.distill.teacher import teacher_config
    from sciner.training.train import train

    cfg = teacher_config(training_config(config, overrides, data, device), seed)
    result = train(cfg, output, resume=resume, show_progress=not quiet, resume_command=resume_command())
    typer.echo(f"teacher: best dev micro F1 {result.best_f1:.4f} at epoch {result.best_epoch}; model in {output}")


@distill_app.command()
def paragraphs(
    output: Path = typer.Option(..., "--output", "-o", help="Tokenized paragraphs to write (.jsonl, or any format sciner writes)."),
    config: ConfigFile = None,
    overrides: Overrides = [],  # noqa: B006 (typer copies it)
    raw: Optional[Path] = typer.Option(None, "--raw", help="Raw text folder (*.txt, a paragraph a line); default: DATA/raw."),
    count: Optional[int] = typer.Option(None, "--paragraphs", help="Paragraphs to write (at least; default distill.paragraphs)."),
    quiet: Quiet = False,  # prints only its result; -q is accepted as on every verb
) -> None:
    """Tokenize and pack raw paragraphs as `distill label` would, into a file, for a machine without spaCy.

    `sciner distill label --input FILE` on that machine then labels the same paragraphs.

    Example: sciner distill paragraphs --paragraphs 200000 -o runs/distill/raw-200k.jsonl
    """
    from sciner.distill.label import raw_source, shards_until
    from sciner.document import Paragraph
    from sciner.formats.registry import write_file

    cfg = training_config(config, overrides, None, None)
    source = raw_source(cfg, raw)
    paras = [Paragraph(tokens) for _, part, _, _ in shards_until(source, count or cfg.distill.paragraphs)
             for tokens in part or []]
    write_file(paras, output)
    typer.echo(f"{len(paras)} paragraphs written to {output}")


@distill_app.command()
def label(
    teachers: list[Path] = typer.Option(..., "--teacher", help="A teacher model folder (repeatable: their distributions are averaged)."),
    output: Path = typer.Option(..., "--output", "-o", help="Soft-label folder (manifest.json + shard-*.npz)."),
    config: ConfigFile = None,
    overrides: Overrides = [],  # noqa: B006 (typer copies it)
    source_file: Optional[Path] = typer.Option(None, "--input", help="Label this tokenized file (e.g. from `distill paragraphs`) instead of raw text."),
    raw: Optional[Path] = typer.Option(None, "--raw", help="Raw text folder; default: DATA/raw."),
    count: Optional[int] = typer.Option(None, "--paragraphs", help="Paragraphs to label (at least; default distill.paragraphs)."),
    device: Device = None,
    quiet: Quiet = False,
) -> None:
    """Label raw paragraphs with the teachers' averaged tag distributions (top-k, fp16, in shards).

    Shards already in OUTPUT are kept: run it again to continue after an interruption.

    Example: sciner distill label --teacher runs/distill/teacher-mpnet-s13 --paragraphs 200000 -o runs/distill/soft
    """
    from sciner.distill.label import FileSource, label as run_label, raw_source

    cfg = training_config(config, overrides, None, device)
    source = (FileSource(source_file, cfg.distill.shard_paragraphs) if source_file is not None
              else raw_source(cfg, raw))
    result = run_label(teachers, source, output, paragraphs=count or cfg.distill.paragraphs,
                       top_k=cfg.distill.top_k, seed=cfg.train.seed, device=cfg.train.device,
                       progress=None if quiet else typer.echo)
    typer.echo(f"{result.paragraphs} paragraphs labelled in {output} ({result.shards_written} shards written, "
               f"{result.shards_skipped} already there, {result.seconds:.0f} s)")


@distill_app.command()
def student(
    soft: Path = typer.Option(..., "--soft", help="Soft-label folder written by `sciner distill label`, or "
                              "its compact *.labels.xz file (`sciner distill compact`)."),
    output: Path = typer.Option(..., "--output", "-o", help="Folder of the student model."),
    config: ConfigFile = None,
    overrides: Overrides = [],  # noqa: B006 (typer copies it)
    data: DataDir = None,
    device: Device = None,
    resume: Resume = False,
    quiet: Quiet = False,
) -> None:
    """Train the student on gold (hard labels) and soft labels (cross-entropy to the teachers, temperature T).

    The result is a model folder like any other: `sciner calibrate` it, then `sciner predict -m` it.

    Example: sciner distill student --config configs/distill.toml --soft runs/distill/soft -o runs/distill/student
    """
    from sciner.data.soft_labels import read_manifest
    from sciner.training.train import train

    read_manifest(soft)  # a wrong folder fails now, not after the corpus and the encoder have loaded
    cfg = training_config(config, overrides, data, device)
    cfg.distill.soft_labels = str(soft)
    result = train(cfg, output, resume=resume, show_progress=not quiet, resume_command=resume_command())
    typer.echo(f"student: best dev micro F1 {result.best_f1:.4f} at epoch {result.best_epoch}; model in {output}")


@distill_app.command()
def compact(
    soft: Path = typer.Argument(..., help="Soft-label folder written by `sciner distill label`, or a compact "
                                "file to pack again (with fewer --top-k)."),
    output: Path = typer.Option(..., "--output", "-o", help="The compact file to write (*.labels.xz)."),
    top: int = typer.Option(0, "--top-k", min=0, metavar="<int>",
                            help="Tags kept per token, the most probable (default 0: all the folder keeps, 4)."),
    quiet: Quiet = False,  # prints only its result; -q is accepted as on every verb
) -> None:
    """Pack a soft-label folder as one small file: per token the teachers' most probable tags
    and their probabilities to 1/255, xz-compressed (about 1.9 bytes a token with 4 tags), to
    carry labels home from a GPU machine; `distill student --soft` reads it.

    Example: sciner distill compact runs/distill/soft -o runs/distill/raw.labels.xz
    """
    from sciner.data.soft_labels import write_compact

    paragraphs = write_compact(soft, output, top)
    typer.echo(f"{paragraphs} paragraphs written to {output} ({output.stat().st_size / 1e6:.1f} MB)")


@distill_app.command("pack-encoder")
def pack_encoder(
    encoder: str = typer.Argument(..., help="Encoder: a registered name (all-mpnet-base-v2) or an HF folder."),
    output: Path = typer.Option(..., "--output", "-o", help="Folder for part-1 ... part-N."),
    parts: int = typer.Option(2, "--parts", min=1, help="Parts to split the int8 weights into."),
    quiet: Quiet = False,  # prints only its result; -q is accepted as on every verb
) -> None:
    """Pack an encoder as int8 weights in parts small enough to carry one per call.

    Example: sciner distill pack-encoder all-mpnet-base-v2 --parts 2 -o runs/carry/mpnet
    """
    from sciner.distill.carry import pack_encoder as pack
    from sciner.model.encoder import encoder_folder

    for folder in pack(encoder_folder(encoder), output, parts):
        typer.echo(str(folder))


@distill_app.command("unpack-encoder")
def unpack_encoder(
    parts: list[Path] = typer.Argument(..., help="The part folders written by pack-encoder."),
    output: Path = typer.Option(..., "--output", "-o", help="The encoder folder to write."),
    quiet: Quiet = False,  # prints only its result; -q is accepted as on every verb
) -> None:
    """Unpack int8 encoder parts into an fp32 HF encoder folder that train and distill accept.

    Example: sciner distill unpack-encoder runs/carry/mpnet/part-1 runs/carry/mpnet/part-2 -o runs/mpnet
    """
    from sciner.distill.carry import unpack_encoder as unpack

    typer.echo(f"encoder written to {unpack(parts, output)}")
