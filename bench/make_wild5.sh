#!/usr/bin/env bash
# Recreate the 8 repositories of the fifth wild triage (bench/wild5-triage.md: every finding
# gradlint made there, triaged by a helper who had not read gradlint's code) from fetched git
# snapshots, <MIRROR_ROOT>/<owner>+<name>/repo, as `fetch` brings them. Their code is never
# committed.
#
# Fetch each of these first: github:seungeunrho/minimalRL, github:facebookresearch/dino,
#   github:lucidrains/denoising-diffusion-pytorch, github:tkipf/pygcn,
#   github:utkuozbulak/pytorch-cnn-visualizations, github:kenshohara/3D-ResNets-PyTorch,
#   github:jwyang/faster-rcnn.pytorch, github:yunjey/pytorch-tutorial
#
# Usage: make_wild5.sh MIRROR_ROOT [OUT_DIR]   (default /tmp/wild5), then
#   gradlint check --no-cache --exit-zero --output-format concise /tmp/wild5
# and compare each finding with the triage file.
set -euo pipefail

MIRROR_ROOT=${1:?usage: make_wild5.sh MIRROR_ROOT [OUT_DIR]}
OUT=${2:-/tmp/wild5}

# name  owner+repo  commit
REPOS=(
  "minimalRL                    seungeunrho+minimalRL                    c8efed8481e3cd40e9739cfde220a55522555b57"
  "dino                         facebookresearch+dino                    7c446df5b9f45747937fb0d72314eb9f7b66930a"
  "denoising-diffusion-pytorch  lucidrains+denoising-diffusion-pytorch   faed4db28e724735323fa91c70aa9b28a6e1cbac"
  "pygcn                        tkipf+pygcn                              1600b5b748b3976413d1e307540ccc62605b4d6d"
  "pytorch-cnn-visualizations   utkuozbulak+pytorch-cnn-visualizations   ba22fa07c9f31964e6cfa669e80f3461e11c4ebc"
  "3D-ResNets-PyTorch           kenshohara+3D-ResNets-PyTorch            540a0ea1abaee379fa3651d4d5afbd2d667a1f49"
  "faster-rcnn.pytorch          jwyang+faster-rcnn.pytorch               f9d984d27b48a067b29792932bcb5321a39c1f09"
  "pytorch-tutorial             yunjey+pytorch-tutorial                  0500d3df5a2a8080ccfccbc00aca0eacc21818db"
)

SUFFIXES=".py .ipynb"
. "$(dirname "$0")/checkout_pinned.sh"
checkout_pinned
