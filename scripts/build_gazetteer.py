"""Build the summary's shipped name list, src/sciner/resources/gazetteer.tsv.gz, from the
shared data's gazetteers (not imported at run time; run again when the lists or
:func:`sciner.summary.names.fold` change):

    python scripts/build_gazetteer.py [../shared/data/gazetteers]

One ``type<TAB>spelling`` row per type and folded name: the spelling
:func:`sciner.summary.names.read_folder` picks from the lists of ``GAZETTEER_FILES``, so the
shipped list gives the names the data folder gives. Written sorted, with a fixed gzip
timestamp, so the same lists give the same bytes.
"""

from __future__ import annotations

import gzip
import io
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from sciner.summary.names import SHIPPED_GAZETTEER, read_folder  # noqa: E402


def main() -> None:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT.parent / "shared" / "data" / "gazetteers"
    names = read_folder(folder)
    if not any(names.values()):
        raise SystemExit(f"{folder}: no gazetteer lists there")
    rows = sorted(f"{label}\t{spelling}\n" for label, found in names.items() for spelling in found.values())
    buffer = io.BytesIO()
    with gzip.GzipFile(fileobj=buffer, mode="wb", mtime=0, compresslevel=9) as handle:
        handle.write("".join(rows).encode("utf-8"))
    SHIPPED_GAZETTEER.write_bytes(buffer.getvalue())
    counts = ", ".join(f"{label} {len(found)}" for label, found in names.items())
    print(f"wrote {SHIPPED_GAZETTEER} ({len(buffer.getvalue()) / 1024:.0f} KiB): {counts}")


if __name__ == "__main__":
    main()
