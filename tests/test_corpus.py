"""Tagging a corpus: ``sciner predict INPUTS -o DIR --workers N [--resume] [--ray]`` writes what the
plain ``sciner predict INPUTS -o DIR`` writes, byte for byte, one input at a time, with a
manifest to resume from. The shipped model in fp32, on three tiny inputs."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from sciner.files.run import MANIFEST, read_manifest
from sciner.inference.predict import Tagging
from sciner.inference.tagger import Tagger
from sciner.model.batching import BATCH_SUBWORDS
from sciner.outputs import append_line

PAPERS = {
    "a.txt": "We fine-tune BERT on SQuAD and report an F1 of 88.5 .\nELMo improves named entity recognition on CoNLL-2003 .\n",
    "sub/b.txt": "We train with a learning rate of 0.001 and a batch size of 32 .\n",
    "c.txt": "RoBERTa reaches 90.2 accuracy on MNLI .\nXLNet is evaluated on GLUE .\nWe use BLEU for translation .\n",
}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    """Three small papers, one in a subfolder."""
    root = tmp_path_factory.mktemp("papers")
    for name, text in PAPERS.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def inputs(root: Path) -> list[str]:
    return [str(root / name) for name in PAPERS]


def outputs(folder: Path) -> dict[str, bytes]:
    """Every output file under ``folder`` (the manifest aside), by relative path."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and p.name != MANIFEST}


# In-process runs take the session's shipped model through conftest's ``loaded_once``; the
# worker processes and Ray actors load theirs for real.


@pytest.fixture(scope="module")
def plain(corpus: Path, shipped_tagger: Tagger, tmp_path_factory) -> dict[str, bytes]:
    """What the plain ``sciner predict INPUTS -o DIR`` (every input in one batch) writes."""
    from sciner.files.inputs import read_input
    from sciner.files.plan import write_outputs
    from sciner.files.run import read_chunks
    from sciner.inference.predict import plan_outputs, tag_read

    paths = [Path(p) for p in inputs(corpus)]
    folder = tmp_path_factory.mktemp("plain")
    plan = plan_outputs(paths, f"{folder}/", None)
    [read] = read_chunks(paths, read_input, on_error=pytest.fail, chunk_tokens=10**9)
    write_outputs(plan, tag_read(shipped_tagger, read, batch_subwords=BATCH_SUBWORDS, show_progress=False))
    return outputs(folder)


def manifest_lines(folder: Path) -> list[dict]:
    return [json.loads(line) for line in (folder / MANIFEST).read_text(encoding="utf-8").splitlines()]


def test_one_worker_writes_what_the_plain_run_writes_and_a_line_per_input(cli, loaded_once, corpus, plain, tmp_path) -> None:
    out = tmp_path / "corpus"
    result = cli("predict", *inputs(corpus), "-o", f"{out}/", "--workers", "1", "--precision", "fp32", "-q")
    assert result.returncode == 0, result.stderr
    assert outputs(out) == plain
    assert set(plain) == {"a.conll", "sub/b.conll", "c.conll"}
    lines = manifest_lines(out)
    assert sorted(line["input"] for line in lines) == sorted(inputs(corpus))
    for line in lines:
        assert line["status"] == "ok" and line["error"] is None
        assert line["bytes"] == os.path.getsize(line["output"]) and line["seconds"] >= 0
    by_name = {Path(line["input"]).name: line for line in lines}
    assert by_name["c.txt"]["paragraphs"] == 3
    assert by_name["b.txt"]["tokens"] == len(PAPERS["sub/b.txt"].split())


@pytest.mark.slow
def test_two_worker_processes_write_what_the_plain_run_writes(cli, corpus, plain, tmp_path) -> None:
    out = tmp_path / "corpus"
    result = cli("predict", *inputs(corpus), "-o", f"{out}/", "--workers", "2", "--precision", "fp32")
    assert result.returncode == 0, result.stderr
    assert outputs(out) == plain
    assert len(manifest_lines(out)) == 3
    assert "from 3 input file(s) with 2 worker(s)" in result.stderr


