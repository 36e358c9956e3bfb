"""The bad-input catalogue: every verb answers every bad file, path, model folder and config
with exactly one line ``error[Exxx]: ...`` on stderr and that error's documented exit code;
never a traceback (exit 1) and never click's usage error (exit 2).

The CLI runs in-process (``sciner.cli.main`` with ``sys.argv`` patched) to keep the table
fast; one case runs as a subprocess, as a user would.
"""

from __future__ import annotations

import builtins
import io
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from sciner import errors
from sciner.errors import ConfigError, FileSystemError, InputFormatError, InputNotFoundError, ModelError, PDFError
from sciner.model.store import META, WEIGHTS


def _error_classes(cls: type) -> list[type]:
    return [cls, *(c for sub in cls.__subclasses__() for c in _error_classes(sub))]


#: Each error code's documented exit code.
EXIT_CODES = {cls.code: cls.exit_code for cls in _error_classes(errors.ScinerError) if cls.code != "E000"}


def run_cli(cli, argv: list[str]) -> tuple[int, str]:
    """Run ``sciner argv`` in-process: the exit code and the stderr text."""
    result = cli(*argv)
    return result.returncode, result.stderr


def assert_one_error(code: int, stderr: str, expected: type[errors.ScinerError], names: str) -> None:
    """One ``error[...]`` line, of ``expected``, naming ``names``; the exit code its class documents."""
    assert "Traceback" not in stderr
    lines = [line for line in stderr.splitlines() if line.startswith("error[")]
    assert len(lines) == 1, stderr
    line = lines[0]
    assert line.startswith(f"error[{expected.code}]: "), line
    assert code == EXIT_CODES[expected.code] == expected.exit_code and code not in (0, 1, 2)
    assert names in line, line


# --- files and paths -------------------------------------------------------------------------

@pytest.fixture(scope="module")
def files(tmp_path_factory) -> Path:
    """A folder of good and bad inputs: gold.conll, latin1.conll (not UTF-8), adir/."""
    root = tmp_path_factory.mktemp("inputs")
    (root / "gold.conll").write_text("We\tO\nuse\tO\nBERT\tB-MethodName\n\n", encoding="utf-8")
    (root / "latin1.conll").write_bytes("Résumé\tO\n\n".encode("latin-1"))
    (root / "adir").mkdir()
    (root / "text.txt").write_text("We use BERT .\n", encoding="utf-8")
    return root


PATH_CASES = [
    # (verb and arguments; names are relative to the `files` folder, expected error, text the line names)
    ("evaluate missing.conll gold.conll", InputNotFoundError, "missing.conll"),
    ("evaluate gold.conll latin1.conll", InputFormatError, "latin1.conll"),
    ("evaluate adir gold.conll", InputFormatError, "adir"),
    ("compare gold.conll gold.conll missing.conll", InputNotFoundError, "missing.conll"),
    ("compare gold.conll latin1.conll gold.conll", InputFormatError, "latin1.conll"),
    ("show missing.conll -o out.html", InputNotFoundError, "missing.conll"),
    ("show latin1.conll -o out.html", InputFormatError, "latin1.conll"),
    ("report gold.conll missing.conll -o report.html", InputNotFoundError, "missing.conll"),
    ("report gold.conll latin1.conll -o report.html", InputFormatError, "latin1.conll"),
    ("convert missing.conll out.jsonl", InputNotFoundError, "missing.conll"),
    ("convert latin1.conll out.jsonl", InputFormatError, "latin1.conll"),
    ("convert adir out.jsonl", InputFormatError, "adir"),
    ("extract missing.pdf", InputNotFoundError, "missing.pdf"),
    ("extract adir", InputNotFoundError, "adir"),  # a folder gives its PDFs; this one has none
    ("extract gold.conll", PDFError, "gold.conll"),
    ("predict missing.txt", InputNotFoundError, "missing.txt"),
    ("calibrate missing-model", ModelError, "missing-model"),
    ("calibrate gold.conll", ModelError, "gold.conll"),
    ("predict text.txt -m missing-model", ModelError, "missing-model"),
    ("predict text.txt -m adir", ModelError, f"{META} is missing"),
]


@pytest.mark.parametrize("argv,expected,names", PATH_CASES, ids=[c[0] for c in PATH_CASES])
def test_bad_paths(cli, monkeypatch, files, argv, expected, names):
    monkeypatch.chdir(files)
    assert_one_error(*run_cli(cli, argv.split()), expected, names)


