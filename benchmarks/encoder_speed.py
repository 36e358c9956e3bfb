"""Encoder forward speed and size of the offline encoders, on the same paragraphs.

    python benchmarks/encoder_speed.py [--paragraphs 200] [--threads 1]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--input", type=Path, default=ROOT.parent / "shared" / "data" / "test-inputs" / "2022-official-test.txt")
    parser.add_argument("--paragraphs", type=int, default=200)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()

    import torch

    from sciner.config import ModelConfig
    from sciner.formats.paragraphs import read_paragraphs
    from sciner.model.encoder import ENCODERS
    from sciner.model.network import NERModel
    from sciner.model.windows import featurize_many
    from sciner.inference.batch import predict_spans

    torch.set_num_threads(args.threads)
    paras = [p.tokens for p in read_paragraphs(args.input)[: args.paragraphs]]
    n_tokens = sum(len(p) for p in paras)
    print(f"{n_tokens} tokens, {len(paras)} paragraphs, {args.threads} thread(s), fp32, untrained BIO head")
    from sciner.model.encoder import load_encoder

    for name in ENCODERS:
        encoder, tokenizer = load_encoder(name)
        model = NERModel(ModelConfig(encoder=name), encoder, tokenizer).eval()
        params = sum(p.numel() for p in encoder.parameters())
        subwords = sum(f.n_subwords for f in featurize_many(tokenizer, paras, model.cfg))
        start = time.perf_counter()
        predict_spans(model, paras)
        seconds = time.perf_counter() - start
        print(f"{name:<20} {params / 1e6:6.1f}M params  {2 * params / 2**20:6.0f} MB in fp16  "
              f"{subwords:>6} subwords  {n_tokens / seconds:7.0f} tokens/s")


if __name__ == "__main__":
    main()
