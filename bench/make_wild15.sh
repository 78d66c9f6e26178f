#!/usr/bin/env bash
# Recreate the 10 repositories of the fifteenth wild triage (wild15-triage.md: every finding
# gradlint made there, triaged by a helper who had not read gradlint's code; RL with contrastive
# representation learning (CURL), GAN (BigGAN-PyTorch), self-supervised (MoCo v3), knowledge
# distillation (overhaul-distillation), meta-learning (higher), diffusion (guided-diffusion),
# neural implicit rendering (IDR), a large-ish GNN library (PyTorch Geometric), speech
# synthesis (Glow-TTS), a tutorial collection (rasbt/deeplearning-models)
set -euo pipefail

MIRROR_ROOT=${1:?usage: make_wild15.sh MIRROR_ROOT [OUT_DIR]}
OUT=${2:-/tmp/wild15}

REPOS=(
  "curl                           MishaLaskin+curl                         8416d6e3869e38ca0e46fcbc54a2f784dc09d7fc"
  "BigGAN-PyTorch                 ajbrock+BigGAN-PyTorch                   98459431a5d618d644d54cd1e9fceb1e5045648d"
  "moco-v3                        facebookresearch+moco-v3                 c349e6e24f40d3fedb22d973f92defa4cedf37a7"
  "overhaul-distillation          clovaai+overhaul-distillation            76344a84a7ce23c894f41a2e05b866c9b73fd85a"
  "higher                         facebookresearch+higher                  15a247ac06cac0d22601322677daff0dcfff062e"
  "guided-diffusion               openai+guided-diffusion                  22e0df8183507e13a7813f8d38d51b072ca1e67c"
  "idr                            lioryariv+idr                            44959e7aac267775e63552d8aac6c2e9f2918cca"
  "pytorch_geometric              pyg-team+pytorch_geometric               5c6461b2305ad068a6d61165b3c55852a11aaa41"
  "glow-tts                       jaywalnut310+glow-tts                    13e997689d643410f5d9f1f9a73877ae85e19bc2"
  "deeplearning-models            rasbt+deeplearning-models                18e046926551378cd691fd871dda0f21dcd272ab"
)

SUFFIXES=".py .ipynb"
. "$(dirname "$0")/checkout_pinned.sh"
checkout_pinned