def test_resume_skips_the_inputs_done_and_redoes_the_others(cli, loaded_once, corpus, tmp_path) -> None:
    out = tmp_path / "corpus"
    args = ("predict", *inputs(corpus), "-o", f"{out}/", "--workers", "1", "--precision", "fp32", "-q")
    assert cli(*args).returncode == 0
    kept = out / "a.conll"
    before = kept.stat().st_mtime_ns
    (out / "c.conll").unlink()  # lost: redone
    whole = (out / "sub" / "b.conll").read_bytes()
    (out / "sub" / "b.conll").write_bytes(whole[:10])  # cut short: redone
    with open(out / MANIFEST, "a", encoding="utf-8") as handle:
        handle.write('{"input": "cut short by a cra')  # the line a crash leaves: ignored

    result = cli(*args, "--resume")
    assert result.returncode == 0, result.stderr
    assert kept.stat().st_mtime_ns == before
    assert (out / "sub" / "b.conll").read_bytes() == whole and (out / "c.conll").is_file()
    redone = [json.loads(line) for line in (out / MANIFEST).read_text(encoding="utf-8").splitlines()[4:]]
    assert sorted(Path(r["input"]).name for r in redone) == ["b.txt", "c.txt"]
    assert set(read_manifest(out / MANIFEST)) == set(inputs(corpus))

    again = cli(*args[:-1], "--resume")  # all done: nothing tagged, nothing appended
    assert "skipped 3 input(s) already done" in again.stderr
    assert len((out / MANIFEST).read_text(encoding="utf-8").splitlines()) == 6


def test_an_interrupted_run_says_how_to_go_on_and_resume_finishes_it(cli, loaded_once, corpus, tmp_path,
                                                                       monkeypatch) -> None:
    import sciner.files.run as runner

    real_run_job, calls = runner.run_job, []

    def ctrl_c_on_the_second_input(*args):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real_run_job(*args)

    monkeypatch.setattr(runner, "run_job", ctrl_c_on_the_second_input)
    out = tmp_path / "corpus"
    args = ("predict", *inputs(corpus), "-o", f"{out}/", "--workers", "1", "--precision", "fp32", "-q")
    result = cli(*args)
    assert result.returncode == 130
    assert f"run the same command with --resume ({out / MANIFEST} has what is done)" in result.stderr
    assert len(manifest_lines(out)) == 1

    monkeypatch.setattr(runner, "run_job", real_run_job)
    assert cli(*args, "--resume").returncode == 0
    assert sorted(r["input"] for r in manifest_lines(out)) == sorted(inputs(corpus))


def test_a_failing_input_is_recorded_and_the_others_complete(cli, loaded_once, corpus, tmp_path) -> None:
    broken = tmp_path / "broken.pdf"
    broken.write_text("not a pdf", encoding="utf-8")
    out = tmp_path / "corpus"
    result = cli("predict", *inputs(corpus), broken, "-o", f"{out}/", "--workers", "1", "-q")
    assert result.returncode == 9
    assert "error[E006]: " in result.stderr and "broken.pdf" in result.stderr
    status = {Path(r["input"]).name: (r["status"], r["error"]) for r in manifest_lines(out)}
    assert status["broken.pdf"][0] == "failed" and status["broken.pdf"][1].startswith("error[E006]: ")
    assert [s for name, (s, _) in status.items() if name != "broken.pdf"] == ["ok"] * 3
    assert not any(Path(r["output"]).exists() for r in manifest_lines(out) if r["status"] == "failed")


def test_workers_need_an_output_folder(cli, corpus, tmp_path) -> None:
    result = cli("predict", *inputs(corpus), "-o", tmp_path / "all.conll", "--workers", "2")
    assert result.returncode == 10
    assert result.stderr.startswith("error[E008]: ") and "-o a directory" in result.stderr


