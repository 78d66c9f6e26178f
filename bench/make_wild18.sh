#!/usr/bin/env bash
# Recreate the 10 repositories of the eighteenth wild triage (wild18-triage.md: every finding
# gradlint made there, triaged by a helper who had not read gradlint's code; actor-critic RL
# (denisyarats/pytorch_sac_ae: SAC + autoencoder), GAN (NVlabs/stylegan3), self-supervised
# (facebookresearch/msn: masked siamese networks), knowledge distillation (open-mmlab/mmrazor),
# meta-learning (RL-VIG/LibFewShot: MAML, ANIL, R2D2, ...), diffusion (Stability-AI/generative-models),
# NeRF/3D (chenhsuanlin/bundle-adjusting-NeRF), GNN (PyGCL/PyGCL: graph contrastive learning),
# speech (yl4579/StyleTTS2), and a larger continual-learning library (ContinualAI/avalanche)
set -euo pipefail

MIRROR_ROOT=${1:?usage: make_wild18.sh MIRROR_ROOT [OUT_DIR]}
OUT=${2:-/tmp/wild18}

REPOS=(
  "pytorch_sac_ae                 denisyarats+pytorch_sac_ae               7fa560e21c026c04bb8dcd72959ecf4e3424476c"
  "stylegan3                      NVlabs+stylegan3                         c233a919a6faee6e36a316ddd4eddababad1adf9"
  "msn                            facebookresearch+msn                     4388dc1eadbe3042b85d3296d41b9b207656e043"
  "mmrazor                        open-mmlab+mmrazor                       90c7af1fdf35a606a2fceaaeb4b6be2f0dac4eb7"
  "LibFewShot                     RL-VIG+LibFewShot                        067efb7f4bc06f9e5e95621a679e8e9c2d979ab7"
  "generative-models              Stability-AI+generative-models           0ad7de9a5cb53fd63d6d30a4f385485e72e08597"
  "bundle-adjusting-NeRF          chenhsuanlin+bundle-adjusting-NeRF       803291bd0ee91c7c13fb5cc42195383c5ade7d15"
  "PyGCL                          PyGCL+PyGCL                              0e1bacb3ea6a24b3a2bbd487091fa5a3b00fc748"
  "StyleTTS2                      yl4579+StyleTTS2                         5cedc71c333f8d8b8551ca59378bdcc7af4c9529"
  "avalanche                      ContinualAI+avalanche                    eb075be393e1f458b2c352514ff6c17b5a2c0f4e"
)

SUFFIXES=".py .ipynb"
. "$(dirname "$0")/checkout_pinned.sh"
checkout_pinned
