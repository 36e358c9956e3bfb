"""NumPy against torch, both fp32, for one model's network: which path a model's depth should take
(``sciner.inference.choose.MAX_LAYERS``).

    python benchmarks/numpy_layers.py --model default --lines 300 --threads 1

Tags the first --lines paragraphs of the 2022 test file in one process, alternating the two
paths --repeat times: the NumPy network (as ``Tagger.load`` builds it for a model of at most
MAX_LAYERS layers, and for a deeper one's calls of at most SMALL_CALL_WORDS words) and the
torch network in fp32. Prints the CPU, each path's median seconds
(tokenizing, network, decoding; no start-up), how many tags differ, and where the NumPy path's
time went (cProfile's cumulative seconds of its GELU and LayerNorm within the encoder).
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import statistics
import sys
import time
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="default", help="default, fast or a model folder")
    parser.add_argument("--input", type=Path,
                        default=ROOT.parent / "shared" / "data" / "test-inputs" / "2022-official-test.txt")
    parser.add_argument("--lines", type=int, default=300)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = str(args.threads)  # before NumPy or torch load their BLAS

    import torch
    from speed import cpu_name

    from sciner.formats.registry import read_file
    from sciner.inference import choose
    from sciner.inference.tagger import Tagger
    from sciner.model.store import model_directory

    torch.set_num_threads(args.threads)
    path = model_directory(args.model)
    paragraphs = [p.tokens for p in read_file(args.input, None)][: args.lines]
    with mock.patch.object(choose, "runs_in_numpy", return_value=True):
        in_numpy = Tagger.load(path, precision="fp32")
    with mock.patch.object(choose, "bert_layers", return_value=False):  # torch for calls of every size
        in_torch = Tagger.load(path, precision="fp32")
    print(f"CPU: {cpu_name()}; {args.threads} thread(s); {args.model}: "
          f"{sum(map(len, paragraphs))} tokens in {len(paragraphs)} paragraphs")

    for tagger in (in_numpy, in_torch):  # NumPy reads its arrays at its first call: not timed
        tagger.tag(paragraphs[:1])
    seconds: dict[str, list[float]] = {"numpy": [], "torch": []}
    tags: dict[str, list[list[str]]] = {}
    for _ in range(args.repeat):
        for name, tagger in (("numpy", in_numpy), ("torch", in_torch)):
            start = time.perf_counter()
            tags[name] = [p.tags for p in tagger.tag(paragraphs)]
            seconds[name].append(time.perf_counter() - start)
    numpy_s, torch_s = (statistics.median(seconds[k]) for k in ("numpy", "torch"))
    differ = sum(a != b for pa, pb in zip(tags["numpy"], tags["torch"]) for a, b in zip(pa, pb))
    print(f"numpy fp32 {numpy_s:6.2f} s   torch fp32 {torch_s:6.2f} s   numpy/torch {numpy_s / torch_s:.2f}   "
          f"tags differing {differ} of {sum(map(len, tags['numpy']))}")

    profile = cProfile.Profile()
    profile.runcall(in_numpy.tag, paragraphs)
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    spent = {func[2]: row[3] for func, row in stats.items()
             if func[0].endswith("numpy_network.py") and func[2] in ("_encode", "_gelu", "_layer_norm")}
    print("numpy path, cumulative s (profiled): " + "  ".join(f"{k} {v:.2f}" for k, v in sorted(spent.items())))


if __name__ == "__main__":
    main()
