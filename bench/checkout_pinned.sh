# Sourced by bench/make_corpus2.sh, bench/make_wild_rl.sh and bench/make_wild5.sh: lay out each repository of REPOS
# ("name owner+repo commit" rows) under OUT, from fetched bare git snapshots under MIRROR_ROOT,
# keeping only the regular files whose names end in one of SUFFIXES (a space-separated list).
#
# Snapshots lack files >= 4 MiB and LFS content, so `git archive` fails on them; a temporary
# index + checkout-index avoids that and never writes into the mirror. A pinned commit absent
# from its mirror stops the run (ALLOW_OTHER_COMMIT=1 uses HEAD instead).
checkout_pinned() {
  mkdir -p "$OUT"
  local row name slug commit gd dst n
  tmpidx=$(mktemp /tmp/checkout-index.XXXXXX)  # (global: the EXIT trap reads it)
  trap 'rm -f "$tmpidx"' EXIT
  for row in "${REPOS[@]}"; do
    read -r name slug commit <<<"$row"
    gd="$MIRROR_ROOT/$slug/repo"
    [ -d "$gd/.git" ] && gd="$gd/.git"  # (a snapshot laid out with a work tree's .git)
    if [ ! -d "$gd" ]; then
      echo "missing mirror: $gd (fetch github:${slug/+//} first)" >&2; exit 1
    fi
    if ! git --git-dir="$gd" cat-file -e "$commit^{commit}" 2>/dev/null; then
      if [ "${ALLOW_OTHER_COMMIT:-0}" = 1 ]; then
        commit=$(git --git-dir="$gd" rev-parse HEAD)
        echo "warning: $name pinned commit absent, using HEAD $commit" >&2
      else
        echo "$name: commit $commit not in $gd" >&2; exit 1
      fi
    fi
    dst="$OUT/$name"
    rm -rf "$dst"; mkdir -p "$dst"
    rm -f "$tmpidx"
    export GIT_INDEX_FILE="$tmpidx"
    git --git-dir="$gd" --work-tree="$dst" read-tree "$commit"
    # regular-file blobs (mode 100644/100755) with one of the suffixes, NUL-separated
    # (a blob the snapshot lacks, too large to keep, is left out)
    git --git-dir="$gd" ls-tree -r -z "$commit" \
      | GD="$gd" SUFFIXES="$SUFFIXES" python3 -c '
import os, subprocess, sys
suffixes = tuple(s.encode() for s in os.environ["SUFFIXES"].split())
wanted = []
for rec in sys.stdin.buffer.read().split(b"\0"):
    if not rec: continue
    meta, path = rec.split(b"\t", 1)
    mode, typ, oid = meta.split(b" ")
    if typ == b"blob" and mode in (b"100644", b"100755") and path.endswith(suffixes):
        wanted.append((oid, path))
check = subprocess.run(["git", "--git-dir=" + os.environ["GD"], "cat-file", "--batch-check"],
                       input=b"".join(oid + b"\n" for oid, _ in wanted), capture_output=True, check=True)
for (oid, path), line in zip(wanted, check.stdout.splitlines()):
    if not line.endswith(b" missing"):
        sys.stdout.buffer.write(path + b"\0")' \
      | git --git-dir="$gd" --work-tree="$dst" checkout-index -f -z --stdin
    unset GIT_INDEX_FILE
    echo "$commit" > "$dst/.commit"
    n=$(find "$dst" -type f ! -name .commit | wc -l)
    echo "$name $commit $n files" >&2
  done
}