def test_ray_without_ray_installed_says_how_to_install_it(cli, corpus, tmp_path, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails as if not installed
    result = cli("predict", *inputs(corpus), "-o", f"{tmp_path}/out/", "--ray", "-q")
    assert result.returncode == 13
    assert result.stderr.strip() == "error[E011]: --ray needs Ray: pip install 'sciner[ray]'"


@pytest.mark.slow
def test_ray_actors_write_what_the_plain_run_writes(cli, corpus, plain, tmp_path) -> None:
    pytest.importorskip("ray", reason="Ray is the optional extra sciner[ray]")
    out = tmp_path / "corpus"
    result = cli("predict", *inputs(corpus), "-o", f"{out}/", "--workers", "2", "--ray", "--precision", "fp32", "-q")
    assert result.returncode == 0, result.stderr
    assert outputs(out) == plain
    assert sorted(r["status"] for r in manifest_lines(out)) == ["ok"] * 3


def test_a_line_appended_after_a_crash_stays_whole(tmp_path) -> None:
    log = tmp_path / "log.jsonl"
    log.write_text('{"input": "a"}\n{"inp', encoding="utf-8")
    append_line(log, '{"input": "b"}')
    assert log.read_text(encoding="utf-8") == '{"input": "a"}\n{"inp\n{"input": "b"}\n'
    assert set(read_manifest(log)) == {"a", "b"}


def test_a_corpus_run_tokenizes_like_the_plain_run(cli, loaded_once, tmp_path) -> None:
    """Regression: --workers dropped --tokenize, so raw text was split on spaces only."""
    raw = tmp_path / "raw" / "notes.txt"
    raw.parent.mkdir()
    raw.write_text("We fine-tune BERT on SQuAD v1.1, and report F1.\n", encoding="utf-8")
    plain = cli("predict", raw, "-o", tmp_path / "plain.conll", "--tokenize", "--precision", "fp32", "-q")
    corpus = cli("predict", raw, "-o", f"{tmp_path / 'corpus'}/", "--workers", "1", "--tokenize",
                 "--precision", "fp32", "-q")
    assert plain.returncode == corpus.returncode == 0, corpus.stderr
    tagged = (tmp_path / "corpus" / "notes.conll").read_text(encoding="utf-8")
    assert tagged == (tmp_path / "plain.conll").read_text(encoding="utf-8")
    assert "v1.1\t" in tagged and ",\tO" in tagged  # "v1.1," became two tokens


def test_workers_get_the_device_and_their_share_of_the_threads(cli, tmp_path, monkeypatch) -> None:
    """Regression: the workers loaded their model on the default device, whatever --device said."""
    class Loaded(Exception):
        pass

    seen = []

    def load(self):
        seen.append(self)
        raise Loaded  # stop the run here: only what the worker was given matters

    monkeypatch.setattr(Tagging, "load", load)
    (tmp_path / "a.txt").write_text("We use BERT .\n", encoding="utf-8")
    with pytest.raises(Loaded):
        cli("predict", tmp_path / "a.txt", "-o", f"{tmp_path / 'out'}/", "--workers", "1", "--device", "cpu",
            "--threads", "2", "-q")
    assert (seen[0].options.device, seen[0].threads) == ("cpu", 2)


def _children(pid: int) -> set[int]:
    """The live processes whose parent is ``pid`` (read from /proc; zombies count as gone)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                found.add(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_kill_9_of_a_worker_run_leaves_no_process_tagging_for_nobody(tmp_path) -> None:
    """Issue 23: `kill -9` of `predict --workers 2` left its workers running 20 s later."""
    import signal
    import subprocess
    import time

    papers = tmp_path / "papers"
    papers.mkdir()
    paragraph = "We fine-tune BERT on SQuAD v1.1 with a learning rate of 3e-5 and report F1 .\n"
    for i in range(6):
        (papers / f"p{i}.txt").write_text(paragraph * 400)
    run = subprocess.Popen([sys.executable, "-m", "sciner", "predict", str(papers), "-o", str(tmp_path / "out") + "/",
                            "--workers", "2", "-q"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        workers: set[int] = set()
        helpers: set[int] = set()
        while len(workers) < 2 and time.monotonic() < deadline and run.poll() is None:
            time.sleep(0.2)
            workers = _children(run.pid)
        assert len(workers) >= 2, "the workers never started"
        time.sleep(2)  # let them load the model and start tagging
        helpers = workers | {grandchild for w in workers for grandchild in _children(w)}
        run.send_signal(signal.SIGKILL)
        run.wait()
        deadline = time.monotonic() + 10
        while any(_alive(p) for p in helpers) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not [p for p in helpers if _alive(p)]
    finally:
        run.kill()
        for p in helpers | _children(run.pid):
            if _alive(p):
                os.kill(p, signal.SIGKILL)
