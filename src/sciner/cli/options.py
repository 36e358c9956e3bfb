"""What the verbs share: the ``--from``/``--to`` help built from the format registry, their
validation, the check that ``-o`` names a file, and the options every computing verb spells
the same way (``-q/--quiet``, ``--threads``, ``--device``, ``--precision``, ``--json``).

One vocabulary: ``--json`` prints the result as JSON on stdout; ``-q/--quiet`` silences
progress bars and status lines on stderr but never the result asked for; ``--threads`` sets
torch's CPU threads; an option with a fixed set of values lists them in ``--help``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from sciner.config import DEVICES, PRECISIONS
from sciner.errors import ConfigError, InputFormatError, OutputError
from sciner.formats.registry import READ_FORMATS, WRITE_FORMATS
from sciner.outputs import wants_directory

def from_help(files: str = "the input files") -> str:
    """The ``--from`` help of a verb reading ``files``."""
    return f"Format of {files}: {', '.join(READ_FORMATS)}. Default: from each file's extension."


FROM_HELP = from_help()


def from_option(files: str = "the input files") -> Any:
    """The ``--from`` option of a verb reading ``files``, its choices listed in ``--help``."""
    return typer.Option("--from", help=from_help(files), metavar=f"[{'|'.join(READ_FORMATS)}]", show_default=False)


From = Annotated[Optional[str], from_option()]
TO_HELP = f"Format of the output: {', '.join(WRITE_FORMATS)}. Default: from the output's extension."


def file_output(output: str) -> Path:
    """``-o`` of a verb that writes one file: refused when it names a folder (an existing one,
    or a path ending in ``/``, which would otherwise become a file named after the folder)."""
    if wants_directory(output):
        raise OutputError(f"{output}: is a directory; -o needs a file name")
    return Path(output)


def one_of(flag: str, choices: Sequence[str], **option: Any) -> Any:
    """An option taking one of a fixed set of values, listed in ``--help`` as ``[a|b|c]``; a
    value outside it is sciner's one-line :class:`ConfigError` naming the choices."""
    name = flag.lstrip("-")

    def parse(value: str) -> str:
        if value in choices:
            return value
        raise ConfigError(f"{name} must be one of {', '.join(choices)}, not {value!r}")

    return typer.Option(flag, parser=parse, metavar=f"[{'|'.join(choices)}]", **option)




# A model folder as a verb's optional argument (info, export); the shipped model when omitted.
ModelArgument = Annotated[
    Optional[Path],
    typer.Argument(metavar="MODEL", help="Model: default, fast (the shipped ones) or a model directory "
                   "(default: default).", show_default=False),
]
# The options of the verbs that read a config (train, pretrain, distill, data): one spelling, one help.
ConfigFile = Annotated[
    Optional[Path],
    typer.Option("--config", "-c", show_default=False,
                 help="TOML config with [data] [model] [train] [pretrain] [distill] tables (configs/default.toml "
                      "has every key); each verb reads the tables it needs; omitted = the defaults."),
]
Overrides = Annotated[
    list[str],
    typer.Option("--set", show_default=False, metavar="SECTION.KEY=VALUE",
                 help="Override one config value: section.key=value, e.g. --set train.lr=3e-5 (repeatable)."),
]
DataDir = Annotated[
    Optional[Path],
    typer.Option("--data", show_default=False,
                 help="Shared data directory: annotated/, raw/ (overrides data.data_dir; default: $SCINER_DATA, "
                      "else ../shared/data)."),
]
Resume = Annotated[bool, typer.Option("--resume", help="Continue from the checkpoint in the output folder after an "
                                                       "interruption.")]
# A model folder as an option (predict, summarize, serve); the shipped model when omitted.
ModelOption = Annotated[
    Optional[Path],
    typer.Option("--model", "-m", show_default=False,
                 help="Model: default (shipped, most accurate), fast (shipped: faster on a CPU, "
                      "a little less accurate; see README's Speed and Accuracy) or a model directory; default: default."),
]
# What a PDF gives besides its body text (extract, predict, summarize); see sciner.pdf.INCLUDE.
Include = Annotated[
    Optional[str],
    typer.Option("--include", metavar="KINDS", show_default=False,
                 help="Also read a PDF's tables (a paragraph a row; a figure's text that holds numbers no row holds, "
                      "a paragraph of kind figure), captions and footnotes (all, not only running text): "
                      "comma-separated, e.g. --include tables,captions. JSONL marks each paragraph's kind."),
]

