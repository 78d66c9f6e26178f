#!/usr/bin/env bash
# Recreate the 10 repositories of the nineteenth wild triage (wild19-triage.md: every finding
# gradlint made there, triaged by a helper who had not read gradlint's code; value-based RL
# (Curt-Park/rainbow-is-all-you-need: DQN .. Rainbow, IQN, marimo notebooks as .py), GAN
# (lucidrains/lightweight-gan: Trainer class, aux. reconstruction, GP), self-supervised
# (facebookresearch/deepcluster: clustering pseudo-labels), knowledge distillation
# (VainF/Data-Free-Adversarial-Distillation: DFAD generator vs student), continual learning
# (GT-RIPL/Continual-Learning-Benchmark: EWC, SI, MAS, GEM agents), diffusion (lucidrains/DALLE2-pytorch:
# diffusion prior + decoder, trainer classes), NeRF/3D (yashbhalgat/HashNeRF-pytorch: hash-grid
# encoding), GNN (THUDM/GCC: graph contrastive pre-training with MoCo memory), NLP
# (UKPLab/sentence-transformers: losses incl. cached/gradient-cache losses), and a larger library
# (Lightning-Universe/lightning-bolts: RL, GANs, SSL, VAEs)
set -euo pipefail

MIRROR_ROOT=${1:?usage: make_wild19.sh MIRROR_ROOT [OUT_DIR]}
OUT=${2:-/tmp/wild19}

REPOS=(
  "rainbow-is-all-you-need        Curt-Park+rainbow-is-all-you-need        e864f0be10d028aebcbfac1d48c219813f3d48f9"
  "lightweight-gan                lucidrains+lightweight-gan               efbec4570b7cb715e05058eccc518dc1a5753523"
  "deepcluster                    facebookresearch+deepcluster             2d1927e8e3dd272329e879e510fbbdf1b1d02d17"
  "Data-Free-Adversarial-Distillation VainF+Data-Free-Adversarial-Distillation c161591aae4c13e53943dcb61c162876421aad7a"
  "Continual-Learning-Benchmark   GT-RIPL+Continual-Learning-Benchmark     d78b9973b6ec0059b2d2577872db355ae2489f6b"
  "DALLE2-pytorch                 lucidrains+DALLE2-pytorch                680dfc4d93b70f9ab23c814a22ca18017a738ef6"
  "HashNeRF-pytorch               yashbhalgat+HashNeRF-pytorch             82885e698295982504eb6a26d060a6b2473e3706"
  "GCC                            THUDM+GCC                                20398aac95957784865d6c78bc46ead605221f0d"
  "sentence-transformers          UKPLab+sentence-transformers             85ec64559f4414aa536eca4bf53538291e0a333f"
  "lightning-bolts                Lightning-Universe+lightning-bolts       34958a8892d42714edf02ba896fd5861ebb3cb7e"
)

SUFFIXES=".py .ipynb"
. "$(dirname "$0")/checkout_pinned.sh"
checkout_pinned
