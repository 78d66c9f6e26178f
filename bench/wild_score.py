"""Re-lint the wild corpus and re-score it against its triage: every public repository of the
wild batches, each batch recreated by its ``bench/make_*.sh`` script at pinned commits.

    python bench/wild_score.py [--root /tmp] [--json]

For each batch folder found under ``--root`` (``wild5`` … ``wild14``, ``wildrl``, ``corpus2``),
runs ``gradlint check`` on it and matches each GL001-GL005 finding to the batch's triage
(``bench/<batch>-triage.md`` or ``.csv``: repository, path, line, rule, TP / FP / unsure, why),
by rule, line and the path's end. Prints, per batch and in all: the repositories, the findings
now, how many the triage calls real (TP), false (FP) or unsure, and the findings no triage covers
yet (each listed: they need a triage line before the precision is whole). Precision is TP over
TP + FP of the findings reported now. A triage line no finding matches any more was a finding
once (most: false alarms since fixed).
"""
from __future__ import annotations

import argparse
import csv
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BATCHES = {  # folder under --root -> its triage, and the script that lays it out
    "corpus2": ("corpus2-triage.csv", "make_corpus2.sh"),
    "wild5": ("wild5-triage.md", "make_wild5.sh"),
    "wild6": ("wild6-triage.md", "make_wild6.sh"),
    "wild7": ("wild7-triage.md", "make_wild7.sh"),
    "wild8": ("wild8-triage.md", "make_wild8.sh"),
    "wild9": ("wild9-triage.md", "make_wild9.sh"),
    "wild10": ("wild10-triage.md", "make_wild10.sh"),
    "wild11": ("wild11-triage.md", "make_wild11.sh"),
    "wild12": ("wild12-triage.md", "make_wild12.sh"),
    "wild13": ("wild13-triage.md", "make_wild13.sh"),
    "wild14": ("wild14-triage.md", "make_wild14.sh"),
    "wild15": ("wild15-triage.md", "make_wild15.sh"),
    "wild16": ("wild16-triage.md", "make_wild16.sh"),
    "wild17": ("wild17-triage.md", "make_wild17.sh"),
    "wild18": ("wild18-triage.md", "make_wild18.sh"),
    "wild19": ("wild19-triage.md", "make_wild19.sh"),
    "wild20": ("wild20-triage.md", "make_wild20.sh"),
    "wild21": ("wild21-triage.md", "make_wild21.sh"),
    "wild22": ("wild22-triage.md", "make_wild22.sh"),
    "wild23": ("wild23-triage.md", "make_wild23.sh"),
    "wild24": ("wild24-triage.md", "make_wild24.sh"),
    "wild25": ("wild25-triage.md", "make_wild25.sh"),
    "wild26": ("wild26-triage.md", "make_wild26.sh"),
    "wild27": ("wild27-triage.md", "make_wild27.sh"),
    "wild28": ("wild28-triage.md", "make_wild28.sh"),
    "wild29": ("wild29-triage.md", "make_wild29.sh"),
    "wild30": ("wild30-triage.md", "make_wild30.sh"),
    "wild31": ("wild31-triage.md", "make_wild31.sh"),
    "wild32": ("wild32-triage.md", "make_wild32.sh"),
    "wild33": ("wild33-triage.md", "make_wild33.sh"),
    "wild34": ("wild34-triage.md", "make_wild34.sh"),
    "wild35": ("wild35-triage.md", "make_wild35.sh"),
    "wild36": ("wild36-triage.md", "make_wild36.sh"),
    "wild37": ("wild37-triage.md", "make_wild37.sh"),
    "wild38": ("wild38-triage.md", "make_wild38.sh"),
    "wildrl": ("wild-rl-triage.md", "make_wild_rl.sh"),
}
RULES = re.compile(r"^GL00[1-5]$")
VERDICT = re.compile(r"^\**\s*(TP|FP|unsure)\b", re.I)


