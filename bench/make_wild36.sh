#!/usr/bin/env bash
# Recreate the 8 repositories of the thirty-sixth wild triage (wild36-triage.md: every finding
# gradlint made there, triaged by a helper who had not read gradlint's code; knowledge distillation
# (xuguodong03/SSKD: self-supervised knowledge distillation with a contrastive SS module and
# KD/CE/transformation losses), LLM fine-tuning (ContextualAI/HALOs: SFT, DPO, KTO, PPO and other
# human-aware losses with hand-written trainers), object detection (yhenon/pytorch-retinanet:
# RetinaNet with focal loss and training script), depth estimation (ClementPinard/SfmLearner-Pytorch:
# unsupervised depth and ego-motion with photometric/explainability/smoothness losses), recommender
# systems (jaywonchung/BERT4Rec-VAE-Pytorch: BERT4Rec, VAE-CF and DAE trainers), GAN image
# inversion/editing (omertov/encoder4editing: e4e encoder into StyleGAN2 latent space with a latent
# discriminator and progressive training), contrastive vision-language (mlfoundations/open_clip:
# CLIP/CoCa training with contrastive and distillation losses), and a larger library
# (facebookresearch/ClassyVision: training framework with tasks, losses, hooks, models))
set -euo pipefail

MIRROR_ROOT=${1:?usage: make_wild36.sh MIRROR_ROOT [OUT_DIR]}
OUT=${2:-/tmp/wild36}

REPOS=(
  "SSKD                                xuguodong03+SSKD                                    661b972c124a83c32dcd0e203390ba637075fe92"
  "HALOs                               ContextualAI+HALOs                                  4831988636b4cbc1c30c0bce78df568cf0f8103b"
  "pytorch-retinanet                   yhenon+pytorch-retinanet                            0348a9d57b279e3b5b235461b472d37da5feec3d"
  "SfmLearner-Pytorch                  ClementPinard+SfmLearner-Pytorch                    59689e6045dbd8199bb8b7665cd61596e52108bc"
  "BERT4Rec-VAE-Pytorch                jaywonchung+BERT4Rec-VAE-Pytorch                    f66f2534ebfd937778c7174b5f9f216efdebe5de"
  "encoder4editing                     omertov+encoder4editing                             99ea50578695d2e8a1cf7259d8ee89b23eea942b"
  "open_clip                           mlfoundations+open_clip                             89fb801f1e6087880e951fc8354b8a2077b79c6d"
  "ClassyVision                        facebookresearch+ClassyVision                       08a82e88fcfa143933832994ace2424c03dd43b8"
)

SUFFIXES=".py .ipynb"
. "$(dirname "$0")/checkout_pinned.sh"
checkout_pinned