# The papers summarize and index read, and how their names are spelled (one text for both verbs).
PAPERS_HELP = ("Papers: anything sciner predict reads (.pdf, .txt, CoNLL, JSONL, ... or folders and globs; - is "
               "standard input), tagged with the model; or its tagged output (CoNLL/JSONL with tags), used as it is. "
               "Each file is one paper, unless a JSONL 'doc' field or CoNLL -DOCSTART- lines name several.")
NoGazetteers = Annotated[
    bool,
    typer.Option("--no-gazetteers", help="Keep the papers' spellings: no canonical names from the shipped gazetteer "
                                         "(nor --data's gazetteers/, which add to it)."),
]


def include_kinds(value: Optional[str]) -> tuple[str, ...]:
    """The kinds ``--include`` names (checked where they are used: :func:`sciner.pdf.check_include`)."""
    return tuple(kind.strip() for kind in value.split(",") if kind.strip()) if value else ()


Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="No progress or status lines on stderr (results still print).")]
Json = Annotated[bool, typer.Option("--json", help="Print the result as one JSON document.")]
ParagraphLocal = Annotated[bool, typer.Option(
    "--paragraph-local",
    help="Tag every paragraph on its own. By default each input is one paper, and where the model has "
         "paper-level parameters (model.json 'paper_level'), a name tagged in the paper is evidence at its "
         "other occurrences.")]
def _threads(default: str | bool) -> Any:
    return typer.Option("--threads", min=1, help="CPU threads for torch.", show_default=default)


def _device(default: str | bool) -> Any:
    return one_of("--device", DEVICES, help="Where to compute: auto = cuda if available, else cpu.",
                  show_default=default)


# --threads and --device of a verb whose default is its config's (None), and of one with its own default.
Threads = Annotated[Optional[int], _threads("the config's")]
Device = Annotated[Optional[str], _device("the config's")]
ThreadsOwn = Annotated[int, _threads(True)]
DeviceOwn = Annotated[str, _device(True)]
Precision = Annotated[
    str,
    one_of("--precision", PRECISIONS,
           help="Inference precision: auto = bf16 where the CPU has it natively, else fp32."),
]


JSON_HELP = "Short for --to jsonl: the one spelling of JSON output on every verb."
# --json of the verbs that write tagged paragraphs (predict, extract, convert): their JSON is JSONL.
JsonLines = Annotated[bool, typer.Option("--json", help=JSON_HELP)]


def json_or_to(to_format: str | None, as_json: bool) -> str | None:
    """The output format named by ``--to`` and ``--json`` (which means ``--to jsonl``); the two
    naming different formats is a one-line error."""
    if not as_json:
        return to_format
    if to_format and to_format.lower() != "jsonl":
        raise InputFormatError(f"--json means --to jsonl, but --to says {to_format!r}; give one of them")
    return "jsonl"


def training_config(config: Optional[Path], overrides: list[str], data: Optional[Path], device: Optional[str],
                    threads: Optional[int] = None) -> Any:
    """The config of a verb that trains (train, pretrain, distill): ``--config`` and ``--set``,
    then the ``--data``, ``--device`` and ``--threads`` options, which win."""
    from sciner.config import load_config

    return run_options(load_config(config, overrides), data, device, threads)


def run_options(cfg: Any, data: Optional[Path], device: Optional[str], threads: Optional[int] = None) -> Any:
    """``cfg`` with the ``--data``, ``--device`` and ``--threads`` options, which win over it."""
    if data is not None:
        cfg.data.data_dir = str(data)
    if device is not None:
        cfg.train.device = device
    if threads is not None:
        cfg.train.threads = threads
    return cfg


def resume_command(argv: Optional[list[str]] = None) -> str:
    """The command that continues an interrupted run: the user's own (``sys.argv``), with ``--resume``."""
    import shlex
    import sys

    argv = sys.argv[1:] if argv is None else argv
    return shlex.join(["sciner", *argv, *([] if "--resume" in argv else ["--resume"])])