def triage(path: Path) -> list[dict]:
    """The triage's rows: repo, path, line, rule, verdict (TP, FP or unsure)."""
    rows = []
    if path.suffix == ".csv":
        with path.open(encoding="utf-8") as f:
            for row in csv.DictReader(f):
                rows.append({"repo": row["repo"], "path": row["path"], "line": int(row["line"]),
                             "rule": row["rule"], "verdict": _verdict(row["verdict"]), "why": row["why"]})
        return rows
    for line in path.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        at = next((i for i, c in enumerate(cells) if RULES.match(c)), None)
        # (the line as `78`, `78:5`, or in a notebook `cell 7, 14:5`)
        where = re.match(r"^(?:cell \d+, )?(\d+)(?::\d+)?$", cells[at - 1]) if at is not None and at >= 2 else None
        if where is None or at + 1 >= len(cells):
            continue
        verdict = _verdict(cells[at + 1])
        if verdict is None:
            continue
        rows.append({"repo": cells[at - 3] if at >= 3 else "", "path": cells[at - 2].strip("`"),
                     "line": int(where[1]), "rule": cells[at], "verdict": verdict,
                     "why": " ".join(cells[at + 2:])})
    return rows


def _verdict(text: str) -> str | None:
    match = VERDICT.match(text.strip())
    if match is None:
        return None
    word = match[1].lower()
    return {"tp": "TP", "fp": "FP", "unsure": "unsure"}[word]


# Folders a triage left beside the repositories: its helpers' reproductions, their runs.
NOT_REPOSITORIES = frozenset({"check", "checks", "out", "runs", "__pycache__"})


def repositories(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.is_dir() and p.name not in NOT_REPOSITORIES
                  and not p.name.startswith("."))


def lint(folder: Path) -> list[dict]:
    proc = subprocess.run([sys.executable, "-m", "gradlint", "check", "--output-format", "json", "--exit-zero",
                           "--no-cache", *map(str, repositories(folder))], capture_output=True, text=True, cwd=ROOT)
    if proc.returncode != 0:
        raise SystemExit(f"gradlint failed on {folder} (exit {proc.returncode}):\n{proc.stderr[-2000:]}")
    return [f for f in json.loads(proc.stdout) if RULES.match(f["code"])]


def score(folder: Path, rows: list[dict]) -> dict:
    found = lint(folder)
    out = {"batch": folder.name, "repositories": len(repositories(folder)),
           "findings": len(found), "TP": [], "FP": [], "unsure": [], "untriaged": []}
    for f in found:
        where = Path(f["path"]).resolve().relative_to(folder.resolve()).as_posix()
        rows_here = [r for r in rows if r["rule"] == f["code"] and r["line"] == f["line"]
                     and (where.endswith("/" + r["path"]) or where == r["path"])]
        # Several findings were once reported at one site (one per loss a step broke): the line
        # that names the backward this finding names, else the latest triage of the site.
        named = re.search(r"backward at line (\d+)", f["message"])
        row = next((r for r in rows_here if named and named[1] in r["why"]), rows_here[-1] if rows_here else None)
        item = f"{where}:{f['line']} {f['code']}"
        out[row["verdict"] if row else "untriaged"].append(item)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default="/tmp", help="where the batches were laid out (default: /tmp)")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    results = []
    for name, (triaged, script) in BATCHES.items():
        folder = Path(a.root) / name
        if not folder.is_dir():
            print(f"{name}: not laid out (bash bench/{script} /work/.mirror {folder})", file=sys.stderr)
            continue
        results.append(score(folder, triage(ROOT / "bench" / triaged)))
    if a.json:
        print(json.dumps(results, indent=1))
        return 0
    total = {k: 0 for k in ("repositories", "findings", "TP", "FP", "unsure", "untriaged")}
    for r in results:
        counts = {k: (len(r[k]) if isinstance(r[k], list) else r[k]) for k in total}
        for k in total:
            total[k] += counts[k]
        print(f"{r['batch']:<8} repositories {counts['repositories']:>3}  findings {counts['findings']:>3}  "
              f"TP {counts['TP']}  FP {counts['FP']}  unsure {counts['unsure']}  untriaged {counts['untriaged']}")
        for kind in ("FP", "unsure", "untriaged"):
            for item in r[kind]:
                print(f"    {kind:<9} {item}")
    judged = total["TP"] + total["FP"]
    precision = f"{total['TP'] / judged:.2f}" if judged else "n/a"
    print(f"all      repositories {total['repositories']}  findings {total['findings']}  TP {total['TP']}  "
          f"FP {total['FP']}  unsure {total['unsure']}  untriaged {total['untriaged']}  precision {precision}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
