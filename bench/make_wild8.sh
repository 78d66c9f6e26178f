#!/usr/bin/env bash
# Recreate the 10 repositories of the eighth wild triage (bench/wild8-triage.md: every finding gradlint
# made there, triaged by a helper who had not read gradlint's code) from fetched git snapshots,
# <MIRROR_ROOT>/<owner>+<name>/repo, as `fetch` brings them. Their code is never committed.
#
# Fetch each of these first: github:vturrisi/solo-learn, github:yang-song/score_sde_pytorch, github:facebookresearch/detr, github:wyharveychen/CloserLookFewShot, github:shenweichen/DeepCTR-Torch, github:kan-bayashi/ParallelWaveGAN, github:facebookresearch/XLM, github:DeepGraphLearning/torchdrug, github:Shmuma/ptan, github:MorvanZhou/PyTorch-Tutorial
#
# Usage: make_wild8.sh MIRROR_ROOT [OUT_DIR]   (default /tmp/wild8), then
#   gradlint check --no-cache --exit-zero --output-format concise /tmp/wild8/<name>
# and compare each finding with the triage file.
# (It sources bench/checkout_pinned.sh.)
set -euo pipefail

MIRROR_ROOT=${1:?usage: make_wild8.sh MIRROR_ROOT [OUT_DIR]}
OUT=${2:-/tmp/wild8}

# name  owner+repo  commit
REPOS=(
  "solo-learn                       vturrisi+solo-learn                        9187ea39c2c3f43c455ab06664d2b019a9802954"
  "score_sde_pytorch                yang-song+score_sde_pytorch                cb1f359f4aadf0ff9a5e122fe8fffc9451fd6e44"
  "detr                             facebookresearch+detr                      29901c51d7fe8712168b8d0d64351170bc0f83e0"
  "CloserLookFewShot                wyharveychen+CloserLookFewShot             e03aca8a2d01c9b5861a5a816cd5d3fdfc47cd45"
  "DeepCTR-Torch                    shenweichen+DeepCTR-Torch                  f6854257b1fc29caab655ce72c6b5528b7432574"
  "ParallelWaveGAN                  kan-bayashi+ParallelWaveGAN                86740373ec609cb9fb192d472d2aea125041491a"
  "XLM                              facebookresearch+XLM                       cd281d32612d145c6742b4d3f048f80df8669c30"
  "torchdrug                        DeepGraphLearning+torchdrug                6066fbd82360abb5f270cba1eca560af01b8cc90"
  "ptan                             Shmuma+ptan                                fe7450f39d786bfa62d002a65485e8bd838791ee"
  "PyTorch-Tutorial                 MorvanZhou+PyTorch-Tutorial                dbe154a9e56635e51c6b0c2ccea8ae36cfb585a7"
)

SUFFIXES=".py .ipynb"
. "$(dirname "$0")/checkout_pinned.sh"
checkout_pinned
