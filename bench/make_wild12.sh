#!/usr/bin/env bash
# Recreate the 10 repositories of the twelfth wild triage (wild12-triage.md: every finding
# gradlint made there, triaged by a helper who had not read gradlint's code; offline RL
# (single-file algorithms), GAN (contrastive unpaired translation), self-supervised (DINOv2),
# knowledge distillation (review KD), few-shot meta-learning (FEAT), diffusion (EDM),
# NeRF (pixelNeRF), graph neural networks (GraphMAE), speech synthesis (FastSpeech 2),
# class-incremental continual learning)
set -euo pipefail

MIRROR_ROOT=${1:?usage: make_wild12.sh MIRROR_ROOT [OUT_DIR]}
OUT=${2:-/tmp/wild12}

REPOS=(
  "CORL                           tinkoff-ai+CORL                          6afec90484bbf47dee05fdf525e26a3ebe028e9b"
  "contrastive-unpaired-translation taesungp+contrastive-unpaired-translation b3ac297708dfb6f7589d04662277e53c0d579c27"
  "dinov2                         facebookresearch+dinov2                  b8931f7bf91576930313be2c6d6af376033b35f0"
  "ReviewKD                       dvlab-research+ReviewKD                  cede6ea6387ae9b6127de0e561507177bf19c11e"
  "FEAT                           Sha-Lab+FEAT                             47bdc7c1672e00b027c67469d0291e7502918950"
  "edm                            NVlabs+edm                               008a4e5316c8e3bfe61a62f874bddba254295afb"
  "pixel-nerf                     sxyu+pixel-nerf                          91a044bdd62aebe0ed3a5685ca37cb8a9dc8e8ee"
  "GraphMAE                       THUDM+GraphMAE                           b14f080c919257b495e3cb6474286d5252d6a635"
  "FastSpeech2                    ming024+FastSpeech2                      d4e79eb52e8b01d24703b2dfc0385544092958f3"
  "incremental_learning.pytorch   arthurdouillard+incremental_learning.pytorch c09fc54dc4e9b03f5ea209397bd7ac09d6f27eb1"
)

SUFFIXES=".py .ipynb"
. "$(dirname "$0")/checkout_pinned.sh"
checkout_pinned
