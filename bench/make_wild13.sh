#!/usr/bin/env bash
# Recreate the 10 repositories of the thirteenth wild triage (wild13-triage.md: every finding
# gradlint made there, triaged by a helper who had not read gradlint's code; offline/online RL
# library (d3rlpy), GAN (pix2pixHD), self-supervised (I-JEPA), knowledge distillation (SimKD),
# few-shot meta-learning (Meta-Baseline), diffusion (consistency models), NeRF / neural surfaces (NeuS),
# graph neural networks (DIG library), speech (Real-Time-Voice-Cloning), class-incremental
# continual learning (FACIL)
set -euo pipefail

MIRROR_ROOT=${1:?usage: make_wild13.sh MIRROR_ROOT [OUT_DIR]}
OUT=${2:-/tmp/wild13}

REPOS=(
  "d3rlpy                         takuseno+d3rlpy                          38c34b6f99fde82875e2ad81d1ba1f7a7da34137"
  "pix2pixHD                      NVIDIA+pix2pixHD                         14b3b3c7fff413086e3b58df52096f16b6891172"
  "ijepa                          facebookresearch+ijepa                   52c1ae95d05f743e000e8f10a1f3a79b10cff048"
  "SimKD                          DefangChen+SimKD                         2b389c31ed7779aea31e7aaf0bb0f2d8b6ac2f01"
  "few-shot-meta-baseline         yinboc+few-shot-meta-baseline            779fae39dad3537e7c801049c858923e2a352dfe"
  "consistency_models             openai+consistency_models                e32b69ee436d518377db86fb2127a3972d0d8716"
  "NeuS                           Totoro97+NeuS                            6e0a2309d3f8d62d95c749183a965813558662ef"
  "DIG                            divelab+DIG                              21476b079c9226f38915dcd082b5c2ee0cddaac8"
  "Real-Time-Voice-Cloning        CorentinJ+Real-Time-Voice-Cloning        865eba8826bb6d76721a9d828a546724779c23ab"
  "FACIL                          mmasana+FACIL                            e09d2c83320a1aa945a6157d4875437515824dc9"
)

SUFFIXES=".py .ipynb"
. "$(dirname "$0")/checkout_pinned.sh"
checkout_pinned
