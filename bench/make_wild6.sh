#!/usr/bin/env bash
# Recreate the 14 repositories of the sixth wild triage (bench/wild6-triage.md: every finding
# gradlint made there, triaged by a helper who had not read gradlint's code) from fetched git
# snapshots, <MIRROR_ROOT>/<owner>+<name>/repo, as `fetch` brings them. Their code is never
# committed.
#
# Fetch each of these first: github:GMvandeVen/continual-learning, github:jik876/hifi-gan, github:Diego999/pyGAT, github:zhouhaoyi/Informer2020, github:kwea123/nerf_pl, github:Harry24k/adversarial-attacks-pytorch, github:peterliht/knowledge-distillation-pytorch, github:moskomule/ewc.pytorch, github:guoyang9/NCF, github:milesial/Pytorch-UNet, github:dragen1860/MAML-Pytorch, github:EmilienDupont/wgan-gp, github:khanrc/pt.darts, github:fungtion/DANN
#
# Usage: make_wild6.sh MIRROR_ROOT [OUT_DIR]   (default /tmp/wild6), then
#   gradlint check --no-cache --exit-zero --output-format concise /tmp/wild6
# and compare each finding with the triage file.
set -euo pipefail

MIRROR_ROOT=${1:?usage: make_wild6.sh MIRROR_ROOT [OUT_DIR]}
OUT=${2:-/tmp/wild6}

# name  owner+repo  commit
REPOS=(
  "continual-learning               GMvandeVen+continual-learning              e6d795aa81b9cef742b8de76cb71222d4d1ce00b"
  "hifi-gan                         jik876+hifi-gan                            4769534d45265d52a904b850da5a622601885777"
  "pyGAT                            Diego999+pyGAT                             3664f2dc90cbf971564c0bf186dc794f12446d0c"
  "Informer2020                     zhouhaoyi+Informer2020                     29f2a739226a509202a092b464163da81fa74960"
  "nerf_pl                          kwea123+nerf_pl                            52aeb387da64a9ad9a0f914ea9b049ffc598b20c"
  "adversarial-attacks-pytorch      Harry24k+adversarial-attacks-pytorch       23620a694a3660e4f194c3e4d28992bced7785a1"
  "knowledge-distillation-pytorch   peterliht+knowledge-distillation-pytorch   b1e4b6acb8d4e138ad12ba1aac22d5da42a85c10"
  "ewc.pytorch                      moskomule+ewc.pytorch                      c846fc6c7929963df241c402e2f3998f7f22b975"
  "NCF                              guoyang9+NCF                               89ff06ffcd2bca6bb773b54925265c208a28d318"
  "Pytorch-UNet                     milesial+Pytorch-UNet                      21d7850f2af30a9695bbeea75f3136aa538cfc4a"
  "MAML-Pytorch                     dragen1860+MAML-Pytorch                    98a00d41724c133bd29619a2fb2cc46dd128a368"
  "wgan-gp                          EmilienDupont+wgan-gp                      ef82364f2a2ec452a52fbf4a739f95039ae76fe3"
  "pt.darts                         khanrc+pt.darts                            48e71375c88772daac376829fb4bfebc4fb78144"
  "DANN                             fungtion+DANN                              476147f70bb818a63bb3461a6ecc12f97f7ab15e"
)

SUFFIXES=".py .ipynb"
. "$(dirname "$0")/checkout_pinned.sh"
checkout_pinned
