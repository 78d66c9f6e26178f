#!/usr/bin/env bash
# Recreate the 10 repositories of the seventeenth wild triage (wild17-triage.md: every finding
# gradlint made there, triaged by a helper who had not read gradlint's code; multi-agent RL,
# value-based and actor-critic (starry-sky6688/StarCraft: QMIX, VDN, COMA, QTRAN, MAVEN, ...),
# GAN (lucidrains/stylegan2-pytorch), self-supervised (open-mmlab/mmselfsup), knowledge
# distillation (DeiT's distillation token), continual learning (mammoth), diffusion
# (imagen-pytorch), NeRF/3D (stable-dreamfusion), temporal GNN (TGN), NLP / RLHF (trl), and a
# larger speech library (coqui-ai/TTS)
set -euo pipefail

MIRROR_ROOT=${1:?usage: make_wild17.sh MIRROR_ROOT [OUT_DIR]}
OUT=${2:-/tmp/wild17}

REPOS=(
  "StarCraft                      starry-sky6688+StarCraft                 43ea7a6d6321722ea2878a4e910ae84ad212705c"
  "stylegan2-pytorch              lucidrains+stylegan2-pytorch             ce7f830bc10d037cddc75d6166904baf07945cf6"
  "mmselfsup                      open-mmlab+mmselfsup                     db861f30487c9a0b0cb3e35e176d6058887660bc"
  "deit                           facebookresearch+deit                    7e160fe43f0252d17191b71cbb5826254114ea5b"
  "mammoth                        aimagelab+mammoth                        e75a491c69fd729edeb01431afb753d9157d9a81"
  "imagen-pytorch                 lucidrains+imagen-pytorch                c166739b03b06fbc2e7c00116ffc81724626ad08"
  "stable-dreamfusion             ashawkey+stable-dreamfusion              5550b91862a3af7842bb04875b7f1211e5095a63"
  "tgn                            twitter-research+tgn                     d55bbe678acabb9fc3879c408fd1f2e15919667c"
  "trl                            huggingface+trl                          f2cd57710ae345ea6428ae95363267fcf38a3dc8"
  "TTS                            coqui-ai+TTS                             dbf1a08a0d4e47fdad6172e433eeb34bc6b13b4e"
)

SUFFIXES=".py .ipynb"
. "$(dirname "$0")/checkout_pinned.sh"
checkout_pinned
