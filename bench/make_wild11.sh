#!/usr/bin/env bash
# Recreate the 10 repositories of the eleventh wild triage (wild11-triage.md: every finding
# gradlint made there, triaged by a helper who had not read gradlint's code; RL algorithm
# collection, GAN (SPADE), self-supervised (MAE), knowledge distillation library, few-shot
# meta-learning, diffusion, 3D point clouds, graph neural network pre-training, speech
# recognition, adversarial training library)
set -euo pipefail

MIRROR_ROOT=${1:?usage: make_wild11.sh MIRROR_ROOT [OUT_DIR]}
OUT=${2:-/tmp/wild11}

REPOS=(
  "Popular-RL-Algorithms          quantumiracle+Popular-RL-Algorithms      3b814ea159f1fc0b521d6e0e699a7945f770f105"
  "SPADE                          NVlabs+SPADE                             fecacc920c1367a038995c45a39c15f6521ca64f"
  "mae                            facebookresearch+mae                     efb2a8062c206524e35e47d04501ed4f544c0ae8"
  "torchdistill                   yoshitomo-matsubara+torchdistill         3e4373c45214c5c56eebac481d5bfe8b8735aa05"
  "LearningToCompare_FSL          floodsung+LearningToCompare_FSL          b74e6366c7e7208a9d0fc82f7bedb9e1000199e4"
  "k-diffusion                    crowsonkb+k-diffusion                    4601bf085320592473f681a62808ed873d17fad5"
  "Pointnet_Pointnet2_pytorch     yanx27+Pointnet_Pointnet2_pytorch        eb64fe0b4c24055559cea26299cb485dcb43d8dd"
  "pretrain-gnns                  snap-stanford+pretrain-gnns              8b20528a83b8869ce16451305b32c827258d19a3"
  "kospeech                       sooftware+kospeech                       984b5890dd53379486b2abc0165c3396eb52ad37"
  "robustness                     MadryLab+robustness                      a9541241defd9972e9334bfcdb804f6aefe24dc7"
)

SUFFIXES=".py .ipynb"
. "$(dirname "$0")/checkout_pinned.sh"
checkout_pinned
