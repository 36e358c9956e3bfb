"""Latency and throughput of `sciner serve` at 1, 8 and 32 concurrent clients, against the same
work through `sciner predict`.

The work: the first PARAGRAPHS paragraphs of the 2022 official test input, sent as requests
of PER_REQUEST paragraphs each (every request is one paper, as one file is to predict). The
server is started as a user starts it, on a free loopback port; its model load is not timed.
`sciner predict` runs as a whole process on the same paragraphs in one file (model load
included, as a user pays it each time), and its tags are checked against the server's.

    python benchmarks/serve.py [--input ../shared/data/test-inputs/2022-official-test.txt] [--paragraphs 192]
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_INPUT = ROOT.parent / "shared" / "data" / "test-inputs" / "2022-official-test.txt"


def cpu_name() -> str:
    out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
    fields = dict(line.split(":", 1) for line in out.splitlines() if ":" in line)
    flags = fields.get("Flags", "")
    bf16 = "amx_bf16" in flags or "avx512_bf16" in flags
    return f"{fields.get('Model name', '?').strip()}, {fields.get('CPU(s)', '?').strip()} cores, native bf16: {bf16}"


def post(url: str, paragraphs: list[list[str]]) -> tuple[float, dict]:
    body = json.dumps({"paragraphs": paragraphs}).encode()
    request = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"})
    start = time.perf_counter()
    with urllib.request.urlopen(request, timeout=600) as response:
        answer = json.loads(response.read())
    return time.perf_counter() - start, answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--input", type=Path, default=DEFAULT_INPUT)
    parser.add_argument("--paragraphs", type=int, default=192)
    parser.add_argument("--per-request", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()

    lines = [line.split() for line in args.input.read_text(encoding="utf-8").splitlines() if line.strip()]
    paragraphs = lines[: args.paragraphs]
    requests = [paragraphs[i : i + args.per_request] for i in range(0, len(paragraphs), args.per_request)]
    tokens = sum(len(p) for p in paragraphs)
    print(f"CPU: {cpu_name()}; torch threads {args.threads}")
    print(f"work: {len(paragraphs)} paragraphs, {tokens} tokens, {len(requests)} requests of {args.per_request}")

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "sciner", "serve", "--port", str(port), "--threads",
                               str(args.threads), "-q"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(1200):
            try:
                urllib.request.urlopen(url + "/health", timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        post(url + "/v1/tag", requests[0])  # warm-up
        print(f"\n{'clients':>8} {'p50 ms':>9} {'p95 ms':>9} {'wall s':>8} {'tokens/s':>9}")
        answers: list[dict] = []
        for clients in (1, 8, 32):
            start = time.perf_counter()
            with ThreadPoolExecutor(max_workers=clients) as pool:
                results = list(pool.map(lambda r: post(url + "/v1/tag", r), requests))
            wall = time.perf_counter() - start
            latencies = sorted(1000 * t for t, _ in results)
            p95 = latencies[min(len(latencies) - 1, int(0.95 * len(latencies)))]
            print(f"{clients:>8} {statistics.median(latencies):>9.0f} {p95:>9.0f} {wall:>8.2f} {tokens / wall:>9.0f}")
            answers = [a for _, a in results]
    finally:
        server.terminate()
        server.wait(timeout=30)

    with tempfile.TemporaryDirectory() as folder:
        source, out = Path(folder) / "in.txt", Path(folder) / "out.jsonl"
        # One file per request would make predict load the model 64 times; one file holds all.
        source.write_text("".join(" ".join(p) + "\n" for p in paragraphs), encoding="utf-8")
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "sciner", "predict", str(source), "-o", str(out), "-q", "--threads",
                        str(args.threads), "--paragraph-local"], check=True)
        wall = time.perf_counter() - start
        predicted = [json.loads(line)["entities"] for line in out.read_text(encoding="utf-8").splitlines()]
    print(f"\nsciner predict, one process over the same {len(paragraphs)} paragraphs (model load included): "
          f"{wall:.2f} s, {tokens / wall:.0f} tokens/s")
    served = [[(s["label"], s["start"], s["end"]) for s in p["spans"]] for a in answers for p in a["paragraphs"]]
    local = [[(e["type"], e["start"], e["end"]) for e in ents] for ents in predicted]
    same = sum(a == b for a, b in zip(served, local))
    print(f"spans of the served paragraphs equal to predict --paragraph-local's: {same}/{len(local)} "
          "(each request is one paper to the paper-level pass; predict --paragraph-local none)")


if __name__ == "__main__":
    main()
