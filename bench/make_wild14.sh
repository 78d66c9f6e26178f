#!/usr/bin/env bash
# Recreate the 10 repositories of the fourteenth wild triage (wild14-triage.md: every finding
# gradlint made there, triaged by a helper who had not read gradlint's code; model-based RL
# (PyDreamer), GAN (GAN_stability), self-supervised (iBOT), knowledge distillation (RKD),
# meta-learning (pytorch-maml), diffusion (Palette), NeRF (NeRF++), NLP language modelling
# (AWD-LSTM), a tutorial collection (NYU-DLSP20), a large-ish library (GPyTorch)
set -euo pipefail

MIRROR_ROOT=${1:?usage: make_wild14.sh MIRROR_ROOT [OUT_DIR]}
OUT=${2:-/tmp/wild14}

REPOS=(
  "pydreamer                      jurgisp+pydreamer                        8a4ea85a925b57ddf24a221b41dfb3257f89d63a"
  "GAN_stability                  LMescheder+GAN_stability                 c1f64c9efeac371453065e5ce71860f4c2b97357"
  "ibot                           bytedance+ibot                           da316d82636a7a7356835ef224b13d5f3ace0489"
  "RKD                            lenscloth+RKD                            0a6c3c0c190722d428322bf71703c0ae86c25242"
  "pytorch-maml                   tristandeleu+pytorch-maml                44104272a0140b35e2223ba68750e7e715315653"
  "Palette                        Janspiry+Palette-Image-to-Image-Diffusion-Models 136b29f58d0af6e5db9f3655d2891f5a855fcdaa"
  "nerfplusplus                   Kai-46+nerfplusplus                      ebf2f3e75fd6c5dfc8c9d0b533800daaf17bd95f"
  "awd-lstm-lm                    salesforce+awd-lstm-lm                   1d466ec5875675ca6b6f0caacbb741240a29da9e"
  "NYU-DLSP20                     Atcold+NYU-DLSP20                        3049c83260ba05700e2ab9b7ed13cdbe5ddba0fd"
  "gpytorch                       cornellius-gp+gpytorch                   7c4ec80f0f05cf530348a8a8972d67a11dd26ed2"
)

SUFFIXES=".py .ipynb"
. "$(dirname "$0")/checkout_pinned.sh"
checkout_pinned
