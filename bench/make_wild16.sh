#!/usr/bin/env bash
# Recreate the 10 repositories of the sixteenth wild triage (wild16-triage.md: every finding
# gradlint made there, triaged by a helper who had not read gradlint's code; RL from pixels
# (DrQ-v2), GAN (style-based-gan-pytorch, StyleGAN v1), self-supervised (CMC), knowledge
# distillation (attention-transfer), meta-learning (few_shot_meta_learning: MAML, ABML,
# PLATIPUS, VAMPIRE, BMAML, ProtoNet), score-based diffusion (NCSN), NeRF
# (krrish94/nerf-pytorch), speech synthesis (WaveGlow), a tutorial collection
# (dsgiitr/d2l-pytorch), a large-ish GNN library (DGL)
set -euo pipefail

MIRROR_ROOT=${1:?usage: make_wild16.sh MIRROR_ROOT [OUT_DIR]}
OUT=${2:-/tmp/wild16}

REPOS=(
  "drqv2                          facebookresearch+drqv2                   c0c650b76c6e5d22a7eb5f2edffd1440fe94f8ef"
  "style-based-gan-pytorch        rosinality+style-based-gan-pytorch       07fa60be77b093dd13a46597138df409ffc3b9bc"
  "CMC                            HobbitLong+CMC                           7b227be0b10ef4e526c72af07664f5079ed9ee09"
  "attention-transfer             szagoruyko+attention-transfer            893df5488f93691799f082a70e2521a9dc2ddf2d"
  "few_shot_meta_learning         cnguyen10+few_shot_meta_learning         d797d9db0221e018f5f212d49f9f6cb4069827d4"
  "ncsn                           ermongroup+ncsn                          7f27f4a16471d20a0af3be8b8b4c2ec57c8a0bc1"
  "nerf-pytorch                   krrish94+nerf-pytorch                    a14357da6cada433d28bf11a45c7bcaace76c06e"
  "waveglow                       NVIDIA+waveglow                          8afb643df59265016af6bd255c7516309d675168"
  "d2l-pytorch                    dsgiitr+d2l-pytorch                      e84da49a9ea4ba448f4aaf2d18ecd9edafaa2419"
  "dgl                            dmlc+dgl                                 3d16000b4170fa741ed9e9667f22ba84d3493026"
)

SUFFIXES=".py .ipynb"
. "$(dirname "$0")/checkout_pinned.sh"
checkout_pinned