def test_an_unreadable_file_is_one_line_whichever_verb_reads_it(cli, monkeypatch, files):
    # We run as root, where chmod 000 does not stop reading: refuse the open instead.
    real_open = io.open

    def refusing_open(file, *args, **kwargs):
        if Path(str(file)).name == "secret.conll":
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, *args, **kwargs)

    (files / "secret.conll").write_text("We\tO\n\n", encoding="utf-8")
    monkeypatch.setattr(io, "open", refusing_open)
    monkeypatch.setattr(builtins, "open", refusing_open)
    monkeypatch.chdir(files)
    code, stderr = run_cli(cli, ["evaluate", "secret.conll", "gold.conll"])
    line = stderr.strip().splitlines()[-1]
    assert "Traceback" not in stderr and len([s for s in stderr.splitlines() if s.startswith("error[")]) == 1
    assert "secret.conll" in line and code == EXIT_CODES[line[6:10]] and code not in (0, 1, 2)


def test_an_oserror_no_verb_handled_is_one_line_with_its_own_exit_code(cli, monkeypatch, files):
    import sciner.evaluate

    def disk_gone(*args, **kwargs):
        raise OSError(5, "Input/output error", "gold.conll")

    monkeypatch.setattr(sciner.evaluate, "evaluate_files", disk_gone)
    monkeypatch.chdir(files)
    code, stderr = run_cli(cli, ["evaluate", "gold.conll", "gold.conll"])
    assert stderr == "error[E010]: Input/output error: gold.conll\n"
    assert code == FileSystemError.exit_code == 12


# --- model folders ---------------------------------------------------------------------------

def _edit_meta(change: Callable[[dict], None]) -> Callable[[Path], None]:
    def edit(folder: Path) -> None:
        meta = json.loads((folder / META).read_text())
        change(meta)
        (folder / META).write_text(json.dumps(meta))
    return edit


def _wrong_shape(folder: Path) -> None:
    import torch
    from safetensors.torch import load_file, save_file

    state = load_file(str(folder / WEIGHTS))
    state["head.out.weight"] = torch.zeros(3, 3, dtype=torch.float16)
    save_file(state, str(folder / WEIGHTS))


