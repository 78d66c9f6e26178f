#!/usr/bin/env bash
# Recreate the 12 repositories of the seventh wild triage (bench/wild7-triage.md: every finding gradlint
# made there, triaged by a helper who had not read gradlint's code) from fetched git snapshots,
# <MIRROR_ROOT>/<owner>+<name>/repo, as `fetch` brings them. Their code is never committed.
#
# Fetch each of these first: github:higgsfield/RL-Adventure-2, github:rosinality/stylegan2-pytorch, github:lucidrains/byol-pytorch, github:AberHu/Knowledge-Distillation-Zoo, github:oscarknagg/few-shot, github:ermongroup/ddim, github:ashawkey/torch-ngp, github:graphdeeplearning/benchmarking-gnns, github:kimiyoung/transformer-xl, github:NVIDIA/tacotron2, github:bentrevett/pytorch-seq2seq, github:thu-ml/tianshou
#
# Usage: make_wild7.sh MIRROR_ROOT [OUT_DIR]   (default /tmp/wild7), then
#   gradlint check --no-cache --exit-zero --output-format concise /tmp/wild7/<name>
# and compare each finding with the triage file.
# (It sources bench/checkout_pinned.sh.)
set -euo pipefail

MIRROR_ROOT=${1:?usage: make_wild7.sh MIRROR_ROOT [OUT_DIR]}
OUT=${2:-/tmp/wild7}

# name  owner+repo  commit
REPOS=(
  "RL-Adventure-2                   higgsfield+RL-Adventure-2                  277966f7a7a852899a98e989f32b2732646c0704"
  "stylegan2-pytorch                rosinality+stylegan2-pytorch               bef283a1c24087da704d16c30abc8e36e63efa0e"
  "byol-pytorch                     lucidrains+byol-pytorch                    299312613c1f44923e7869d1c82be7d536c2c42b"
  "Knowledge-Distillation-Zoo       AberHu+Knowledge-Distillation-Zoo          65470c846c1300d555815da26999cbe2b51fc815"
  "few-shot                         oscarknagg+few-shot                        672de83a853cc2d5e9fe304dc100b4a735c10c15"
  "ddim                             ermongroup+ddim                            e8df66cf02e457719930748b5c26e37e3126dfdd"
  "torch-ngp                        ashawkey+torch-ngp                         b6e080468925f0bb44827b4f8f0ed08291dcf8a9"
  "benchmarking-gnns                graphdeeplearning+benchmarking-gnns        b6c407712fa576e9699555e1e035d1e327ccae6c"
  "transformer-xl                   kimiyoung+transformer-xl                   44781ed21dbaec88b280f74d9ae2877f52b492a5"
  "tacotron2                        NVIDIA+tacotron2                           185cd24e046cc1304b4f8e564734d2498c6e2e6f"
  "pytorch-seq2seq                  bentrevett+pytorch-seq2seq                 b3cd54c72cd6e4e63f672d334c795b4fe744ef92"
  "tianshou                         thu-ml+tianshou                            f2402056b03acafeedf2518a5088db55add004ab"
)

SUFFIXES=".py .ipynb"
. "$(dirname "$0")/checkout_pinned.sh"
checkout_pinned
