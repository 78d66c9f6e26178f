#!/usr/bin/env bash
# Recreate the 8 repositories of the twenty-fourth wild triage (wild24-triage.md: every finding
# gradlint made there, triaged by a helper who had not read gradlint's code; RL (ku2482/gail-airl-
# ppo.pytorch: PPO with GAE, GAIL and AIRL discriminators, SAC expert), image translation
# (aitorzip/PyTorch-CycleGAN: CycleGAN, image replay buffer, LSGAN losses), normalizing flow
# (y0ast/Glow-PyTorch: Glow, actnorm data-dependent init, invertible 1x1 convs, affine couplings),
# self-supervised (yaox12/BYOL-PyTorch: BYOL, EMA target network, LARS, mixed precision),
# continual learning (sahagobinda/GPM: gradient projection memory, SVD of representations,
# gradient projection between backward and step), 3D / point clouds (fxia22/pointnet.pytorch:
# PointNet classification and part segmentation, feature-transform regulariser), speech/audio
# (seungwonpark/melgan: MelGAN vocoder, multi-scale discriminator, feature matching), and a larger
# library (KevinMusgrave/pytorch-metric-learning: losses, miners, reducers, regularizers,
# trainers, testers, distributed wrappers)
set -euo pipefail

MIRROR_ROOT=${1:?usage: make_wild24.sh MIRROR_ROOT [OUT_DIR]}
OUT=${2:-/tmp/wild24}

REPOS=(
  "gail-airl-ppo.pytorch         ku2482+gail-airl-ppo.pytorch            4e13a23454600a16d5aeeeb4c09338308115455e"
  "PyTorch-CycleGAN              aitorzip+PyTorch-CycleGAN               67da8f9e2b69bd68763451803c7700aaccc92f18"
  "Glow-PyTorch                  y0ast+Glow-PyTorch                      13c7b013dde32600e732416f2ed15438d686636f"
  "BYOL-PyTorch                  yaox12+BYOL-PyTorch                     edefc01aa72716c5c59219883af1ff0ae1127053"
  "GPM                           sahagobinda+GPM                         1a238ec9d2ca30bae8fd1707f161cc6bd093c72a"
  "pointnet.pytorch              fxia22+pointnet.pytorch                 bafbf401e0af19be3262e448c59313fd2be0e421"
  "melgan                        seungwonpark+melgan                     aca59909f6dd028ec808f987b154535a7ca3400c"
  "pytorch-metric-learning       KevinMusgrave+pytorch-metric-learning   216a792c22b0154d3d3bf008a7317edc7d677e71"
)

SUFFIXES=".py .ipynb"
. "$(dirname "$0")/checkout_pinned.sh"
checkout_pinned