def _truncate(name: str) -> Callable[[Path], None]:
    def cut(folder: Path) -> None:
        data = (folder / name).read_bytes()
        (folder / name).write_bytes(data[: len(data) // 2])
    return cut


MODEL_FAULTS: dict[str, tuple[Callable[[Path], None], str]] = {
    # name: (how the folder is broken, what the error line names)
    "no model.json": (lambda d: (d / META).unlink(), f"{META} is missing"),
    "no weights": (lambda d: (d / WEIGHTS).unlink(), f"{WEIGHTS} is missing"),
    "truncated model.json": (_truncate(META), f"{META}: not valid JSON"),
    "model.json not an object": (lambda d: (d / META).write_text("[]"), f"{META}: expected a JSON object"),
    "model.json not UTF-8": (lambda d: (d / META).write_bytes(b"{\"labels\": \"\xff\"}"), f"{META}: not valid JSON"),
    "no config": (_edit_meta(lambda m: m.pop("config")), f"{META}: config: missing"),
    "unknown key": (_edit_meta(lambda m: m["config"]["model"].update(colour="red")), f"{META}: model.colour: unknown key"),
    "window as a string": (_edit_meta(lambda m: m["config"]["model"].update(window="256")),
                           f"{META}: model.window: expected an integer, got '256'"),
    "section not a table": (_edit_meta(lambda m: m["config"].update(data=5)), f"{META}: data: expected a table"),
    "unknown head": (_edit_meta(lambda m: m["config"]["model"].update(head="crf")), f"{META}: model.head: must be one of"),
    "window out of range": (_edit_meta(lambda m: m["config"]["model"].update(window_overlap=-1)),
                            f"{META}: model.window_overlap: must be at least 0"),
    "other label set": (_edit_meta(lambda m: m.update(labels=["O", "B-Colour", "I-Colour"])), f"{META}: labels: "),
    "type_bias not an object": (_edit_meta(lambda m: m.update(type_bias=[1, 2])), f"{META}: type_bias: expected an object"),
    "type_bias of an unknown type": (_edit_meta(lambda m: m.update(type_bias={"Colour": 1.0})), "Colour"),
    "truncated weights": (_truncate(WEIGHTS), f"{WEIGHTS}: not a readable safetensors file"),
    "empty weights": (lambda d: (d / WEIGHTS).write_bytes(b""), f"{WEIGHTS}: not a readable safetensors file"),
    "weights not safetensors": (lambda d: (d / WEIGHTS).write_text("hello"), f"{WEIGHTS}: not a readable safetensors file"),
    "weights of the wrong shape": (_wrong_shape, f"{WEIGHTS}: head.out.weight: shape [3, 3]"),
}


@pytest.fixture(scope="module")
def good_model(tmp_path_factory, tiny_encoder_dir) -> Path:
    """An untrained but complete BIO model folder on the tiny encoder (saved, not trained: fast)."""
    from sciner.config import Config
    from sciner.labels import BIO_TAGS
    from sciner.model.store import build_model, save_model

    cfg = Config()
    cfg.model.encoder = str(tiny_encoder_dir)
    cfg.model.shape_dim = 4
    cfg.model.freeze_word_embeddings = False
    folder = tmp_path_factory.mktemp("good-model")
    save_model(build_model(cfg.model), folder, {"labels": list(BIO_TAGS), "config": cfg.to_dict()})
    return folder


def test_the_good_model_loads(good_model):
    from sciner.inference.tagger import Tagger

    assert len(Tagger.load(good_model, precision="fp32").tag([["We", "use", "BERT"]])[0].tags) == 3


@pytest.mark.parametrize("verb", ["predict", "calibrate"])
@pytest.mark.parametrize("fault", list(MODEL_FAULTS))
def test_broken_model_folder(cli, tmp_path, good_model, files, verb, fault):
    import shutil

    folder = tmp_path / "model"
    shutil.copytree(good_model, folder)
    breaks, names = MODEL_FAULTS[fault]
    breaks(folder)
    argv = ["predict", str(files / "text.txt"), "-m", str(folder)] if verb == "predict" else ["calibrate", str(folder)]
    assert_one_error(*run_cli(cli, argv), ModelError, names)


# --- configs ---------------------------------------------------------------------------------

BAD_TOMLS = {
    "data = 5\n": "data: expected a table of keys, got 5",
    "[model]\nwindow = \"256\"\n": "model.window: expected an integer",
    "[train]\nthreads = 0\n": "train.threads: must be at least 1",
    "[train]\nlr = inf\n": "train.lr: expected a finite number, got inf",
    "[colours]\nred = 1\n": "[colours]: unknown section",
    "[train\n": "invalid TOML",
}
# The older, flat shape of a pretraining config still reads, checked as today's tree.
BAD_PRETRAIN_TOMLS = {
    "steps = \"2000\"\n": "pretrain.steps: expected an integer",
    "[pretrain]\nnum_threads = 0\n": "train.threads: must be at least 1",
    "colour = 1\n": "colour: unknown key",
    "[pretrain]\nsteps = 0\n": "pretrain.steps: must be at least 1",
}
BAD_SETS = ["train.threads=0", "model.window=\"256\"", "model.head=crf", "train.epochs=0", "nope.x=1", "train.lr",
            "train.lr=inf", "train.lr=Infinity", "train.lr=NaN", "train.head_lr=1e999"]  # issue 23: inf was accepted
BAD_PRETRAIN_SETS = ["pretrain.steps=0", "train.threads=0", "pretrain.seq_len=\"128\"", "pretrain.colour=1",
                     "pretrain.steps", "steps=1", "pretrain.num_threads=1"]


def _config_argv(verb: str, option: list[str], tmp_path: Path) -> list[str]:
    # A train run with a tiny budget, in case validation let something through.
    tail = {"train": ["-o", str(tmp_path / "run"), "--data", str(tmp_path / "no-data")],
            "pretrain": ["--stop-after", "1", "-q", "-o", str(tmp_path / "run"), "--data", str(tmp_path / "no-data")], "data stats": ["--data", str(tmp_path / "no-data")]}[verb]
    return [*verb.split(), *option, *tail]


@pytest.mark.parametrize("verb", ["train", "data stats", "pretrain"])
@pytest.mark.parametrize("text", list(BAD_TOMLS))
def test_bad_config_file(cli, tmp_path, verb, text):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    argv = _config_argv(verb, ["--config", str(path)], tmp_path)
    assert_one_error(*run_cli(cli, argv), ConfigError, f"{path}: {BAD_TOMLS[text]}")


@pytest.mark.parametrize("text", list(BAD_PRETRAIN_TOMLS))
def test_bad_pretrain_config_file(cli, tmp_path, text):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    argv = _config_argv("pretrain", ["--config", str(path)], tmp_path)
    assert_one_error(*run_cli(cli, argv), ConfigError, f"{path}: {BAD_PRETRAIN_TOMLS[text]}")


@pytest.mark.parametrize("verb", ["train", "data stats"])
@pytest.mark.parametrize("item", BAD_SETS)
def test_bad_set(cli, tmp_path, verb, item):
    argv = _config_argv(verb, ["--set", item], tmp_path)
    assert_one_error(*run_cli(cli, argv), ConfigError, f"--set: {item.split('=')[0]}")


@pytest.mark.parametrize("item", BAD_PRETRAIN_SETS)
def test_bad_pretrain_set(cli, tmp_path, item):
    argv = _config_argv("pretrain", ["--set", item], tmp_path)
    assert_one_error(*run_cli(cli, argv), ConfigError, f"--set: {item.split('=')[0]}")


@pytest.mark.parametrize("verb", ["train", "data stats", "pretrain"])
@pytest.mark.parametrize("bad", ["missing.toml", "adir", "latin1.toml"])
def test_config_path_that_is_not_a_readable_toml(cli, tmp_path, verb, bad):
    (tmp_path / "adir").mkdir()
    (tmp_path / "latin1.toml").write_bytes("name = \"Résumé\"\n".encode("latin-1"))
    argv = _config_argv(verb, ["--config", str(tmp_path / bad)], tmp_path)
    assert_one_error(*run_cli(cli, argv), ConfigError, str(tmp_path / bad))


def test_a_config_error_as_a_user_sees_it(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "sciner", "train", "--set", "train.threads=0", "-o", str(tmp_path)],
                          capture_output=True, text=True, timeout=120)
    assert (proc.returncode, proc.stderr) == (6, "error[E005]: --set: train.threads: must be at least 1, got 0\n")


# --- encoder folders a model names (issue 23) -------------------------------------------------

CUSTOM_CODE = '''
import pathlib
pathlib.Path(__file__).with_name("CODE_RAN").write_text("the folder's code ran")
from transformers import BertConfig, BertModel
class CustomConfig(BertConfig):
    model_type = "custom-bert"
class CustomModel(BertModel):
    config_class = CustomConfig
'''


def _encoder_config(change: Callable[[Path], None]) -> Callable[[Path], None]:
    return lambda encoder: change(encoder / "config.json")


def _custom_code(encoder: Path) -> None:
    config = json.loads((encoder / "config.json").read_text())
    config.update(model_type="custom-bert", auto_map={"AutoConfig": "custom.CustomConfig",
                                                      "AutoModel": "custom.CustomModel"})
    (encoder / "config.json").write_text(json.dumps(config))
    (encoder / "custom.py").write_text(CUSTOM_CODE)


def _pickled_weights(legacy: bool) -> Callable[[Path], None]:
    def write(encoder: Path) -> None:
        import pickle

        import torch
        from safetensors.torch import load_file

        state = load_file(str(encoder / "model.safetensors"))
        (encoder / "model.safetensors").unlink()
        target = encoder / "pytorch_model.bin"
        if legacy:  # the old, non-zip torch format: loads, with torch's warnings that the user must not see
            torch.save(state, target, _use_new_zipfile_serialization=False)
        else:  # a hostile pickle: unpickling it would run code
            marker = encoder / "CODE_RAN"

            class Hostile:
                def __reduce__(self):
                    return exec, (f"open({str(marker)!r}, 'w').write('the pickle ran')",)

            target.write_bytes(pickle.dumps({"weights": Hostile()}))
    return write


ENCODER_FAULTS: dict[str, tuple[Callable[[Path], None], str | None]] = {
    "config.json not JSON": (_encoder_config(lambda p: p.write_text("{")), "config.json: not valid JSON"),
    "config.json a list": (_encoder_config(lambda p: p.write_text("[]")), "config.json: expected a JSON object"),
    "custom code": (_custom_code, "asks to run its own code (auto_map)"),
    "weights a pickle": (_pickled_weights(legacy=False), "cannot load"),
    "legacy weights": (_pickled_weights(legacy=True), None),  # None: it loads, silently
}


@pytest.mark.parametrize("fault", list(ENCODER_FAULTS))
def test_a_broken_or_hostile_encoder_folder_is_one_line(tmp_path, good_model, tiny_encoder_dir, fault):
    """The encoder folder a model names is checked before transformers reads it: never a
    traceback, never a prompt; custom code is refused even with a `y` on standard input,
    which for `sciner predict -` is the data being tagged."""
    import shutil
    import subprocess
    import sys

    encoder = tmp_path / "encoder"
    shutil.copytree(tiny_encoder_dir, encoder)
    model = tmp_path / "model"
    shutil.copytree(good_model, model)
    _edit_meta(lambda m: m["config"]["model"].update(encoder=str(encoder)))(model)
    breaks, names = ENCODER_FAULTS[fault]
    breaks(encoder)
    for argv in (["predict", "-", "-m", str(model), "--precision", "fp32"], ["calibrate", str(model), "-o", str(tmp_path / "c")]):
        done = subprocess.run([sys.executable, "-m", "sciner", *argv], input="y\ny\n", capture_output=True,
                              text=True, timeout=300, cwd=tmp_path)
        assert not (encoder / "CODE_RAN").exists()
        if names is None:
            assert "warn" not in done.stderr.lower(), done.stderr
            continue
        assert done.returncode == ModelError.exit_code, done.stderr
        assert done.stderr.count("\n") == 1 and done.stderr.startswith("error[") and names in done.stderr, done.stderr
        assert "[y/N]" not in done.stdout + done.stderr
