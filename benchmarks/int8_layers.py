"""Which of the default model's Linear layers can run in int8 (torch dynamic quantization) without
losing dev F1: the question behind `--precision auto` on CPUs without native bf16 (AVX2-only),
where the default model runs in fp32 and takes 3x spaCy's CNN's time (issue 34).

`--precision int8` quantizes every Linear with one scale per weight tensor; it cost about 4 points
of dev F1 (docs/accuracy.md). Here each variant quantizes a subset of the Linears, per tensor or
per output channel (`--per-channel`), and is scored on the leave-groups-out dev split (the four
groups of configs/default.toml): micro F1 without biases, cross-fitted micro F1 (each dev group
decoded with type biases fit on the other three, as `sciner calibrate` measures) with its per-type
F1, the largest log-probability change against fp32, and the seconds the dev log-probabilities
took on this machine (2,338 paragraphs; the CPU is named).

    python benchmarks/int8_layers.py [--variants fp32,ffn-in,ffn,encoder,all]
        [--per-channel] [--threads 2] [--data ../shared/data]

Variants: ffn-in = each layer's first feed-forward Linear (its input is a LayerNorm's output);
ffn = both feed-forward Linears; encoder = every encoder Linear; all = those and the tagging
layer. Query, key and value are left out of the variants of their own: tagging multiplies them
fused into one matrix (sciner.model.fast_bert), not through their Linear modules.
"""

from __future__ import annotations

import argparse
import time
import warnings
from pathlib import Path

import numpy as np
import torch

ROOT = Path(__file__).resolve().parents[1]
VARIANTS = ("fp32", "ffn-in", "ffn", "encoder", "all")
SHORT = {"MethodName": "Method", "HyperparameterName": "HPName", "HyperparameterValue": "HPValue",
         "MetricName": "MetName", "MetricValue": "MetValue", "TaskName": "Task", "DatasetName": "Dataset"}


def chosen(name: str, variant: str) -> bool:
    """Whether the Linear called ``name`` is quantized in ``variant``."""
    ffn_in = name.endswith("intermediate.dense")
    ffn_out = name.endswith("output.dense") and ".attention." not in name
    return {"fp32": False, "ffn-in": ffn_in, "ffn": ffn_in or ffn_out,
            "encoder": name.startswith("encoder."), "all": True}[variant]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--per-channel", action="store_true", help="One weight scale per output channel.")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    args = parser.parse_args()

    from speed import cpu_name

    from sciner.config import load_config
    from sciner.data.assemble import assemble
    from sciner.evaluate.metrics import classification_report
    from sciner.inference.calibrate import DEFAULT, cross_fitted_tags, decode_with_bias
    from sciner.inference.tagger import Tagger
    from sciner.labels import ENTITY_TYPES

    torch.set_num_threads(args.threads)
    cfg = load_config(None, [])
    cfg.data.data_dir = str(args.data)
    corpus = assemble(cfg.data, seed=cfg.train.seed)
    gold = [p.tags or [] for p in corpus.dev]
    tokens = [p.tokens for p in corpus.dev]
    print(f"dev split: leave-groups-out, groups {', '.join(corpus.dev_groups)}; {len(tokens)} paragraphs")
    print(f"CPU: {cpu_name()}; {args.threads} threads; weights quantized per "
          f"{'output channel' if args.per_channel else 'tensor'}")
    print(f"{'variant':<14}{'int8':>5}{'seconds':>9}{'max diff':>10}{'no bias':>9}{'cross-fit':>10}  per type (cross-fitted)")
    variants = [v for v in args.variants.split(",") if v and v != "fp32"]
    if unknown := sorted(set(variants) - set(VARIANTS)):
        parser.error(f"unknown variant {', '.join(unknown)}; choose from {', '.join(VARIANTS)}")
    reference: list[np.ndarray] | None = None
    for variant in ["fp32", *variants]:  # fp32 first: the reference of "max diff"
        tagger = Tagger.load("default", precision="fp32")
        network = tagger.networks.for_call(sum(map(len, tokens)))  # the torch network of the split's call
        names = {n for n, m in network.model.named_modules() if isinstance(m, torch.nn.Linear) and chosen(n, variant)}
        if names:
            from torch.ao.quantization import default_dynamic_qconfig, per_channel_dynamic_qconfig

            qconfig = per_channel_dynamic_qconfig if args.per_channel else default_dynamic_qconfig
            with warnings.catch_warnings():  # torch marks eager dynamic quantization deprecated; it still works
                warnings.simplefilter("ignore")
                network.model = torch.ao.quantization.quantize_dynamic(network.model, {n: qconfig for n in names},
                                                                       dtype=torch.qint8)
        start = time.perf_counter()
        log_probs = tagger.log_probs(tokens)
        seconds = time.perf_counter() - start
        reference = log_probs if reference is None else reference
        diff = max(float(np.abs(a - b).max()) for a, b in zip(log_probs, reference) if len(a))
        plain = classification_report(gold, decode_with_bias(log_probs, {}, DEFAULT.batch)).to_dict()
        cross = classification_report(gold, cross_fitted_tags(log_probs, gold, corpus.dev_group_of, DEFAULT)[0])
        scores = cross.to_dict()
        per_type = " ".join(f"{SHORT[t]} {scores['per_type'][t]['f1']:.3f}" for t in ENTITY_TYPES)
        print(f"{variant:<14}{len(names):>5}{seconds:>9.1f}{diff:>10.3f}{plain['micro']['f1']:>9.4f}"
              f"{scores['micro']['f1']:>10.4f}  {per_type}", flush=True)


if __name__ == "__main__":
    main()
